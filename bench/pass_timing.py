"""Timing shared by the pass benchmarks: TensorFlow's C++ passes in one child, tfmlir's here.

Text in -> pass -> text out on both sides. :func:`tf_best_times` runs jobs
``(input path, TF pipeline, repetitions)`` in one TensorFlow child process
through ``tf.mlir.experimental.run_pass_pipeline`` (an empty pipeline measures
parse + print) and returns the best time of each; :func:`our_times` measures
tfmlir's parse (``ir.Module.parse``), pipeline (``PassPipeline``, which
verifies before and after) and print (``tfmlir.print_ir``) in this process.
"""
import gc
import json
import os
import subprocess
import sys
import tempfile
import time

_TF_CHILD = r'''
import json, sys, time
import tensorflow as tf
jobs = json.load(open(sys.argv[1]))
out = []
for job in jobs:
    text = open(job["path"]).read()
    best = None
    for _ in range(job["reps"]):
        start = time.perf_counter()
        tf.mlir.experimental.run_pass_pipeline(text, job["pipeline"], show_debug_info=False)
        took = time.perf_counter() - start
        best = took if best is None else min(best, took)
    out.append(best)
json.dump(out, open(sys.argv[2], "w"))
'''


def tf_best_times(jobs):
    """Best seconds of each job ``(path, TF pipeline, reps)``, all from one TensorFlow child."""
    with tempfile.TemporaryDirectory() as tmp:
        job_file, out_file = os.path.join(tmp, "jobs.json"), os.path.join(tmp, "out.json")
        with open(job_file, "w") as f:
            json.dump([{"path": p, "pipeline": pipe, "reps": reps} for p, pipe, reps in jobs], f)
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", OMP_NUM_THREADS="1")
        subprocess.run([sys.executable, "-c", _TF_CHILD, job_file, out_file], check=True,
                       env=env, capture_output=True)
        with open(out_file) as f:
            return json.load(f)


def our_times(text, pipeline, reps):
    """Best (parse, pass, print, total) seconds of tfmlir on `text`; `pipeline` is a full
    textual pipeline (``builtin.module(...)``), or "" for parse + print only."""
    import tfmlir
    from mlir import ir
    from tfmlir.passes import PassPipeline

    best = None
    for _ in range(reps):
        ctx = ir.Context()
        gc.collect()
        t0 = time.perf_counter()
        module = ir.Module.parse(text, ctx)
        t1 = time.perf_counter()
        if pipeline:
            PassPipeline(pipeline, ctx).run(module)
        t2 = time.perf_counter()
        tfmlir.print_ir(module)
        t3 = time.perf_counter()
        times = (t1 - t0, t2 - t1, t3 - t2, t3 - t0)
        best = times if best is None or times[3] < best[3] else best
        del module
    return best


def compare(texts, tf_pipeline, our_pipeline, reps, stage="pass"):
    """Times `tf_pipeline` in TF (with its empty pipeline for parse + print) and `our_pipeline`
    (``builtin.module(...)``) in tfmlir on every ``{name: text}``; prints one row each."""
    with tempfile.TemporaryDirectory() as tmp:
        jobs = []
        for name, text in texts.items():
            path = os.path.join(tmp, name + ".mlir")
            with open(path, "w") as f:
                f.write(text)
            jobs += [(path, tf_pipeline, reps), (path, "", reps)]
        tf = tf_best_times(jobs)
    print(f"{'input':16} {'ops':>7} {'TF total':>9} {'TF p+p':>8} {'ours':>8} {'parse':>7} {stage:>8} "
          f"{'print':>7} {'ratio':>6}")
    for i, (name, text) in enumerate(texts.items()):
        parse, run, prt, total = our_times(text, our_pipeline, reps)
        tf_total, tf_pp = tf[2 * i], tf[2 * i + 1]
        print(f"{name:16} {text.count(chr(34) + 'tf.'):7d} {tf_total:9.3f} {tf_pp:8.3f} {total:8.3f} "
              f"{parse:7.3f} {run:8.3f} {prt:7.3f} {total / tf_total:6.2f}")
