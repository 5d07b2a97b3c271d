"""Benchmark: tfmlir's replicate passes and IfRegion merging against TensorFlow's C++ passes.

    python bench/replicate_passes.py [--reps 1] [--sizes 16k,50k]

Text in -> pass -> text out, as bench/executor_passes.py: TF through
``tf.mlir.experimental.run_pass_pipeline`` in a TensorFlow child process (parse
+ pass + print; the empty pipeline gives TF's parse + print), tfmlir in this
process (``ir.Module.parse``, ``PassPipeline``, ``tfmlir.print_ir``). The corpus
has no replicates, device clusters with ifs, or cluster_funcs, so the inputs
are synthesized, each about N ops where the pass has work everywhere:

* ``replicate``: one ``tf_device.replicate`` (n = 2) whose body repeats a block
  of invariant constants and chains, variable reads (of outer variables and
  of replicated ones), shapes of replicated values and replica-dependent
  math, then tail writes -- for the hoisting passes;
* ``clusters``: functions reading variables into ``tf_device.cluster_func``s
  whose outputs are written back -- for the alias marking;
* ``ifs``: one ``tf_device.cluster`` with ``tf.IfRegion``s on a few
  predicates, separated by ops that do or do not depend on them -- for the
  merging.
"""
import argparse
import os
import tempfile

import tfmlir  # noqa: E402  (print_ir; registers the dialects)
from pass_timing import our_times as _our_times, tf_best_times  # noqa: E402  (shared timing)

PASSES = {
    "hoisting": ("replicate", "func.func(tf-replicate-invariant-op-hoisting)"),
    "hoist-writes": ("replicate", "func.func(tf-hoist-replicate-invariant-resource-writes)"),
    "mark-aliases": ("clusters", "tf-device-mark-input-output-aliases"),
    "merge-ifs": ("ifs", "tf-merge-control-flow"),
}

F = "tensor<4xf32>"
RES = "tensor<!tf_type.resource<tensor<4xf32>>>"


