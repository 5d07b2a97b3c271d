"""Model-parallel TPU programs (num_cores_per_replica > 1) in tfmlir.runtime.

The C cores' TPUExecutes of a replica run as one execution of the program
partitioned by XLA's SPMD partitioner (R replicas x C cores meet for it).
Every program of :mod:`model_parallel_programs` (MAXIMAL, replicated and tiled
shardings; 1 and 2 replicas of 2 and 4 cores; a variable updated on the
device across steps) runs through ``tfmlir.runtime.Session(graph_def)`` and
gives plain TensorFlow's numbers within 1e-6 relative; programs the runtime
cannot run are refused before anything runs.
"""
import re
import textwrap
import threading

import numpy as np
import pytest

from conftest import REPO_ROOT, run_python, subprocess_env

pytest.importorskip("jax")

import model_parallel_programs as programs  # noqa: E402

RTOL = 1e-6


def _close(got, expected, what):
    got = np.asarray(got)
    assert got.shape == expected.shape, (what, got.shape, expected.shape)
    scale = float(np.max(np.abs(expected))) if expected.size else 0.0
    np.testing.assert_allclose(got.astype(np.float64), expected.astype(np.float64), rtol=RTOL,
                               atol=RTOL * scale, err_msg=what)


def _targets(spec):
    return [t.split(":")[0] for t in spec["targets"]]


# --- the runtime's pieces, without TensorFlow ------------------------------------------------

def test_which_cores_hold_a_value_of_each_sharding():
    from tfmlir.shapes import xla_protos as X

    def parsed(text):
        return X.parse_hlo_sharding(text)

    assert X.sharding_cores(parsed("{replicated}"), 4) == [0, 1, 2, 3]
    assert X.sharding_cores(parsed("{maximal device=2}"), 4) == [2]
    assert X.sharding_cores(parsed("{devices=[1,2]1,0}"), 2) == [1, 0]
    assert X.sharding_cores(parsed("{devices=[2,1,2]0,1,2,3 last_tile_dim_replicate}"), 4) == [0, 1, 2, 3]
    # All tile dimensions 1 and a replicated last dimension: the value is replicated.
    other = parsed("{devices=[1,1,2]0,1 last_tile_dim_replicate}")
    assert X.is_replicated(other) and not X.is_split(other)
    assert X.sharding_cores(other, 2) == [0, 1]
    assert X.sharding_cores(parsed("{manual}"), 2) is None


# A hand-written program: x split in rows (the rows' sums come back as a split result), w
# maximal on partition 1 (read by both through the sharding custom call), a replicated result.
_SPMD = """
module @m {
  func.func @main(%w: tensor<8x8xf32>, %x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<4x8xf32>
    %zero = stablehlo.constant dense<-0.000000e+00> : tensor<f32>
    %0 = stablehlo.custom_call @Sharding(%w) {mhlo.sharding = "{replicated}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = stablehlo.dot %x, %0 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %2 = stablehlo.maximum %1, %cst : tensor<4x8xf32>
    %3 = stablehlo.reduce(%2 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    return %3, %3 : tensor<4xf32>, tensor<4xf32>
  }
}
"""


