"""TPU programs with partitioned inputs and outputs, as TF's Python builds them.

TF1 graphs built with ``tf.compat.v1.tpu.replicate`` and a device assignment
of several cores per replica, whose inputs go through the ops of
``gen_tpu_partition_ops`` (what ``TPUReplicatedVariable.handle`` emits for
model-parallel variables): ``tpu_partitioned_input`` along a dimension,
``tpu_partitioned_input_v2`` of per-core variable handles (one per replica,
or packed: one handle for all cores), ``tpu_partitioned_output`` of a result.
Imported with ``convert_graph_def`` (the module gets a ``tf.devices`` list) and
put through TF's bridge passes before -tf-tpu-partitioned-op-conversion
(attribute canonicalization, graph pruning, executor-to-functional
conversion, one use per function, shape inference). Generated in one
TensorFlow child process (``python tpu_partitioned_programs.py OUTDIR``) and
cached (:mod:`generated_inputs`).
"""
import os
import sys

PROGRAMS = ("partitioned_input_and_output", "partitioned_variables", "packed_variable")

_DEVICES = (["/job:localhost/replica:0/task:0/device:CPU:0",
             "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0"]
            + [f"/job:localhost/replica:0/task:0/device:TPU:{i}" for i in range(4)])

_FRONT = ("func.func(tf-canonicalize-compile-and-replicate-attributes),"
          "func.func(tf-executor-graph-pruning{ops-to-preserve=tf.TPUReplicateMetadata,"
          "tf.TPUCompilationResult,tf.TPUReplicatedOutput}),"
          "func.func(tf-executor-to-functional-conversion),tf-guarantee-all-funcs-one-use,tf-shape-inference")


def input_names():
    return list(PROGRAMS)


def _graphs(tf):
    from tensorflow.python.ops import gen_tpu_partition_ops as partition_ops

    tf1 = tf.compat.v1

    def assignment(replicas, cores):
        count = replicas * cores
        topology = tf.tpu.experimental.Topology(
            mesh_shape=[1, 1, 1, count], device_coordinates=[[[0, 0, 0, i] for i in range(count)]])
        return tf.tpu.experimental.DeviceAssignment(
            topology, core_assignment=[[[0, 0, 0, r * cores + c] for c in range(cores)]
                                       for r in range(replicas)])

    def variable(name):
        return tf1.get_variable(name, [4], initializer=tf1.ones_initializer(), use_resource=True)

    def read_and_update(handle):
        value = tf.raw_ops.ReadVariableOp(resource=handle, dtype=tf.float32)
        tf.raw_ops.AssignVariableOp(resource=handle, value=value + 1.0)
        return [value * 2.0]

    def partitioned_input_and_output():
        pieces = [tf1.placeholder(tf.float32, [2, 3], name=f"x{i}") for i in range(2)]
        joined = partition_ops.tpu_partitioned_input(pieces, partition_dim=0)
        out = tf1.tpu.replicate(lambda x: [tf.nn.relu(x) * 2.0], [[joined]],
                                device_assignment=assignment(1, 2))
        partition_ops.tpu_partitioned_output(out[0][0], num_splits=2, partition_dim=0)

    def partitioned_variables():
        handles = [variable(f"v{i}").handle for i in range(4)]
        inputs = [[partition_ops.tpu_partitioned_input_v2(handles[2 * r:2 * r + 2], partition_dims=[])]
                  for r in range(2)]
        tf1.tpu.replicate(read_and_update, inputs, device_assignment=assignment(2, 2))

    def packed_variable():
        handle = variable("w").handle
        inputs = [[partition_ops.tpu_partitioned_input_v2([handle], partition_dims=[], is_packed=True)]
                  for _ in range(2)]
        tf1.tpu.replicate(read_and_update, inputs, device_assignment=assignment(2, 2))

    return {"partitioned_input_and_output": partitioned_input_and_output,
            "partitioned_variables": partitioned_variables, "packed_variable": packed_variable}


def _generate(out_dir):
    import generated_inputs
    import tensorflow as tf

    tf.compat.v1.disable_eager_execution()
    tf.compat.v1.enable_control_flow_v2()
    devices = "[" + ", ".join(f'"{d}"' for d in _DEVICES) + "]"
    for name, build in _graphs(tf).items():
        graph = tf.Graph()
        with graph.as_default():
            build()
        text = tf.mlir.experimental.convert_graph_def(graph.as_graph_def(), pass_pipeline="")
        text = text.replace("module attributes {", f"module attributes {{tf.devices = {devices}, ", 1)
        front = tf.mlir.experimental.run_pass_pipeline(text, _FRONT, show_debug_info=False)
        generated_inputs.write(out_dir, {name: front})


def get(name):
    """The text of input `name` (one of :func:`input_names`)."""
    import generated_inputs
    return generated_inputs.read(__file__, name)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    _generate(sys.argv[1])
