"""Benchmark: the seed list's passes (and TF's legalization preparation) against TensorFlow's C++ passes.

    python bench/seed_passes.py [--reps 3] [--passes a,b] [--scale 1000]

Text in -> pass -> text out, as bench/device_passes.py: TF through
``tf.mlir.experimental.run_pass_pipeline`` in a TensorFlow child process, tfmlir in
this process (parse, the pass through ``tfmlir.passes.PassPipeline``, which verifies
before and after as TF does, print); best of `reps` runs.

Inputs: ``resnet50`` (tfmlir.testing.corpus, functional form: its FusedBatchNormV3 +
Relu pairs for -tf-gpu-op-fusion, every op for the greedy driver's folding) and
generated programs of `scale` units where the pass has work on each:
``identities`` (an Identity on the producer's device after every op, for
-tf-tensor-device-copy), ``dequantize`` (Dequantize of qint8 with argument ranges, for
-tf-lower-quantized), ``passthrough`` (tf.MlirPassthroughOp with a two-op module, for
-tf-materialize-passthrough-op), ``conv_mul`` (Conv2D * per-channel constant over
arith.constant filters, for -tf-optimize), ``resource_args`` (read, add, assign of as
many resource arguments, for -tf-promote-resources-to-args), ``var_handles`` (read
VarHandleOps, for -tf-promote-var-handles-to-args), ``tensor_lists`` / ``tensor_arrays``
/ ``stacks`` (a list reserved, set and stacked / an array written and read / a stack
pushed and popped, per unit: the collection decompositions and
-tf-replicate-tensor-list-init-ops). Module passes run at module level, function passes
nested in ``func.func``, on both sides.
"""
import argparse
import os
import tempfile

from pass_timing import our_times, tf_best_times

# pass: the inputs it is timed on
PASSES = {
    "tf-tensor-device-copy": ("resnet50", "identities"),
    "tf-materialize-passthrough-op": ("passthrough",),
    "tf-gpu-op-fusion": ("resnet50",),
    "tf-lower-quantized": ("dequantize",),
    "tf-optimize": ("resnet50", "conv_mul"),
    "tf-promote-resources-to-args": ("resource_args",),
    "tf-promote-var-handles-to-args": ("var_handles",),
    "tf-replicate-tensor-list-init-ops": ("tensor_lists",),
    "tf-tensor-list-ops-decomposition": ("tensor_lists",),
    "tf-tensor-array-ops-decomposition": ("tensor_arrays",),
    "tf-stack-ops-decomposition": ("stacks",),
}
MODULE_PASSES = ("tf-promote-resources-to-args", "tf-promote-var-handles-to-args",
                 "tf-tensor-list-ops-decomposition", "tf-tensor-array-ops-decomposition",
                 "tf-stack-ops-decomposition")


def _pipeline(name):
    """The pass in TF's anchoring (module passes at module level)."""
    return name if name in MODULE_PASSES else f"func.func({name})"


def _function(name, args, results, body):
    return (f"func.func @{name}({args}) -> ({results}) {{\n" + "\n".join(body) + "\n}\n")


