"""Benchmark: tfmlir's tf-replicated-clustering-bridge-v2 against TensorFlow's, text in -> text out.

    python bench/clustering_bridge.py [--reps 3] [--inputs bert12,bert48,synthetic50k]

TF runs ``tf.mlir.experimental.run_pass_pipeline(text,
"tf-replicated-clustering-bridge-v2")`` in a TensorFlow child (parse +
pipeline + print; the empty pipeline gives TF's parse + print); tfmlir runs
``ir.Module.parse``, the same named pipeline (``PassPipeline``) and
``tfmlir.print_ir`` here (bench/pass_timing.py). Inputs, all ``tf_executor``
imports with a ``tf.devices`` list, as the bridge gets them:

* ``bert12`` / ``bert48``: a BERT-style encoder (self-attention with four
  projections, softmax, layer norms, a feed-forward block; resource variables)
  of 12 / 48 layers under ``tf.compat.v1.tpu.rewrite``, built with TF on CPU and
  imported with ``tf.mlir.experimental.convert_graph_def``;
* ``syntheticNk``: a ``tpu.replicate``-style computation of N ops (two
  replicas, chains of MatMul/BiasAdd/Relu/AddV2 on ``TPUReplicatedInput``
  values, every op an island with ``_tpu_replicate``), for linear scaling.
"""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import tfmlir  # noqa: E402,F401  (registers the dialects)
from pass_timing import compare  # noqa: E402

PIPELINE = "tf-replicated-clustering-bridge-v2"
DEVICES = (["/job:localhost/replica:0/task:0/device:CPU:0",
            "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0"]
           + [f"/job:localhost/replica:0/task:0/device:TPU:{i}" for i in range(2)])
_DEVICES_ATTR = "tf.devices = [" + ", ".join(f'"{d}"' for d in DEVICES) + "]"

_BERT_CHILD = r'''
import sys
import tensorflow as tf
tf1 = tf.compat.v1
tf1.enable_control_flow_v2()
layers, out = int(sys.argv[1]), sys.argv[2]
hidden, heads, seq, batch = 256, 4, 128, 8
graph = tf.Graph()
with graph.as_default():
    x = tf1.placeholder(tf.float32, [batch, seq, hidden], name="x")

    def var(name, shape):
        return tf1.get_variable(name, shape, initializer=tf1.glorot_uniform_initializer(),
                                use_resource=True)

    def layer_norm(v, name):
        g = var(name + "_g", [hidden])
        mean, variance = tf.nn.moments(v, axes=[-1], keepdims=True)
        return (v - mean) * tf.math.rsqrt(variance + 1e-6) * g

    def computation(h):
        for i in range(layers):
            q = tf.einsum("bsh,hk->bsk", h, var(f"q{i}", [hidden, hidden]))
            k = tf.einsum("bsh,hk->bsk", h, var(f"k{i}", [hidden, hidden]))
            v = tf.einsum("bsh,hk->bsk", h, var(f"v{i}", [hidden, hidden]))
            split = lambda t: tf.transpose(tf.reshape(t, [batch, seq, heads, hidden // heads]), [0, 2, 1, 3])
            scores = tf.matmul(split(q), split(k), transpose_b=True) / 8.0
            ctx = tf.matmul(tf.nn.softmax(scores), split(v))
            ctx = tf.reshape(tf.transpose(ctx, [0, 2, 1, 3]), [batch, seq, hidden])
            h = layer_norm(h + tf.einsum("bsh,hk->bsk", ctx, var(f"o{i}", [hidden, hidden])), f"ln1_{i}")
            ff = tf.nn.gelu(tf.einsum("bsh,hk->bsk", h, var(f"f1{i}", [hidden, 4 * hidden])))
            h = layer_norm(h + tf.einsum("bsk,kh->bsh", ff, var(f"f2{i}", [4 * hidden, hidden])), f"ln2_{i}")
        return [tf.reduce_mean(h)]

    tf1.tpu.rewrite(computation, [x])
text = tf.mlir.experimental.convert_graph_def(graph.as_graph_def(), pass_pipeline="")
open(out, "w").write(text)
'''


def bert_text(layers):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "bert.mlir")
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
        subprocess.run([sys.executable, "-c", _BERT_CHILD, str(layers), out], check=True, env=env,
                       capture_output=True)
        with open(out) as f:
            text = f.read()
    return text.replace("module attributes {", "module attributes {" + _DEVICES_ATTR + ", ", 1)


