"""TPU programs as users write them: the inputs of the clustering bridge, and TF's bridge outputs.

TF1 graphs built on CPU with ``tf.compat.v1.tpu.rewrite`` / ``tpu.replicate``
(never run), imported with ``convert_graph_def`` into ``tf_executor`` form and
given a ``tf.devices`` list (a CPU host, ``TPU_SYSTEM:0`` and four TPU cores),
as TF's clustering bridge expects (it fails without a host device). The programs follow the list of the
clustering issue: resource variables, 1, 2 and 4 replicas with
``cross_replica_sum``, ``outside_compilation`` at the head, the tail, in the
middle, inside ``tf.cond`` and inside ``tf.while_loop`` (control flow v2),
several outside-compiled clusters, automatic outside compilation of string ops
(``allow_soft_placement``, on by default in TF 2), and a small Keras model.

For every program ``<name>`` the generator writes:

* ``<name>.mlir``: the imported module (the input of both bridges);
* ``<name>.tf-v2.mlir``: TF 2.21's ``tf-replicated-clustering-bridge-v2`` on it
  (printed without locations), or ``// error: <message>`` when TF fails;
* ``<name>.tf-v1.mlir``: the same for ``tf-replicated-clustering-bridge-v1``.

Generated in one TensorFlow child process (``python tpu_bridge_programs.py
OUTDIR``) and cached (:mod:`generated_inputs`).
"""
import os
import sys

PIPELINES = ("tf-v2", "tf-v1")
_PIPELINE_NAMES = {"tf-v2": "tf-replicated-clustering-bridge-v2",
                   "tf-v1": "tf-replicated-clustering-bridge-v1"}

DEVICES = (["/job:localhost/replica:0/task:0/device:CPU:0",
            "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0"]
           + [f"/job:localhost/replica:0/task:0/device:TPU:{i}" for i in range(4)])


