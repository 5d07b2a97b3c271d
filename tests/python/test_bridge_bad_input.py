"""Bad TPU programs through the clustering bridge: TF's diagnostics, at the op.

Each case is a TPU program of :mod:`tpu_bridge_programs` broken the way users
break them (:data:`CASES`): ops of one computation that both feed and consume
the same op outside it, a computation calling a function that holds another
computation (TF accepts it), a ``tf.TPUReplicateMetadata`` whose replica count the
``tf.TPUReplicatedInput`` ops do not match, a computation nested in a function
called from another, a ``tf.TPUReplicateMetadata`` without ops, outside
compilation inside a loop with no host device. tfmlir's bridge (TF's
registered passes in TF, the others in tfmlir: :mod:`bridge_diff`) must do
what TF's whole ``tf-replicated-clustering-bridge-v2`` does: fail with TF's
first message at the same source line, or accept the program with TF's
output (TF ignores a ``tf.TPUReplicateMetadata`` without ops). Where TF has no
message of its own (:data:`NOT_TF_MESSAGES`: its process dies, or it emits a
warning and then produces IR its verifier rejects), tfmlir must fail with the
message given there.
"""
import re

import pytest

import bridge_diff
import tpu_bridge_programs as programs


def _cycle(text):
    # The first outside-compiled op leaves the computation: the computation both feeds it and
    # consumes its result.
    return text.replace('{_tpu_replicate = "cluster", _xla_outside_compilation = "0", device = ""}',
                        '{device = ""}', 1)


def _replica_count(text):
    return text.replace("num_replicas = 2 : i64", "num_replicas = 3 : i64", 1)


def _metadata_without_ops(text):
    metadata = re.search(r'( *)%control_1 = tf_executor.island\(%control\) wraps '
                         r'"tf.TPUReplicateMetadata"\(\)(.*)\n', text)
    lonely = (f'{metadata.group(1)}%lonely = tf_executor.island wraps "tf.TPUReplicateMetadata"()'
              + metadata.group(2).replace('_tpu_replicate = "cluster"', '_tpu_replicate = "lonely"')
              + "\n")
    return text[:metadata.end()] + lonely + text[metadata.end():]


def _no_host(text):
    return text.replace('"/job:localhost/replica:0/task:0/device:CPU:0", ', "", 1)


def _nested(text):
    # A second computation's metadata inside the first one (same block, the inner one's ops
    # are the outer one's): two TPUReplicateMetadata ops for one computation.
    metadata = re.search(r'( *)%control_1 = tf_executor.island\(%control\) wraps '
                         r'"tf.TPUReplicateMetadata"\(\)(.*)\n', text)
    second = (f'{metadata.group(1)}%again = tf_executor.island wraps "tf.TPUReplicateMetadata"()'
              + metadata.group(2) + "\n")
    return text[:metadata.end()] + second + text[metadata.end():]


# A computation whose op calls a function holding another computation (its own metadata).
NESTED_COMPUTATIONS = """\
module attributes {tf.devices = ["/job:localhost/replica:0/task:0/device:CPU:0", "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0", "/job:localhost/replica:0/task:0/device:TPU:0"], tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 1987 : i32}} {
  func.func @main(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = tf_executor.graph {
      %c = tf_executor.island wraps "tf.TPUReplicateMetadata"() {_tpu_replicate = "outer", allow_soft_placement = false, computation_shape = [], device = "", device_assignment = [], host_compute_core = [], num_cores_per_replica = 1 : i64, num_replicas = 1 : i64, padding_map = [], step_marker_location = "STEP_MARK_AT_ENTRY", topology = "", tpu_compile_options_proto = "", use_spmd_for_xla_partitioning = false, use_tpu = true} : () -> ()
      %1, %c1 = tf_executor.island wraps "tf.StatefulPartitionedCall"(%arg0) {_tpu_replicate = "outer", config = "", config_proto = "", executor_type = "", f = @inner_fn, device = ""} : (tensor<f32>) -> tensor<f32>
      %2, %c2 = tf_executor.island wraps "tf.Identity"(%1) {_tpu_replicate = "outer", device = ""} : (tensor<f32>) -> tensor<f32>
      tf_executor.fetch %2 : tensor<f32>
    }
    func.return %0 : tensor<f32>
  }
  func.func private @inner_fn(%arg0: tensor<f32>) -> tensor<f32> {
    "tf.TPUReplicateMetadata"() {_tpu_replicate = "inner", allow_soft_placement = false, computation_shape = [], device = "", device_assignment = [], host_compute_core = [], num_cores_per_replica = 1 : i64, num_replicas = 1 : i64, padding_map = [], step_marker_location = "STEP_MARK_AT_ENTRY", topology = "", tpu_compile_options_proto = "", use_spmd_for_xla_partitioning = false, use_tpu = true} : () -> ()
    %0 = "tf.Neg"(%arg0) {_tpu_replicate = "inner", device = ""} : (tensor<f32>) -> tensor<f32>
    func.return %0 : tensor<f32>
  }
}
"""


