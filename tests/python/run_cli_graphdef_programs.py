"""A tiny TF1 TPU program for ``tfmlir run model.pb``: written by TensorFlow, run by the CLI.

``tf.compat.v1.tpu.rewrite`` of a step on a resource variable ``w`` (initializer
``init``): ``out = tanh(x @ w)``, then ``w -= 0.5 * x^T @ out``; ``w_after``
reads ``w`` after the step. Written as ``model.pb`` and ``model.pbtxt``, with the
feed ``x.npy`` and ``expected.npz``: ``out_<i>`` and ``w_after_<i>`` of steps
0..2 as plain TensorFlow computes them (the same step without the TPU wrapper in
a ``tf.compat.v1.Session``, the initializer run first). Two broken variants for
the error cases: ``orphan_cluster.pb`` (an op of the computation in a TPU cluster
without metadata: the bridge fails) and ``no_metadata.pb`` (the computation's
``TPUReplicateMetadata`` removed).

Run as ``python run_cli_graphdef_programs.py OUTDIR`` in a TensorFlow child
process; cached by :mod:`generated_inputs`.
"""
import os
import sys

STEPS = 3


def _generate(out_dir):
    import numpy as np
    import tensorflow as tf

    tf1 = tf.compat.v1
    tf1.disable_eager_execution()
    os.makedirs(out_dir, exist_ok=True)
    rng = np.random.default_rng(7)
    x_value = rng.uniform(-1, 1, (4, 3)).astype(np.float32)
    w_value = rng.uniform(-1, 1, (3, 2)).astype(np.float32)

    def build(tpu):
        graph = tf.Graph()
        with graph.as_default():
            x = tf1.placeholder(tf.float32, [4, 3], name="x")
            w = tf1.get_variable("w", initializer=tf.constant(w_value), use_resource=True)

            def step(x):
                y = tf.tanh(tf.matmul(x, w))
                update = w.assign_sub(0.5 * tf.matmul(x, y, transpose_a=True))
                with tf.control_dependencies([update]):
                    return [tf.identity(y)]

            (y,) = tf1.tpu.rewrite(step, [x]) if tpu else step(x)
            out = tf.identity(y, name="out")
            with tf.control_dependencies([out]):
                tf.identity(w.read_value(), name="w_after")
            tf1.global_variables_initializer()  # the node "init"
        return graph

    graph = build(tpu=True)
    tf.io.write_graph(graph.as_graph_def(), out_dir, "model.pb", as_text=False)
    tf.io.write_graph(graph.as_graph_def(), out_dir, "model.pbtxt", as_text=True)
    np.save(os.path.join(out_dir, "x.npy"), x_value)
    with tf1.Session(graph=build(tpu=False)) as sess:
        sess.run("init")
        steps = [sess.run(["out:0", "w_after:0"], {"x:0": x_value}) for _ in range(STEPS)]
    np.savez(os.path.join(out_dir, "expected.npz"),
             **{f"{name}_{i}": value for i, values in enumerate(steps)
                for name, value in zip(("out", "w_after"), values)})

    orphan = graph.as_graph_def()
    for node in orphan.node:
        if node.name == "Tanh":
            node.attr["_tpu_replicate"].s = b"no_such_cluster"
    tf.io.write_graph(orphan, out_dir, "orphan_cluster.pb", as_text=False)

    no_metadata = graph.as_graph_def()
    kept = [node for node in no_metadata.node if node.op != "TPUReplicateMetadata"]
    del no_metadata.node[:]
    no_metadata.node.extend(kept)
    for node in no_metadata.node:
        inputs = [i for i in node.input if i != "^TPUReplicateMetadata"]
        del node.input[:]
        node.input.extend(inputs)
    tf.io.write_graph(no_metadata, out_dir, "no_metadata.pb", as_text=False)


def directory():
    import generated_inputs
    return generated_inputs.directory(__file__)


if __name__ == "__main__":
    _generate(sys.argv[1])