@pytest.mark.parametrize("replicas, assignment", [(1, None), (2, None), (2, [[3, 1], [0, 2]])])
def test_xla_partitions_a_program_by_its_shardings(replicas, assignment):
    """_jaxlib.partition_main gives main the devices' shapes (a split argument or result as
    each device's tile, {manual}); XLA's SPMD partitioner compiles it for R x 2 devices (with
    replicas, a split result that is not manual aborts PJRT's executable wrapper)."""
    from tfmlir.runtime import _jaxlib, device
    from tfmlir.shapes import xla_protos as X

    if _jaxlib.device_count() < 2 * replicas:
        pytest.skip("needs more XLA CPU devices")
    maximal = X.assign_device_sharding(1)
    rows = b"\x08\x03\x1a\x02\x02\x01\x22\x02\x00\x01"  # {devices=[2,1]0,1}
    split = b"\x08\x03\x1a\x01\x02\x22\x02\x00\x01"      # {devices=[2]0,1}
    text = _jaxlib.partition_main(_SPMD, [(maximal, None), (rows, (2, 1))], [(split, (2,)), (b"\x08\x00", None)])
    assert "tensor<2x8xf32> {mhlo.sharding = \"{manual}\"}" in text
    assert "@SPMDShardToFullShape" in text and "@SPMDFullToShardShape" in text
    executable = device.Executable(text, replicas, num_partitions=2, device_ids=assignment)
    assert [a[0] for a in executable.arguments] == [(8, 8), (2, 8)]
    assert [r[0] for r in executable.results] == [(2,), (4,)]
    if assignment is not None:
        assert [d.id for d in executable.devices] == [3, 1, 0, 2]
    w = np.arange(64, dtype=np.float32).reshape(8, 8) / 64
    xs = [np.arange(32, dtype=np.float32).reshape(4, 8) / (10 * (r + 1)) for r in range(replicas)]
    per_device = [[w, xs[r][2 * p:2 * p + 2]] for r in range(replicas) for p in range(2)]
    out = executable.run(per_device)
    for r in range(replicas):
        want = np.maximum(xs[r] @ w, 0).sum(axis=1)
        for p in range(2):
            np.testing.assert_allclose(out[2 * r + p][0], want[2 * p:2 * p + 2], rtol=1e-6)
            np.testing.assert_allclose(out[2 * r + p][1], want, rtol=1e-6)
    with pytest.raises(device.DeviceProgramError, match=r"replica 0, partition 1, argument 1: expected "
                                                        r"float32\[2, 8\], got float32\[4, 8\]"):
        executable.run([[w, xs[0][:2]], [w, xs[0]]] + per_device[2:])


# --- TF1 programs end to end ------------------------------------------------------------------

@pytest.mark.tf
@pytest.mark.slow
@pytest.mark.parametrize("name", list(programs.PROGRAMS))
def test_model_parallel_program_runs_like_plain_tf(name):
    from tfmlir import runtime

    spec = programs.spec(name)
    with runtime.Session(programs.path(name)) as session:
        session.run(targets=_targets(spec))
        for step, expected in enumerate(spec["expected"]):
            got = session.run(spec["fetches"], spec["feeds"])
            for value, want, fetch in zip(got, expected, spec["fetches"]):
                _close(value, want, f"{name} step {step} fetch {fetch}")
        # The cores of a replica (and the replicas) ran as one execution per step.
        assert session.timings["executions"] == len(spec["expected"])


@pytest.mark.tf
@pytest.mark.slow
def test_the_bridged_program_runs_one_execute_per_core():
    """What the runtime ran: a _TPUCompileMlir with a key per core, a parallel_execute of a
    TPUExecute per core, inside a replicate for several replicas; the bridged module runs in a
    ProgramSession of its own, the variable updated on the device step after step."""
    from tfmlir import runtime

    name = "variables_1x4"
    spec = programs.spec(name)
    texts = []
    with runtime.Session(programs.path(name), print_ir_after_bridge=texts.append) as session:
        session.run(targets=_targets(spec))
        session.run(spec["fetches"], spec["feeds"])
    step = texts[-1]
    assert re.search(r"%compilation_status, %program:4 = \"tf._TPUCompileMlir\"", step)
    assert step.count('"tf.TPUExecute"') == 4 and '"tf_device.parallel_execute"' in step
    replicated = programs.spec("split_2x2")
    texts.clear()
    with runtime.Session(programs.path("split_2x2"), print_ir_after_bridge=texts.append) as session:
        session.run(targets=_targets(replicated))
        session.run(replicated["fetches"], replicated["feeds"])
    assert "tf_device.replicate" in texts[-1] and "TPU_REPLICATED_CORE_1" in texts[-1]
    assert '"tf.Split"' in texts[-1] and '"tf.Concat"' in texts[-1]