def _nested_computations(_text):
    return NESTED_COMPUTATIONS


# case: (program, transformation)
CASES = {
    "nested_computations": ("outside_head", _nested_computations),
    "feed_and_consume_outside_op": ("outside_middle", _cycle),
    "replicated_input_count": ("replicate_2", _replica_count),
    "metadata_without_ops": ("outside_head", _metadata_without_ops),
    "duplicate_metadata": ("outside_tail", _nested),
    "loop_outside_compilation_without_host": ("outside_in_while", _no_host),
}


# case: (why TF's own error is not the expectation, tfmlir's message)
NOT_TF_MESSAGES = {
    "feed_and_consume_outside_op": (
        "TF warns 'Op has cyclic dependency with a compilation cluster', forms the cluster anyway "
        "and its verifier then rejects the output (operand does not dominate its use)",
        "Op has cyclic dependency with a compilation cluster"),
    "loop_outside_compilation_without_host": (
        "TF's process aborts",
        "'tf_device.cluster' op cannot determine the host device for outside compilation"),
}



@pytest.fixture(scope="module")
def results():
    texts = {}
    for case, (program, transform) in CASES.items():
        original = programs.get(program)
        texts[case] = transform(original)
        assert texts[case] != original, f"{case}: the transformation changed nothing"
    theirs = bridge_diff.tf_pipeline(texts, "tf-replicated-clustering-bridge-v2")
    from tfmlir.passes import bridge_pipelines

    # The whole bridge in tfmlir when it has every pass (one segment: diagnostics carry the input's
    # locations), else TF's registered passes in TF (locations of the text between segments).
    everything = not bridge_pipelines.missing_passes(bridge_pipelines.BRIDGE_V2)
    ours = bridge_diff.run_pipeline(texts, bridge_pipelines.BRIDGE_V2, everything=everything)
    return theirs, ours


_LOCATED = re.compile(r"^(?:-|loc\(\"-\")?:(\d+):\d+\)?:? ?error: (.*)$", re.M)


def _first_error(message):
    found = _LOCATED.search(message)
    if found:
        return int(found.group(1)), found.group(2).strip()
    return None, message.strip().splitlines()[0] if message.strip() else ""


@pytest.mark.tf
@pytest.mark.parametrize("case", sorted(CASES))
def test_fails_like_tf(case, results):
    from tfmlir.testing.tf_oracle import canonical

    theirs, ours = results
    if case in NOT_TF_MESSAGES:
        assert not theirs[case]["ok"], f"{case}: TF's bridge accepts the program"
        assert not ours[case]["ok"], f"{case}: tfmlir's bridge accepts the program"
        assert NOT_TF_MESSAGES[case][1] in ours[case]["error"], ours[case]["error"][:1000]
        assert "loc(" in ours[case]["error"], "the diagnostic has no location"
        return
    if theirs[case]["ok"]:
        assert ours[case]["ok"], f"{case}: TF accepts the program, tfmlir fails: {ours[case]['error']}"
        assert canonical(ours[case]["text"]) == canonical(theirs[case]["text"])
        return
    assert not ours[case]["ok"], f"{case}: tfmlir's bridge accepts the program TF rejects"
    tf_line, tf_message = _first_error(theirs[case]["error"])
    assert tf_message, theirs[case]["error"]
    assert tf_message in ours[case]["error"], (case, tf_message, ours[case]["error"][:1000])
    assert tf_line is not None, theirs[case]["error"]
    if ours[case]["stage"].startswith("0:"):  # the input's own locations
        assert f'"-":{tf_line}:' in ours[case]["error"], (case, tf_line, ours[case]["error"][:1000])
