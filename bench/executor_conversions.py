"""Benchmark: executor conversion / export verification / TPU V1 island passes, tfmlir vs TF.

    python bench/executor_conversions.py [--rounds 3] [--repeat 3] [--passes a,b] [--inputs x,y] [--big]

For each (pass, input), rounds alternate between TensorFlow (one child process
running ``tf.mlir.experimental.run_pass_pipeline`` --repeat times per input:
parse + pass + print, timed inside the child; the empty pipeline gives TF's
parse + print of the input) and tfmlir in this process (``ir.Module.parse`` +
``tfmlir.passes`` pipeline + ``get_asm``; without the pipeline: parse + print
of the input). The table shows minima over all rounds (the machine is shared:
minima are the stable statistic): totals and their ratio, tfmlir's split into
parse / pass (the framework included: it verifies before and after) / print,
and both sides' parse + print of the unchanged input for reference.

Inputs: ``synthetic16k`` (corpus.synthetic_graph with 5300 single-op islands,
~16k ops), corpus models ``bert48`` (~15.7k ops), ``resnet50``; derived inputs
``bert48-functional`` (bert48 after executor-to-functional, for the inverse
pass), ``bert48-tpu`` (every 5th op marked ``_xla_compile_device_type =
"TPU"``: 1046 islands to outline) and ``bert48-outlined`` (bert48-tpu after
outlining, for inlining). ``--big`` adds ``synthetic50k`` (~150k ops).
"""
import argparse
import gc
import os
import sys
import time


REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(REPO, "python"))
sys.path.insert(0, os.path.join(REPO, "tests", "python"))

import tfmlir  # noqa: E402,F401
from mlir import ir  # noqa: E402

from tfmlir.passes import framework  # noqa: E402
from tfmlir.testing import corpus  # noqa: E402
from tfmlir.testing.tf_oracle import run_tf_pipelines  # noqa: E402

from pass_diff import mark_single_core_tpu  # noqa: E402
from pass_diff_rows_executor import ROWS  # noqa: E402

PIPELINES = {row.name: row.pipeline for row in ROWS}

DEFAULT_PLAN = {
    "tf-executor-to-functional-conversion": ["synthetic16k", "bert48", "resnet50"],
    "tf-functional-to-executor-conversion": ["bert48-functional"],
    "tf-verify-for-export": ["synthetic16k", "bert48"],
    "tf-executor-tpu-v1-island-outlining": ["bert48", "bert48-tpu"],
    "tf-executor-tpu-v1-island-inlining": ["bert48", "bert48-outlined"],
}


def _ours(text, pipeline):
    """tfmlir's (total, parse, pass, print) seconds for one run (no pass if `pipeline` is None)."""
    ctx = ir.Context()
    gc.collect()
    start = time.perf_counter()
    module = ir.Module.parse(text, ctx)
    parsed = time.perf_counter()
    runner = framework.PassPipeline(f"builtin.module({pipeline})", ctx) if pipeline else None
    built = time.perf_counter()
    if runner is not None:
        runner.run(module)
    ran = time.perf_counter()
    tfmlir.print_ir(module)
    printed = time.perf_counter()
    return (printed - start - (built - parsed), parsed - start, ran - built, printed - ran)


def _transform(text, pipeline):
    ctx = ir.Context()
    module = ir.Module.parse(text, ctx)
    framework.run(module, f"builtin.module({pipeline})")
    return tfmlir.print_ir(module)


def load_inputs(names):
    texts = {}

    def get(name):
        if name in texts:
            return texts[name]
        if name == "synthetic16k":
            text = corpus.synthetic_graph(num_islands=5300)
        elif name == "bert48-functional":
            text = _transform(get("bert48"), PIPELINES["tf-executor-to-functional-conversion"])
        elif name == "bert48-tpu":
            text = mark_single_core_tpu(get("bert48"))
        elif name == "bert48-outlined":
            text = _transform(get("bert48-tpu"), PIPELINES["tf-executor-tpu-v1-island-outlining"])
        else:
            text = corpus.get(name)
        texts[name] = text
        return text

    for name in names:
        get(name)
    return texts


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--passes", default="")
    parser.add_argument("--inputs", default="")
    parser.add_argument("--big", action="store_true")
    args = parser.parse_args(argv)

    plan = {p: list(i) for p, i in DEFAULT_PLAN.items()}
    if args.big:
        plan["tf-executor-to-functional-conversion"].append("synthetic50k")
        plan["tf-verify-for-export"].append("synthetic50k")
    if args.passes:
        plan = {p: plan.get(p, ["bert48"]) for p in args.passes.split(",")}
    if args.inputs:
        plan = {p: args.inputs.split(",") for p in plan}
    texts = load_inputs(sorted({i for inputs in plan.values() for i in inputs}))
    jobs = [(p, i) for p, inputs in plan.items() for i in inputs]

    inputs = sorted({i for _, i in jobs})
    best_tf = {job: float("inf") for job in jobs}
    best_ours = {job: None for job in jobs}
    base_tf = {i: float("inf") for i in inputs}
    base_ours = {i: float("inf") for i in inputs}
    for _ in range(args.rounds):
        tf_jobs = [(texts[i], PIPELINES[p]) for p, i in jobs] + [(texts[i], "") for i in inputs]
        results = run_tf_pipelines([job for job in tf_jobs for _ in range(args.repeat)],
                                   timeout=3600)
        keys = list(jobs) + inputs
        for n, key in enumerate(keys):
            for result in results[n * args.repeat:(n + 1) * args.repeat]:
                if not result["ok"]:
                    raise SystemExit(f"TF failed on {key}: {result['error'][:500]}")
                if isinstance(key, tuple):
                    best_tf[key] = min(best_tf[key], result["seconds"])
                else:
                    base_tf[key] = min(base_tf[key], result["seconds"])
        for job in jobs:
            for _ in range(args.repeat):
                row = _ours(texts[job[1]], PIPELINES[job[0]])
                if best_ours[job] is None or row[0] < best_ours[job][0]:
                    best_ours[job] = row
        for name in inputs:
            for _ in range(args.repeat):
                base_ours[name] = min(base_ours[name], _ours(texts[name], None)[0])

    print(f"{'pass':38s} {'input':18s} {'TF ms':>7s} {'ours ms':>8s} {'ratio':>6s} |"
          f" {'parse':>6s} {'pass':>6s} {'print':>6s} | parse+print of input: TF / ours")
    for job in jobs:
        total, parse, run, printed = (1000 * x for x in best_ours[job])
        tf_ms = 1000 * best_tf[job]
        print(f"{job[0]:38s} {job[1]:18s} {tf_ms:7.1f} {total:8.1f} {total / tf_ms:6.2f} |"
              f" {parse:6.1f} {run:6.1f} {printed:6.1f} |"
              f" {1000 * base_tf[job[1]]:6.1f} / {1000 * base_ours[job[1]]:6.1f}")


if __name__ == "__main__":
    main()
