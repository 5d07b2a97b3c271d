"""TF1 graphs with control flow v1: the inputs of ``tf-executor-functionalize-control-flow``.

Small programs of our own, built in graph mode with control flow v2 disabled
(``Switch`` / ``Merge`` / ``Enter`` / ``Exit`` / ``NextIteration`` /
``LoopCond`` in the GraphDef), placeholders as feeds:

* ``cond_simple``: one ``tf.cond``;
* ``nested_cond``: a cond in a cond branch, and a second cond on the same predicate;
* ``while_simple``: one ``tf.while_loop``;
* ``nested_while``: a loop in a loop body; the inner loop reads an outer loop
  variable and a loop-invariant tensor;
* ``cond_in_loop`` / ``loop_in_cond``;
* ``while_tensor_array``: a ``tf.TensorArray`` written in the loop, stacked after;
* ``while_resource_variable``: a resource variable read and ``assign_add``'ed in the body;
* ``while_maximum_iterations``: ``maximum_iterations`` given;
* ``while_shape_invariant``: a loop variable that grows (``shape_invariants``);
* ``while_control_deps``: control dependencies in the body and on the loop's output.

For every program ``<name>`` the generator writes:

* ``<name>.pb``: the binary GraphDef;
* ``<name>.json``: ``{"feeds": {tensor: {"dtype", "shape", "value"}}, "fetches": [tensor],
  "targets": [op run first, e.g. variable initializers], "expected": [{"dtype", "shape",
  "value"}]}`` -- ``expected`` is what a ``tf.compat.v1.Session`` computes (targets run
  first, then the fetches with the feeds);
* ``<name>.tf-upgraded.mlir``: TensorFlow's own functionalization: the graph saved as a TF1
  SavedModel (tag ``serve``, signature ``serving_default`` with the feeds and fetches) and
  imported by ``tf.mlir.experimental.convert_saved_model_v1(..., upgrade_legacy=True)``,
  or ``// error: <message>`` when TF fails.

And ``tpu_while``: a TPU program (``tpu.replicate``, 2 replicas; a ``tf.while_loop``
and a ``tf.cond`` with control flow v1 in the computation) as ``tpu_while.pb`` and
``tpu_while.json`` (``{"devices": [...]}``, the device list the bridge needs; never run).

All values are seeded. Run as ``python tf1_control_flow_programs.py OUTDIR`` in a
TensorFlow child process; cached by :mod:`generated_inputs`.
"""
import json
import os
import shutil
import sys
import tempfile

PROGRAMS = ("cond_simple", "nested_cond", "while_simple", "nested_while", "cond_in_loop",
            "loop_in_cond", "while_tensor_array", "while_resource_variable",
            "while_maximum_iterations", "while_shape_invariant", "while_control_deps")
TPU_PROGRAMS = ("tpu_while",)

DEVICES = (["/job:localhost/replica:0/task:0/device:CPU:0",
            "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0"]
           + [f"/job:localhost/replica:0/task:0/device:TPU:{i}" for i in range(2)])


