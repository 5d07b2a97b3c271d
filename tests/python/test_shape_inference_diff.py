"""Differential test of ``tf-shape-inference``: tfmlir's pass against TensorFlow's C++ pass.

Inputs: real programs imported by tfmlir (:mod:`shape_inference_programs`:
ResNet50, MobileNetV2, a Transformer encoder, an LSTM, a TF1 graph with v1
control flow, a TF2 function with while/cond/switch_case/TensorArray/resource
variables, ``tpu.rewrite`` and two-replica ``tpu.replicate`` graphs), each
imported with and without shape inference, in ``tf_executor`` and in
functional form; plus the pass's options (``input-arg-shapes``,
``max-iterations``) on a small program (:data:`OPTION_CASES`).

TF's results come from one TensorFlow child process and are cached by content
(:mod:`tf_results`, under the inputs' directory), so only a changed input or
pipeline runs TF again. Note that TF's ``run_pass_pipeline`` anchors the
pipeline on the module itself: TF runs ``tf-shape-inference`` (a
``builtin.module(tf-shape-inference)`` there would look for modules nested in
the module and do nothing); tfmlir runs ``builtin.module(tf-shape-inference)``
(:func:`tf_oracle.run_tfmlir_pipeline`).

Rules (as :mod:`pass_diff`): both succeed and the structural forms
(:func:`tf_oracle.canonical`) are equal; or both fail and TF's first error
message is ours (TF's failure without a diagnostic, ``// error``, only needs
ours to fail). A mismatch reports the first differing op with context from
both sides (:mod:`ir_diff`).

For the pass author, a report of every case (match or first difference, TF's
and tfmlir's time; exit status 0 when all match)::

    python tests/python/test_shape_inference_diff.py --report [-k SUBSTRING] [--context N]

``--tf-only`` lists TF's results (and failures) alone; ``--tf-timings N``
times TF's pass afresh (best of N, with parsing and printing apart).

What TF does here that a port must too (seen in TF's outputs): it folds
commutative ops while inferring, so a constant operand moves to the right
(``tf.Mul(%const, %x)`` becomes ``tf.Mul(%x, %const)``) even on inputs whose
types are all known already; its convergence error prints ``max-iterations``
as a character (``"... did not reach convergence after \x01"`` for 1); and on
inputs imported with shape inference most models need no change at all.
"""
import os
import re
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import shape_inference_programs as programs  # noqa: E402

PASS = "tf-shape-inference"

# Models on which tfmlir's Python pass may take long: their cases are marked slow.
_SLOW_PROGRAMS = ("resnet50", "mobilenetv2")

# (input name, options): the option cases, run besides the plain pass on every input.
# ``input-arg-shapes`` refines main's two unranked arguments; ``2,5:2,4`` gives shapes a matmul
# cannot take (TF leaves the results unrefined), ``-1,3:1`` a dynamic dimension, ``2,3:`` a scalar.
# ``max-iterations=1`` does not converge on these programs (TF fails), 2 does.
# Not run: fewer shapes than main has arguments -- TF reads past the parsed list (undefined
# behaviour: random "SmallVector unable to grow" errors).
_ARGS = [f"{programs.ARGS_PROGRAM}.{imp}.{form}" for imp in programs.IMPORTS for form in programs.FORMS]
OPTION_CASES = [(name, option) for name in _ARGS
                for option in ("input-arg-shapes=2,3:2,4", "input-arg-shapes=-1,3:1",
                               "input-arg-shapes=2,5:2,4")]
OPTION_CASES += [(f"{programs.ARGS_PROGRAM}.noshape.functional", "input-arg-shapes=2,3:")]
OPTION_CASES += [(name, option)
                 for name in (f"{programs.ARGS_PROGRAM}.noshape.executor", "tf2_control_flow.noshape.executor",
                              "tf2_control_flow.noshape.functional")
                 for option in ("max-iterations=1", "max-iterations=2")]


def cases():
    """``[(case id, input name, pipeline element)]``: the pass on every input, then the options."""
    out = [(name, name, PASS) for name in programs.input_names()]
    out += [(f"{name}{{{option}}}", name, f"{PASS}{{{option}}}") for name, option in OPTION_CASES]
    return out


