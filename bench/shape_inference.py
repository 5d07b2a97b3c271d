"""Benchmark: tfmlir's tf-shape-inference against TensorFlow's C++ pass, text in -> text out.

    python bench/shape_inference.py [--reps 3] [--inputs bert48,bert48_shaped,synthetic16k,synthetic50k]

TF runs ``tf.mlir.experimental.run_pass_pipeline(text, "tf-shape-inference")``
in a TensorFlow child (parse + pass + print; the empty pipeline gives TF's
parse + print); tfmlir runs ``ir.Module.parse``, ``PassPipeline`` and
``tfmlir.print_ir`` here (bench/pass_timing.py). Inputs:

* ``bert48``: the 48-layer BERT-style encoder of the corpus, imported by tfmlir
  *without* shape inference on import (results unranked: the pass does all the
  work), tf_executor form;
* ``bert48_shaped``: the same model as the corpus holds it (imported with shape
  inference: the pass confirms what is there);
* ``synthetic16k`` / ``synthetic50k``: a functional ``main`` of N ops whose
  results are all unranked: layers of MatMul, BiasAdd, Relu, AddV2 and a
  Reshape through ``Shape``/``Pack`` constants -- shape functions, constant
  inputs and partial shapes everywhere (linear scaling shows in 16k -> 50k).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import tfmlir  # noqa: E402,F401  (registers the dialects)
from pass_timing import compare  # noqa: E402

VERSIONS = "{tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 1987 : i32}}"


def synthetic_text(n_ops, width=64):
    u = "tensor<*xf32>"
    lines = [f"module attributes {VERSIONS} {{",
             f"func.func @main(%x: tensor<8x{width}xf32>, %w: tensor<{width}x{width}xf32>, "
             f"%b: tensor<{width}xf32>) -> {u} {{",
             '  %m1 = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>',
             f'  %wd = "tf.Const"() {{value = dense<{width}> : tensor<i32>}} : () -> tensor<i32>']
    acc, count, k = "%x", 0, 0
    acc_type = f"tensor<8x{width}xf32>"
    while count < n_ops:
        lines += [
            f'  %mm{k} = "tf.MatMul"({acc}, %w) {{transpose_a = false, transpose_b = false}} : '
            f'({acc_type}, tensor<{width}x{width}xf32>) -> {u}',
            f'  %ba{k} = "tf.BiasAdd"(%mm{k}, %b) {{data_format = "NHWC"}} : ({u}, tensor<{width}xf32>) -> {u}',
            f'  %re{k} = "tf.Relu"(%ba{k}) : ({u}) -> {u}',
            f'  %ad{k} = "tf.AddV2"(%re{k}, %mm{k}) : ({u}, {u}) -> {u}',
            f'  %pk{k} = "tf.Pack"(%m1, %wd) {{axis = 0 : i64}} : (tensor<i32>, tensor<i32>) -> tensor<*xi32>',
            f'  %rs{k} = "tf.Reshape"(%ad{k}, %pk{k}) : ({u}, tensor<*xi32>) -> {u}',
            f'  %sh{k} = "tf.Shape"(%rs{k}) : ({u}) -> tensor<*xi32>',
            f'  %r2{k} = "tf.Reshape"(%rs{k}, %sh{k}) : ({u}, tensor<*xi32>) -> {u}',
        ]
        acc, acc_type = f"%r2{k}", u
        count += 8
        k += 1
    lines += [f"  func.return {acc} : {u}", "}", "}"]
    return "\n".join(lines) + "\n"


def bert48_text(shaped):
    from tfmlir.testing import corpus
    if shaped:
        return corpus.get("bert48")
    from tfmlir.importers import api
    protos = corpus.get_protos("bert48")
    module = api.import_graph_def(protos["graph_def"], enable_shape_inference=False)
    return tfmlir.print_ir(module)


def inputs(names):
    out = {}
    for name in names:
        if name.startswith("synthetic"):
            n = int(name[len("synthetic"):].rstrip("k")) * 1000
            out[name] = synthetic_text(n)
        elif name == "bert48":
            out[name] = bert48_text(False)
        elif name == "bert48_shaped":
            out[name] = bert48_text(True)
        else:
            raise SystemExit(f"unknown input {name}")
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--inputs", default="bert48,bert48_shaped,synthetic16k,synthetic50k")
    args = parser.parse_args()
    texts = inputs(args.inputs.split(","))
    compare(texts, "tf-shape-inference", "builtin.module(tf-shape-inference)", args.reps, stage="pass")


if __name__ == "__main__":
    main()
