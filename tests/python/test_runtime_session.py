"""tfmlir.runtime.Session on hand-written bridged programs, each checked against plain TensorFlow.

The host side runs on TensorFlow in this process; the reference numbers come
from TensorFlow's own eager kernels computing the same math (XLA's and TF's
kernels agree within 1e-6 relative here, bit-exact for most of them).
"""
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from conftest import REPO_ROOT, subprocess_env

pytest.importorskip("jax")

import runtime_programs as P  # noqa: E402

pytestmark = pytest.mark.tf

RTOL = 1e-6


def close(a, b):
    np.testing.assert_allclose(a, b, rtol=RTOL, atol=1e-7)


def test_single_cluster_matches_tensorflow(tf, runtime):
    rng = np.random.default_rng(1)
    x, w, b = (rng.standard_normal(s).astype(np.float32) for s in ((4, 3), (3, 5), (5,)))
    with runtime.Session(P.dense()) as session:
        (y,) = session.run(["y"], {"x": x, "w": w, "b": b})
        (again,) = session.run("y:0", {"x:0": x, "w": w, "b": b})
        timings = session.timings
    close(y, tf.tanh(tf.nn.bias_add(tf.matmul(x, w), b)).numpy())
    np.testing.assert_array_equal(y, again)
    assert timings["executions"] == 2 and timings["compile"] > 0
    import tfmlir
    from mlir import ir

    with ir.Context() as context:  # an mlir.ir.Module works as well as text
        (from_module,) = runtime.run(tfmlir.parse_module(P.dense(), context), {"x": x, "w": w, "b": b})
    np.testing.assert_array_equal(from_module, y)


def test_head_and_tail_host_computations_in_an_executor_graph(tf, runtime):
    text = np.array([b"1.5", b"4", b"0.1"])
    with runtime.Session(P.head_tail()) as session:
        printed, value = session.run(None, {"text": text})
        (parsed,) = session.run(["parse"], {"text": text})
    ref = tf.sqrt(tf.strings.to_number(text) * 2.5)
    close(value, ref.numpy())
    np.testing.assert_array_equal(printed, tf.strings.as_string(ref, precision=3).numpy())
    np.testing.assert_array_equal(parsed, tf.strings.to_number(text).numpy())


def test_host_computation_in_the_middle(tf, runtime):
    x = np.array([0.5, -1.25, 2.0], np.float32)
    (y,) = runtime.run(P.middle(), {"x": x})
    host = tf.exp(tf.strings.to_number(tf.strings.as_string(-x)) * x)
    close(y, (host * x).numpy())


def test_host_computation_inside_a_device_while_loop(tf, runtime):
    x = np.array([0.5, 1.25, 2.0], np.float32)
    with runtime.Session(P.loop()) as session:
        acc, count = session.run(None, {"x": x, "n": np.int32(4)})
        assert session.timings["callbacks"] == 4 + 5  # one per body iteration, one per condition
    ref = tf.constant(x)
    for i in range(4):
        ref = ref + (tf.strings.to_number(tf.strings.as_string(ref)) * 0.5 + float(i))
    close(acc, ref.numpy())
    assert count == 4


def test_host_computation_inside_a_device_conditional(tf, runtime):
    x = np.array([0.5, -1.25, 2.0], np.float32)
    with runtime.Session(P.conditional()) as session:
        (taken,) = session.run(None, {"x": x})
        (skipped,) = session.run(None, {"x": -x})
    close(taken, tf.square(tf.strings.to_number(tf.strings.as_string(x))).numpy())
    close(skipped, x)


def test_send_only_and_receive_only_host_computations(tf, runtime):
    x = np.array([0.5, -1.25, 2.0], np.float32)
    y, seen = runtime.run(P.send_recv(), {"x": x})
    close(y, (tf.strings.to_number(["0.25", "-1.5", "1e2"]) + x).numpy())
    close(seen, (x * x))


@pytest.mark.parametrize("n", [2, 4])
def test_replicas_with_per_replica_inputs_and_a_cross_replica_sum(tf, runtime, n):
    rng = np.random.default_rng(n)
    xs = [rng.standard_normal((2, 3)).astype(np.float32) for _ in range(n)]
    w = rng.standard_normal((3, 2)).astype(np.float32)
    feeds = {f"x{r}": xs[r] for r in range(n)}
    feeds["w"] = w
    out = runtime.run(P.replicated(n), feeds)
    products = [tf.matmul(x, w) for x in xs]
    total = tf.add_n(products).numpy()
    for r in range(n):
        close(out[r], total)                          # every replica holds the sum
        close(out[n + r], (products[r] + float(r)).numpy())  # the host saw replica r's values