def _params():
    params = []
    for case_id, name, pipeline in cases():
        marks = [pytest.mark.slow] if name.split(".")[0] in _SLOW_PROGRAMS else []
        params.append(pytest.param(name, pipeline, id=case_id, marks=marks))
    return params


# -- TF's side ---------------------------------------------------------------------------

def input_text(name):
    inputs = programs.manifest()
    if name not in inputs["inputs"]:
        reason = inputs["failed"].get(name) or inputs["failed"].get(name.rsplit(".", 1)[0]) or "not generated"
        raise AssertionError(f"input {name} was not generated: {reason}")
    return programs.get(name)


def tf_table(selected=None):
    """``({case id: TF's result}, case ids TF ran now)`` for every case (or those in `selected`)."""
    import tf_results

    jobs = {}
    for case_id, name, pipeline in cases():
        if selected is None or case_id in selected:
            jobs[case_id] = (input_text(name), pipeline)
    return tf_results.results(jobs, os.path.join(programs.directory(), "tf-results"))


# -- comparing -----------------------------------------------------------------------------

def pass_registered():
    from tfmlir.passes import framework

    return framework.get_pass(PASS) is not None


NOT_REGISTERED = (f"tfmlir has no '{PASS}' pass yet (python/tfmlir/passes/tf_shape_inference.py, "
                  "registered with tfmlir.passes.framework.register_pass): nothing to compare with TF")


def _first_error(message):
    """TF's first error message without the location in front of it."""
    found = re.findall(r"error: (.*)", message)
    return found[0] if found else None


def outcome(case_id, theirs, ours, context=3):
    """None if tfmlir's result `ours` matches TF's `theirs`, else why not (a report; `context`
    lines before a difference)."""
    from ir_diff import first_difference
    from tfmlir.testing.tf_oracle import canonical, strip_pass_prefix

    if theirs.get("crashed"):
        ours_text = "succeeds" if ours["ok"] else f"fails: {ours['errors'][:1]}"
        return f"{case_id}: TF's process died here ({theirs['error'][:300]}); tfmlir {ours_text}"
    if theirs["ok"] and ours["ok"]:
        report = first_difference(canonical(theirs["text"]), ours["text"], context=context)
        return None if report is None else f"{case_id}: tfmlir's output differs from TF's\n{report}"
    if not theirs["ok"] and not ours["ok"]:
        expected = _first_error(theirs["error"])
        if expected is None:  # TF failed without a diagnostic ("// error"): failing is enough
            return None
        got = strip_pass_prefix(ours["errors"][0], [PASS]) if ours["errors"] else ""
        if got == expected or expected.endswith("): " + got) or _same_convergence_error(expected, got):
            return None
        return f"{case_id}: both fail, with different errors\n  TF:     {expected!r}\n  tfmlir: {got!r}"
    if theirs["ok"]:
        for key, message in BY_DESIGN.items():
            if key in case_id and ours["errors"] and message in ours["errors"][0]:
                return None
        return f"{case_id}: TF succeeds but tfmlir fails: {ours['errors'][:3]}"
    return f"{case_id}: tfmlir succeeds but TF fails: {theirs['error'][:1500]}"


# Where tfmlir differs from TF on purpose: TF's pass silently leaves an op unrefined when its
# shape function rejects the operand shapes; tfmlir reports them (module unchanged).
BY_DESIGN = {"{input-arg-shapes=2,5:2,4}": "operand shapes no BatchMatMulV2 accepts"}

# Differences not closed yet (each must still differ: a fixed one fails until removed here).
KNOWN_DIFFERENCES = {
    "tf1_v1_control_flow.noshape.executor": ("not shape inference: TF prints tf_executor.Merge in short form "
                                             "whatever its value_index type, which then reads back as "
                                             "tensor<i32>; tfmlir prints the type the op has"),
}


def known_difference(case_id):
    for key, why in KNOWN_DIFFERENCES.items():
        if case_id == key or (case_id.startswith(key) and "{" not in case_id):
            return why
    return None


def _same_convergence_error(expected, got):
    # TF formats the iteration count as a raw character ("after \x01"); tfmlir writes the number.
    m = re.search(r"after (\d+)$", got)
    return bool(m) and expected == got[:m.start(1)] + chr(int(m.group(1)))


