"""TPU programs at the start of TF's clustering bridge: inputs for the TPU cluster passes.

Small TF1 graphs built with ``tf.compat.v1.tpu.rewrite`` / ``tpu.replicate``
(casts and identities at the head of the computation feeding outside
compilation, ``tf.function`` calls, ``tf.cond`` with branch functions,
explicit device placements, colocation) are imported with
``convert_graph_def`` (the module gets a ``tf.devices`` list) and put through
TF's first bridge passes (``tf-canonicalize-compile-and-replicate-attributes``,
graph pruning, executor-to-functional conversion, one use per function, shape
inference). TF's cluster formation pass is not registered in TensorFlow's
Python build, so :func:`form_clusters` runs tfmlir's -tf-tpu-cluster-formation
(in a child process without TensorFlow) on that. Generated in one TensorFlow
child process (``python tpu_cluster_programs.py OUTDIR``) and cached
(:mod:`generated_inputs`).

Each program gives three inputs (:data:`VARIANTS`):

* ``<program>``: the formed clusters (``tf_device.cluster`` ops, in a
  ``tf_device.replicate`` for ``tpu.replicate``), the input of
  -tf-tpu-cleanup-cluster-attributes in TF's bridge: the cluster ops have lost
  their ``_replication_info``, ``_xla_compile_device_type`` and
  non-TPU_REPLICATED_CORE ``device``, the ops of functions they call and
  ``_class`` attributes have not;
* ``<program>.kept``: the same clusters with their ops' original
  ``_replication_info``, ``_xla_compile_device_type`` and ``device`` put back
  -- more for the cleanup pass to remove;
* ``<program>.expansion``: ``<program>`` after TF's own next bridge passes
  (-tf-tpu-cleanup-cluster-attributes, -tf-device-attribute-to-launch,
  canonicalization, -tf-device-decompose-resource-ops-in-cluster): the input
  -tf-tpu-host-computation-expansion gets in the bridge.
"""
import os
import subprocess
import sys

PROGRAMS = ("rewrite_head_casts", "replicate_head_casts", "rewrite_cond_calls", "rewrite_devices",
            "two_computations")
VARIANTS = ("", ".kept", ".expansion")

_DEVICES = (["/job:localhost/replica:0/task:0/device:CPU:0",
             "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0"]
            + [f"/job:localhost/replica:0/task:0/device:TPU:{i}" for i in range(2)])

_FRONT = ("func.func(tf-canonicalize-compile-and-replicate-attributes),"
          "func.func(tf-executor-graph-pruning{ops-to-preserve=tf.TPUReplicateMetadata,"
          "tf.TPUCompilationResult,tf.TPUReplicatedOutput}),"
          "func.func(tf-executor-to-functional-conversion),tf-guarantee-all-funcs-one-use,tf-shape-inference")
_EXPANSION = ("tf-tpu-cleanup-cluster-attributes,func.func(tf-device-attribute-to-launch,canonicalize),"
              "tf-device-decompose-resource-ops-in-cluster")


def input_names():
    return [program + variant for program in PROGRAMS for variant in VARIANTS]


# -- generation (in the TensorFlow child) ----------------------------------------

def _graphs(tf):
    tf1 = tf.compat.v1

    def variable(name, shape):
        return tf1.get_variable(name, shape, initializer=tf1.ones_initializer(), use_resource=True)

    def host(v):
        return tf.strings.to_number(tf.strings.as_string(v))

    def rewrite_head_casts():
        x = tf1.placeholder(tf.int32, [4, 3], name="x")
        w = variable("w", [3, 2])

        @tf.function
        def helper(a):
            return tf.nn.relu(a) * 2.0

        def computation(x):
            xf = tf.identity(tf.cast(x, tf.float32))
            h = tf1.tpu.outside_compilation(host, xf)
            y = helper(tf.matmul(h, w) + tf.constant(1.0))
            z = tf1.tpu.outside_compilation(host, y)
            return [y + z]

        tf1.tpu.rewrite(computation, [x])

    def replicate_head_casts():
        x = tf1.placeholder(tf.int32, [4], name="x")
        w = variable("w", [4])

        def computation(x):
            a = tf.identity(x)
            b = tf.cast(a, tf.float32)
            c = tf.identity(b)
            h = tf1.tpu.outside_compilation(lambda v: host(v) + 1.0, c)
            d = tf.cast(x, tf.float64)  # also used on the device: stays
            k = tf1.tpu.outside_compilation(host, d)
            w.assign_add(tf.cast(k, tf.float32))
            return [h * w + tf.cast(d, tf.float32)]

        tf1.tpu.replicate(computation, [[x], [x + 1]])

    def rewrite_cond_calls():
        x = tf1.placeholder(tf.float32, [3], name="x")

        @tf.function
        def inner(a):
            return tf.nn.relu(a) + 1.0

        @tf.function
        def outer(a):
            return inner(a) * inner(a * 2.0)

        def computation(x):
            y = outer(tf.identity(x))
            c = tf.cond(tf.reduce_sum(y) > 0, lambda: y * 3.0, lambda: inner(y))
            return [c + tf1.tpu.outside_compilation(host, tf.identity(c))]

        tf1.tpu.rewrite(computation, [x])

    def rewrite_devices():
        x = tf1.placeholder(tf.float32, [2, 2], name="x")

        def computation(x):
            with tf.device("/device:TPU_REPLICATED_CORE:0"):
                a = tf.math.square(x)
            with tf.device("/job:localhost/replica:0/task:0/device:CPU:0"):
                b = tf.math.abs(a)
            with tf1.colocate_with(a):
                c = tf.math.negative(b)
            d = tf1.tpu.outside_compilation(host, tf.cast(c, tf.float64))
            return [c + tf.cast(d, tf.float32)]

        tf1.tpu.rewrite(computation, [x])

    def two_computations():
        x = tf1.placeholder(tf.float32, [2], name="x")
        a = tf1.tpu.rewrite(lambda x: [tf1.tpu.outside_compilation(host, tf.identity(x)) * 2.0], [x])
        tf1.tpu.rewrite(lambda x: [tf.nn.relu(tf.cast(tf.cast(x, tf.int32), tf.float32))], [a[0]])

    return {"rewrite_head_casts": rewrite_head_casts, "replicate_head_casts": replicate_head_casts,
            "rewrite_cond_calls": rewrite_cond_calls, "rewrite_devices": rewrite_devices,
            "two_computations": two_computations}