def test_variables_read_and_updated_across_executions(tf, runtime):
    x = np.array([[0.5, 1.0], [-1.0, 2.0]], np.float32)
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    with runtime.Session(P.variables()) as session:
        assert session.run(targets=["init", "init_lr"]) == []
        for _ in range(2):
            loss, now = session.run(["loss", "read_v"], {"x": x})
            g = tf.matmul(v, x)
            close(loss, tf.reduce_sum(g).numpy())
            v.assign_sub(g * 0.125)
            close(now, v.numpy())
            assert now.flags.writeable
            now[...] = 0  # the caller's own: the variable (kept on the device) is not touched
        # Between runs the update lives on the device only (TensorFlow's variable is behind)
        # until something on the host needs it; sync_variables writes it back.
        from tfmlir.runtime import host
        stale = [key for key, entry in host.RESIDENT._values.items() if entry[4]]
        assert [key[1] for key in stale] == ["v"]
        handle = host.variable_handle(session._container, "v", 1, [2, 2])
        direct = host._TF.execute("ReadVariableOp", 1, [handle], ("dtype", 1), host._TF.ctx)[0].numpy()
        assert not np.allclose(direct, v.numpy())
        session.sync_variables()
        direct = host._TF.execute("ReadVariableOp", 1, [handle], ("dtype", 1), host._TF.ctx)[0].numpy()
        close(direct, v.numpy())
        # Re-running the initializer resets the variable.
        session.run(targets="init")
        (again,) = session.run(["read_v"])
        close(again, [[1.0, 2.0], [3.0, 4.0]])


def test_resource_argument_is_a_session_variable(tf, runtime):
    x = np.array([0.5, 1.25, 2.0], np.float32)
    with runtime.Session(P.resource_argument()) as session:
        y, acc = session.run(["y", "acc_value"], {"acc": np.zeros(3, np.float32), "x": x})
        close(y, np.zeros(3))
        close(acc, x)
        y, acc = session.run(["y", "acc_value"], {"x": x})
        close(y, x * x)
        close(acc, 2 * x)


def test_sessions_do_not_share_variables(runtime):
    a, b = runtime.Session(P.variables()), runtime.Session(P.variables())
    try:
        a.run(targets=["init", "init_lr"])
        with pytest.raises(runtime.RunError, match="TPUExecuteAndUpdateVariables.*Could not find variable v"):
            b.run(["loss"], {"x": np.eye(2, dtype=np.float32)})  # b's variables are not initialized
    finally:
        a.close()
        b.close()


def test_unlegalizable_op_is_named_before_anything_runs(runtime):
    program = P.dense().replace(
        "%2 = \\22tf.Tanh\\22(%1) : (tensor<4x5xf32>) -> tensor<4x5xf32>",
        "%t = \\22tf.AsString\\22(%1) {fill = \\22\\22} : (tensor<4x5xf32>) -> tensor<4x5x!tf_type.string> "
        "loc(\\22format_it\\22)\\0A    %2 = \\22tf.StringToNumber\\22(%t) {out_type = f32} : "
        "(tensor<4x5x!tf_type.string>) -> tensor<4x5xf32> loc(\\22parse_it\\22)")
    assert "parse_it" in program
    with pytest.raises(runtime.ProgramError) as info:
        runtime.Session(program)
    message = str(info.value)
    assert "'tf.StringToNumber' at loc(\"parse_it\")" in message
    assert "'tf.AsString' at loc(\"format_it\")" in message
    assert "tf._TPUCompileMlir" in message


def test_callback_returning_a_wrong_dtype_is_an_error(runtime):
    with runtime.Session(P.middle(send_type="tensor<3xf64>", convert=True)) as session:
        with pytest.raises(runtime.RunError, match=r"sent float64\[3\] as value 0 of "
                                                   r"'host_compute_channel_0_retvals'; the device program "
                                                   r"expects float32\[3\]"):
            session.run(None, {"x": np.ones(3, np.float32)})


