"""TPU programs run end to end: TF1 graphs with TPU computations, and plain TensorFlow's numbers.

Every program is built twice by the same code, once with TensorFlow's TPU
wrappers (``tf.compat.v1.tpu.rewrite`` / ``replicate``, ``outside_compilation``,
``cross_replica_sum``) -- the GraphDef tfmlir imports, bridges and runs -- and
once without them (the computation called directly, outside compilation a plain
call, a cross-replica sum the sum over the replicas' values) in a
``tf.compat.v1.Session``: the expected numbers. The list follows the clustering
issue's: variables updated across steps, 1/2/4 replicas with
``cross_replica_sum``, outside compilation at the head, the tail, in the middle,
in a ``tf.cond`` and a ``tf.while_loop`` (control flow v2), several outside
clusters, outside compilation with replicas, automatic outside compilation of
string ops, control flow v1 (``while_loop`` + ``cond`` with v2 disabled), a
small Keras model; eight replicas summing across replicas a value computed from a
placeholder every replica reads (a broadcast from the host); TensorArrays and TensorLists in
TPU computations (a
``while_loop`` accumulating a TensorArray, ``tf.map_fn``, an RNN unrolled by a
``while_loop`` over TensorArrays of its inputs and outputs: TensorList ops in
control flow v2); and a
ResNet50-sized Keras model (``resnet50``: ResNet50's
layers and 25.6M parameters at 64x64 input).

For every program ``<name>`` the generator writes ``<name>.pb`` (the TPU
GraphDef) and ``<name>.json``: ``{"feeds": {tensor: value}, "targets": [initializer
ops, run once first], "steps": N, "fetches": [tensor], "expected": [[value per fetch]
per step], "load_weights": number of variables}`` (values as ``{"dtype", "shape",
"value"}``); the plain graph is ``<name>.plain.pb``. Programs of ``LOAD_WEIGHTS``
(Keras' random initializers give two builds different values) also have
``<name>.weights.npz``: the values their ``load_weights`` target assigns, fed as
``load/<i>:0`` after the initializer, in both graphs.

Run as ``python tpu_e2e_programs.py OUTDIR`` in a TensorFlow child process;
cached by :mod:`generated_inputs`.
"""
import json
import os
import sys

PROGRAMS = ("variables_steps", "replicate_1", "replicate_2", "replicate_4", "outside_head",
            "outside_tail", "outside_middle", "outside_in_cond", "outside_in_while",
            "outside_several", "outside_replicated", "automatic_strings", "control_flow_v1",
            "keras_small", "tensor_array_loop", "map_fn", "rnn_loop", "broadcast_8")
LARGE_PROGRAMS = ("resnet50",)
# Programs tfmlir must refuse with a clear error before anything runs (no expected values).
BAD_PROGRAMS = ("bad_string_op_on_tpu", "bad_replica_counts")
# Programs whose variables get fixed values through ``load_weights`` (Keras' random initializers
# differ between two builds): placeholders ``load/<i>`` assigned to the variables in creation order.
LOAD_WEIGHTS = ("resnet50",)
# Programs built with control flow v1 (the others have control flow v2, where TensorArrays are
# TensorLists).
CONTROL_FLOW_V1 = ("control_flow_v1",)


class _Api:
    """The TPU wrappers (``tpu=True``) or their plain-TensorFlow meaning."""

    def __init__(self, tf, tpu):
        self.tf = tf
        self.tpu = tpu
        self.replicas = 1
        self._replica = 0
        self._pending = None

    def rewrite(self, computation, inputs):
        if self.tpu:
            return self.tf.compat.v1.tpu.rewrite(computation, inputs)
        return list(computation(*inputs))

    def replicate(self, computation, inputs):
        """Replicated: plain TF runs the replicas one after another; a cross-replica sum is
        the sum of the values the replicas give it (computed by `computation` per replica
        from the replica's inputs, so each replica's value is known when it is needed)."""
        if self.tpu:
            return self.tf.compat.v1.tpu.replicate(computation, inputs)
        self.replicas = len(inputs)
        self._inputs = inputs
        self._computation = computation
        outputs = []
        for r, replica_inputs in enumerate(inputs):
            self._replica = r
            outputs.append(list(computation(*replica_inputs)))
        return outputs

    def outside(self, fn, *args):
        if self.tpu:
            return self.tf.compat.v1.tpu.outside_compilation(fn, *args)
        return fn(*args)

    def cross_replica_sum(self, value, per_replica):
        """`per_replica(r)`: the value replica r gives (plain TF needs every replica's)."""
        if self.tpu:
            return self.tf.compat.v1.tpu.cross_replica_sum(value)
        return self.tf.add_n([per_replica(r) for r in range(self.replicas)])


