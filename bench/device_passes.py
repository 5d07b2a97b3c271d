"""Benchmark: tfmlir's tf_device passes against TensorFlow's C++ passes.

    python bench/device_passes.py [--reps 3] [--models resnet50,bert48,synthetic50k] [--chunk 200]

Text in -> pass -> text out, as bench/executor_passes.py: TF through
``tf.mlir.experimental.run_pass_pipeline`` in a TensorFlow child process (the
empty pipeline gives TF's parse + print), tfmlir in this process (parse, the
pass through ``tfmlir.passes.PassPipeline``, which verifies before and after as
TF does, print); best of `reps` runs, seconds.

Inputs, from the tfmlir.testing.corpus models (``synthetic50k``: 50k islands,
150k ops; ``bert48``: 15.7k ops): the model in functional form (tfmlir's
-tf-executor-to-functional-conversion), its tf.Const ops first, and every
`chunk` consecutive other ops of the main function wrapped into

* ``clusters``: a ``tf_device.cluster`` each (returning what later ops use):
  the input of cluster outlining and constant sinking (constants used by
  several clusters are cloned, those used once moved);
* ``launches``: a ``tf_device.launch {device = "/device:CPU:0"}`` each: the
  input of launch outlining;
* ``launch_funcs``: the launches outlined: the input of the launch_func
  conversion.
"""
import argparse
import os
import tempfile

import tfmlir  # noqa: E402  (print_ir; registers the dialects)
from pass_timing import our_times, tf_best_times  # noqa: E402  (shared timing)

# name: (input form, TF pipeline, tfmlir pipeline)
PASSES = {
    "tf-device-cluster-outlining": ("clusters", "tf-device-cluster-outlining",
                                    "builtin.module(tf-device-cluster-outlining)"),
    "tf-device-constant-sinking": ("clusters", "func.func(tf-device-constant-sinking)",
                                   "builtin.module(func.func(tf-device-constant-sinking))"),
    "tf-device-launch-outlining": ("launches", "tf-device-launch-outlining",
                                   "builtin.module(tf-device-launch-outlining)"),
    "tf-device-convert-launch-func-to-tf-call": ("launch_funcs", "tf-device-convert-launch-func-to-tf-call",
                                                 "builtin.module(tf-device-convert-launch-func-to-tf-call)"),
}
FORMS = ("clusters", "launches", "launch_funcs")


def device_forms(model_text, chunk):
    """{form: text} of `model_text` (tf_executor form) wrapped into device regions."""
    from mlir import ir
    from tfmlir.passes import run
    from tfmlir.passes.analysis.executor import op_key
    from tfmlir.passes.lib.ir_helpers import move_ops_before, move_ops_to_end, replace_uses_in

    forms = {}
    for form, op_name in (("clusters", "tf_device.cluster"), ("launches", "tf_device.launch")):
        with ir.Context() as ctx, ir.Location.unknown(ctx):
            module = ir.Module.parse(model_text)
            run(module, "builtin.module(func.func(tf-executor-to-functional-conversion))")
            funcs = [op for op in module.body.operations if op.operation.name == "func.func"]
            main = next((f for f in funcs if "tf.entry_function" in f.attributes), funcs[0])
            block = main.regions[0].blocks[0]
            ops = [op.operation for op in block.operations]
            body, terminator = ops[:-1], ops[-1]
            consts = [op for op in body if op.name == "tf.Const"]
            rest = [op for op in body if op.name != "tf.Const"]
            if consts:
                move_ops_before(consts, rest[0] if rest else terminator)
            for start in range(0, len(rest), chunk):
                group = rest[start:start + chunk]
                inside = {op_key(op) for op in group}
                escaping = []
                for op in group:
                    for result in op.results:
                        if any(op_key(use.owner) not in inside for use in result.uses):
                            escaping.append(result)
                attributes = {"device": ir.StringAttr.get("/device:CPU:0")} if form == "launches" else {}
                region_op = ir.Operation.create(op_name, results=[v.type for v in escaping],
                                                attributes=attributes, regions=1,
                                                ip=ir.InsertionPoint(group[0]))
                region_block = region_op.regions[0].blocks.append()
                move_ops_to_end(group, region_block, terminator=False)
                ir.Operation.create("tf_device.return", operands=escaping, ip=ir.InsertionPoint(region_block))
                for value, result in zip(escaping, region_op.results):
                    value.replace_all_uses_with(result)
                    replace_uses_in(result, value, region_op.regions[0])
            module.operation.verify()
            forms[form] = str(module)
            if form == "launches":
                run(module, "builtin.module(tf-device-launch-outlining)")
                forms["launch_funcs"] = str(module)
    return forms


def tf_times(paths, passes, reps):
    """{(model, pass or form): best seconds} from one TensorFlow child ('' pipeline: parse+print)."""
    keys, jobs = [], []
    for model, by_form in paths.items():
        for form, path in by_form.items():
            keys.append((model, form))
            jobs.append((path, "", reps))
        for name in passes:
            form, tf_pipeline, _ = PASSES[name]
            keys.append((model, name))
            jobs.append((by_form[form], tf_pipeline, reps))
    return dict(zip(keys, tf_best_times(jobs)))


def _op_count(text):
    from mlir import ir

    count = [0]

    def visit(op):
        count[0] += 1
        return ir.WalkResult.ADVANCE

    with ir.Context():
        ir.Module.parse(text).operation.walk(visit)
    return count[0] - 1


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--models", default="resnet50,bert48,synthetic50k")
    parser.add_argument("--chunk", type=int, default=200, help="ops per cluster / launch")
    parser.add_argument("--passes", default=",".join(PASSES))
    parser.add_argument("--no-tf", action="store_true", help="only time tfmlir")
    args = parser.parse_args(argv)
    from tfmlir.testing import corpus

    models = args.models.split(",")
    passes = args.passes.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        paths, texts = {}, {}
        for model in models:
            texts[model] = device_forms(corpus.get(model), args.chunk)
            paths[model] = {}
            for form, text in texts[model].items():
                paths[model][form] = os.path.join(tmp, f"{model}.{form}.mlir")
                with open(paths[model][form], "w") as f:
                    f.write(text)
        tf = {} if args.no_tf else tf_times(paths, passes, args.reps)
    print(f"{'pass':42} {'input':13} {'ops':>7} {'regions':>7} {'TF ms':>8} {'ours ms':>8} {'ratio':>6} | "
          f"{'parse':>6} {'pass':>6} {'print':>6} | parse+print of input: TF / ours")
    for model in models:
        for name in passes:
            form = PASSES[name][0]
            text = texts[model][form]
            ops = _op_count(text)
            regions = text.count(f'"tf_device.{"cluster" if form == "clusters" else "launch"}')
            parse, run_s, printing, total = our_times(text, PASSES[name][2], args.reps)
            _, _, _, pp = our_times(text, "", args.reps)
            tf_total, tf_pp = tf.get((model, name)), tf.get((model, form))
            ratio = f"{total / tf_total:6.2f}" if tf_total else "     -"
            tf_ms = f"{tf_total * 1e3:8.1f}" if tf_total else f"{'-':>8}"
            tf_pp_ms = f"{tf_pp * 1e3:6.1f}" if tf_pp else "     -"
            print(f"{name:42} {model:13} {ops:7d} {regions:7d} {tf_ms} {total * 1e3:8.1f} {ratio} | "
                  f"{parse * 1e3:6.1f} {run_s * 1e3:6.1f} {printing * 1e3:6.1f} | "
                  f"{tf_pp_ms} / {pp * 1e3:6.1f}", flush=True)


if __name__ == "__main__":
    main()