def _outside_device_program(program, old, new):
    """`program` with `old` replaced by `new` in the host program only (not the embedded one)."""
    start = program.index('mlir_module = "') + len('mlir_module = "')
    end = program.index('"', start)
    return program[:start].replace(old, new) + program[start:end] + program[end:].replace(old, new)


def test_device_program_given_wrong_argument_shapes(runtime):
    # Static operand types that contradict the device program: refused when the session is built.
    program = _outside_device_program(P.dense(), "tensor<4x3xf32>", "tensor<2x3xf32>")
    with pytest.raises(runtime.ProgramError, match=r"TPUExecute.*operand 0 is tensor<2x3xf32>, the device "
                                                   r"program .* takes tensor<4x3xf32>"):
        runtime.Session(program)
    # Dynamic ones: checked against the fed values when the step runs.
    program = _outside_device_program(P.dense(), "tensor<4x3xf32>", "tensor<?x3xf32>")
    with runtime.Session(program) as session:
        with pytest.raises(runtime.RunError, match=r"TPUExecute.*argument 0: expected float32\[4, 3\], "
                                                   r"got float32\[2, 3\]"):
            session.run(None, {"x": np.ones((2, 3)), "w": np.ones((3, 5)), "b": np.ones(5)})


def test_host_waiting_for_a_key_nothing_sends_is_reported_not_hung(runtime):
    program = P.send_recv().replace('key = "send_only_0", device_ordinal', 'key = "never_sent", device_ordinal')
    with runtime.Session(program) as session:
        with pytest.raises(runtime.RunError, match=r"waits for .*nothing left to run can send it.*'never_sent'"):
            session.run(None, {"x": np.ones(3, np.float32)})


def test_programs_that_are_not_bridged_are_refused(runtime):
    program = P.host_module("%x: tensor<f32>", '''    %r = "tf_device.cluster"() ({
      %n = "tf.Neg"(%x) : (tensor<f32>) -> tensor<f32>
      tf_device.return %n : tensor<f32>
    }) : () -> tensor<f32>
    func.return %r : tensor<f32>
''', None, " -> tensor<f32>")
    with pytest.raises(runtime.ProgramError, match="not TPU-rewritten"):
        runtime.Session(program)


def test_feed_and_fetch_errors_name_the_tensor(runtime):
    with runtime.Session(P.dense()) as session:
        with pytest.raises(runtime.RunError, match="input 'b' must be fed"):
            session.run(["y"], {"x": np.ones((4, 3), np.float32), "w": np.ones((3, 5), np.float32)})
        with pytest.raises(runtime.RunError, match=r"feed 'x': expected shape \[4, 3\], got \[3, 4\]"):
            session.run(["y"], {"x": np.ones((3, 4)), "w": np.ones((3, 5)), "b": np.ones(5)})
        with pytest.raises(runtime.RunError, match="no input, output or node of that name"):
            session.run(["nothing"])
        with pytest.raises(runtime.RunError, match="only the program's inputs"):
            session.run(["y"], {"y": np.ones((4, 5))})