def generated(kind, n):
    """The text of generated input `kind` with `n` units of work."""
    body = []
    if kind == "identities":
        value = "%arg0"
        for k in range(n):
            device = f"/device:CPU:{k % 2}"
            body.append(f'  %n{k} = "tf.Neg"({value}) {{device = "{device}"}} : (tensor<8xf32>) -> tensor<8xf32>')
            body.append(f'  %i{k} = "tf.Identity"(%n{k}) {{device = "{device}"}} : (tensor<8xf32>) -> tensor<8xf32>')
            value = f"%i{k}"
        body.append(f"  func.return {value} : tensor<8xf32>")
        return _function("main", "%arg0: tensor<8xf32>", "tensor<8xf32>", body)
    if kind == "dequantize":
        results = []
        for k in range(n):
            body.append(f'  %d{k} = "tf.Dequantize"(%arg0, %arg1, %arg2) : (tensor<16x!tf_type.qint8>, '
                        f'tensor<f32>, tensor<f32>) -> tensor<16xf32>')
            results.append(f"%d{k}")
        body.append(f"  func.return {', '.join(results)} : {', '.join(['tensor<16xf32>'] * n)}")
        return _function("main", "%arg0: tensor<16x!tf_type.qint8>, %arg1: tensor<f32>, %arg2: tensor<f32>",
                         ", ".join(["tensor<16xf32>"] * n), body)
    if kind == "passthrough":
        module = ("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\\0A  %b = \\22tf.Neg\\22(%a) : "
                  "(tensor<4xf32>) -> tensor<4xf32>\\0A  %c = \\22tf.Abs\\22(%b) : (tensor<4xf32>) -> "
                  "tensor<4xf32>\\0A  func.return %c : tensor<4xf32>\\0A}\\0A")
        value = "%arg0"
        for k in range(n):
            body.append(f'  %p{k} = "tf.MlirPassthroughOp"({value}) {{Tinputs = [f32], Toutputs = [f32], '
                        f'mlir_module = "{module}"}} : (tensor<4xf32>) -> tensor<4xf32>')
            value = f"%p{k}"
        body.append(f"  func.return {value} : tensor<4xf32>")
        return _function("main", "%arg0: tensor<4xf32>", "tensor<4xf32>", body)
    if kind == "conv_mul":
        value = "%arg0"
        for k in range(n):
            body.append(f"  %w{k} = arith.constant dense<{1.0 + k % 7}> : tensor<1x1x4x4xf32>")
            body.append(f"  %m{k} = arith.constant dense<{0.5 + k % 3}> : tensor<4xf32>")
            body.append(f'  %c{k} = "tf.Conv2D"({value}, %w{k}) {{padding = "SAME", strides = [1, 1, 1, 1]}} : '
                        f"(tensor<1x8x8x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x8x8x4xf32>")
            body.append(f'  %r{k} = "tf.Mul"(%c{k}, %m{k}) : (tensor<1x8x8x4xf32>, tensor<4xf32>) -> '
                        f"tensor<1x8x8x4xf32>")
            value = f"%r{k}"
        body.append(f"  func.return {value} : tensor<1x8x8x4xf32>")
        return _function("main", "%arg0: tensor<1x8x8x4xf32>", "tensor<1x8x8x4xf32>", body)
    if kind == "resource_args":
        args = ", ".join(f"%r{k}: tensor<!tf_type.resource<tensor<4xf32>>>" for k in range(n))
        for k in range(n):
            body.append(f'  %v{k} = "tf.ReadVariableOp"(%r{k}) : (tensor<!tf_type.resource<tensor<4xf32>>>) -> '
                        f"tensor<4xf32>")
            body.append(f'  %a{k} = "tf.AddV2"(%v{k}, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>')
            body.append(f'  "tf.AssignVariableOp"(%r{k}, %a{k}) : (tensor<!tf_type.resource<tensor<4xf32>>>, '
                        f"tensor<4xf32>) -> ()")
        body.append("  func.return")
        return _function("main", args + ", %x: tensor<4xf32>", "", body)
    if kind == "var_handles":
        results = []
        for k in range(n):
            body.append(f'  %h{k} = "tf.VarHandleOp"() {{container = "", shared_name = "v{k}"}} : () -> '
                        f"tensor<!tf_type.resource<tensor<4xf32>>>")
            body.append(f'  %v{k} = "tf.ReadVariableOp"(%h{k}) : (tensor<!tf_type.resource<tensor<4xf32>>>) -> '
                        f"tensor<4xf32>")
            results.append(f"%v{k}")
        body.append(f"  func.return {', '.join(results)} : {', '.join(['tensor<4xf32>'] * n)}")
        return _function("main", "", ", ".join(["tensor<4xf32>"] * n), body)
    if kind == "tensor_lists":
        variant = "tensor<!tf_type.variant<tensor<4xf32>>>"
        body.append('  %shape = "tf.Const"() {value = dense<4> : tensor<1xi32>} : () -> tensor<1xi32>')
        body.append('  %n = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>')
        body.append('  %i = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>')
        results = []
        for k in range(n):
            body.append(f'  %l{k} = "tf.TensorListReserve"(%shape, %n) : (tensor<1xi32>, tensor<i32>) -> {variant}')
            body.append(f'  %s{k} = "tf.TensorListSetItem"(%l{k}, %i, %x) : ({variant}, tensor<i32>, '
                        f"tensor<4xf32>) -> {variant}")
            body.append(f'  %t{k} = "tf.TensorListStack"(%s{k}, %shape) : ({variant}, tensor<1xi32>) -> '
                        f"tensor<3x4xf32>")
            results.append(f"%t{k}")
        body.append(f"  func.return {', '.join(results)} : {', '.join(['tensor<3x4xf32>'] * n)}")
        return _function("main", "%x: tensor<4xf32>", ", ".join(["tensor<3x4xf32>"] * n), body)
    if kind == "tensor_arrays":
        handle = "tensor<!tf_type.resource>"
        body.append('  %size = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>')
        body.append('  %i = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>')
        results = []
        for k in range(n):
            body.append(f'  %a{k}:2 = "tf.TensorArrayV3"(%size) {{dtype = f32, element_shape = #tf_type.shape<4>, '
                        f'dynamic_size = false, clear_after_read = true, identical_element_shapes = true, '
                        f'tensor_array_name = "a{k}"}} : (tensor<i32>) -> ({handle}, tensor<f32>)')
            body.append(f'  %w{k} = "tf.TensorArrayWriteV3"(%a{k}#0, %i, %x, %a{k}#1) : ({handle}, tensor<i32>, '
                        f"tensor<4xf32>, tensor<f32>) -> tensor<f32>")
            body.append(f'  %r{k} = "tf.TensorArrayReadV3"(%a{k}#0, %i, %w{k}) : ({handle}, tensor<i32>, '
                        f"tensor<f32>) -> tensor<4xf32>")
            results.append(f"%r{k}")
        body.append(f"  func.return {', '.join(results)} : {', '.join(['tensor<4xf32>'] * n)}")
        return _function("main", "%x: tensor<4xf32>", ", ".join(["tensor<4xf32>"] * n), body)
    if kind == "stacks":
        handle = "tensor<!tf_type.resource>"
        body.append('  %max = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>')
        results = []
        for k in range(n):
            body.append(f'  %s{k} = "tf.StackV2"(%max) {{elem_type = f32, stack_name = "s{k}"}} : (tensor<i32>) -> '
                        f"{handle}")
            body.append(f'  %p{k} = "tf.StackPushV2"(%s{k}, %x) {{swap_memory = false}} : ({handle}, '
                        f"tensor<4xf32>) -> tensor<4xf32>")
            body.append(f'  %o{k} = "tf.StackPopV2"(%s{k}) : ({handle}) -> tensor<4xf32>')
            results.append(f"%o{k}")
        body.append(f"  func.return {', '.join(results)} : {', '.join(['tensor<4xf32>'] * n)}")
        return _function("main", "%x: tensor<4xf32>", ", ".join(["tensor<4xf32>"] * n), body)
    raise KeyError(kind)


