"""`python -m tfmlir.demo`: a TF1 TPU program through import, the bridge in stages, the runtime,
and plain TensorFlow's numbers; a user's GraphDef through the same path; clean failures."""
import argparse
import io
import os
import re

import numpy as np
import pytest

from conftest import describe_failure, require_tensorflow, run_python


def _demo(*args):
    return run_python(["-m", "tfmlir.demo", *args])


def _no_traceback(proc):
    assert "Traceback" not in proc.stderr, describe_failure(proc)


@pytest.mark.tf
def test_default_demo_shows_every_stage_and_passes():
    require_tensorflow()
    proc = _demo()
    assert proc.returncode == 0, describe_failure(proc)
    out = proc.stdout
    headings = re.findall(r"^== (\d)\. ", out, re.MULTILINE)
    assert headings == ["1", "2", "3", "4", "5", "6"], describe_failure(proc)
    # 1. the program TensorFlow built: replicated, outside compilation, a loop, a variable.
    for op in ("TPUReplicateMetadata", "TPUReplicatedInput", "AsString", "StringToNumber", "While",
               "CrossReplicaSum", "VarHandleOp", "AssignSubVariableOp"):
        assert re.search(rf"\b{op} \d+", out), op
    assert re.search(r"\d+ nodes in TPU computations", out)
    # 3. the bridge in three chunks, each with an excerpt of what it made.
    stage = {}
    for name in ("3a. clustering", "3b. outside compilation", "3c. TPU rewrite"):
        assert f" {name}: " in out, name
    parts = re.split(r"^ 3[abc]\. ", out, flags=re.MULTILINE)
    stage["a"], stage["b"], stage["c"] = parts[1], parts[2], parts[3].split("== 4.")[0]
    assert "tf_device.replicate" in stage["a"] and '"tf_device.cluster"' in stage["a"]
    assert "_xla_outside_compilation" in stage["a"]
    assert '"tf_device.parallel_execute"' in stage["b"] and "tf._XlaHostComputeMlir" in stage["b"]
    assert "tf.AsString" in stage["b"]
    assert '"tf._TPUCompileMlir"' in stage["c"] and '"tf.TPUExecute"' in stage["c"]
    assert re.search(r'mlir_module = "\.\.\.\(\d+ chars\)"', stage["c"])  # long strings elided
    assert all(len(line) < 200 for line in out.splitlines())
    assert re.search(r"^\s+tf\._TPUCompileMlir\s+0\s+0\s+0\s+1$", out, re.MULTILINE)  # the op table
    # 4. execution: 2 replicas, the variable changes across steps.
    assert "execution on XLA CPU through tfmlir.runtime (2 replicas" in out
    assert len(re.findall(r"^  step \d \(", out, re.MULTILINE)) == 3
    assert re.search(r"changed from step 1 to step 3 .*w_after", out)
    # 5. plain TensorFlow's numbers.
    rows = re.findall(r"^  (v_0|v_1|total|w_after) +(\S+) +(\S+)$", out, re.MULTILINE)
    assert [r[0] for r in rows] == ["v_0", "v_1", "total", "w_after"]
    assert all(float(rel) <= 1e-6 for _, _, rel in rows)
    assert "PASS (tolerance 1e-06 relative)" in out
    # 6. timings.
    for key in ("import", "bridge: clustering", "of which legalize", "of which compile (XLA)", "step 3"):
        assert re.search(rf"^  +{re.escape(key)}.* ms$", out, re.MULTILINE), key
    assert out.rstrip().endswith("done: PASS, tfmlir's values equal plain TensorFlow's")
    _no_traceback(proc)


@pytest.mark.tf
def test_demo_runs_a_users_graph_def():
    require_tensorflow()
    import run_cli_graphdef_programs
    programs = run_cli_graphdef_programs.directory()
    proc = _demo("--input", os.path.join(programs, "model.pb"), "--feed",
                 "x=" + os.path.join(programs, "x.npy"), "--fetch", "out", "--fetch", "w_after",
                 "--target", "init", "--steps", "2")
    assert proc.returncode == 0, describe_failure(proc)
    out = proc.stdout
    assert "3a. clustering" in out and "3c. TPU rewrite" in out and '"tf.TPUExecute"' in out
    assert "(1 replica;" in out and "targets init: ran once" in out
    assert "not possible for --input" in out and "PASS" not in out
    assert "done: the GraphDef ran through" in out
    _no_traceback(proc)


