"""Robustness, third round: tfmlir.runtime on hostile programs and feeds.

Each case is an error of tfmlir's (``ProgramError`` when the session is built,
``RunError`` from ``run``) with the process alive and nothing allocated that
the input does not justify (Python and numpy allocations are measured with
tracemalloc where the old behaviour allocated in proportion to a number in the
input):

* replica counts beyond the XLA devices (TPUReplicateMetadata, tf_device.replicate,
  the compile metadata): refused before any device list or replica map is built;
* host constants larger than a GraphDef can hold: refused, naming the op;
* a wrong-shape feed: its shape is checked before it is converted to the
  placeholder's dtype;
* CrossReplicaSum group assignments that are not a partition of the replicas into
  groups of equal size: refused when the session is built, not by XLA;
* fetching a variable handle: an error naming the fetch;
* non-UTF-8 ``mlir_module`` / ``_tpu_replicate``: refused, naming the op or node;
* ``_TPUCompileMlir`` metadata that does not describe the program (argument
  count, dtypes and shapes, replica count): refused, naming the op, before XLA
  compiles anything.
"""
import tracemalloc

import numpy as np
import pytest

from conftest import REPO_ROOT

pytest.importorskip("jax")

import runtime_programs as P  # noqa: E402

pytestmark = pytest.mark.tf

REPRODUCERS = REPO_ROOT.parent / "shared" / "reproducers" / "robustness-3"
# Nothing these cases build is proportional to the hostile number: a few MiB at most.
SMALL = 64 << 20


def _peak(call):
    """(exception raised by `call`, peak bytes traced while it ran)."""
    tracemalloc.start()
    try:
        try:
            call()
        except Exception as exc:  # returned to the caller, which checks its class
            raised = exc
        else:
            raised = None
        return raised, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _graph(tf, replicas=1):
    """A TF1 graph: out = tanh(x) * 2 computed by tpu.rewrite (or tpu.replicate)."""
    tf1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        x = tf1.placeholder(tf.float32, [4, 3], name="x")
        if replicas == 1:
            (y,) = tf1.tpu.rewrite(lambda x: [tf.tanh(x) * 2.0], [x])
        else:
            y = tf1.tpu.replicate(lambda x: [tf.tanh(x) * 2.0], [[x]] * replicas)[0][0]
        tf.identity(y, name="out")
    return graph.as_graph_def()


def _with_attr(tf, graph_def, op, key, set_value):
    changed = tf.compat.v1.GraphDef()
    changed.CopyFrom(graph_def)
    count = 0
    for node in changed.node:
        if (op is None or node.op == op) and (op is not None or key in node.attr):
            set_value(node.attr[key])
            count += 1
    assert count, f"no node to change ({op}, {key})"
    return changed


def _mlir_bytes(data):
    """`data` as the contents of an MLIR string attribute (every byte escaped)."""
    return "".join(f"\\{b:02X}" for b in data)


# --- 1. replica counts ------------------------------------------------------------------------

def test_graph_replica_count_beyond_the_devices_is_refused_before_allocating(tf, runtime):
    x = np.ones((4, 3), np.float32)
    (plain,) = runtime.run_graph_def(_graph(tf), {"x": x}, ["out"])
    np.testing.assert_allclose(plain, np.tanh(x) * 2.0, rtol=1e-6)
    for n in (2 ** 31 - 1, 1 << 40):
        graph_def = _with_attr(tf, _graph(tf), "TPUReplicateMetadata", "num_replicas",
                               lambda a, n=n: setattr(a, "i", n))
        raised, peak = _peak(lambda: runtime.run_graph_def(graph_def, {"x": x}, ["out"]))
        assert isinstance(raised, runtime.ProgramError), raised
        assert f"asks for {n} replicas" in str(raised) and "XLA device" in str(raised)
        assert peak < SMALL, peak


def test_replicate_beyond_the_devices_is_refused_before_allocating(runtime):
    from tfmlir.runtime import _jaxlib

    available = _jaxlib.device_count("cpu")
    for n in (available + 1, (1 << 20) - 1, 2 ** 31 - 1):
        program = P.host_module("", f'''    "tf_device.replicate"() ({{
      tf_device.return
    }}) {{n = {n} : i32, operandSegmentSizes = array<i32: 0, 0>}} : () -> ()
    func.return
''')
        raised, peak = _peak(lambda: runtime.Session(program))
        assert isinstance(raised, runtime.ProgramError), raised
        assert "tf_device.replicate" in str(raised)
        if n < 1 << 20:  # larger counts are refused by the parser already
            assert f"{n} replicas" in str(raised) and f"has {available}" in str(raised)
        assert peak < SMALL, peak