def replicate_text(n_ops):
    blocks = max(1, n_ops // 11)
    lines = [f"func.func @main(%x0: {F}, %x1: {F}, %v0: {RES}, %v1: {RES}, %w: {RES}) {{",
             f"  %r:2 = tf_device.replicate([%x0, %x1] as %x: {F}, [%v0, %v1] as %v: {RES}) "
             "{n = 2 : i32} {"]
    acc = "%x"
    for k in range(blocks):
        lines += [
            f'    %c{k} = "tf.Const"() {{value = dense<{k}.0> : {F}}} : () -> {F}',
            f'    %n{k} = "tf.Neg"(%c{k}) : ({F}) -> {F}',
            f'    %rw{k} = "tf.ReadVariableOp"(%w) : ({RES}) -> {F}',
            f'    %i{k} = "tf.AddV2"(%n{k}, %rw{k}) : ({F}, {F}) -> {F}',
            f'    %rv{k} = "tf.ReadVariableOp"(%v) : ({RES}) -> {F}',
            f'    %s{k} = "tf.Shape"(%rv{k}) : ({F}) -> tensor<1xi32>',
            f'    %t{k} = "tf.Shape"(%x) : ({F}) -> tensor<1xi32>',
            f'    %m{k} = "tf.Mul"({acc}, %i{k}) : ({F}, {F}) -> {F}',
            f'    %a{k} = "tf.AddV2"(%m{k}, %rv{k}) : ({F}, {F}) -> {F}',
            f'    %q{k} = "tf.Reshape"(%a{k}, %s{k}) : ({F}, tensor<1xi32>) -> {F}',
            f'    %u{k} = "tf.Reshape"(%q{k}, %t{k}) : ({F}, tensor<1xi32>) -> {F}',
        ]
        acc = f"%u{k}"
    lines += [f'    "tf.AssignVariableOp"(%v, {acc}) : ({RES}, {F}) -> ()',
              f'    "tf.AssignVariableOp"(%w, {acc}) : ({RES}, {F}) -> ()',
              f"    tf_device.return {acc} : {F}", "  }", "  return", "}"]
    return "\n".join(lines) + "\n"


def clusters_text(n_ops):
    count = max(1, n_ops // 8)
    lines = [f"func.func private @dev(%a: {F}, %b: {F}, %c: {F}) -> ({F}, {F}) {{",
             f"  return %b, %a : {F}, {F}", "}",
             f"func.func @main(%x: {F}, %v: {RES}, %w: {RES}) {{"]
    for k in range(count):
        lines += [
            f'  %a{k} = "tf.ReadVariableOp"(%v) : ({RES}) -> {F}',
            f'  %b{k} = "tf.ReadVariableOp"(%w) : ({RES}) -> {F}',
            f'  %o{k}:2 = "tf_device.cluster_func"(%a{k}, %b{k}, %x) {{func = @dev}} '
            f': ({F}, {F}, {F}) -> ({F}, {F})',
            f'  "tf.AssignVariableOp"(%v, %o{k}#0) : ({RES}, {F}) -> ()',
            f'  "tf.AssignVariableOp"(%w, %o{k}#1) : ({RES}, {F}) -> ()',
        ]
    lines += ["  return", "}"]
    return "\n".join(lines) + "\n"


def ifs_text(n_ops):
    count = max(2, n_ops // 7)
    lines = [f"func.func @main(%p0: tensor<i1>, %p1: tensor<i1>, %p2: tensor<i1>, %x: {F}, "
             f"%v: {RES}) {{",
             '  "tf_device.cluster"() ({']
    prev = "%x"
    for k in range(count):
        p = f"%p{k % 3}"
        lines += [
            f'    %f{k} = "tf.IfRegion"({p}) ({{',
            f'      %a{k} = "tf.Neg"({prev}) : ({F}) -> {F}',
            f'      "tf.Yield"(%a{k}) : ({F}) -> ()',
            "    }, {",
            f'      "tf.Yield"({prev}) : ({F}) -> ()',
            f"    }}) {{is_stateless = true}} : (tensor<i1>) -> {F}",
        ]
        if k % 10 == 9:  # a dependency that cuts the segments
            lines.append(f'    %d{k} = "tf.Abs"(%f{k}) : ({F}) -> {F}')
            prev = f"%d{k}"
        else:
            lines.append(f'    %d{k} = "tf.Abs"(%x) : ({F}) -> {F}')
        if k % 25 == 0:
            lines.append(f'    "tf.AssignVariableOp"(%v, %d{k}) : ({RES}, {F}) -> ()')
    lines += [f"    tf_device.return {prev} : {F}", f"  }}) : () -> {F}", "  return", "}"]
    return "\n".join(lines) + "\n"


INPUTS = {"replicate": replicate_text, "clusters": clusters_text, "ifs": ifs_text}

def tf_times(jobs, reps):
    return tf_best_times([(path, pipeline, reps) for path, pipeline in jobs])


def our_times(text, pipeline, reps):
    return _our_times(text, f"builtin.module({pipeline})", reps)


def count_ops(text):
    from mlir import ir

    count = [0]
    with ir.Context():
        module = ir.Module.parse(text)
        module.operation.walk(lambda op: count.__setitem__(0, count[0] + 1) or ir.WalkResult.ADVANCE)
    return count[0] - 1  # the module itself


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=1)
    parser.add_argument("--sizes", default="16k,50k", help="ops per input (bert48 is ~16k)")
    parser.add_argument("--passes", default=",".join(PASSES))
    parser.add_argument("--no-tf", action="store_true", help="only time tfmlir")
    args = parser.parse_args(argv)
    sizes = [int(s.replace("k", "000")) for s in args.sizes.split(",")]
    passes = args.passes.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        texts, paths, jobs = {}, {}, []
        for name in passes:
            kind, pipeline = PASSES[name]
            for size in sizes:
                key = (kind, size)
                if key not in texts:
                    texts[key] = INPUTS[kind](size)
                    paths[key] = os.path.join(tmp, f"{kind}{size}.mlir")
                    with open(paths[key], "w") as f:
                        f.write(texts[key])
                    jobs.append((paths[key], ""))
                jobs.append((paths[key], pipeline))
        tf = {} if args.no_tf else dict(zip(jobs, tf_times(jobs, args.reps)))
    print(f"{'pass':13} {'input':15} {'ops':>7} {'TF total':>9} {'TF p+p':>8} {'ours':>7} "
          f"{'parse':>7} {'pass':>7} {'print':>7} {'ratio':>6}")
    for name in passes:
        kind, pipeline = PASSES[name]
        for size in sizes:
            key = (kind, size)
            text = texts[key]
            ops = count_ops(text)
            parse, run, printing, total = our_times(text, pipeline, args.reps)
            tf_total = tf.get((paths[key], pipeline))
            tf_pp = tf.get((paths[key], ""))
            ratio = f"{total / tf_total:6.2f}" if tf_total else "     -"
            tf_cols = f"{tf_total:9.3f} {tf_pp:8.3f}" if tf_total else f"{'-':>9} {'-':>8}"
            print(f"{name:13} {kind + str(size // 1000) + 'k':15} {ops:7d} {tf_cols} {total:7.3f} "
                  f"{parse:7.3f} {run:7.3f} {printing:7.3f} {ratio}", flush=True)


if __name__ == "__main__":
    main()
