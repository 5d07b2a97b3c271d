"""Benchmark: tfmlir's control flow passes against TensorFlow's C++ passes.

    python bench/control_flow_passes.py [--reps 3] [--inputs bert48,cf_functional16k,...]

Same methodology as bench/executor_passes.py: for each input and pass, the
best of `reps` runs of text in -> pass -> text out; TF through
``tf.mlir.experimental.run_pass_pipeline`` in a TensorFlow child process (the
empty pipeline gives TF's parse + print), tfmlir parsing, running the pass
through ``tfmlir.passes.PassPipeline`` (verifying before and after, as TF
does) and printing in this process.

Inputs: ``bert48`` (tfmlir.testing.corpus, tf_executor form: a large module
with no control flow, the cost of looking), ``cf_functional<N>`` (N ops,
about a quarter of them tf.If / tf.While with shape_invariant, half of the
While ops inside tf_device.cluster ops) and ``cf_regions<N>`` (N ops: about
one in eight a tf.IfRegion / tf.WhileRegion with inlined bodies using outside
values and constants, which the way to functional form outlines).
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pass_timing import our_times, tf_best_times  # noqa: E402  (same methodology)

PASSES = {
    "tf-functional-control-flow-to-regions": "tf-functional-control-flow-to-regions",
    "tf-functional-control-flow-to-regions{allow-passthrough-args}":
        "tf-functional-control-flow-to-regions{allow-passthrough-args}",
    "tf-region-control-flow-to-functional": "tf-region-control-flow-to-functional",
    "tf-drop-while-shape-invariant": "func.func(tf-drop-while-shape-invariant)",
    "tf-drop-while-shape-invariant-in-device-cluster":
        "func.func(tf-drop-while-shape-invariant-in-device-cluster)",
}

_T = "tensor<f32>"
_I = "tensor<i32>"
_B = "tensor<i1>"

_CALLEES = f"""
func.func private @then(%a: {_T}) -> {_T} {{
  %0 = "tf.Neg"(%a) : ({_T}) -> {_T}
  func.return %0 : {_T}
}}
func.func private @else(%a: {_T}) -> {_T} {{
  func.return %a : {_T}
}}
func.func private @cond(%i: {_I}, %a: {_T}) -> {_B} {{
  %z = "tf.Const"() <{{value = dense<0> : {_I}}}> : () -> {_I}
  %0 = "tf.Greater"(%i, %z) : ({_I}, {_I}) -> {_B}
  func.return %0 : {_B}
}}
func.func private @body(%i: {_I}, %a: {_T}) -> ({_I}, {_T}) {{
  %o = "tf.Const"() <{{value = dense<1> : {_I}}}> : () -> {_I}
  %0 = "tf.Sub"(%i, %o) : ({_I}, {_I}) -> {_I}
  func.return %0, %a : {_I}, {_T}
}}
"""


def functional_text(n):
    """About `n` ops: blocks of a compare, a tf.If and a tf.While (every other one in a
    cluster)."""
    lines = [f"func.func @main(%x: {_T}, %n: {_I}) -> {_T} {{",
             f'  %zero = "tf.Const"() <{{value = dense<0.0> : {_T}}}> : () -> {_T}']
    prev = "%x"
    for k in range(max(1, n // 8)):
        lines.append(f'  %c{k} = "tf.Greater"({prev}, %zero) : ({_T}, {_T}) -> {_B}')
        lines.append(f'  %i{k} = "tf.If"(%c{k}, {prev}) <{{then_branch = @then, else_branch = @else, '
                     f'is_stateless = true}}> {{device = ""}} : ({_B}, {_T}) -> {_T}')
        loop = (f'"tf.While"(%n, %i{k}) <{{cond = @cond, body = @body, is_stateless = true, '
                f'parallel_iterations = 10 : i64, shape_invariant}}> : ({_I}, {_T}) -> ({_I}, {_T})')
        if k % 2:
            lines.append(f'  %w{k}:2 = "tf_device.cluster"() ({{')
            lines.append(f"    %r{k}:2 = {loop}")
            lines.append(f"    tf_device.return %r{k}#0, %r{k}#1 : {_I}, {_T}")
            lines.append(f"  }}) {{}} : () -> ({_I}, {_T})")
        else:
            lines.append(f"  %w{k}:2 = {loop}")
        prev = f"%w{k}#1"
    lines += [f"  func.return {prev} : {_T}", "}"]
    return "\n".join(lines) + _CALLEES


def regions_text(n):
    """About `n` ops: blocks of an IfRegion and a WhileRegion with inlined bodies."""
    lines = [f"func.func @main(%x: {_T}, %n: {_I}) -> {_T} {{",
             f'  %zero = "tf.Const"() <{{value = dense<0.0> : {_T}}}> : () -> {_T}',
             f'  %one = "tf.Const"() <{{value = dense<1> : {_I}}}> : () -> {_I}',
             f'  %lim = "tf.Neg"(%n) : ({_I}) -> {_I}']
    prev = "%x"
    for k in range(max(1, n // 16)):
        lines += [
            f'  %c{k} = "tf.Greater"({prev}, %zero) : ({_T}, {_T}) -> {_B}',
            f'  %i{k} = "tf.IfRegion"(%c{k}) <{{is_stateless = true}}> ({{',
            f'    %a = "tf.Mul"({prev}, {prev}) : ({_T}, {_T}) -> {_T}',
            f'    %b = "tf.AddV2"(%a, %zero) : ({_T}, {_T}) -> {_T}',
            f'    "tf.Yield"(%b) : ({_T}) -> ()',
            "  }, {",
            f'    %a = "tf.Neg"({prev}) : ({_T}) -> {_T}',
            f'    "tf.Yield"(%a) : ({_T}) -> ()',
            f"  }}) : ({_B}) -> {_T}",
            f'  %w{k}:2 = "tf.WhileRegion"(%n, %i{k}) <{{is_stateless = true, parallel_iterations = 10 : i64, '
            f"shape_invariant}}> ({{",
            f"  ^bb0(%i: {_I}, %v: {_T}):",
            f'    %p = "tf.Greater"(%i, %lim) : ({_I}, {_I}) -> {_B}',
            f'    "tf.Yield"(%p) : ({_B}) -> ()',
            "  }, {",
            f"  ^bb0(%i: {_I}, %v: {_T}):",
            f'    %j = "tf.Sub"(%i, %one) : ({_I}, {_I}) -> {_I}',
            f'    %u = "tf.AddV2"(%v, {prev}) : ({_T}, {_T}) -> {_T}',
            f'    "tf.Yield"(%j, %u) : ({_I}, {_T}) -> ()',
            f"  }}) : ({_I}, {_T}) -> ({_I}, {_T})",
        ]
        prev = f"%w{k}#1"
    lines += [f"  func.return {prev} : {_T}", "}"]
    return "\n".join(lines) + "\n"


def input_text(name):
    for prefix, make in (("cf_functional", functional_text), ("cf_regions", regions_text)):
        if name.startswith(prefix):
            return make(int(name[len(prefix):].replace("k", "000")))
    from tfmlir.testing import corpus
    return corpus.get(name)


def tf_times(paths, reps):
    """{(input, pass or ''): best seconds} from one TensorFlow child."""
    keys, jobs = [], []
    for name, path in paths.items():
        for pass_name, pipeline in [("", "")] + list(PASSES.items()):
            keys.append((name, pass_name))
            jobs.append((path, pipeline, reps))
    return dict(zip(keys, tf_best_times(jobs)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--inputs", default="bert48,cf_functional16k,cf_functional50k,"
                                            "cf_regions16k,cf_regions50k")
    parser.add_argument("--passes", default=",".join(PASSES))
    args = parser.parse_args(argv)
    names = args.inputs.split(",")
    passes = args.passes.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        paths, texts = {}, {}
        for name in names:
            texts[name] = input_text(name)
            paths[name] = os.path.join(tmp, name + ".mlir")
            with open(paths[name], "w") as f:
                f.write(texts[name])
        tf = tf_times(paths, args.reps)
    print(f"{'pass':63} {'input':17} {'TF ms':>7} {'ours ms':>8} {'ratio':>6} | {'parse':>6} "
          f"{'pass':>6} {'print':>6} | parse+print of input: TF / ours")
    for pass_name in passes:
        for name in names:
            parse, run, printing, total = our_times(texts[name], f"builtin.module({PASSES[pass_name]})",
                                                    args.reps)
            _, _, _, pp = our_times(texts[name], "builtin.module()", args.reps)
            tf_total, tf_pp = tf[(name, pass_name)], tf[(name, "")]
            print(f"{pass_name:63} {name:17} {tf_total * 1e3:7.1f} {total * 1e3:8.1f} "
                  f"{total / tf_total:6.2f} | {parse * 1e3:6.1f} {run * 1e3:6.1f} {printing * 1e3:6.1f} | "
                  f"{tf_pp * 1e3:6.1f} / {pp * 1e3:6.1f}", flush=True)


if __name__ == "__main__":
    main()