# --- 2. host constants --------------------------------------------------------------------------

def test_huge_host_constant_is_refused_naming_the_op(runtime):
    huge = "tensor<8589934592x3xf32>"
    program = P.host_module("", f'''    %c = "tf.Const"() {{value = dense<1.0> : {huge}}} : () -> {huge} loc("big_constant")
    func.return %c : {huge}
''', None, f" -> {huge}")
    raised, peak = _peak(lambda: runtime.Session(program))
    assert isinstance(raised, runtime.ProgramError), raised
    assert "'tf.Const' at loc(\"big_constant\")" in str(raised)
    assert "103079215104 bytes" in str(raised)
    assert peak < SMALL, peak
    # A constant under the bound is still made.
    small = P.host_module("", '''    %c = "tf.Const"() {value = dense<2.0> : tensor<1000x3xf32>} : () -> tensor<1000x3xf32>
    func.return %c : tensor<1000x3xf32>
''', None, " -> tensor<1000x3xf32>")
    (value,) = runtime.run(small, {})
    np.testing.assert_array_equal(value, np.full((1000, 3), 2.0, np.float32))


# --- 3. feeds: shape before conversion ----------------------------------------------------------

def test_wrong_shape_feed_is_refused_before_conversion(tf, runtime):
    # A view of one byte that claims 2**40 elements: converting it to float32 would allocate 4 TiB.
    view = np.broadcast_to(np.int8(1), (1 << 20, 1 << 20))
    raised, peak = _peak(lambda: runtime.run_graph_def(_graph(tf), {"x": view}, ["out"]))
    assert isinstance(raised, runtime.RunError), raised
    assert "feed 'x'" in str(raised) and "(1048576, 1048576)" in str(raised) and "(4, 3)" in str(raised)
    assert peak < SMALL, peak
    with runtime.Session(P.dense()) as session:
        feeds = {"x": view, "w": np.ones((3, 5), np.float32), "b": np.ones(5, np.float32)}
        raised, peak = _peak(lambda: session.run(["y"], feeds))
        assert isinstance(raised, runtime.RunError), raised
        assert "feed 'x': expected shape [4, 3], got [1048576, 1048576]" in str(raised)
        assert peak < SMALL, peak
        # A right-shape feed of another dtype is still converted.
        (y,) = session.run(["y"], {"x": np.ones((4, 3), np.int8), "w": np.ones((3, 5), np.float32),
                                   "b": np.zeros(5, np.float32)})
        np.testing.assert_allclose(y, np.full((4, 5), np.tanh(3.0), np.float32), rtol=1e-6)


# --- 4. CrossReplicaSum group assignments ------------------------------------------------------

def _groups(n, groups, shape):
    program = P.replicated(n)
    old = P.embed(f"%g = \"tf.Const\"() {{value = dense<[[{', '.join(map(str, range(n)))}]]> : "
                  f"tensor<1x{n}xi32>}} : () -> tensor<1x{n}xi32>")
    new = P.embed(f"%g = \"tf.Const\"() {{value = dense<{groups}> : tensor<{shape}xi32>}} : () -> "
                  f"tensor<{shape}xi32>")
    assert old in program
    program = program.replace(old, new)
    old_use = P.embed(f"(tensor<2x2xf32>, tensor<1x{n}xi32>)")
    assert old_use in program
    return program.replace(old_use, P.embed(f"(tensor<2x2xf32>, tensor<{shape}xi32>)"))


@pytest.mark.slow
@pytest.mark.parametrize("groups, shape, why", [
    ("[[0, 0]]", "1x2", "replica 0 appears more than once"),
    ("[[0, 5]]", "1x2", r"replica 5 is outside \[0, 2\)"),
    ("[[1]]", "1x1", r"leave out replica\(s\) \[0\] of 2"),
    ("[[0, -1]]", "1x2", r"replica -1 is outside|leave out replica"),
])
def test_invalid_group_assignment_is_refused_when_the_session_is_built(runtime, groups, shape, why):
    with pytest.raises(runtime.ProgramError, match=why) as info:
        runtime.Session(_groups(2, groups, shape))
    message = str(info.value)
    assert "tf._TPUCompileMlir" in message and "replica_groups" in message
    assert "group_assignment must partition the replicas into groups of equal size" in message