def _generate(out_dir):
    import tempfile

    import generated_inputs
    import tensorflow as tf

    tf.compat.v1.enable_control_flow_v2()
    devices = "[" + ", ".join(f'"{d}"' for d in _DEVICES) + "]"
    with tempfile.TemporaryDirectory() as work:
        front = {}
        for name, build in _graphs(tf).items():
            graph = tf.Graph()
            with graph.as_default():
                build()
            text = tf.mlir.experimental.convert_graph_def(graph.as_graph_def(), pass_pipeline="")
            text = text.replace("module attributes {", f"module attributes {{tf.devices = {devices}, ", 1)
            front[name] = tf.mlir.experimental.run_pass_pipeline(text, _FRONT, show_debug_info=False)
        generated_inputs.write(work, front)
        # Cluster formation with tfmlir, in a process without TensorFlow.
        proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--form", work, *front],
                              capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            raise RuntimeError(f"forming the clusters failed:\n{proc.stderr[-4000:]}")
        for name in front:
            formed = {}
            for variant in ("", ".kept"):
                with open(os.path.join(work, name + variant + ".mlir")) as f:
                    formed[name + variant] = f.read()
            expansion = tf.mlir.experimental.run_pass_pipeline(formed[name], _EXPANSION,
                                                               show_debug_info=False)
            generated_inputs.write(out_dir, {**formed, name + ".expansion": expansion})


# -- cluster formation (tfmlir, in a child without TensorFlow) ------------------------

_KEPT = ("_replication_info", "_xla_compile_device_type", "device")
_STASH = "tfmlir_test.kept."


def form_clusters(text, keep_attributes=False):
    """`text` after tfmlir's -tf-tpu-cluster-formation; with `keep_attributes`, the ops in the
    clusters get back the ``_replication_info``, ``_xla_compile_device_type`` and ``device``
    they had before (see the module docstring)."""
    import tfmlir  # noqa: F401
    from mlir import ir
    from tfmlir.passes import run

    def each_op(module, visit):
        def walk(op):
            visit(op.operation)
            return ir.WalkResult.ADVANCE
        module.operation.walk(walk)

    def stash(op):
        for name in _KEPT:
            if name in op.attributes:
                op.attributes[_STASH + name] = op.attributes[name]

    def restore(op):
        in_cluster = _in_cluster(op)
        for name in _KEPT:
            if _STASH + name in op.attributes:
                if in_cluster:
                    op.attributes[name] = op.attributes[_STASH + name]
                del op.attributes[_STASH + name]

    with ir.Context() as context, ir.Location.unknown(context):
        module = ir.Module.parse(text)
        if keep_attributes:
            each_op(module, stash)
        run(module, "builtin.module(tf-tpu-cluster-formation)")
        if keep_attributes:
            each_op(module, restore)
        module.operation.verify()
        return str(module)


def _in_cluster(op):
    parent = op.parent
    while parent is not None:
        parent = parent.operation
        if parent.name == "tf_device.cluster":
            return True
        parent = parent.parent
    return False


# -- use (in the test process) ---------------------------------------------------------

def get(name):
    """The text of input `name` (one of :func:`input_names`)."""
    import generated_inputs
    return generated_inputs.read(__file__, name)


if __name__ == "__main__":
    if sys.argv[1] == "--form":
        for program in sys.argv[3:]:
            path = os.path.join(sys.argv[2], program + ".mlir")
            with open(path) as f:
                text = f.read()
            for variant, keep in (("", False), (".kept", True)):
                with open(os.path.join(sys.argv[2], program + variant + ".mlir"), "w") as f:
                    f.write(form_clusters(text, keep_attributes=keep))
    else:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        _generate(sys.argv[1])