def _programs(tf, np):
    tf1 = tf.compat.v1
    rng = np.random.default_rng(2026)

    def floats(*shape, low=-1.0, high=1.0):
        return rng.uniform(low, high, shape).astype(np.float32)

    def variable(name, value):
        return tf1.get_variable(name, initializer=tf.constant(value), use_resource=True)

    def host_round_trip(v):
        # A string round trip: no XLA kernel, so it runs on the host.
        return tf.strings.to_number(tf.strings.as_string(v, precision=6))

    def variables_steps(api):
        x = tf1.placeholder(tf.float32, [4, 3], name="x")
        w = variable("w", floats(3, 2))
        b = variable("b", floats(2))

        def computation(x):
            y = tf.nn.relu(tf.matmul(x, w) + b)
            update = b.assign_add(0.1 * tf.reduce_sum(y, axis=0))
            with tf.control_dependencies([update]):
                return [tf.identity(y)]

        (y,) = api.rewrite(computation, [x])
        out = tf.identity(y, name="out")
        with tf.control_dependencies([out]):
            tf.identity(b.read_value(), name="b_after")
        return {x: floats(4, 3)}, ["out", "b_after"], 3

    def replicated(replicas):
        def build(api):
            x = tf1.placeholder(tf.float32, [replicas, 8], name="x")
            w = variable("w", floats(8))
            rows = [x[i] for i in range(replicas)]

            def computation(xi):
                total = api.cross_replica_sum(xi * w, lambda r: rows[r] * w)
                grad = total / float(replicas)
                step = w.assign_sub(0.1 * grad)
                with tf.control_dependencies([step]):
                    return [tf.reduce_sum(w.read_value())]

            if api.tpu:
                outputs = api.replicate(computation, [[row] for row in rows])
            else:
                # Every replica updates the one variable with the same value: once.
                api.replicas = replicas
                outputs = [computation(rows[0])]
                with tf.control_dependencies(outputs[0]):
                    outputs += [[tf.reduce_sum(w.read_value())] for _ in range(1, replicas)]
            for r in range(replicas):
                tf.identity(outputs[r][0], name=f"out_{r}")
            return {x: floats(replicas, 8)}, [f"out_{r}" for r in range(replicas)], 2
        return build

    def single(shape, computation_of):
        def build(api):
            x = tf1.placeholder(tf.float32, shape, name="x")
            (y,) = api.rewrite(lambda x: [computation_of(api, x)], [x])
            tf.identity(y, name="out")
            return {x: floats(*shape, low=0.5, high=2.0)}, ["out"], 1
        return build

    def head(api, x):
        return tf.math.sqrt(api.outside(host_round_trip, x)) * 2.0

    def tail(api, x):
        return api.outside(host_round_trip, tf.math.exp(x) + 1.0)

    def middle(api, x):
        a = tf.matmul(x, x)
        return tf.matmul(api.outside(host_round_trip, a), a) - 1.0

    def in_cond(api, x):
        y = x * 2.0
        c = tf.cond(tf.reduce_sum(y) > 0.0, lambda: api.outside(host_round_trip, y) + 1.0,
                    lambda: y - 1.0)
        return c * 3.0

    def in_while(api, x):
        def body(i, v):
            v = api.outside(host_round_trip, v * 1.5)
            return i + 1, v + 1.0

        return tf.while_loop(lambda i, v: i < 3, body, [tf.constant(0), x])[1]

    def several(api, x):
        a = tf.math.square(x)
        h1 = api.outside(host_round_trip, a)
        b = tf.math.tanh(h1) + a
        h2 = api.outside(lambda u, v: host_round_trip(u) * v, b, a)
        return h2 + b

    def outside_replicated(api):
        x = tf1.placeholder(tf.float32, [2, 4], name="x")
        rows = [x[0], x[1]]

        def computation(xi):
            y = api.cross_replica_sum(xi, lambda r: rows[r])
            return [api.outside(host_round_trip, y) * 0.5]

        outputs = api.replicate(computation, [[rows[0]], [rows[1]]])
        for r in range(2):
            tf.identity(outputs[r][0], name=f"out_{r}")
        return {x: floats(2, 4)}, ["out_0", "out_1"], 1

    def rewritten_with_soft_placement(api, computation, x, soft):
        # TPUReplicateMetadata's allow_soft_placement comes from the context's setting.
        before = tf.config.get_soft_device_placement()
        tf.config.set_soft_device_placement(soft)
        try:
            (y,) = api.rewrite(computation, [x])
        finally:
            tf.config.set_soft_device_placement(before)
        tf.identity(y, name="out")
        return {x: floats(4)}, ["out"], 1

    def automatic_strings(api):
        x = tf1.placeholder(tf.float32, [4], name="x")

        def computation(x):
            s = tf.strings.as_string(x + 1.0, precision=6)
            return [tf.strings.to_number(s) * 2.0]

        return rewritten_with_soft_placement(api, computation, x, True)

    def control_flow_v1(api):
        x = tf1.placeholder(tf.float32, [2, 4], name="x")
        n = tf1.placeholder(tf.int32, [], name="n")
        rows = [x[0], x[1]]

        def looped(xi, ni):
            def body(i, v):
                v = tf.cond(tf.reduce_sum(v) > 0.0, lambda: v * 0.5, lambda: v + 1.0)
                return i + 1, v
            return tf.while_loop(lambda i, v: i < ni, body, [tf.constant(0), xi])[1]

        def computation(xi, ni):
            v = looped(xi, ni)
            return [api.cross_replica_sum(v, lambda r: looped(rows[r], ni))]

        outputs = api.replicate(computation, [[rows[0], n], [rows[1], n]])
        for r in range(2):
            tf.identity(outputs[r][0], name=f"out_{r}")
        return {x: floats(2, 4), n: np.array(3, np.int32)}, ["out_0", "out_1"], 1

    def keras_small(api):
        x = tf1.placeholder(tf.float32, [8, 6], name="x")
        k1, b1, k2, b2 = floats(6, 5), floats(5), floats(5, 2), floats(2)
        model = tf.keras.Sequential([
            tf.keras.layers.Dense(5, activation="relu", kernel_initializer=tf.constant_initializer(k1),
                                  bias_initializer=tf.constant_initializer(b1)),
            tf.keras.layers.Dense(2, kernel_initializer=tf.constant_initializer(k2),
                                  bias_initializer=tf.constant_initializer(b2))])
        model.build((None, 6))
        (y,) = api.rewrite(lambda x: [tf.nn.softmax(model(x))], [x])
        tf.identity(y, name="out")
        return {x: floats(8, 6)}, ["out"], 1

    def tensor_array_loop(api, x):
        # A while_loop accumulating one TensorArray element per iteration, stacked after it.
        def body(i, ta, v):
            v = tf.math.tanh(v * 1.5 + 0.1)
            return i + 1, ta.write(i, v), v

        ta = tf.TensorArray(tf.float32, size=4)
        _, ta, _ = tf.while_loop(lambda i, ta, v: i < 4, body, [tf.constant(0), ta, x])
        return tf.reduce_sum(ta.stack(), axis=0) - ta.read(2)

    def map_fn(api, x):
        return tf.map_fn(lambda row: row * tf.reduce_sum(row) + 1.0, x)

    def rnn_loop(api):
        # A dynamic RNN step loop: the inputs unstacked into a TensorArray, the hidden state
        # carried, every step's output written to another, stacked at the end.
        x = tf1.placeholder(tf.float32, [5, 2, 3], name="x")
        w, u = floats(3, 4), floats(4, 4)

        def computation(x):
            steps = tf.shape(x)[0]
            inputs = tf.TensorArray(tf.float32, size=steps).unstack(x)

            def body(t, h, outputs):
                h = tf.math.tanh(tf.matmul(inputs.read(t), w) + tf.matmul(h, u))
                return t + 1, h, outputs.write(t, h)

            _, h, outputs = tf.while_loop(lambda t, h, o: t < steps, body,
                                          [tf.constant(0), tf.zeros([2, 4]),
                                           tf.TensorArray(tf.float32, size=steps)])
            return [outputs.stack() * 2.0, h]

        y, h = api.rewrite(computation, [x])
        tf.identity(y, name="out")
        tf.identity(h, name="state")
        return {x: floats(5, 2, 3)}, ["out", "state"], 1

    def resnet50(api):
        x = tf1.placeholder(tf.float32, [2, 64, 64, 3], name="x")
        tf1.set_random_seed(7)
        model = tf.keras.applications.ResNet50(weights=None, input_shape=(64, 64, 3), classes=10,
                                                classifier_activation=None)
        (y,) = api.rewrite(lambda x: [model(x, training=False)], [x])
        tf.identity(y, name="out")
        return {x: floats(2, 64, 64, 3, low=0.0, high=1.0)}, ["out"], 1

    def broadcast_8(api):
        # Eight replicas read the same placeholder (captured by the computation, not a
        # replicated input: tf-xla-broadcast makes it an XlaAllReduce of replica 0's value and
        # zeros) and sum a per-replica reduction across replicas.
        x = tf1.placeholder(tf.float32, [4], name="x")
        scales = [tf.constant(float(r + 1)) for r in range(8)]

        def computation(scale):
            local = tf.reduce_sum(x * scale)
            return [api.cross_replica_sum(local, lambda r: tf.reduce_sum(x * scales[r]))]

        outputs = api.replicate(computation, [[scale] for scale in scales])
        tf.identity(outputs[0][0], name="out_0")
        tf.identity(outputs[7][0], name="out_7")
        return {x: floats(4)}, ["out_0", "out_7"], 1

    def bad_string_op_on_tpu(api):
        # A string op in the computation, soft placement off: neither XLA nor (without
        # outside compilation) the host may run it.
        x = tf1.placeholder(tf.float32, [4], name="x")

        def computation(x):
            return [tf.strings.to_number(tf.strings.as_string(x, name="as_string_on_tpu")) * 2.0]

        return rewritten_with_soft_placement(api, computation, x, False)

    def bad_replica_counts(api):
        # Two replicated computations that need different device assignments.
        x = tf1.placeholder(tf.float32, [4, 2], name="x")
        two = api.replicate(lambda v: [v * 2.0], [[x[0]], [x[1]]])
        four = api.replicate(lambda v: [v + 1.0], [[x[i]] for i in range(4)])
        tf.identity(two[0][0] + four[0][0], name="out")
        return {x: floats(4, 2)}, ["out"], 1

    return {"bad_string_op_on_tpu": bad_string_op_on_tpu, "bad_replica_counts": bad_replica_counts,
            "variables_steps": variables_steps, "replicate_1": replicated(1),
            "replicate_2": replicated(2), "replicate_4": replicated(4),
            "outside_head": single([4], head), "outside_tail": single([4], tail),
            "outside_middle": single([2, 2], middle), "outside_in_cond": single([3], in_cond),
            "outside_in_while": single([3], in_while), "outside_several": single([4], several),
            "outside_replicated": outside_replicated, "automatic_strings": automatic_strings,
            "control_flow_v1": control_flow_v1, "keras_small": keras_small, "resnet50": resnet50,
            "tensor_array_loop": single([4, 3], tensor_array_loop), "map_fn": single([3, 4], map_fn),
            "rnn_loop": rnn_loop, "broadcast_8": broadcast_8}