@pytest.mark.slow
def test_group_assignment_of_singleton_groups_runs(runtime):
    x = [np.full((2, 3), r + 1.0, np.float32) for r in range(2)]
    w = np.ones((3, 2), np.float32)
    with runtime.Session(_groups(2, "[[0], [1]]", "2x1")) as session:
        sums = session.run(["sum0", "sum1"], {"x0": x[0], "x1": x[1], "w": w})
    for r in range(2):  # each replica is its own group: the "sum" is its own product
        np.testing.assert_allclose(sums[r], x[r] @ w, rtol=1e-6)


def test_collective_checks():
    from tfmlir.runtime.device import collective_problem

    assert collective_problem("groups", [[0, 1], [2, 3]], 4) is None
    assert collective_problem("groups", [], 4) is None  # no groups: one group of all replicas
    assert "different sizes" in collective_problem("groups", [[0, 1, 2], [3, -1, -1]], 4)
    assert "more than once" in collective_problem("groups", [[0, 1], [1, 2]], 3)
    assert collective_problem("pairs", [[0, 1], [1, 0]], 2) is None
    assert "outside" in collective_problem("pairs", [[0, 2]], 2)
    assert "repeats" in collective_problem("pairs", [[0, 1], [0, 0]], 2)
    assert "not a 2-D array" in collective_problem("groups", None, 2)


# --- 5. fetching a variable handle --------------------------------------------------------------

def test_fetching_a_variable_handle_names_the_fetch(runtime):
    with runtime.Session(P.variables()) as session:
        session.run(targets=["init"])
        with pytest.raises(runtime.RunError, match=r"fetch 'v' is a resource handle"):
            session.run(["v"], {"x": np.ones((2, 2), np.float32)})
        # The session goes on: the variable's value is a ReadVariableOp away.
        (value,) = session.run(["read_v"], {"x": np.ones((2, 2), np.float32)})
    np.testing.assert_array_equal(value, [[1.0, 2.0], [3.0, 4.0]])


# --- 6. non-UTF-8 attribute values --------------------------------------------------------------

def _in_device_program(program, old, new):
    """`program` with `old` replaced by `new` in its embedded device program only."""
    start = program.index('mlir_module = "') + len('mlir_module = "')
    end = program.index('"', start)
    assert old in program[start:end]
    return program[:start] + program[start:end].replace(old, new) + program[end:]


def test_non_utf8_mlir_module_is_refused_naming_the_op(runtime):
    program = _in_device_program(P.dense(), "func.func @main(", "func.func @ma\\FFin(")
    raised, _ = _peak(lambda: runtime.Session(program))
    assert isinstance(raised, runtime.ProgramError), raised
    assert "tf._TPUCompileMlir" in str(raised) and "'mlir_module' is not UTF-8" in str(raised)


def test_non_utf8_symbol_inside_the_device_program_is_refused(runtime):
    # Valid UTF-8 text whose escaped symbol name is not UTF-8 once parsed.
    program = _in_device_program(P.dense(), "func.func @main(", P.embed('func.func @"ma\\FFin"('))
    with pytest.raises(runtime.ProgramError, match="tf._TPUCompileMlir"):
        runtime.Session(program)


def test_non_utf8_tpu_replicate_is_refused_naming_the_node(tf, runtime):
    graph_def = _with_attr(tf, _graph(tf), None, "_tpu_replicate", lambda a: setattr(a, "s", b"\xff\xfe"))
    with pytest.raises(runtime.ProgramError, match=r"node '.*'.*'_tpu_replicate' is not UTF-8"):
        runtime.run_graph_def(graph_def, {"x": np.ones((4, 3), np.float32)}, ["out"])


# --- 7. _TPUCompileMlir metadata ---------------------------------------------------------------

def _metadata(shapes, dtype=1, num_replicas=1, retvals=1, assignment=None):
    from tfmlir.passes.analysis import tpu_protos

    meta = tpu_protos.compile_metadata()
    for shape in shapes:
        arg = meta.args.add()
        arg.dtype = dtype
        arg.kind = tpu_protos.enum_value("tensorflow.tpu.TPUCompileMetadataProto.Arg.Kind", "PARAMETER")
        for d in shape:
            arg.shape.dim.add().size = d
    for _ in range(retvals):
        meta.retvals.add()
    meta.num_replicas = num_replicas
    meta.num_cores_per_replica = 1
    if assignment is not None:  # (replica_count, computation_count, [[device id per replica]])
        replica_count, computation_count, devices = assignment
        meta.device_assignment.replica_count = replica_count
        meta.device_assignment.computation_count = computation_count
        for ids in devices:
            meta.device_assignment.computation_devices.add().replica_device_ids.extend(ids)
    return _mlir_bytes(tpu_protos.serialize_metadata(meta))