def inputs(names, scale):
    """{input name: text}."""
    from mlir import ir
    from tfmlir.passes import run
    from tfmlir.testing import corpus

    texts = {}
    for name in names:
        if name == "resnet50":
            with ir.Context():
                module = ir.Module.parse(corpus.get(name))
                run(module, "builtin.module(func.func(tf-executor-to-functional-conversion))")
                texts[name] = str(module)
        else:
            texts[name] = generated(name, scale)
    return texts


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--passes", default=",".join(PASSES))
    parser.add_argument("--scale", type=int, default=1000, help="units of work of generated inputs")
    args = parser.parse_args(argv)
    passes = args.passes.split(",")
    names = sorted({name for p in passes for name in PASSES[p]})
    texts = inputs(names, args.scale)
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for name, text in texts.items():
            paths[name] = os.path.join(tmp, f"{name}.mlir")
            with open(paths[name], "w") as f:
                f.write(text)
        keys = [(p, name) for p in passes for name in PASSES[p]]
        tf = dict(zip(keys, tf_best_times([(paths[name], _pipeline(p), args.reps) for p, name in keys])))
    print(f"{'pass':35} {'input':13} {'ops':>7} {'TF ms':>8} {'ours ms':>8} {'ratio':>6} | "
          f"{'parse':>6} {'pass':>6} {'print':>6}")
    for p, name in keys:
        text = texts[name]
        parse, run_s, printing, total = our_times(text, f"builtin.module({_pipeline(p)})", args.reps)
        ops = text.count('"tf.') + text.count("arith.constant")
        print(f"{p:35} {name:13} {ops:7d} {tf[(p, name)] * 1e3:8.1f} {total * 1e3:8.1f} "
              f"{total / tf[(p, name)]:6.2f} | {parse * 1e3:6.1f} {run_s * 1e3:6.1f} {printing * 1e3:6.1f}",
              flush=True)


if __name__ == "__main__":
    main()