def run_ours(name, pipeline):
    from tfmlir.testing.tf_oracle import run_tfmlir_pipeline

    return run_tfmlir_pipeline(input_text(name), pipeline)


# -- tests ----------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def tf_outputs_of_shape_inference():
    from conftest import require_tensorflow

    require_tensorflow()
    return tf_table()[0]


@pytest.mark.tf
@pytest.mark.parametrize("name,pipeline", _params())
def test_matches_tensorflow(name, pipeline, request, tf_outputs_of_shape_inference):
    if not pass_registered():
        pytest.fail(NOT_REGISTERED, pytrace=False)
    case_id = request.node.callspec.id
    problem = outcome(case_id, tf_outputs_of_shape_inference[case_id], run_ours(name, pipeline))
    why = known_difference(case_id)
    if why is not None:
        if problem is None:
            pytest.fail(f"{case_id} now matches TF: remove it from KNOWN_DIFFERENCES", pytrace=False)
        pytest.xfail(f"known difference: {why}")
    if problem:
        pytest.fail(problem, pytrace=False)


# The harness itself (these pass before tfmlir has the pass).

@pytest.mark.tf
def test_inputs_are_generated():
    made = programs.manifest()
    assert sorted(made["inputs"]) == sorted(programs.input_names()), made["failed"]
    for name in programs.input_names():
        text = programs.get(name)
        assert re.search(r"tf\.versions = \{[^}]*producer = \d+", text.split("\n", 1)[0]), name
        assert ("tf_executor.graph" in text) == name.endswith(".executor"), name
    for program in programs.PROGRAMS:
        unranked = {imp: programs.get(f"{program}.{imp}.executor").count("tensor<*x") for imp in programs.IMPORTS}
        assert unranked["noshape"] > unranked["shape"], (program, unranked)


@pytest.mark.tf
def test_tf_results_are_cached_and_nontrivial(tf_outputs_of_shape_inference):
    from tfmlir.testing.tf_oracle import canonical

    results = tf_outputs_of_shape_inference
    assert sorted(results) == sorted(case_id for case_id, _, _ in cases())
    again, ran = tf_table()
    assert ran == [] and again.keys() == results.keys()
    for case_id, name, pipeline in cases():
        result = results[case_id]
        assert not result.get("crashed"), (case_id, result["error"])
        assert result["seconds"] >= 0
        if pipeline == PASS and ".noshape." in name:
            # The pass has work on every input imported without shape inference.
            assert result["ok"], (case_id, result["error"][:2000])
            assert canonical(result["text"]) != canonical(input_text(name)), case_id
    assert not results[f"{programs.ARGS_PROGRAM}.noshape.executor{{max-iterations=1}}"]["ok"]
    refined = results[f"{programs.ARGS_PROGRAM}.noshape.functional{{input-arg-shapes=2,3:2,4}}"]
    assert "%arg0: tensor<2x3xf32>, %arg1: tensor<2x4xf32>" in refined["text"]


@pytest.mark.tf
def test_tf_output_matches_itself_and_a_change_is_reported(tf_outputs_of_shape_inference):
    """The comparison path on TF's own output: equal to itself; one type changed is found."""
    from tfmlir.testing.tf_oracle import canonical

    case_id = "tf2_control_flow.noshape.functional"
    theirs = tf_outputs_of_shape_inference[case_id]
    same = {"ok": True, "text": canonical(theirs["text"])}
    assert outcome(case_id, theirs, same) is None
    lines = same["text"].splitlines()
    k, op = next((i, m.group(1)) for i, line in enumerate(lines)
                 for m in [re.search(r'= "(tf\.\w+)"\(.*-> tensor<\d+xf32>$', line)] if m)
    at = lines[k].rfind("tensor<")
    lines[k] = lines[k][:at] + "tensor<*xf32>"
    report = outcome(case_id, theirs, {"ok": True, "text": "\n".join(lines) + "\n"})
    assert report and f"first difference at line {k + 1}" in report and f"op {op} in @" in report, report
    assert re.search(r"differing lines: [1-9]\d* of \d+ \(tensorflow\)", report), report
    failed = outcome(case_id, theirs, {"ok": False, "errors": ["tf-shape-inference: no"]})
    assert failed.startswith(f"{case_id}: TF succeeds but tfmlir fails"), failed
    error = tf_outputs_of_shape_inference[f"{programs.ARGS_PROGRAM}.noshape.executor{{max-iterations=1}}"]
    message = _first_error(error["error"])
    assert outcome("x", error, {"ok": False, "errors": [f"{PASS}: {message}"]}) is None
    assert "different errors" in outcome("x", error, {"ok": False, "errors": ["other"]})


