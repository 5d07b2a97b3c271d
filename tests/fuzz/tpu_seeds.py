"""Small TPU GraphDefs for the fuzz suite's TPU strategies, built once by TensorFlow.

Run as ``python tpu_seeds.py OUTDIR`` in a TensorFlow child process (``fuzz.py``
does, and caches the output under ``build/`` keyed by this file's hash): writes
``<name>.pb`` (the TF1 graph with ``tf.compat.v1.tpu.rewrite`` / ``replicate``)
and ``<name>.json`` (``{"feeds": [[tensor, dtype, shape]], "fetches": [tensor]}``)
per program. The bridged MLIR is made from these by tfmlir in the driver.
"""
import json
import os
import sys


def _programs(tf):
    tf1 = tf.compat.v1

    def single():
        x = tf1.placeholder(tf.float32, [2, 3], name="x")
        (y,) = tf1.tpu.rewrite(lambda x: [tf.nn.relu(x * 2.0 + 1.0)], [x])
        tf.identity(y, name="out")
        return [["x:0", "float32", [2, 3]]], ["out:0"]

    def replicated():
        x = tf1.placeholder(tf.float32, [2, 4], name="x")

        def computation(xi):
            return [tf1.tpu.cross_replica_sum(xi) * 0.5]

        outputs = tf1.tpu.replicate(computation, [[x[0]], [x[1]]])
        for r in range(2):
            tf.identity(outputs[r][0], name=f"out_{r}")
        return [["x:0", "float32", [2, 4]]], ["out_0:0", "out_1:0"]

    def outside():
        x = tf1.placeholder(tf.float32, [3], name="x")

        def computation(x):
            a = tf.math.square(x)
            h = tf1.tpu.outside_compilation(
                lambda v: tf.strings.to_number(tf.strings.as_string(v, precision=6)), a)
            return [h + 1.0]

        (y,) = tf1.tpu.rewrite(computation, [x])
        tf.identity(y, name="out")
        return [["x:0", "float32", [3]]], ["out:0"]

    def variable():
        x = tf1.placeholder(tf.float32, [2], name="x")
        w = tf1.get_variable("w", initializer=tf.constant([1.0, 2.0]), use_resource=True)

        def computation(x):
            step = w.assign_add(x)
            with tf.control_dependencies([step]):
                return [tf.reduce_sum(w.read_value())]

        (y,) = tf1.tpu.rewrite(computation, [x])
        tf.identity(y, name="out")
        return [["x:0", "float32", [2]]], ["out:0"]

    return {"single": single, "replicated": replicated, "outside": outside, "variable": variable}


def main(out_dir):
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf

    tf.compat.v1.disable_eager_execution()
    os.makedirs(out_dir, exist_ok=True)
    for name, build in _programs(tf).items():
        graph = tf.Graph()
        with graph.as_default():
            feeds, fetches = build()
        with open(os.path.join(out_dir, name + ".pb"), "wb") as f:
            f.write(graph.as_graph_def().SerializeToString())
        with open(os.path.join(out_dir, name + ".json"), "w") as f:
            json.dump({"feeds": feeds, "fetches": fetches}, f)


if __name__ == "__main__":
    main(sys.argv[1])