def _merged_variable_update(text):
    """`variables_1x2`'s bridged step with b's read and update merged into core 0's execute (a
    tf.TPUExecuteAndUpdateVariables taking b's handle), as tf-tpu-merge-variables-with-execute
    merges them when the variable is on the core's device."""
    three, two = "tensor<4x8xf32>, tensor<4xf32>, tensor<8xf32>", "tensor<4x8xf32>, tensor<4xf32>"
    found = re.search(r'(%\w+):3 = "tf.TPUExecute"\((%\w+), (%\w+), (%\w+), (%\w+#1)\) : \(tensor<8x8xf32>, '
                      r'tensor<4x8xf32>, tensor<8xf32>, (tensor<3x!tf_type.string>)\) -> \(' + re.escape(three) + r'\)',
                      text)
    assert found, "the bridge's form of variables_1x2 changed"
    result, w, x, b, key, key_type = found.groups()
    handle = re.search(re.escape(b) + r' = "tf.ReadVariableOp"\((%\w+)\)', text).group(1)
    text = text.replace(found.group(0), (
        f'{result}:2 = "tf.TPUExecuteAndUpdateVariables"({w}, {x}, {handle}, {key}) '
        "{device_var_reads_indices = [2], device_var_updates_indices = [2]} : (tensor<8x8xf32>, "
        f"tensor<4x8xf32>, tensor<!tf_type.resource<tensor<8xf32>>>, {key_type}) -> ({two})"))
    edits = [
        (r"tf_device.return (%\w+)#0, \1#1, \1#2 : " + re.escape(three), rf"tf_device.return \1#0, \1#1 : {two}", 2),
        (re.escape(f"}}) : () -> ({three})"), f"}}) : () -> ({two})", 2),
        (r'(%\w+):3 = "tf_device.parallel_execute"', r'\1:2 = "tf_device.parallel_execute"', 1),
        (r'(%\w+):3 = ("tf_device.launch"\(\) <\{device = "/job:localhost/replica:0/task:0/device:TPU:0"\}>)',
         r"\1:2 = \2", 1),
        (r'\n *"tf.AssignVariableOp"\(' + re.escape(handle) + r", %\w+#2\).*", "", 1),
        (r"\n *" + re.escape(b) + r' = "tf.ReadVariableOp"\(.*', "", 1),  # no other use
    ]
    for pattern, replacement, count in edits:
        text, made = re.subn(pattern, replacement, text)
        assert made == count, ("the bridge's form of variables_1x2 changed", pattern, made)
    return text


@pytest.mark.tf
@pytest.mark.slow
def test_a_variable_read_and_updated_by_a_cores_execute():
    """A resource operand of one core's TPUExecuteAndUpdateVariables: read from TensorFlow
    before the cores meet, its update (an output of that core) assigned after, step by step."""
    import tensorflow as tf

    from tfmlir import runtime

    name = "variables_1x2"
    spec = programs.spec(name)
    texts = []
    with runtime.Session(programs.path(name), print_ir_after_bridge=texts.append) as session:
        session.run(targets=_targets(spec))
        session.run(spec["fetches"], spec["feeds"])
    merged = _merged_variable_update(texts[-1])
    initial = {"w": np.arange(64, dtype=np.float32).reshape(8, 8) / 64 - 0.3,
               "b": np.linspace(-0.5, 0.5, 8, dtype=np.float32)}

    def assign(variable):
        value = initial[variable]
        handle = tf.raw_ops.VarHandleOp(dtype=tf.float32, shape=value.shape, container="model_parallel_merged",
                                        shared_name=variable)
        tf.raw_ops.AssignVariableOp(resource=handle, value=value)

    with runtime.ProgramSession(merged, container="model_parallel_merged") as session:
        assign("w")
        # b not initialized yet: core 0 fails reading it, and core 1, waiting for core 0 to
        # come to the execution, stops too (the run does not hang).
        failed = []

        def run():
            try:
                session.run(["out_0"], {"x": spec["feeds"]["x:0"]})
            except runtime.RunError as exc:
                failed.append(str(exc))

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        thread.join(120)
        assert not thread.is_alive(), "the cores waiting for a failed core did not stop"
        assert failed and "tf.TPUExecuteAndUpdateVariables" in failed[0] and "variable b" in failed[0], failed
        assign("b")
        for step, expected in enumerate(spec["expected"]):
            got = session.run(["out_0", "y_0"], {"x": spec["feeds"]["x:0"]})
            for value, want, fetch in zip(got, expected, spec["fetches"]):
                _close(value, want, f"step {step} fetch {fetch}")
        assert session.timings["executions"] == len(spec["expected"])