# -- the report -------------------------------------------------------------------------------

def report(argv):
    import argparse

    parser = argparse.ArgumentParser(description="tfmlir's tf-shape-inference against TF's, per input.")
    parser.add_argument("--report", action="store_true", help="(the default action)")
    parser.add_argument("-k", dest="filter", default="", help="only case ids containing this")
    parser.add_argument("--context", type=int, default=3, help="lines shown before a difference")
    parser.add_argument("--tf-only", action="store_true", help="only TF's results and times")
    parser.add_argument("--tf-timings", type=int, metavar="N", default=0,
                        help="time TF's pass afresh: best of N runs per case, and of N runs of an "
                             "empty pipeline (parsing and printing only)")
    args = parser.parse_args(argv)
    if args.tf_timings:
        return tf_timings(args.filter, args.tf_timings)

    selected = [c for c, _, _ in cases() if args.filter in c]
    results, ran = tf_table(set(selected))
    print(f"TF results: {len(results) - len(ran)} cached, {len(ran)} run now "
          f"({os.path.join(programs.directory(), 'tf-results')})")
    registered = not args.tf_only and pass_registered()
    if not registered and not args.tf_only:
        print(NOT_REGISTERED)
    by_id = {c: (name, pipeline) for c, name, pipeline in cases()}
    matched = 0
    for case_id in selected:
        theirs = results[case_id]
        name, pipeline = by_id[case_id]
        tf_state = "ok" if theirs["ok"] else ("CRASH" if theirs.get("crashed") else "fails")
        line = f"{case_id:70s} TF {tf_state:5s} {theirs['seconds']:8.3f}s"
        if not registered:
            print(line + ("" if theirs["ok"] else f"  {theirs['error'][:200]!r}"))
            continue
        start = time.perf_counter()
        try:
            ours = run_ours(name, pipeline)
        except Exception as exc:  # the pipeline could not be built, or tfmlir raised
            ours = {"ok": False, "errors": [f"{type(exc).__name__}: {exc}"]}
        seconds = time.perf_counter() - start
        problem = outcome(case_id, theirs, ours, context=args.context)
        matched += problem is None
        print(f"{line}  tfmlir {seconds:8.3f}s  {'MATCH' if problem is None else 'DIFFERS'}")
        if problem:
            print("    " + problem.replace("\n", "\n    "))
        if theirs.get("stderr", "").strip():
            print("    TF printed: " + theirs["stderr"].strip()[:500].replace("\n", "\n      "))
    if registered:
        print(f"{matched} of {len(selected)} cases match TF")
        return 0 if matched == len(selected) else 1
    return 0 if args.tf_only else 1


def tf_timings(selection, repeats):
    """Prints TF's time for every case whose id contains `selection` (see ``--tf-timings``)."""
    from tfmlir.testing.tf_oracle import run_tf_pipelines_isolated

    selected = [(c, name, pipeline) for c, name, pipeline in cases() if selection in c]
    jobs = []
    for _, name, pipeline in selected:
        text = input_text(name)
        jobs += [(text, pipeline), (text, "")] * repeats  # interleaved: drift hits both alike
    results = run_tf_pipelines_isolated(jobs)
    print(f"{'case':70s} {'pipeline':>9s} {'empty':>9s} {'pass':>9s}  (best of {repeats}, seconds; "
          "pipeline = parse + pass + print, empty = parse + print)")
    for k, (case_id, _, _) in enumerate(selected):
        runs = results[2 * k * repeats:2 * (k + 1) * repeats]
        full = min(r["seconds"] for r in runs[0::2])
        empty = min(r["seconds"] for r in runs[1::2])
        print(f"{case_id:70s} {full:9.4f} {empty:9.4f} {max(full - empty, 0.0):9.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(report(sys.argv[1:]))