def _value(np, a):
    a = np.asarray(a)
    if a.dtype.kind in "SO":
        return {"dtype": "string", "shape": list(a.shape),
                "value": [v.decode() if isinstance(v, bytes) else v for v in np.ravel(a).tolist()]}
    return {"dtype": str(a.dtype), "shape": list(a.shape), "value": a.tolist()}


def _build(tf, np, name, tpu):
    builders = _programs(tf, np)
    graph = tf.Graph()
    if name in CONTROL_FLOW_V1:
        tf.compat.v1.disable_control_flow_v2()
    else:
        tf.compat.v1.enable_control_flow_v2()
    with graph.as_default():
        feeds, fetches, steps = builders[name](_Api(tf, tpu))
        init = tf.compat.v1.global_variables_initializer()
        if name in LOAD_WEIGHTS:
            assigns = []
            for i, v in enumerate(tf.compat.v1.global_variables()):
                value = tf.compat.v1.placeholder(v.dtype.base_dtype, v.shape, name=f"load/{i}")
                assigns.append(v.assign(value, read_value=False))
            tf.group(*assigns, name="load_weights")
    return graph, feeds, fetches, steps, init


def _generate(out_dir, names):
    import numpy as np
    import tensorflow as tf

    tf.compat.v1.disable_eager_execution()
    os.makedirs(out_dir, exist_ok=True)
    for name in names:
        graph, feeds, fetches, steps, init = _build(tf, np, name, tpu=True)
        with open(os.path.join(out_dir, name + ".pb"), "wb") as f:
            f.write(graph.as_graph_def().SerializeToString())
        if name in BAD_PROGRAMS:
            spec = {"feeds": {t.name: _value(np, v) for t, v in feeds.items()},
                    "targets": [init.name], "steps": steps, "fetches": fetches, "expected": [],
                    "load_weights": 0}
            with open(os.path.join(out_dir, name + ".json"), "w") as f:
                json.dump(spec, f)
            continue
        # The same values again for the plain graph: rebuilt with the same seeds.
        plain, plain_feeds, _, _, plain_init = _build(tf, np, name, tpu=False)
        with open(os.path.join(out_dir, name + ".plain.pb"), "wb") as f:
            f.write(plain.as_graph_def().SerializeToString())
        weights = {}
        if name in LOAD_WEIGHTS:
            # The values the plain graph's initializers give (TF cannot run the TPU graph),
            # fixed for both graphs (the same variables in the same order).
            with tf.compat.v1.Session(graph=plain) as sess:
                sess.run(plain_init)
                with plain.as_default():
                    values = sess.run([v.read_value() for v in tf.compat.v1.global_variables()])
            weights = {f"load/{i}:0": v for i, v in enumerate(values)}
            np.savez(os.path.join(out_dir, name + ".weights.npz"), **{
                k.replace("/", "_").replace(":", "_"): v for k, v in weights.items()})
        with tf.compat.v1.Session(graph=plain) as sess:
            sess.run(plain_init)
            if weights:
                sess.run("load_weights", {plain.get_tensor_by_name(k): v for k, v in weights.items()})
            feed_values = {plain.get_tensor_by_name(t.name): v for t, v in plain_feeds.items()}
            expected = [[_value(np, v) for v in sess.run([f + ":0" for f in fetches], feed_values)]
                        for _ in range(steps)]
        spec = {"feeds": {t.name: _value(np, v) for t, v in feeds.items()},
                "targets": [init.name], "steps": steps, "fetches": fetches, "expected": expected,
                "load_weights": len(weights)}
        with open(os.path.join(out_dir, name + ".json"), "w") as f:
            json.dump(spec, f)


# -- use (in the test process) ---------------------------------------------------------

def directory():
    import generated_inputs
    return generated_inputs.directory(__file__)


def path(name, suffix=".pb"):
    return os.path.join(directory(), name + suffix)


def spec(name):
    """The program's feeds (numpy values), targets, steps, fetches and expected values."""
    import numpy as np
    with open(path(name, ".json")) as f:
        data = json.load(f)

    def array(v):
        if v["dtype"] == "string":
            return np.array([s.encode() for s in v["value"]], dtype=object).reshape(v["shape"])
        return np.array(v["value"], dtype=v["dtype"]).reshape(v["shape"])

    data["feeds"] = {k: array(v) for k, v in data["feeds"].items()}
    data["weights"] = {}
    if data.get("load_weights"):
        with np.load(path(name, ".weights.npz")) as saved:
            data["weights"] = {f"load/{i}:0": saved[f"load_{i}_0"] for i in range(data["load_weights"])}
    data["expected"] = [[array(v) for v in step] for step in data["expected"]]
    return data


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    _generate(sys.argv[1], PROGRAMS + LARGE_PROGRAMS + BAD_PROGRAMS)