def _graphs(tf):
    tf1 = tf.compat.v1

    def variable(name, shape, value=1.0):
        return tf1.get_variable(name, shape, initializer=tf1.constant_initializer(value),
                                use_resource=True)

    def host_round_trip(v):
        # A string round trip: no XLA kernel, so it can only run on the host.
        return tf.strings.to_number(tf.strings.as_string(v))

    def rewrite_variables():
        x = tf1.placeholder(tf.float32, [4, 3], name="x")
        w = variable("w", [3, 2])
        b = variable("b", [2], 0.5)

        def computation(x):
            y = tf.nn.relu(tf.matmul(x, w) + b)
            update = b.assign_add(tf.reduce_sum(y, axis=0))
            with tf.control_dependencies([update]):
                return [tf.identity(y)]

        tf1.tpu.rewrite(computation, [x])

    def replicated(replicas):
        def build():
            x = tf1.placeholder(tf.float32, [replicas, 8], name="x")
            w = variable("w", [8])

            def computation(xi):
                grad = tf1.tpu.cross_replica_sum(xi * w) / float(replicas)
                step = w.assign_sub(0.1 * grad)
                with tf.control_dependencies([step]):
                    return [tf.reduce_sum(w.read_value())]

            tf1.tpu.replicate(computation, [[x[i]] for i in range(replicas)])
        return build

    def outside_head():
        x = tf1.placeholder(tf.float32, [4], name="x")

        def computation(x):
            h = tf1.tpu.outside_compilation(host_round_trip, x)
            return [tf.math.sqrt(h) * 2.0]

        tf1.tpu.rewrite(computation, [x])

    def outside_tail():
        x = tf1.placeholder(tf.float32, [4], name="x")

        def computation(x):
            y = tf.math.exp(x) + 1.0
            return [tf1.tpu.outside_compilation(host_round_trip, y)]

        tf1.tpu.rewrite(computation, [x])

    def outside_middle():
        x = tf1.placeholder(tf.float32, [2, 2], name="x")

        def computation(x):
            a = tf.matmul(x, x)
            h = tf1.tpu.outside_compilation(host_round_trip, a)
            return [tf.matmul(h, a) - 1.0]

        tf1.tpu.rewrite(computation, [x])

    def outside_in_cond():
        x = tf1.placeholder(tf.float32, [3], name="x")

        def computation(x):
            y = x * 2.0
            c = tf.cond(tf.reduce_sum(y) > 0.0,
                        lambda: tf1.tpu.outside_compilation(host_round_trip, y) + 1.0,
                        lambda: y - 1.0)
            return [c * 3.0]

        tf1.tpu.rewrite(computation, [x])

    def outside_in_while():
        x = tf1.placeholder(tf.float32, [3], name="x")

        def computation(x):
            def body(i, v):
                v = tf1.tpu.outside_compilation(host_round_trip, v * 1.5)
                return i + 1, v + 1.0

            _, out = tf.while_loop(lambda i, v: i < 3, body, [tf.constant(0), x])
            return [out]

        tf1.tpu.rewrite(computation, [x])

    def outside_several():
        x = tf1.placeholder(tf.float32, [4], name="x")

        def computation(x):
            a = tf.math.square(x)
            h1 = tf1.tpu.outside_compilation(host_round_trip, a)
            b = tf.math.tanh(h1) + a
            h2 = tf1.tpu.outside_compilation(lambda u, v: host_round_trip(u) * v, b, a)
            return [h2 + b]

        tf1.tpu.rewrite(computation, [x])

    def outside_replicated():
        x = tf1.placeholder(tf.float32, [2, 4], name="x")

        def computation(xi):
            y = tf1.tpu.cross_replica_sum(xi)
            h = tf1.tpu.outside_compilation(host_round_trip, y)
            return [h * 0.5]

        tf1.tpu.replicate(computation, [[x[0]], [x[1]]])

    def automatic_strings():
        x = tf1.placeholder(tf.float32, [4], name="x")

        def computation(x):
            y = x + 1.0
            s = tf.strings.as_string(y)
            return [tf.strings.to_number(s) * 2.0]

        # The TPUReplicateMetadata's allow_soft_placement comes from the context's setting.
        soft = tf.config.get_soft_device_placement()
        tf.config.set_soft_device_placement(True)
        try:
            tf1.tpu.rewrite(computation, [x])
        finally:
            tf.config.set_soft_device_placement(soft)

    def keras_small():
        x = tf1.placeholder(tf.float32, [8, 6], name="x")
        model = tf.keras.Sequential([tf.keras.layers.Dense(5, activation="relu"),
                                     tf.keras.layers.Dense(2)])
        model.build((None, 6))

        def computation(x):
            return [tf.nn.softmax(model(x))]

        tf1.tpu.rewrite(computation, [x])

    return {"rewrite_variables": rewrite_variables,
            "replicate_1": replicated(1), "replicate_2": replicated(2), "replicate_4": replicated(4),
            "outside_head": outside_head, "outside_tail": outside_tail,
            "outside_middle": outside_middle, "outside_in_cond": outside_in_cond,
            "outside_in_while": outside_in_while, "outside_several": outside_several,
            "outside_replicated": outside_replicated, "automatic_strings": automatic_strings,
            "keras_small": keras_small}


PROGRAMS = ("rewrite_variables", "replicate_1", "replicate_2", "replicate_4", "outside_head",
            "outside_tail", "outside_middle", "outside_in_cond", "outside_in_while",
            "outside_several", "outside_replicated", "automatic_strings", "keras_small")


def _generate(out_dir):
    import generated_inputs
    import tensorflow as tf

    tf.compat.v1.enable_control_flow_v2()
    devices = "[" + ", ".join(f'"{d}"' for d in DEVICES) + "]"
    outputs = {}
    for name, build in _graphs(tf).items():
        graph = tf.Graph()
        with graph.as_default():
            build()
        text = tf.mlir.experimental.convert_graph_def(graph.as_graph_def(), pass_pipeline="")
        text = text.replace("module attributes {", f"module attributes {{tf.devices = {devices}, ", 1)
        outputs[name] = text
        for key, pipeline in _PIPELINE_NAMES.items():
            try:
                result = tf.mlir.experimental.run_pass_pipeline(text, pipeline, show_debug_info=False)
            except Exception as exc:  # TF's failure is part of the oracle
                result = "// error: " + " ".join(str(exc).split())
            outputs[f"{name}.{key}"] = result
    generated_inputs.write(out_dir, outputs)


# -- use (in the test process) ---------------------------------------------------------

def input_names():
    """The imported programs (the inputs of the bridge)."""
    return list(PROGRAMS)


def get(name):
    """The text of generated file `name` (a program, or ``<program>.tf-v2`` / ``.tf-v1``)."""
    import generated_inputs
    return generated_inputs.read(__file__, name)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    _generate(sys.argv[1])
