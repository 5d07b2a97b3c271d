"""tf-executor-functionalize-control-flow end to end: functionalized graphs compute what TF computed.

Every program of :mod:`tf1_control_flow_programs` (TF1 graphs with control flow
v1, but the TPU one) is imported with ``upgrade_legacy=True``, checked to have
no v1 control flow left and the ``tf.While`` / ``tf.If`` the program needs,
exported as a GraphDef and run by TensorFlow (one child process for all); the
outputs must equal the ``expected`` outputs TF computed on the original graph
(floats to 1e-6 relative, integers and booleans exactly).

The same runs on the plain import (no functionalization) check the harness and
the exporter's round trip of v1 control flow.
"""
import json
import os
import re

import pytest

from conftest import describe_failure, require_tensorflow, run_python

import tf1_control_flow_programs as programs

pytestmark = [pytest.mark.tf, pytest.mark.slow]

V1_OPS = ("Switch", "Merge", "Enter", "Exit", "NextIteration.Source", "NextIteration.Sink", "LoopCond")

# (tf.While, tf.If) in the functionalized module, functions included.
EXPECTED_OPS = {
    "cond_simple": (0, 1),
    "nested_cond": (0, 3),
    "while_simple": (1, 0),
    "nested_while": (2, 0),
    "cond_in_loop": (1, 1),
    "loop_in_cond": (1, 1),
    "while_tensor_array": (1, 0),
    "while_resource_variable": (1, 0),
    "while_maximum_iterations": (1, 0),
    "while_shape_invariant": (1, 0),
    "while_control_deps": (1, 0),
}
assert sorted(EXPECTED_OPS) == sorted(programs.PROGRAMS)

# Runs exported GraphDefs in TF. argv: jobs.json results.json; a job: {"name", "graph",
# "feeds", "fetches", "targets", "expected"}; a result: {"ok", "detail"}.
_CHILD = r'''
import json, sys
sys.modules.setdefault("tensorflow.python.pywrap_dlopen_global_flags", None)
import numpy as np
import tensorflow as tf

def compare(want, got):
    a = np.asarray(want["value"], dtype=want["dtype"]).reshape(want["shape"])
    b = np.asarray(got)
    if a.shape != b.shape or a.dtype != b.dtype:
        return f"shape/dtype: expected {a.shape} {a.dtype}, got {b.shape} {b.dtype}"
    if a.dtype.kind in "fc":
        if not np.allclose(b, a, rtol=1e-6, atol=0.0, equal_nan=True):
            return f"expected {a.tolist()}, got {b.tolist()}"
    elif not np.array_equal(a, b):
        return f"expected {a.tolist()}, got {b.tolist()}"
    return None

results = {}
for job in json.load(open(sys.argv[1])):
    try:
        gd = tf.compat.v1.GraphDef()
        with open(job["graph"], "rb") as f:
            gd.ParseFromString(f.read())
        graph = tf.Graph()
        with graph.as_default():
            tf.compat.v1.import_graph_def(gd, name="")
        feeds = {name: np.asarray(v["value"], dtype=v["dtype"]).reshape(v["shape"])
                 for name, v in job["feeds"].items()}
        with tf.compat.v1.Session(graph=graph) as sess:
            for op in job["targets"]:
                sess.run(graph.get_operation_by_name(op))
            outputs = sess.run(job["fetches"], feed_dict=feeds)
        problems = [f"{name}: {d}" for name, want, got in zip(job["fetches"], job["expected"], outputs)
                    if (d := compare(want, got))]
        results[job["name"]] = {"ok": not problems, "detail": "; ".join(problems)}
    except Exception as exc:  # report, do not stop the other jobs
        results[job["name"]] = {"ok": False, "detail": f"{type(exc).__name__}: {' '.join(str(exc).split())[:3000]}"}
json.dump(results, open(sys.argv[2], "w"), indent=1)
'''


def _import(name, upgrade_legacy):
    from tfmlir import driver
    from tfmlir.importers.api import import_graph_def

    path = programs.path(name)
    module = import_graph_def(path)
    if upgrade_legacy:
        driver.functionalize(module)
    return module


def _op_counts(module):
    text = str(module)
    counts = {op: len(re.findall(rf'\btf_executor\.{re.escape(op)}\b', text)) for op in V1_OPS}
    counts["tf.While"] = len(re.findall(r'"tf\.While"|\btf\.While\b(?!Region)', text))
    counts["tf.If"] = len(re.findall(r'"tf\.If"|\btf\.If\b(?!Region)', text))
    return counts


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """{(variant, program): {"ok", "detail"}} -- variant "plain" or "upgraded"."""
    require_tensorflow()
    import tfmlir  # noqa: F401
    from tfmlir import exporters

    tmp = tmp_path_factory.mktemp("functionalize_runs")
    jobs, results, modules = [], {}, {}
    for variant in ("plain", "upgraded"):
        for name in programs.PROGRAMS:
            key = f"{variant}:{name}"
            try:
                module = _import(name, variant == "upgraded")
                modules[key] = str(module)
                out = tmp / f"{variant}_{name}.pb"
                out.write_bytes(exporters.export_graph_def(module))
            except Exception as exc:  # an import or export failure is this program's result
                results[key] = {"ok": False, "detail": f"{type(exc).__name__}: {exc}"[:3000]}
                continue
            spec = programs.spec(name)
            jobs.append({"name": key, "graph": str(out), "feeds": spec["feeds"],
                         "fetches": spec["fetches"], "targets": spec["targets"],
                         "expected": spec["expected"]})
    jobs_path, results_path = tmp / "jobs.json", tmp / "results.json"
    jobs_path.write_text(json.dumps(jobs))
    proc = run_python([jobs_path, results_path], code=_CHILD, timeout=600)
    if proc.returncode != 0:
        pytest.fail("running the exported graphs failed:\n" + describe_failure(proc))
    results.update(json.loads(results_path.read_text()))
    return results, modules


@pytest.mark.parametrize("name", programs.PROGRAMS)
def test_plain_import_exports_and_runs_like_tf(runs, name):
    """The harness and the exporter: v1 control flow round-trips without functionalization."""
    result = runs[0][f"plain:{name}"]
    assert result["ok"], result["detail"]


@pytest.mark.parametrize("name", programs.PROGRAMS)
def test_functionalized_graph_has_no_v1_control_flow(runs, name):
    results, modules = runs
    text = modules.get(f"upgraded:{name}")
    if text is None:
        pytest.fail(results[f"upgraded:{name}"]["detail"], pytrace=False)
    counts = _op_counts(text)
    left = {op: n for op, n in counts.items() if op in V1_OPS and n}
    assert not left, f"v1 control flow left: {left}"
    want_while, want_if = EXPECTED_OPS[name]
    assert (counts["tf.While"], counts["tf.If"]) == (want_while, want_if), \
        f"tf.While/tf.If: expected {want_while}/{want_if}, got {counts['tf.While']}/{counts['tf.If']}"


@pytest.mark.parametrize("name", programs.PROGRAMS)
def test_functionalized_graph_runs_like_tf(runs, name):
    result = runs[0][f"upgraded:{name}"]
    assert result["ok"], result["detail"]
