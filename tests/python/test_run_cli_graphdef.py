"""``tfmlir run model.pb``: a TF1 TPU GraphDef through the CLI (import, bridge, XLA CPU).

TensorFlow writes a tiny ``tpu.rewrite`` program with a resource variable and its
initializer (:mod:`run_cli_graphdef_programs`, in a child process) and its
numbers without the TPU wrapper; the CLI runs in a subprocess: the initializer
as a target first, then the fetches with the feeds (``--repeat`` steps, the
variable carrying over). Errors are one ``tfmlir run: error:`` line, exit 1.
"""
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import describe_failure, require_tensorflow, subprocess_env

pytestmark = [pytest.mark.tf]

RTOL = 1e-6


@pytest.fixture(scope="module")
def programs():
    require_tensorflow()
    import run_cli_graphdef_programs
    return run_cli_graphdef_programs.directory()


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "tfmlir.tools.main", "run", *map(str, args)],
                          capture_output=True, text=True, env=subprocess_env(), timeout=300)


def _close(got, want):
    scale = float(np.max(np.abs(want)))
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=RTOL * scale)


def test_graph_def_runs_targets_then_fetch_steps(programs, tmp_path):
    saved = tmp_path / "out.npz"
    proc = _cli(os.path.join(programs, "model.pb"), "--target", "init",
                "--feed", "x=" + os.path.join(programs, "x.npy"), "--fetch", "out", "--fetch", "w_after:0",
                "--repeat", "3", "--timing", "--print-ir-after-bridge", "--save", saved)
    assert proc.returncode == 0, describe_failure(proc)
    expected = np.load(os.path.join(programs, "expected.npz"))
    with np.load(saved) as got:
        assert sorted(got.files) == ["out", "w_after_0"]
        # The third step's values: the variable was updated by the two before it.
        _close(got["out"], expected["out_2"])
        _close(got["w_after_0"], expected["w_after_2"])
    assert not np.allclose(expected["w_after_0"], expected["w_after_2"])  # the steps change w

    out = proc.stdout
    # The bridged modules come first: the initializer's signature, then the step's.
    init_at = out.index("// tfmlir run: the bridged module of the targets init")
    step_at = out.index("// tfmlir run: the bridged module of the fetches out, w_after:0 with feeds x")
    results_at = out.index("out = array(")
    assert init_at < step_at < results_at < out.index("w_after:0 = array(")
    step = out[step_at:results_at]
    for op in ("tf._TPUCompileMlir", "tf.TPUCompileSucceededAssert", "tf.TPUExecute"):
        assert op in step, op
    assert "tf_device.cluster" not in step and "tf.TPUReplicateMetadata" not in step
    assert out.count("// tfmlir run: the bridged module") == 2  # bridged once per signature

    assert "timing: bridge " in proc.stderr and "over 2 signature(s)" in proc.stderr
    assert "over 3 execution(s)" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_graph_def_in_text_format_with_a_literal_feed(programs):
    x = np.load(os.path.join(programs, "x.npy"))
    # A Python literal (float64 values) feeds the float32 placeholder, as a TF1 session converts it.
    proc = _cli(os.path.join(programs, "model.pbtxt"), "--target", "init",
                "--feed", f"x={x.astype(np.float64).tolist()!r}", "--fetch", "w_after")
    assert proc.returncode == 0, describe_failure(proc)
    assert proc.stdout.startswith("w_after = array(") and "dtype=float32" in proc.stdout
    assert "// tfmlir run" not in proc.stdout
    expected = np.load(os.path.join(programs, "expected.npz"))["w_after_0"]
    text = proc.stdout.split("=", 1)[1]
    got = eval(text, {"array": np.array, "float32": np.float32})  # numpy's repr of the value
    _close(got, expected)


@pytest.mark.parametrize("case, message", [
    (("model.pb", "--fetch", "nothing", "--feed", "x=X"), "fetch 'nothing': the graph has no node 'nothing'"),
    (("model.pb", "--fetch", "out", "--feed", "y=X"), "feed 'y': the graph has no node 'y'"),
    (("model.pb", "--fetch", "out", "--target", "no_init"), "target 'no_init': the graph has no node 'no_init'"),
    (("model.pb", "--fetch", "out", "--feed", "x=[1,"), "--feed x: '[1,' is neither a .npy file nor a Python"),
    (("model.pb", "--fetch", "out", "--feed", "x=[['a']]"), "feed 'x'"),
    (("model.pb", "--fetch", "out", "--feed", "x=[1.0, 2.0]"), "shape"),
    (("model.pb", "--target", "init"), "a GraphDef needs --fetch"),
    (("model.pb", "--fetch", "out", "--feed", "x=X", "--repeat", "0"), "--repeat 0: expected at least 1"),
    (("missing.pb", "--fetch", "out"), "cannot read"),
    (("x.npy", "--fetch", "out"), "the program is not a serialized GraphDef"),
    (("orphan_cluster.pb", "--target", "init", "--fetch", "out", "--feed", "x=X"), "the TPU bridge failed:"),
    (("model.pb", "--fetch", "out", "--feed", "x=X"), "Could not find variable w"),  # no initializer run
], ids=["unknown-fetch", "unknown-feed", "unknown-target", "bad-literal", "string-feed", "bad-shape",
        "no-fetch", "bad-repeat", "missing-file", "not-a-graph-def", "bridge-failure", "uninitialized"])
def test_errors_are_one_line_and_exit_1(programs, case, message):
    x = os.path.join(programs, "x.npy")
    args = [a.replace("=X", "=" + x) for a in case]
    args[0] = os.path.join(programs, args[0])
    proc = _cli(*args)
    assert proc.returncode == 1, describe_failure(proc)
    assert "Traceback" not in proc.stderr, describe_failure(proc)
    errors = [line for line in proc.stderr.splitlines() if line.startswith("tfmlir run: error: ")]
    assert len(errors) == 1 and message in proc.stderr, describe_failure(proc)
    assert "= array(" not in proc.stdout


def test_print_ir_after_bridge_needs_a_graph_def(tmp_path):
    program = tmp_path / "p.mlir"
    program.write_text("func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n  return %a : tensor<2xf32>\n}\n")
    proc = _cli(program, "--print-ir-after-bridge")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "tfmlir run: error: --print-ir-after-bridge needs a GraphDef" in proc.stderr
