"""TPU programs at the start of TF's clustering bridge: inputs for the TPU cluster passes.

Small TF1 graphs built with ``tf.compat.v1.tpu.rewrite`` / ``tpu.replicate``
(casts and identities at the head of the computation feeding outside
compilation, ``tf.function`` calls, ``tf.cond`` with branch functions,
explicit device placements, colocation) are imported with
``convert_graph_def`` (the module gets a ``tf.devices`` list) and put through
TF's first bridge passes (``tf-canonicalize-compile-and-replicate-attributes``,
graph pruning, executor-to-functional conversion, one use per function, shape
inference). TF's cluster formation pass is not registered in TensorFlow's
Python build, so :func:`form_clusters` (tfmlir, in a child process) wraps the
ops of each computation in a ``tf_device.cluster`` the way TF's does --
placed at the last op, ops in between that use the computation moved after
it, the ``tf.TPUReplicateMetadata`` attributes on the cluster -- but keeps
the ops' ``_replication_info``, ``_xla_compile_device_type`` and ``device``
(TF strips them from the cluster's own ops; here the cleanup pass has them
to remove). Generated in one TensorFlow child process (``python
tpu_cluster_programs.py OUTDIR``) and cached (:mod:`generated_inputs`).

Each program gives two inputs (:data:`VARIANTS`):

* ``<program>``: the formed clusters (the input of
  -tf-tpu-cleanup-cluster-attributes);
* ``<program>.expansion``: that after TF's own next bridge passes
  (-tf-tpu-cleanup-cluster-attributes, -tf-device-attribute-to-launch,
  canonicalization, -tf-device-decompose-resource-ops-in-cluster): the input
  -tf-tpu-host-computation-expansion gets in the bridge.
"""
import os
import subprocess
import sys

PROGRAMS = ("rewrite_head_casts", "replicate_head_casts", "rewrite_cond_calls", "rewrite_devices",
            "two_computations")
VARIANTS = ("", ".expansion")

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
            with open(os.path.join(work, name + ".mlir")) as f:
                formed = f.read()
            expansion = tf.mlir.experimental.run_pass_pipeline(formed, _EXPANSION, show_debug_info=False)
            generated_inputs.write(out_dir, {name: formed, name + ".expansion": expansion})


# -- cluster formation (tfmlir, in a child without TensorFlow) ------------------------

def form_clusters(text):
    """`text` with the ops of each computation (a ``_replication_info`` value) of each function
    wrapped in a ``tf_device.cluster`` (see the module docstring)."""
    import tfmlir  # noqa: F401
    from mlir import ir

    with ir.Context() as context, ir.Location.unknown(context):
        module = ir.Module.parse(text)
        for func in module.body.operations:
            if func.operation.name == "func.func" and len(func.regions[0].blocks) == 1:
                _form_in_block(func.regions[0].blocks[0], ir)
        module.operation.verify()
        return str(module)


def _form_in_block(block, ir):
    ops = [op.operation for op in block.operations]
    groups, metadata = {}, {}
    for op in ops:
        if "_replication_info" not in op.attributes:
            continue
        info = ir.StringAttr(op.attributes["_replication_info"]).value
        if op.name == "tf.TPUReplicateMetadata":
            metadata[info] = op
        else:
            groups.setdefault(info, []).append(op)
    for info, members in groups.items():
        _form_cluster(block, members, metadata.get(info), ir)


def _used_values(op, ir):
    values = []

    def visit(nested):
        values.extend(nested.operands)
        return ir.WalkResult.ADVANCE

    op.walk(visit)
    return values


def _form_cluster(block, members, metadata, ir):
    ops = [op.operation for op in block.operations]
    position = {key: k for k, key in enumerate(_keys(ops))}
    member_keys = set(_keys(members))
    first, last = position[_key(members[0])], position[_key(members[-1])]
    # Ops between the first and the last member that use the computation go after the cluster.
    defined = {v for op in members for v in op.results}
    moved_after, moved_values = [], set()
    for op in ops[first:last + 1]:
        used = _used_values(op, ir)
        if _key(op) in member_keys:
            if any(v in moved_values for v in used):
                raise ValueError(f"'{op.name}' of the computation uses an op that must follow it")
            continue
        if any(v in defined for v in used):
            moved_after.append(op)
            defined.update(op.results)
            moved_values.update(op.results)
    results, outside_uses = [], []
    for op in members:
        for result in op.results:
            uses = [(use.owner, use.operand_number) for use in result.uses
                    if _top_level(use.owner, block) not in member_keys]
            if uses:
                outside_uses.append((len(results), uses))
                results.append(result)
    attributes = {}
    if metadata is not None:
        for k in range(len(metadata.attributes)):
            named = metadata.attributes[k]
            if named.name not in ("name", "num_replicas"):
                attributes[named.name] = named.attr
    for name in ("_replication_info", "_xla_compile_device_type"):
        if name in members[0].attributes:
            attributes[name] = members[0].attributes[name]
    cluster = ir.Operation.create("tf_device.cluster", results=[r.type for r in results],
                                  attributes=attributes, regions=1, loc=members[-1].location,
                                  ip=ir.InsertionPoint(members[-1]))
    body = cluster.regions[0].blocks.append()
    anchor = cluster
    for op in moved_after:
        op.move_after(anchor)
        anchor = op
    for op in members:
        op.detach_from_parent()
        ir.InsertionPoint(body).insert(op)
    ir.Operation.create("tf_device.return", operands=results, ip=ir.InsertionPoint(body))
    for number, uses in outside_uses:
        for owner, operand in uses:
            owner.operands[operand] = cluster.results[number]
    if metadata is not None:
        metadata.erase()


def _key(op):
    from tfmlir.passes.analysis.executor import op_key
    return op_key(op)


def _keys(ops):
    return [_key(op) for op in ops]


def _top_level(op, block):
    op = op.operation
    while op.block != block:
        op = op.parent.operation
    return _key(op)


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
                formed = form_clusters(f.read())
            with open(path, "w") as f:
                f.write(formed)
    else:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        _generate(sys.argv[1])