def _dense_with(metadata):
    program = P.dense()
    old = 'metadata = ""'
    assert program.count(old) == 1
    return program.replace(old, f'metadata = "{metadata}"')


DENSE_FEEDS = {"x": np.ones((4, 3), np.float32), "w": np.ones((3, 5), np.float32),
               "b": np.ones(5, np.float32)}


@pytest.mark.slow
def test_metadata_describing_the_program_runs(runtime):
    with runtime.Session(_dense_with(_metadata([[4, 3], [3, 5], [5]]))) as session:
        (y,) = session.run(["y"], DENSE_FEEDS)
    np.testing.assert_allclose(y, np.full((4, 5), np.tanh(4.0), np.float32), rtol=1e-6)
    # A device assignment of the session's devices is accepted.
    with runtime.Session(_dense_with(_metadata([[4, 3], [3, 5], [5]], assignment=(1, 1, [[0]])))) as session:
        (y,) = session.run(["y"], DENSE_FEEDS)
    np.testing.assert_allclose(y, np.full((4, 5), np.tanh(4.0), np.float32), rtol=1e-6)


@pytest.mark.parametrize("metadata, why", [
    (lambda: _metadata([[5, 3], [3, 5], [5]]), r"argument 0 the shape \[5, 3\].*tensor<4x3xf32>"),
    (lambda: _metadata([[4, 3, 1], [3, 5], [5]]), r"argument 0 the shape \[4, 3, 1\]"),
    (lambda: _metadata([[4, 3], [3, 5]]), r"describes 2 argument\(s\).*takes 3"),
    (lambda: _metadata([[4, 3], [3, 5], [5]], dtype=2), r"argument 0 is (DT_)?(DOUBLE|double|float64)"),
    (lambda: _metadata([[4, 3], [3, 5], [5]], retvals=2), r"describes 2 result\(s\)"),
    (lambda: _metadata([[4, 3], [3, 5], [5]], num_replicas=2), r"compiled for 2 replica\(s\).*runs on 1"),
    (lambda: _metadata([[4, 3], [3, 5], [5]], num_replicas=2 ** 31 - 1), r"asks for 2147483647 replicas"),
    (lambda: "\\FF\\FF\\FF", "not a TPUCompileMetadataProto"),
    (lambda: _metadata([[4, 3], [3, 5], [5]], assignment=(2, 1, [[0, 1]])), r"replica_count 2, num_replicas is 1"),
    (lambda: _metadata([[4, 3], [3, 5], [5]], assignment=(1, 2, [[0], [1]])), r"computation_count 2"),
    (lambda: _metadata([[4, 3], [3, 5], [5]], assignment=(1, 1, [])), r"lists 0 computation"),
    (lambda: _metadata([[4, 3], [3, 5], [5]], assignment=(1, 1, [[0, 1]])), r"2 device\(s\) for 1 replicas"),
    (lambda: _metadata([[4, 3], [3, 5], [5]], assignment=(1, 1, [[4096]])), r"names device 4096"),
    (lambda: _metadata([[4, 3], [3, 5], [5]], num_replicas=2, assignment=(2, 1, [[1, 1]])),
     r"names device 1 twice"),
])
def test_metadata_not_describing_the_program_is_refused_before_compiling(runtime, monkeypatch, metadata, why):
    from tfmlir.runtime import device

    legalized = []
    monkeypatch.setattr(device.legalize, "legalize", lambda text: legalized.append(text) or "")
    with pytest.raises(runtime.ProgramError, match=why) as info:
        runtime.Session(_dense_with(metadata()))
    assert "tf._TPUCompileMlir" in str(info.value)
    assert not legalized  # refused before the program is legalized or compiled


@pytest.mark.parametrize("name, why", [
    ("br_metadata_argshape_ignored.mlir", r"argument 0 the shape \[5, 8\].*tensor<4x8xf32>"),
    ("br_metadata_numreplicas_ignored.mlir", r"\b9 replica"),
    ("br_mlir_module_nonutf8.mlir", r"'mlir_module' is not UTF-8"),
])
def test_reproducers(runtime, name, why):
    text = (REPRODUCERS / name).read_text()
    x = np.load(REPRODUCERS / "x48.npy")
    with pytest.raises(runtime.ProgramError, match=why) as info:
        with runtime.Session(text) as session:
            session.run(["out0"], {"x": x})
    assert "tf._TPUCompileMlir" in str(info.value)