def synthetic_text(n_ops, width=64):
    """A two-replica TPU computation of about `n_ops` islands (see the module docstring)."""
    t = f"tensor<8x{width}xf32>"
    rep = '{_tpu_replicate = "cluster", device = ""}'
    lines = [f'module attributes {{{_DEVICES_ATTR}, tf.versions = {{bad_consumers = [], '
             f'min_consumer = 0 : i32, producer = 1987 : i32}}}} {{',
             "  func.func @main() {",
             "    tf_executor.graph {",
             '      %meta = tf_executor.island wraps "tf.TPUReplicateMetadata"() {_tpu_replicate = '
             '"cluster", allow_soft_placement = false, computation_shape = [], device = "", '
             'device_assignment = [], host_compute_core = [], num_cores_per_replica = 1 : i64, '
             'num_replicas = 2 : i64, padding_map = [], step_marker_location = "STEP_MARK_AT_ENTRY", '
             'topology = "", tpu_compile_options_proto = "", use_spmd_for_xla_partitioning = false, '
             'use_tpu = true} : () -> ()',
             f'      %x0, %cx0 = tf_executor.island wraps "tf.Placeholder"() {{device = "", '
             f'shape = #tf_type.shape<8x{width}>}} : () -> {t}',
             f'      %x1, %cx1 = tf_executor.island wraps "tf.Placeholder"() {{device = "", '
             f'shape = #tf_type.shape<8x{width}>}} : () -> {t}',
             f'      %ri, %cri = tf_executor.island wraps "tf.TPUReplicatedInput"(%x0, %x1) '
             f'{{device = "", index = -1 : i64, is_mirrored_variable = false, is_packed = false}} : '
             f'({t}, {t}) -> {t}',
             f'      %in, %cin = tf_executor.island wraps "tf.Identity"(%ri) {rep} : ({t}) -> {t}',
             f'      %w, %cw = tf_executor.island wraps "tf.Const"() {{_tpu_replicate = "cluster", '
             f'device = "", value = dense<0.5> : tensor<{width}x{width}xf32>}} : () -> '
             f'tensor<{width}x{width}xf32>',
             f'      %b, %cb = tf_executor.island wraps "tf.Const"() {{_tpu_replicate = "cluster", '
             f'device = "", value = dense<0.1> : tensor<{width}xf32>}} : () -> tensor<{width}xf32>']
    acc, count, k = "%in", 8, 0
    while count < n_ops:
        lines += [
            f'      %mm{k}, %cmm{k} = tf_executor.island wraps "tf.MatMul"({acc}, %w) '
            f'{{_tpu_replicate = "cluster", device = "", transpose_a = false, transpose_b = false}} : '
            f'({t}, tensor<{width}x{width}xf32>) -> {t}',
            f'      %ba{k}, %cba{k} = tf_executor.island wraps "tf.BiasAdd"(%mm{k}, %b) '
            f'{{_tpu_replicate = "cluster", data_format = "NHWC", device = ""}} : '
            f'({t}, tensor<{width}xf32>) -> {t}',
            f'      %re{k}, %cre{k} = tf_executor.island wraps "tf.Relu"(%ba{k}) {rep} : ({t}) -> {t}',
            f'      %ad{k}, %cad{k} = tf_executor.island wraps "tf.AddV2"(%re{k}, %mm{k}) {rep} : '
            f'({t}, {t}) -> {t}',
        ]
        acc = f"%ad{k}"
        count += 4
        k += 1
    lines += [
        f'      %out, %cout = tf_executor.island wraps "tf.Identity"({acc}) {{_tpu_replicate = '
        f'"cluster", device = "/device:TPU_REPLICATED_CORE:0"}} : ({t}) -> {t}',
        f'      %ro:2, %cro = tf_executor.island wraps "tf.TPUReplicatedOutput"(%out) {{device = ""}} : '
        f'({t}) -> ({t}, {t})',
        f'      %f0, %cf0 = tf_executor.island wraps "tf.Identity"(%ro#0) {{device = ""}} : ({t}) -> {t}',
        f'      %f1, %cf1 = tf_executor.island wraps "tf.Identity"(%ro#1) {{device = ""}} : ({t}) -> {t}',
        "      tf_executor.fetch %cf0, %cf1 : !tf_executor.control, !tf_executor.control",
        "    }", "    func.return", "  }", "}"]
    return "\n".join(lines) + "\n"


def inputs(names):
    out = {}
    for name in names:
        if name.startswith("synthetic"):
            out[name] = synthetic_text(int(name[len("synthetic"):].rstrip("k")) * 1000)
        elif name.startswith("bert"):
            out[name] = bert_text(int(name[len("bert"):]))
        else:
            raise SystemExit(f"unknown input {name}")
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--inputs", default="bert12,bert48,synthetic50k")
    args = parser.parse_args()
    texts = inputs(args.inputs.split(","))
    compare(texts, PIPELINE, f"builtin.module({PIPELINE})", args.reps, stage="pipeline")


if __name__ == "__main__":
    main()