def _programs(tf, np):
    """{name: build}; build() makes the graph in the current default graph and returns
    (feeds {placeholder tensor: numpy value}, fetches [tensor], targets [op])."""
    tf1 = tf.compat.v1
    rng = np.random.default_rng(1234)

    def floats(*shape):
        return rng.uniform(-1.0, 1.0, size=shape).astype(np.float32)

    def cond_simple():
        x = tf1.placeholder(tf.float32, [2, 3], name="x")
        y = tf1.placeholder(tf.float32, [2, 3], name="y")
        out = tf.cond(tf.reduce_sum(x) > tf.reduce_sum(y),
                      lambda: x * 2.0 + y, lambda: tf.tanh(x) - y)
        return {x: floats(2, 3), y: floats(2, 3)}, [tf.identity(out, name="out")], []

    def nested_cond():
        x = tf1.placeholder(tf.float32, [3], name="x")
        p = tf1.placeholder(tf.bool, [], name="p")

        def outer_true():
            inner = tf.cond(tf.reduce_sum(x) > 0.0, lambda: x + 1.0, lambda: x * x)
            return inner * 3.0

        a = tf.cond(p, outer_true, lambda: -x)
        b = tf.cond(p, lambda: tf.reduce_max(x), lambda: tf.reduce_min(x))
        return ({x: np.array([0.5, -0.25, 0.125], np.float32), p: np.array(True)},
                [tf.identity(a, name="out_a"), tf.identity(b, name="out_b")], [])

    def while_simple():
        x = tf1.placeholder(tf.float32, [3], name="x")
        n = tf1.placeholder(tf.int32, [], name="n")
        i, v = tf.while_loop(lambda i, v: i < n, lambda i, v: (i + 1, v * 0.5 + 1.0),
                             [tf.constant(0), x])
        return ({x: floats(3), n: np.array(5, np.int32)},
                [tf.identity(i, name="out_i"), tf.identity(v, name="out_v")], [])

    def nested_while():
        x = tf1.placeholder(tf.float32, [2], name="x")
        n = tf1.placeholder(tf.int32, [], name="n")
        w = tf.exp(x) * 0.25  # loop invariant, used by the inner loop

        def outer_body(i, acc):
            def inner_body(j, a):
                return j + 1, a + w * tf.cast(i, tf.float32)

            _, acc = tf.while_loop(lambda j, a: j < i, inner_body, [tf.constant(0), acc])
            return i + 1, acc

        i, acc = tf.while_loop(lambda i, acc: i < n, outer_body, [tf.constant(0), x])
        return ({x: floats(2), n: np.array(4, np.int32)},
                [tf.identity(i, name="out_i"), tf.identity(acc, name="out_acc")], [])

    def cond_in_loop():
        x = tf1.placeholder(tf.float32, [3], name="x")
        n = tf1.placeholder(tf.int32, [], name="n")

        def body(i, v):
            v = tf.cond(tf.equal(i % 2, 0), lambda: v + 1.0, lambda: v * 0.5)
            return i + 1, v

        _, v = tf.while_loop(lambda i, v: i < n, body, [tf.constant(0), x])
        return {x: floats(3), n: np.array(5, np.int32)}, [tf.identity(v, name="out")], []

    def loop_in_cond():
        x = tf1.placeholder(tf.float32, [3], name="x")
        p = tf1.placeholder(tf.bool, [], name="p")

        def looping():
            _, v = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * 2.0 - 0.5),
                                 [tf.constant(0), x])
            return v

        out = tf.cond(p, looping, lambda: x - 1.0)
        return {x: floats(3), p: np.array(True)}, [tf.identity(out, name="out")], []

    def while_tensor_array():
        x = tf1.placeholder(tf.float32, [2], name="x")
        n = tf1.placeholder(tf.int32, [], name="n")
        ta = tf.TensorArray(tf.float32, size=n, element_shape=[2])

        def body(i, ta):
            return i + 1, ta.write(i, x * tf.cast(i + 1, tf.float32))

        _, ta = tf.while_loop(lambda i, ta: i < n, body, [tf.constant(0), ta])
        return {x: floats(2), n: np.array(4, np.int32)}, [tf.identity(ta.stack(), name="out")], []

    def while_resource_variable():
        x = tf1.placeholder(tf.float32, [2], name="x")
        n = tf1.placeholder(tf.int32, [], name="n")
        v = tf1.get_variable("v", [2], initializer=tf1.constant_initializer(0.5), use_resource=True)

        def body(i, acc):
            # Read, then update, then the next iteration: without the control dependencies the
            # reads of later iterations may run before earlier updates (parallel iterations).
            with tf.control_dependencies([i, acc]):
                r = v.read_value()
            with tf.control_dependencies([r]):
                update = v.assign_add(x)
            with tf.control_dependencies([update]):
                return i + 1, acc + r

        _, acc = tf.while_loop(lambda i, acc: i < n, body, [tf.constant(0), tf.zeros([2])])
        with tf.control_dependencies([acc]):
            final = tf.identity(v.read_value(), name="out_v")
        init = tf.group(v.initializer, name="init")
        return ({x: floats(2), n: np.array(3, np.int32)},
                [tf.identity(acc, name="out_acc"), final], [init])

    def while_maximum_iterations():
        x = tf1.placeholder(tf.float32, [3], name="x")
        i, v = tf.while_loop(lambda i, v: i < 100, lambda i, v: (i + 1, v + tf.cast(i, tf.float32)),
                             (tf.constant(0), x), maximum_iterations=4)
        return {x: floats(3)}, [tf.identity(i, name="out_i"), tf.identity(v, name="out_v")], []

    def while_shape_invariant():
        x = tf1.placeholder(tf.float32, [2], name="x")
        n = tf1.placeholder(tf.int32, [], name="n")
        _, t = tf.while_loop(lambda i, t: i < n,
                             lambda i, t: (i + 1, tf.concat([t, t[-1:] + 1.0], 0)),
                             [tf.constant(0), x],
                             shape_invariants=[tf.TensorShape([]), tf.TensorShape([None])])
        return ({x: floats(2), n: np.array(3, np.int32)},
                [tf.identity(t, name="out"), tf.identity(tf.shape(t), name="out_shape")], [])

    def while_control_deps():
        x = tf1.placeholder(tf.float32, [3], name="x")
        n = tf1.placeholder(tf.int32, [], name="n")

        def body(i, v):
            check = tf.debugging.assert_less(i, 100, name="bound")
            with tf.control_dependencies([check]):
                v = tf.identity(v * 1.25)
            return i + 1, v - 0.5

        _, v = tf.while_loop(lambda i, v: i < n, body, [tf.constant(0), x])
        with tf.control_dependencies([v]):
            after = tf.identity(x * 2.0, name="after")
        return ({x: floats(3), n: np.array(4, np.int32)},
                [tf.identity(v, name="out"), tf.identity(after, name="out_after")], [])

    return {"cond_simple": cond_simple, "nested_cond": nested_cond, "while_simple": while_simple,
            "nested_while": nested_while, "cond_in_loop": cond_in_loop, "loop_in_cond": loop_in_cond,
            "while_tensor_array": while_tensor_array,
            "while_resource_variable": while_resource_variable,
            "while_maximum_iterations": while_maximum_iterations,
            "while_shape_invariant": while_shape_invariant, "while_control_deps": while_control_deps}


