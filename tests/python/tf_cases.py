"""Generates TensorFlow's MLIR text for a set of small programs.

Run as a script in a subprocess (keeps TensorFlow out of the pytest process):

    python tf_cases.py OUTDIR [CASE ...]

Writes ``OUTDIR/<case>.mlir`` (exactly the text TensorFlow returned) and
``OUTDIR/manifest.json`` mapping each case name to
``{"file": ..., "debug_info": bool, "source": ...}``. Without CASE arguments
every case is generated. The programs are our own and deliberately small.
"""
import json
import os
import sys

# Imported by main() only, so the test process can read CASES without TF.
tf = None

_CASES = {}


def case(name, debug_info=False):
    def register(fn):
        _CASES[name] = (fn, debug_info)
        return fn

    return register


def _convert_fn(fn, pass_pipeline="", show_debug_info=False):
    return tf.mlir.experimental.convert_function(
        fn.get_concrete_function(),
        pass_pipeline=pass_pipeline,
        show_debug_info=show_debug_info,
    )


def _v2_control_flow_fn():
    @tf.function(input_signature=[tf.TensorSpec([3], tf.float32), tf.TensorSpec([], tf.int32)])
    def cf(x, n):
        y = tf.cond(tf.reduce_max(x) > 1.0, lambda: x * 2.0, lambda: tf.nn.relu(x - 1.0))

        def body(i, acc):
            acc = tf.cond(i % 2 == 0, lambda: acc + 1.0, lambda: acc * 0.5)
            return i + 1, acc

        _, z = tf.while_loop(lambda i, acc: i < n, body, [tf.constant(0), y])
        return z

    return cf


@case("v2_control_flow_raw")
def _v2_control_flow_raw():
    return _convert_fn(_v2_control_flow_fn())


@case("v2_control_flow_functional")
def _v2_control_flow_functional():
    # Default pass pipeline (tf-standard-pipeline): functional tf.If/tf.While.
    return tf.mlir.experimental.convert_function(_v2_control_flow_fn().get_concrete_function())


def _resources_fn():
    w = tf.Variable(tf.ones([2, 3]), name="w")
    b = tf.Variable(tf.zeros([3]), name="b")
    step = tf.Variable(0, dtype=tf.int64, name="step")

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def dense(x):
        step.assign_add(1)
        y = tf.matmul(x, w) + b
        b.assign_sub(tf.reduce_mean(y, axis=0) * 0.01)
        return tf.nn.sigmoid(y), step.read_value()

    dense._keep = (w, b, step)  # keep the variables alive while converting
    return dense


@case("resources_raw")
def _resources_raw():
    return _convert_fn(_resources_fn())


@case("resources_functional")
def _resources_functional():
    return tf.mlir.experimental.convert_function(_resources_fn().get_concrete_function())


@case("strings_raw")
def _strings_raw():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.string), tf.TensorSpec([], tf.string)])
    def strs(words, sep):
        joined = tf.strings.reduce_join(tf.strings.upper(words), separator=",")
        joined = tf.strings.join([joined, sep], separator=":")
        parts = tf.strings.split(joined, sep=",")
        lens = tf.strings.length(words, unit="UTF8_CHAR")
        h = tf.strings.to_hash_bucket_fast(words, 17)
        as_str = tf.strings.as_string(tf.cast(lens, tf.float32), precision=2)
        tf.print("joined:", joined, output_stream=sys.stderr)
        return joined, parts, h, tf.strings.format("{} / {}", (as_str, sep))

    return _convert_fn(strs)


@case("tensorlist_variant_raw")
def _tensorlist_variant_raw():
    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
    def tl(x):
        n = tf.shape(x)[0]
        ta = tf.TensorArray(tf.float32, size=n, element_shape=[4])
        for i in tf.range(n):
            ta = ta.write(i, x[i] * tf.cast(i, tf.float32))
        stacked = ta.stack()
        lst = tf.raw_ops.TensorListFromTensor(tensor=x, element_shape=tf.constant([4]))
        popped, item = tf.raw_ops.TensorListPopBack(
            input_handle=lst, element_shape=tf.constant([4]), element_dtype=tf.float32)
        length = tf.raw_ops.TensorListLength(input_handle=popped)
        return stacked, item, length

    return _convert_fn(tl)


@case("devices_raw")
def _devices_raw():
    @tf.function(input_signature=[tf.TensorSpec([2, 2], tf.float32)])
    def placed(x):
        with tf.device("/CPU:0"):
            a = tf.matmul(x, x)
        with tf.device("/job:localhost/replica:0/task:0/device:CPU:0"):
            b = tf.nn.softmax(a)
        return a + b

    return _convert_fn(placed)