def test_cli_runs_a_program(tmp_path):
    program = tmp_path / "dense.mlir"
    program.write_text(P.dense())
    x = tmp_path / "x.npy"
    np.save(x, np.ones((4, 3), np.float32))
    out = tmp_path / "out.npz"
    proc = subprocess.run(
        [sys.executable, "-m", "tfmlir.tools.main", "run", str(program), "--feed", f"x={x}",
         "--feed", "w=" + repr([[0.5] * 5] * 3), "--feed", "b=[0, 0, 0, 0, 1]", "--fetch", "y", "--timing",
         "--save", str(out)],
        capture_output=True, text=True, env=subprocess_env(), timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("y = array(")
    assert "compiled the device program" in proc.stderr
    assert "timing: legalize" in proc.stderr and "over 1 execution(s)" in proc.stderr
    y = np.load(out)["y"]
    np.testing.assert_allclose(y, np.tanh(np.array([1.5, 1.5, 1.5, 1.5, 2.5], np.float32))[None].repeat(4, 0),
                               rtol=1e-6)
    bad = subprocess.run([sys.executable, "-m", "tfmlir.tools.main", "run", str(program), "--fetch", "y"],
                         capture_output=True, text=True, env=subprocess_env(), timeout=300)
    assert bad.returncode == 1 and "input 'x' must be fed" in bad.stderr


def test_process_exits_cleanly_with_live_sessions_holding_callbacks():
    """Executables holding Python callbacks are released before jax and the interpreter go."""
    code = textwrap.dedent(f"""
        import sys, numpy as np
        sys.path.insert(0, {str(REPO_ROOT / 'tests' / 'python')!r})
        import runtime_programs as P
        from tfmlir import runtime
        s = runtime.Session(P.middle())
        print(s.run(None, {{"x": np.ones(3, np.float32)}})[0].tolist())
        keep = s  # never closed
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=subprocess_env(), timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Fatal Python error" not in proc.stderr
    assert proc.stdout.strip().startswith("[")


@pytest.mark.parametrize("order", [("tensorflow", "jax", "tfmlir"), ("jax", "tfmlir", "tensorflow"),
                                   ("tfmlir", "jax", "tensorflow"), ("mlir.ir", "tensorflow", "jax")])
def test_jax_tensorflow_and_mlir_coexist_in_any_import_order(order):
    code = "\n".join(f"import {m}" for m in order) + textwrap.dedent("""
        import numpy as np
        from tfmlir.runtime import device
        import tfmlir, mlir.ir
        with mlir.ir.Context():
            mlir.ir.Module.parse('func.func @f() { return }')
        text = 'func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> { %0 = stablehlo.add %a, %a : tensor<2xf32>\\n return %0 : tensor<2xf32> }'
        e = device.Executable(text, 1)
        print(e.run([[np.ones(2, np.float32)]])[0][0].tolist())
        e.release()
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=subprocess_env(), timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "[2.0, 2.0]"


def test_functional_control_flow_and_calls_on_host_and_device(tf, runtime):
    x = np.array([0.5, 1.25, 2.0], np.float32)
    with runtime.Session(P.functional_loop()) as session:
        acc, count = session.run(None, {"x": x, "n": np.int32(3)})
        again, _ = session.run(None, {"x": x, "n": np.int32(0)})
    ref = tf.constant(x)
    for i in range(3):
        ref = ref + (tf.strings.to_number(tf.strings.as_string(ref)) * 0.5 + float(i))
    close(acc, ref.numpy())
    assert count == 3
    close(again, x)


def test_gpu_device_skips_or_runs(runtime):
    """device="gpu" runs the device programs on XLA's GPU (CUDA) platform where jax has one."""
    import jax

    try:
        gpus = jax.devices("gpu")
    except RuntimeError:
        gpus = []
    if not gpus:
        with pytest.raises(runtime.ProgramError, match="no gpu platform"):
            runtime.Session(P.dense(), device="gpu")
        pytest.skip("no GPU on this machine (the error above is what users get)")
    rng = np.random.default_rng(1)
    feeds = {k: rng.standard_normal(s).astype(np.float32) for k, s in (("x", (4, 3)), ("w", (3, 5)), ("b", (5,)))}
    (cpu,) = runtime.run(P.dense(), feeds)
    (gpu,) = runtime.run(P.dense(), feeds, device="gpu")
    np.testing.assert_allclose(gpu, cpu, rtol=1e-5)


def test_tf1_graph_runs_what_fetches_and_targets_reach_through_control_edges(tf, runtime):
    x = np.array([0.5, 3.0], np.float32)
    with runtime.Session(P.executor_variables()) as session:
        assert session.run(targets=["init"]) == []
        (w,) = session.run(["w/initial_value"])          # a node inside an island
        y, now = session.run(["y", "read"], {"x": x})   # 'read' pulls 'update' through its control edge
        close(y, w * x)
        close(now, w + x)
        (again,) = session.run(["read:0"], {"x": x})     # the update runs again, the init does not
        close(again, w + 2 * x)
        with pytest.raises(runtime.RunError, match="input 'x' must be fed"):
            session.run(["read"])


def test_host_op_failing_mid_computation_aborts_the_device_program(runtime):
    program = P.send_recv().replace('"0.25", "-1.5", "1e2"', '"0.25", "not a number", "1e2"')
    with runtime.Session(program) as session:
        with pytest.raises(runtime.RunError, match=r"'tf.StringToNumber' at .*StringToNumberOp could not "
                                                   r"correctly convert string: not a number"):
            session.run(None, {"x": np.ones(3, np.float32)})
        with pytest.raises(runtime.RunError, match="StringToNumber"):   # the session stays usable
            session.run(None, {"x": np.ones(3, np.float32)})
