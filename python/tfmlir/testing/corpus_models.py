"""The models of :mod:`tfmlir.testing.corpus`, built and converted by TensorFlow.

Run in TensorFlow's child process (:class:`tfmlir.tf_child.TensorFlowChild`, a ``"script"``
job) with the arguments ``NAME OUT_PATH [PROTOS_DIR]``: traces model NAME, writes TF's
``convert_graph_def``/``convert_function`` text (``pass_pipeline=""``) to OUT_PATH and, with
PROTOS_DIR, its GraphDef, function library and a frozen runnable form there. Imports
TensorFlow only (never tfmlir).
"""
import json
import os
import sys

import tensorflow as tf

protos_dir = None


def save_protos(graph_def, library=None, function_name=None):
    if not protos_dir:
        return
    with open(os.path.join(protos_dir, "graphdef.pb"), "wb") as f:
        f.write(graph_def.SerializeToString())
    if library is not None:
        with open(os.path.join(protos_dir, "library.pb"), "wb") as f:
            f.write(library.SerializeToString())
    with open(os.path.join(protos_dir, "graphdef.mlir"), "w") as f:
        f.write(tf.mlir.experimental.convert_graph_def(graph_def, pass_pipeline=""))
    with open(os.path.join(protos_dir, "info.json"), "w") as f:
        json.dump({"function_name": function_name}, f)

def save_frozen(graph_def, inputs, outputs, init=()):
    """A runnable GraphDef (variables folded into constants) and how to run it."""
    if not protos_dir:
        return
    with open(os.path.join(protos_dir, "frozen.pb"), "wb") as f:
        f.write(graph_def.SerializeToString())
    with open(os.path.join(protos_dir, "frozen.json"), "w") as f:
        json.dump({"inputs": inputs, "outputs": outputs, "init": list(init)}, f)

def convert(fn, *specs):
    concrete = tf.function(fn).get_concrete_function(*specs)
    text = tf.mlir.experimental.convert_function(concrete, pass_pipeline="")
    graph_def = concrete.graph.as_graph_def()
    from tensorflow.core.framework import function_pb2
    library = function_pb2.FunctionDefLibrary()
    library.CopyFrom(graph_def.library)
    library.function.add().CopyFrom(concrete.function_def)
    save_protos(graph_def, library, concrete.function_def.signature.name)
    if protos_dir:
        from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2
        frozen = convert_variables_to_constants_v2(concrete)
        save_frozen(frozen.graph.as_graph_def(),
                    [[t.name, t.shape.as_list(), t.dtype.name] for t in frozen.inputs],
                    [t.name for t in frozen.outputs])
    return text

def keras_app(builder, size):
    model = builder(weights=None, input_shape=(size, size, 3))
    return convert(lambda x: model(x, training=False), tf.TensorSpec([1, size, size, 3], tf.float32))

def encoder(layers, hidden=64, heads=4, seq=16):
    keras = tf.keras
    blocks = []
    for _ in range(layers):
        blocks.append((keras.layers.MultiHeadAttention(num_heads=heads, key_dim=hidden // heads),
                       keras.layers.LayerNormalization(), keras.layers.Dense(hidden * 4, activation="gelu"),
                       keras.layers.Dense(hidden), keras.layers.LayerNormalization()))
    def fn(x):
        for attn, ln1, ff1, ff2, ln2 in blocks:
            x = ln1(x + attn(x, x))
            x = ln2(x + ff2(ff1(x)))
        return x
    return convert(fn, tf.TensorSpec([2, seq, hidden], tf.float32))

def lstm():
    layer = tf.keras.layers.LSTM(32, return_sequences=True)
    dense = tf.keras.layers.Dense(8)
    return convert(lambda x: dense(layer(x)), tf.TensorSpec([4, 10, 16], tf.float32))

def tf1_v1_control_flow():
    tf.compat.v1.disable_control_flow_v2()
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [4, 4], name="x")
        n = tf.compat.v1.placeholder(tf.int32, [], name="n")
        v = tf.compat.v1.get_variable("w", initializer=tf.ones([4, 4]), use_resource=True)
        y = tf.cond(tf.reduce_sum(x) > 0.0, lambda: tf.matmul(x, v), lambda: x - v)
        _, z = tf.while_loop(lambda i, a: i < n, lambda i, a: (i + 1, tf.tanh(a) * 2.0), [tf.constant(0), y])
        tf.identity(tf.reduce_mean(z), name="out")
    save_protos(graph.as_graph_def())
    save_frozen(graph.as_graph_def(), [["x:0", [4, 4], "float32"], ["n:0", [], "int32"]], ["out:0"],
                init=["w/Assign"])
    return tf.mlir.experimental.convert_graph_def(graph.as_graph_def(), pass_pipeline="")


def main(argv):
    global protos_dir
    name, out_path = argv[0], argv[1]
    protos_dir = argv[2] if len(argv) > 2 else None
    apps = tf.keras.applications
    makers = {
        "resnet50": lambda: keras_app(apps.ResNet50, 64),
        "resnet152": lambda: keras_app(apps.ResNet152, 64),
        "mobilenetv2": lambda: keras_app(apps.MobileNetV2, 96),
        "efficientnetb0": lambda: keras_app(apps.EfficientNetB0, 64),
        "inceptionv3": lambda: keras_app(apps.InceptionV3, 96),
        "transformer_encoder": lambda: encoder(2),
        "bert12": lambda: encoder(12),
        "bert48": lambda: encoder(48),
        "lstm": lstm,
        "tf1_v1_control_flow": tf1_v1_control_flow,
    }
    text = makers[name]()
    with open(out_path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