@case("quantized_raw")
def _quantized_raw():
    @tf.function(input_signature=[tf.TensorSpec([4], tf.float32)])
    def quant(x):
        q8 = tf.quantization.quantize(x, -1.0, 1.0, tf.qint8)
        qu8 = tf.quantization.quantize(x, 0.0, 6.0, tf.quint8, mode="MIN_FIRST")
        q32 = tf.quantization.quantize(x, -1.0, 1.0, tf.qint32)
        d = tf.quantization.dequantize(q8.output, q8.output_min, q8.output_max)
        return d, qu8.output, q32.output

    return _convert_fn(quant)


def _v1_graph_def():
    tf.compat.v1.disable_control_flow_v2()
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2], name="x")
        n = tf.compat.v1.placeholder(tf.int32, [], name="n")
        y = tf.cond(tf.reduce_sum(x) > 0.0, lambda: x * 3.0, lambda: -x, name="cond")
        i, z = tf.while_loop(lambda i, a: i < n, lambda i, a: (i + 1, a + y), [tf.constant(0), y],
                             name="loop")
        tf.identity(z, name="out")
        tf.identity(i, name="iters")
    tf.compat.v1.enable_control_flow_v2()
    return g.as_graph_def()


@case("v1_control_flow_graphdef_raw")
def _v1_control_flow_graphdef_raw():
    return tf.mlir.experimental.convert_graph_def(_v1_graph_def(), pass_pipeline="")


@case("v1_control_flow_graphdef_debug", debug_info=True)
def _v1_control_flow_graphdef_debug():
    return tf.mlir.experimental.convert_graph_def(_v1_graph_def(), pass_pipeline="",
                                                  show_debug_info=True)


def _tpu_graph_def(kind):
    """A TF1 TPU program (built on CPU, never run): tpu.rewrite, tpu.replicate
    with two replicas, or tpu.rewrite with outside compilation."""
    from tensorflow.python.tpu import tpu

    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [4], name="x")
        v = tf.compat.v1.get_variable("w", initializer=tf.ones([4]), use_resource=True)

        def step(a):
            y = a * v + 1.0
            if kind == "outside":
                y = tf.compat.v1.tpu.outside_compilation(lambda t: tf.strings.to_number(
                    tf.strings.as_string(t)) * 2.0, y)
            return tf.reduce_sum(y)

        if kind == "replicate":
            out = tpu.replicate(step, inputs=[[x], [x + 1.0]])
            tf.identity(out[0][0], name="out0")
            tf.identity(out[1][0], name="out1")
        else:
            out = tpu.rewrite(step, [x])
            tf.identity(out[0], name="out")
    return g.as_graph_def()


@case("tpu_rewrite_graphdef_raw")
def _tpu_rewrite_graphdef_raw():
    return tf.mlir.experimental.convert_graph_def(_tpu_graph_def("rewrite"), pass_pipeline="")


@case("tpu_replicate_graphdef_raw")
def _tpu_replicate_graphdef_raw():
    return tf.mlir.experimental.convert_graph_def(_tpu_graph_def("replicate"), pass_pipeline="")


@case("tpu_outside_compilation_graphdef_raw")
def _tpu_outside_compilation_graphdef_raw():
    return tf.mlir.experimental.convert_graph_def(_tpu_graph_def("outside"), pass_pipeline="")


@case("v2_control_flow_raw_debug", debug_info=True)
def _v2_control_flow_raw_debug():
    return _convert_fn(_v2_control_flow_fn(), show_debug_info=True)


@case("resources_functional_debug", debug_info=True)
def _resources_functional_debug():
    return tf.mlir.experimental.convert_function(_resources_fn().get_concrete_function(),
                                                 show_debug_info=True)


# Case name -> whether it is printed with debug info (locations).
CASES = {name: debug_info for name, (_, debug_info) in _CASES.items()}


def main(argv):
    global tf
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow

    tf = tensorflow
    outdir = argv[1]
    names = argv[2:] or list(_CASES)
    os.makedirs(outdir, exist_ok=True)
    manifest = {}
    for name in names:
        fn, debug_info = _CASES[name]
        text = fn()
        path = os.path.join(outdir, name + ".mlir")
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        manifest[name] = {"file": name + ".mlir", "debug_info": debug_info,
                          "tf_version": tf.__version__}
    with open(os.path.join(outdir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
