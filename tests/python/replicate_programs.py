"""Generates real programs for the replicate / control-flow passes with TensorFlow.

Run as a script in a subprocess (keeps TensorFlow out of the pytest process):

    python replicate_programs.py OUTDIR

Writes ``OUTDIR/<name>.mlir`` (:func:`generated_inputs.write`).
The programs are our own and small:

* ``bridge_*``: ``tf.compat.v1.tpu.replicate`` graphs (built on CPU, never
  run), imported with ``convert_graph_def`` and put through TF's own
  clustering bridge (``tf-replicated-clustering-bridge-v2``, with a
  ``tf.devices`` list): ``tf_device.replicate`` ops holding variable reads,
  shapes, invariant ops and the ``cluster_func``. ``*_unaliased`` variants
  drop the ``tf.aliasing_output`` attributes the bridge already added;
  ``bridge_rewrite_outside_*`` is a single-core ``tpu.rewrite`` with
  outside compilation (a ``tf_device.parallel_execute``).
* ``conds_*``: TF2 functions with several ``tf.cond`` on one predicate,
  converted with TF's standard pipeline and
  ``tf-functional-control-flow-to-regions``; :func:`finish` then wraps each
  function body in a ``tf_device.cluster`` (where the merge pass looks).
"""
import os
import re
import sys

tf = None

PROGRAMS = {
    "bridge_replicate_vars": "bridge",
    "bridge_replicate_vars_unaliased": "bridge",
    "bridge_replicate_broadcast": "bridge",
    "bridge_replicate_broadcast_unaliased": "bridge",
    "bridge_rewrite_outside_unaliased": "bridge",
    "conds_same_predicate": "cluster",
    "conds_dependent": "cluster",
}

_DEVICES = ["/job:localhost/replica:0/task:0/device:CPU:0",
            "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0"]


def _bridge(graph_def, replicas):
    text = tf.mlir.experimental.convert_graph_def(graph_def, pass_pipeline="")
    devices = _DEVICES + [f"/job:localhost/replica:0/task:0/device:TPU:{k}" for k in range(replicas)]
    attr = "tf.devices = [" + ", ".join(f'"{d}"' for d in devices) + "], "
    text = text.replace("module attributes {", "module attributes {" + attr, 1)
    return tf.mlir.experimental.run_pass_pipeline(text, "tf-replicated-clustering-bridge-v2",
                                                  show_debug_info=False)


def _replicate_vars():
    from tensorflow.python.tpu import tpu

    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [4], name="x")
        w = tf.compat.v1.get_variable("w", initializer=tf.ones([4]), use_resource=True)
        acc = tf.compat.v1.get_variable("acc", initializer=tf.zeros([4]), use_resource=True)

        def step(a):
            y = a * w + 1.0
            acc.assign_add(y)
            w.assign(w * 0.5)
            return tf.reduce_sum(y) + tf.cast(tf.shape(a)[0], tf.float32)

        out = tpu.replicate(step, inputs=[[x], [x + 1.0]])
        tf.identity(out[0][0], name="out0")
        tf.identity(out[1][0], name="out1")
    return _bridge(g.as_graph_def(), 2)


def _replicate_broadcast():
    from tensorflow.python.tpu import tpu

    g = tf.Graph()
    with g.as_default():
        xs = [tf.compat.v1.placeholder(tf.float32, [2, 3], name=f"x{k}") for k in range(4)]
        scale = tf.compat.v1.placeholder(tf.float32, [3], name="scale")
        w = tf.compat.v1.get_variable("w", initializer=tf.ones([3, 3]), use_resource=True)
        b = tf.compat.v1.get_variable("b", initializer=tf.zeros([3]), use_resource=True)
        steps = tf.compat.v1.get_variable("steps", initializer=tf.zeros([], tf.int32),
                                          use_resource=True)

        def step(a, s):
            h = tf.matmul(a * s, w) + b
            b.assign_sub(tf.reduce_mean(h, axis=0) * 0.1)
            steps.assign_add(1)
            return tf.nn.relu(h), tf.shape(h)

        out = tpu.replicate(step, inputs=[[x, scale] for x in xs])
        for k, (h, shape) in enumerate(out):
            tf.identity(h, name=f"h{k}")
            tf.identity(shape, name=f"shape{k}")
    return _bridge(g.as_graph_def(), 4)