def _tpu_while(tf):
    tf1 = tf.compat.v1
    x = tf1.placeholder(tf.float32, [2, 4], name="x")
    n = tf1.placeholder(tf.int32, [], name="n")

    def computation(xi, ni):
        def body(i, v):
            v = tf.cond(tf.reduce_sum(v) > 0.0, lambda: v * 0.5, lambda: v + 1.0)
            return i + 1, v

        _, v = tf.while_loop(lambda i, v: i < ni, body, [tf.constant(0), xi])
        return [tf1.tpu.cross_replica_sum(v)]

    out = tf1.tpu.replicate(computation, [[x[0], n], [x[1], n]])
    tf.identity(out[0][0], name="out_0")
    tf.identity(out[1][0], name="out_1")


def _value(np, a):
    a = np.asarray(a)
    value = a.tolist()
    if a.dtype.kind == "S" or a.dtype == object:
        value = [v.decode() if isinstance(v, bytes) else v for v in np.ravel(a).tolist()]
    return {"dtype": str(a.dtype), "shape": list(a.shape), "value": value}


def _upgraded(tf, graph, feeds, fetches, targets, work):
    """TF's functionalization of `graph`: a TF1 SavedModel through convert_saved_model_v1."""
    tf1 = tf.compat.v1
    path = os.path.join(work, "saved_model")
    try:
        with graph.as_default():
            with tf1.Session(graph=graph) as sess:
                for t in targets:
                    sess.run(t)
                builder = tf1.saved_model.Builder(path)
                signature = tf1.saved_model.signature_def_utils.predict_signature_def(
                    inputs={p.op.name: p for p in feeds},
                    outputs={t.op.name: t for t in fetches})
                builder.add_meta_graph_and_variables(
                    sess, ["serve"], signature_def_map={"serving_default": signature})
                builder.save()
        return tf.mlir.experimental.convert_saved_model_v1(
            path, "", "serve", lift_variables=False, include_variables_in_initializers=False,
            upgrade_legacy=True, show_debug_info=False)
    except Exception as exc:  # TF's failure is part of the oracle
        return "// error: " + " ".join(str(exc).split())
    finally:
        shutil.rmtree(path, ignore_errors=True)


def _generate(out_dir):
    import numpy as np
    import tensorflow as tf

    tf.compat.v1.disable_eager_execution()
    tf.compat.v1.disable_control_flow_v2()
    os.makedirs(out_dir, exist_ok=True)
    work = tempfile.mkdtemp(prefix="tf1cf-")
    try:
        for name, build in _programs(tf, np).items():
            graph = tf.Graph()
            with graph.as_default():
                tf.compat.v1.set_random_seed(0)
                feeds, fetches, targets = build()
            graph_def = graph.as_graph_def()
            with open(os.path.join(out_dir, name + ".pb"), "wb") as f:
                f.write(graph_def.SerializeToString(deterministic=True))
            with tf.compat.v1.Session(graph=graph) as sess:
                for t in targets:
                    sess.run(t)
                results = sess.run(fetches, feed_dict=feeds)
            spec = {"feeds": {p.name: _value(np, v) for p, v in feeds.items()},
                    "fetches": [t.name for t in fetches],
                    "targets": [t.name for t in targets],
                    "expected": [_value(np, r) for r in results]}
            with open(os.path.join(out_dir, name + ".json"), "w") as f:
                json.dump(spec, f, indent=1)
            text = _upgraded(tf, graph, list(feeds), fetches, targets, work)
            with open(os.path.join(out_dir, name + ".tf-upgraded.mlir"), "w", encoding="utf-8",
                      newline="") as f:
                f.write(text)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    graph = tf.Graph()
    with graph.as_default():
        _tpu_while(tf)
    with open(os.path.join(out_dir, "tpu_while.pb"), "wb") as f:
        f.write(graph.as_graph_def().SerializeToString(deterministic=True))
    with open(os.path.join(out_dir, "tpu_while.json"), "w") as f:
        json.dump({"devices": DEVICES}, f, indent=1)


# -- use (in the test process) ---------------------------------------------------------

def directory():
    """The directory of the generated files (generated once, :mod:`generated_inputs`)."""
    import generated_inputs
    return generated_inputs.directory(__file__)


def path(name, suffix=".pb"):
    """The path of `name` + `suffix` (``.pb``, ``.json``, ``.tf-upgraded.mlir``)."""
    return os.path.join(directory(), name + suffix)


def spec(name):
    """The ``<name>.json`` dictionary."""
    with open(path(name, ".json")) as f:
        return json.load(f)


def tf_upgraded(name):
    """TF's functionalized module text of `name`, or ``// error: ...``."""
    with open(path(name, ".tf-upgraded.mlir"), encoding="utf-8") as f:
        return f.read()


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    _generate(sys.argv[1])