@pytest.mark.parametrize("args, message", [
    (("--input", "{dir}/missing.pb", "--fetch", "out"), "cannot read"),
    (("--input", "{dir}/model.pb"), "--input needs --fetch"),
    (("--input", "{dir}/model.pb", "--fetch", "nothing"), "fetch 'nothing': the graph has no node"),
    (("--input", "{dir}/model.pb", "--fetch", "out", "--feed", "x=[1,"), "--feed x:"),
    (("--input", "{dir}/x.npy", "--fetch", "out"), "not a serialized GraphDef"),
    (("--input", "{dir}/orphan_cluster.pb", "--fetch", "out", "--feed", "x=" + repr([[0.0] * 3] * 4)),
     "the TPU bridge failed in stage 3a (clustering)"),
    (("--steps", "0"), "--steps 0: expected at least 1"),
    (("--fetch", "out"), "--feed, --fetch and --target go with --input"),
], ids=["missing", "no-fetch", "unknown-fetch", "bad-feed", "not-a-graph-def", "bridge-failure",
        "bad-steps", "fetch-without-input"])
def test_demo_fails_cleanly(args, message):
    require_tensorflow()
    import run_cli_graphdef_programs
    programs = run_cli_graphdef_programs.directory()
    args = [a.replace("{dir}", programs) for a in args]
    proc = _demo(*args)
    assert proc.returncode == 1, describe_failure(proc)
    assert "tfmlir.demo: error: " in proc.stderr and message in proc.stderr, describe_failure(proc)
    _no_traceback(proc)


def test_comparison_fails_outside_the_tolerance():
    from tfmlir import demo

    results = [[np.array([1.0, 2.0], np.float32)], [np.array([3.0, 4.0], np.float32)]]
    out = io.StringIO()
    close = demo.Program(None, "t", {}, ["y"], [], plain=lambda steps: [[r[0] * (1 + 1e-7)] for r in results])
    assert demo.Demo(argparse.Namespace(), out).compare(close, results)
    assert "PASS" in out.getvalue()
    far = demo.Program(None, "t", {}, ["y"], [], plain=lambda steps: [[r[0] + 1e-3] for r in results])
    out = io.StringIO()
    assert not demo.Demo(argparse.Namespace(), out).compare(far, results)
    assert re.search(r"y +1\.000e-03 +4\.99\de-04", out.getvalue()) and "FAIL" in out.getvalue()


def test_pipeline_chunks_and_excerpts():
    from tfmlir import demo
    from tfmlir.passes import bridge_pipelines as bp
    from tfmlir.passes.pipeline import PipelineError, split_pipeline

    assert split_pipeline("a{x=1,2},func.func(b,c),d") == ["a{x=1,2}", "func.func(b,c)", "d"]
    assert split_pipeline("builtin.module(a, func.func(b{s=\"x,y\"}))") == ["a", "func.func(b{s=\"x,y\"})"]
    with pytest.raises(PipelineError):
        split_pipeline("a,func.func(b")
    stages = demo.bridge_stages()
    assert [s[0] for s in stages] == ["clustering", "outside compilation", "TPU rewrite"]
    passes = [p for s in stages for p in s[3]]
    assert passes[0] == "func.func(tf-executor-graph-pruning)"
    assert passes[1:] == split_pipeline(bp.BRIDGE_V2) + split_pipeline(bp.LOWER_TO_RUNTIME_OPS_TPU)
    assert stages[0][3][-1] == "tf-tpu-cluster-formation"
    assert stages[1][3][-1] == "tf-extract-outside-compilation"
    text = "\n".join(["a", "b", '  %0 = "tf.X"() {s = "' + "z" * 300 + '"}', "c", "d", "e", "f", "  tf.Y"])
    lines = demo.excerpt(text, [r"tf\.X", r"tf\.Y"])
    assert lines[0] == "b" and lines[1] == '  %0 = "tf.X"() {s = "...(300 chars)"}'
    assert lines[2:] == ["c", "...", "f", "  tf.Y"]
