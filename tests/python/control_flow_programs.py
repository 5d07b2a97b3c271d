"""Generates TensorFlow's MLIR for small programs with control flow v2 (differential inputs).

Run as a script in a subprocess (keeps TensorFlow out of the pytest process):

    python control_flow_programs.py OUTDIR

Writes ``OUTDIR/<name>.mlir`` for every name of :data:`PROGRAMS`
(:func:`generated_inputs.write`). The programs (our own, deliberately small): Keras
and ``tf.function`` models using ``tf.cond``, ``tf.while_loop`` (with shape
invariants too) and ``tf.switch_case``, converted by TF
(``convert_function``, then ``tf-executor-to-functional-conversion``: functional
``tf.If`` / ``tf.While`` / ``tf.Case``), the same programs in region form
(TF's ``tf-functional-control-flow-to-regions``), and a TF1 TPU program
with control flow v2 in the computation after TF's whole clustering bridge
(``tf-replicated-clustering-bridge-v2``, which leaves IfRegion / WhileRegion
with inlined bodies), and that program made functional by TF's
``tf-region-control-flow-to-functional``.
"""
import os
import sys

tf = None

_MODELS = {}


def model(name):
    def register(fn):
        _MODELS[name] = fn
        return fn

    return register


@model("keras_cond_switch")
def _keras_cond_switch():
    class Gate(tf.keras.layers.Layer):
        def build(self, shape):
            self.w = self.add_weight(shape=(shape[-1], 4), initializer="ones")

        def call(self, x):
            y = tf.matmul(x, self.w)
            y = tf.cond(tf.reduce_mean(y) > 0.0, lambda: tf.nn.relu(y), lambda: y * 0.5)
            index = tf.cast(tf.reduce_sum(tf.abs(y)), tf.int32) % 3
            return tf.switch_case(index, [lambda: y + 1.0, lambda: y - 1.0, lambda: tf.tanh(y)])

    inputs = tf.keras.Input(shape=(3,), batch_size=2)
    keras_model = tf.keras.Model(inputs, Gate()(inputs))
    fn = tf.function(keras_model, input_signature=[tf.TensorSpec([2, 3], tf.float32)])
    return fn, keras_model


@model("while_nested_cond")
def _while_nested_cond():
    v = tf.Variable(tf.ones([2]), name="v")

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32), tf.TensorSpec([], tf.int32)])
    def loop(x, n):
        def body(i, acc):
            acc = tf.cond(i % 2 == 0, lambda: acc + v, lambda: acc * 0.5)
            return i + 1, acc

        _, y = tf.while_loop(lambda i, acc: i < n, body, [tf.constant(0), x])
        # A loop whose shape changes: shape_invariant on the While.
        _, z = tf.while_loop(lambda i, t: i < 3, lambda i, t: (i + 1, tf.concat([t, t[:1]], 0)),
                             [tf.constant(0), x], shape_invariants=[tf.TensorShape([]),
                                                                    tf.TensorShape([None])])
        return y, tf.reduce_sum(z)

    return loop, v


@model("keras_rnn")
def _keras_rnn():
    inputs = tf.keras.Input(shape=(5, 3), batch_size=2)
    outputs = tf.keras.layers.SimpleRNN(4)(inputs)
    keras_model = tf.keras.Model(inputs, outputs)
    fn = tf.function(keras_model, input_signature=[tf.TensorSpec([2, 5, 3], tf.float32)])
    return fn, keras_model


_DEVICES = ["/job:localhost/replica:0/task:0/device:CPU:0",
            "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0",
            "/job:localhost/replica:0/task:0/device:TPU:0"]


def _tpu_bridge():
    """A tpu.rewrite computation with tf.cond and tf.while_loop, through TF's bridge."""
    from tensorflow.python.tpu import tpu

    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [4], name="x")

        def step(a):
            a = tf.cond(tf.reduce_sum(a) > 0.0, lambda: a * 2.0, lambda: -a)
            _, a = tf.while_loop(lambda i, t: i < 3, lambda i, t: (i + 1, t + 1.0), [0, a])
            return tf.reduce_sum(a)

        out = tpu.rewrite(step, [x])
        tf.identity(out[0], name="out")
    text = tf.mlir.experimental.convert_graph_def(g.as_graph_def(), pass_pipeline="")
    devices = ", ".join(f'"{d}"' for d in _DEVICES)
    text = text.replace("module attributes {", "module attributes {tf.devices = [" + devices + "], ",
                        1)
    return tf.mlir.experimental.run_pass_pipeline(text, "tf-replicated-clustering-bridge-v2")


def _to_regions(text):
    return tf.mlir.experimental.run_pass_pipeline(text, "tf-functional-control-flow-to-regions")


def _programs():
    programs = {}
    for name, make in _MODELS.items():
        fn, _keep = make()
        raw = tf.mlir.experimental.convert_function(fn.get_concrete_function(), pass_pipeline="")
        functional = tf.mlir.experimental.run_pass_pipeline(
            raw, "func.func(tf-executor-to-functional-conversion)")
        programs[f"{name}_functional"] = functional
        programs[f"{name}_regions"] = _to_regions(functional)
    # The bridge leaves its cluster function in region form with inlined bodies.
    bridged = _tpu_bridge()
    programs["tpu_bridge_regions"] = bridged
    programs["tpu_bridge_functional"] = tf.mlir.experimental.run_pass_pipeline(
        bridged, "tf-region-control-flow-to-functional")
    return programs


PROGRAMS = tuple(f"{name}_{form}" for name in ("keras_cond_switch", "while_nested_cond", "keras_rnn")
                 for form in ("functional", "regions")) + ("tpu_bridge_functional",
                                                           "tpu_bridge_regions")


def input_names():
    return list(PROGRAMS)


def get(name):
    """The text of generated input `name` (generated once, :mod:`generated_inputs`)."""
    import generated_inputs
    return generated_inputs.read(__file__, name)


def main(argv):
    global tf
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow

    tf = tensorflow
    programs = _programs()
    assert sorted(programs) == sorted(PROGRAMS), sorted(programs)
    import generated_inputs
    generated_inputs.write(argv[1], programs)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