def test_host_transfer_for_another_device_ordinal_is_refused(runtime):
    old = 'key = "host_compute_channel_0_args", device_ordinal = 0 : i64'
    program = P.middle()
    assert old in program
    with pytest.raises(runtime.ProgramError, match=r"_XlaRecvAtHost.*device_ordinal = 3, but the program of "
                                                   r".*tf._TPUCompileMlir.* runs on TPU:0"):
        runtime.Session(program.replace(old, old.replace("= 0", "= 3")))
    # The program on TPU:3 with its transfers for ordinal 3 is consistent (and runs).
    moved = program.replace(old, old.replace("= 0", "= 3")).replace(
        'key = "host_compute_channel_0_retvals", device_ordinal = 0', 'key = "host_compute_channel_0_retvals", '
        'device_ordinal = 3').replace(P.TPU, P.TPU[:-1] + "3")
    x = np.array([0.5, -1.25, 2.0], np.float32)
    (y,) = runtime.run(moved, {"x": x})
    (reference,) = runtime.run(program, {"x": x})
    np.testing.assert_array_equal(y, reference)


_EXECUTE_LAUNCH = '{device = "/job:localhost/replica:0/task:0/device:TPU:0"} : () -> tensor<3xf32>'


@pytest.mark.parametrize("old, new, why", [
    (_EXECUTE_LAUNCH, _EXECUTE_LAUNCH.replace("TPU:0", "GPU:0"), r"no device of the session matches '.*GPU:0'"),
    (_EXECUTE_LAUNCH, _EXECUTE_LAUNCH.replace("/job:localhost/replica:0/task:0/device:TPU:0", "not a device"),
     r"device 'not a device' is not a TensorFlow device name"),
    (_EXECUTE_LAUNCH, _EXECUTE_LAUNCH.replace("TPU:0", "CPU:0"), r"TPUExecute has a kernel for TPU devices only"),
    ('device:CPU:0"} : () -> ()', 'device:CPU:5"} : () -> ()', r"no device of the session matches '.*CPU:5'"),
    ("/job:localhost", "/job:worker", r"no device of the session matches '/job:worker/"),
])
def test_launch_devices_must_be_devices_of_the_session(runtime, old, new, why):
    # TensorFlow places a launch on its device or fails; the runtime refuses such programs when
    # the session is built, naming the launch.
    program = P.middle()
    assert old in program
    with pytest.raises(runtime.ProgramError, match=why) as info:
        runtime.Session(program.replace(old, new))
    assert "tf_device.launch" in str(info.value) or "TPUExecute" in str(info.value)


def test_launch_devices_are_checked_against_the_modules_device_list(runtime):
    # With tf.devices, the module's list is the device set (TPU:1 is an XLA device, not listed).
    program = P.middle().replace("module attributes {", 'module attributes {tf.devices = ['
                                 '"/job:localhost/replica:0/task:0/device:CPU:0", '
                                 '"/job:localhost/replica:0/task:0/device:TPU:0"], ', 1)
    x = np.array([0.5, -1.25, 2.0], np.float32)
    (reference,) = runtime.run(P.middle(), {"x": x})
    (y,) = runtime.run(program, {"x": x})
    np.testing.assert_array_equal(y, reference)
    moved = program.replace('"/job:localhost/replica:0/task:0/device:TPU:0"]', '"/job:localhost/replica:0/task:0/device:TPU:1"]')
    with pytest.raises(runtime.ProgramError, match=r"no device of the session matches '.*TPU:0'"):
        runtime.Session(moved)


def test_tpu_execute_operands_must_fit_the_device_program(runtime):
    # A TPUExecute whose operand types contradict the device program's @main is refused when
    # the session is built (TensorFlow checks the arguments when it executes).
    program = P.middle()
    old = '"tf.TPUExecute"(%x, %compile#1) : (tensor<3xf32>'
    assert old in program, program
    bad = program.replace(old, old.replace("tensor<3xf32>", "tensor<?xi32>")).replace(
        "func.func @main(%x: tensor<3xf32>)", "func.func @main(%x: tensor<?xi32>)", 1)
    with pytest.raises(runtime.ProgramError, match=r"operand 0 is tensor<\?xi32>, the device program .* "
                                                   r"takes tensor<3xf32>"):
        runtime.Session(bad)


def test_device_list_that_is_not_utf8_is_a_program_error(runtime):
    program = P.middle().replace("module attributes {", 'module attributes {tf.devices = ["\\FF"], ', 1)
    with pytest.raises(runtime.ProgramError, match=r"'tf.devices': b'\\xff' is not UTF-8 text"):
        runtime.Session(program)