@pytest.mark.tf
@pytest.mark.slow
def test_a_program_needing_more_cores_than_devices_is_refused():
    from tfmlir import runtime
    from tfmlir.runtime import ProgramError, _jaxlib

    kind, replicas, cores = programs.BAD_PROGRAMS["too_many_cores"]
    if _jaxlib.device_count() >= replicas * cores:
        pytest.skip("this process has enough XLA devices")
    with pytest.raises(ProgramError, match=r"16 TPU cores.*TFMLIR_CPU_DEVICES"):
        runtime.Session(programs.path("too_many_cores"))


_FEW_DEVICES = textwrap.dedent("""
    import sys
    from tfmlir import runtime
    from tfmlir.runtime import ProgramError
    try:
        runtime.Session(open(sys.argv[1]).read())
    except ProgramError as exc:
        print("REFUSED", exc)
""")


@pytest.mark.tf
@pytest.mark.slow
def test_a_bridged_program_of_more_cores_than_devices_is_refused(tmp_path):
    """A bridged module (a ProgramSession) of 1 replica x 4 cores with 2 XLA devices: refused
    when the session is built, naming TFMLIR_CPU_DEVICES."""
    from tfmlir import runtime

    spec = programs.spec("replicated_1x4")
    texts = []
    with runtime.Session(programs.path("replicated_1x4"), print_ir_after_bridge=texts.append) as session:
        session.run(targets=_targets(spec))
        session.run(spec["fetches"], spec["feeds"])
    module = tmp_path / "bridged.mlir"
    module.write_text(texts[-1])
    proc = run_python([module], code=_FEW_DEVICES, cwd=REPO_ROOT,
                      env=subprocess_env(TFMLIR_CPU_DEVICES="2"))
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert re.search(r"REFUSED .*the metadata asks for 1 replica\(s\) of 4 cores, but every core of every "
                     r"replica runs on an XLA device of its own \(4 needed\) and the cpu platform has 2 "
                     r"\(TFMLIR_CPU_DEVICES", proc.stdout), proc.stdout + proc.stderr[-3000:]


@pytest.mark.tf
@pytest.mark.slow
def test_cores_that_would_not_all_meet_are_refused():
    """Every core's TPUExecute meets the others for one execution: a program whose executes do
    not name each core once is refused when the session is built (it would wait forever)."""
    from tfmlir import runtime
    from tfmlir.runtime import ProgramError

    spec = programs.spec("maximal_1x4")
    texts = []
    with runtime.Session(programs.path("maximal_1x4"), print_ir_after_bridge=texts.append) as session:
        session.run(targets=_targets(spec))
        session.run(spec["fetches"], spec["feeds"])
    keys = re.findall(r'"tf.TPUExecute"\((%\w+)#4\)', texts[-1])
    assert len(keys) == 1
    broken = texts[-1].replace(f'"tf.TPUExecute"({keys[0]}#4)', f'"tf.TPUExecute"({keys[0]}#3)')
    with pytest.raises(ProgramError, match=r"runs on 4 cores per replica, which execute it together: it "
                                           r"needs one TPUExecute per core.*core 2:.*core 2:"):
        runtime.Session(broken)