def _rewrite_outside():
    """Single-core tpu.rewrite with variables and outside compilation: the variable reads and
    writes sit around a ``tf_device.parallel_execute`` holding the cluster_func."""
    from tensorflow.python.tpu import tpu

    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [4], name="x")
        w = tf.compat.v1.get_variable("w", initializer=tf.ones([4]), use_resource=True)
        acc = tf.compat.v1.get_variable("acc", initializer=tf.zeros([4]), use_resource=True)

        def step(a):
            y = a * w + acc
            y = tf.compat.v1.tpu.outside_compilation(
                lambda t: tf.strings.to_number(tf.strings.as_string(t)) * 2.0, y)
            acc.assign(y)
            w.assign(w * 0.5)
            return tf.reduce_sum(y)

        out = tpu.rewrite(step, [x])
        tf.identity(out[0], name="out")
    return _bridge(g.as_graph_def(), 1)


def _to_regions(fn, *specs):
    concrete = tf.function(fn, input_signature=list(specs)).get_concrete_function()
    text = tf.mlir.experimental.convert_function(concrete)
    return tf.mlir.experimental.run_pass_pipeline(text, "tf-functional-control-flow-to-regions",
                                                  show_debug_info=False)


def _conds_same_predicate():
    v = tf.Variable(tf.zeros([3]), name="v")

    def fn(x, flag):
        p = flag > 0
        a = tf.cond(p, lambda: x * 2.0, lambda: x - 1.0)
        b = tf.cond(p, lambda: tf.nn.relu(x), lambda: tf.abs(x))
        c = tf.cond(p, lambda: tf.reduce_sum(x), lambda: tf.reduce_max(x))
        v.assign(a)
        return a + b, c

    fn._keep = v
    return _to_regions(fn, tf.TensorSpec([3], tf.float32), tf.TensorSpec([], tf.int32))


def _conds_dependent():
    v = tf.Variable(tf.ones([3]), name="v")

    def fn(x, flag):
        p = flag > 0
        a = tf.cond(p, lambda: x * 2.0, lambda: x)
        m = a * 3.0
        b = tf.cond(p, lambda: m + 1.0, lambda: m - 1.0)
        c = tf.cond(p, lambda: v.read_value() * 2.0, lambda: x)
        v.assign(c)
        d = tf.cond(p, lambda: v.read_value(), lambda: x)
        e = tf.cond(p, lambda: tf.sin(x), lambda: tf.cos(x))
        return b + d + e

    fn._keep = v
    return _to_regions(fn, tf.TensorSpec([3], tf.float32), tf.TensorSpec([], tf.int32))


_ALIASING = re.compile(r"tf\.aliasing_output = \d+ : i64(, )?")


def _unaliased(text):
    text = _ALIASING.sub("", text)
    return text.replace(", }", "}")


def _generate(name):
    if name.startswith("bridge_replicate_vars"):
        text = _replicate_vars()
    elif name.startswith("bridge_replicate_broadcast"):
        text = _replicate_broadcast()
    elif name.startswith("bridge_rewrite_outside"):
        text = _rewrite_outside()
    elif name == "conds_same_predicate":
        text = _conds_same_predicate()
    elif name == "conds_dependent":
        text = _conds_dependent()
    else:
        raise KeyError(name)
    return _unaliased(text) if name.endswith("_unaliased") else text


def finish(name, text):
    """The input a program gives the passes: ``conds_*`` get their function bodies wrapped in a
    ``tf_device.cluster`` (done with tfmlir, in the calling process)."""
    if PROGRAMS[name] != "cluster":
        return text
    import tfmlir
    from mlir import ir

    with ir.Context():
        module = ir.Module.parse(text)
        for func in module.body.operations:
            func = func.operation
            if func.name != "func.func" or not len(func.regions[0].blocks):
                continue
            block = func.regions[0].blocks[0]
            ops = [op.operation for op in block.operations]
            body, ret = ops[:-1], ops[-1]
            if not body:
                continue
            returned = list(ret.operands)
            cluster = ir.Operation.create("tf_device.cluster", results=[v.type for v in returned],
                                          regions=1, loc=ret.location, ip=ir.InsertionPoint(ret))
            inner = cluster.regions[0].blocks.append()
            for op in body:
                op.detach_from_parent()
                ir.InsertionPoint(inner).insert(op)
            ir.Operation.create("tf_device.return", operands=returned, loc=ret.location,
                                ip=ir.InsertionPoint(inner))
            for k, value in enumerate(returned):
                ret.operands[k] = cluster.results[k]
        return tfmlir.print_ir(module)


def input_names():
    return sorted(PROGRAMS)


def get(name):
    """The input program `name` stands for (generated once, :mod:`generated_inputs`)."""
    import generated_inputs
    return finish(name, generated_inputs.read(__file__, name))


def main(argv):
    global tf
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow

    tf = tensorflow
    import generated_inputs
    generated_inputs.write(argv[1], {name: _generate(name) for name in PROGRAMS})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
