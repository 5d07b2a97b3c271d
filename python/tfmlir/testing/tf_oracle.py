"""Runs TensorFlow's C++ passes as an oracle and compares IR structurally.

TensorFlow runs in a child process (`tf.mlir.experimental.run_pass_pipeline`),
so it never shares the caller's process; many (text, pipeline) jobs go through
one child to pay TensorFlow's import once.

:func:`canonical` is the structural form used for comparisons: the IR parsed
with tfmlir and printed in generic form without locations, so SSA names and
pretty-printing choices do not matter but op order, operands, attributes and
types do.
"""
import json
import os
import subprocess
import sys
import tempfile

_CHILD = r'''
import json, sys, time
import tensorflow as tf
jobs = json.load(open(sys.argv[1]))
with open(sys.argv[2], "w") as out:
    for job in jobs:
        try:
            start = time.perf_counter()
            text = tf.mlir.experimental.run_pass_pipeline(job["text"], job["pipeline"], show_debug_info=False)
            result = {"ok": True, "text": text, "seconds": time.perf_counter() - start}
        except Exception as exc:
            result = {"ok": False, "error": str(exc)}
        # One line per job, flushed: what was done survives a crash on a later job.
        out.write(json.dumps(result) + "\n")
        out.flush()
'''


class OracleError(RuntimeError):
    pass


def run_tf_pipelines(jobs, timeout=600, crashes="raise"):
    """Runs TF's C++ pipelines. `jobs`: list of (mlir_text, pipeline).

    Returns a list of dicts: {"ok": True, "text": ..., "seconds": ...} or
    {"ok": False, "error": message}. `pipeline` is TF's syntax, e.g.
    ``"func.func(tf-executor-island-coarsening)"``.

    A job that crashes TensorFlow (the child dies) raises :class:`OracleError`;
    with ``crashes="record"`` it gets ``{"ok": False, "crashed": True, "error": ...}``
    instead and the jobs after it run in a new child.
    """
    if crashes not in ("raise", "record"):
        raise ValueError(f"crashes must be 'raise' or 'record', not {crashes!r}")
    results = []
    while len(results) < len(jobs):
        done, proc, started = _run_child(jobs[len(results):], timeout)
        results.extend(done)
        if proc.returncode == 0 and len(results) == len(jobs):
            break
        if crashes == "raise" or proc.returncode == 0 or not started:
            raise OracleError(f"TensorFlow child failed (exit {proc.returncode}):\n{proc.stderr[-4000:]}")
        results.append({"ok": False, "crashed": True,
                        "error": f"TensorFlow crashed (exit {proc.returncode}): {proc.stderr[-1000:]}"})
    return results


def _run_child(jobs, timeout):
    """Runs `jobs` in one TensorFlow child: (the results it wrote, the CompletedProcess, whether
    it got as far as the jobs)."""
    with tempfile.TemporaryDirectory() as tmp:
        jobs_path = os.path.join(tmp, "jobs.json")
        out_path = os.path.join(tmp, "out.jsonl")
        with open(jobs_path, "w") as f:
            json.dump([{"text": t, "pipeline": p} for t, p in jobs], f)
        env = dict(os.environ)
        env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
        env.setdefault("OMP_NUM_THREADS", "1")
        proc = subprocess.run([sys.executable, "-c", _CHILD, jobs_path, out_path],
                              capture_output=True, text=True, timeout=timeout, env=env)
        done = []
        started = os.path.exists(out_path)   # created once TensorFlow is imported
        if started:
            with open(out_path) as f:
                for line in f:
                    if not line.endswith("\n"):
                        break  # a line cut short by the crash
                    done.append(json.loads(line))
        return done, proc, started


def canonical(text, context=None):
    """Structural form of `text`: tfmlir-parsed, generic, no locations."""
    import tfmlir  # noqa: F401  (registers the dialects)
    from mlir import ir

    ctx = context or ir.Context()
    module = ir.Module.parse(text, ctx)
    return module.operation.get_asm(print_generic_op_form=True, enable_debug_info=False)


def tf_pass_exists(pass_name):
    """True if TF's pip build knows `pass_name` (checked through the oracle)."""
    probe = "module {}"
    result = run_tf_pipelines([(probe, f"builtin.module({pass_name})")])[0]
    return result["ok"] or "does not refer to a registered pass" not in result.get("error", "")


def run_tf_matrix(inputs, pipelines, exclude=None, timeout=1200):
    """TF's results for every (pipeline name, input id) pair, from one child process.

    `inputs`: {input id: MLIR text}; `pipelines`: {name: TF pipeline text};
    `exclude(name, text)` returns a reason (str) for pairs TF must not run
    (e.g. known TF crashes), or None. Returns {(name, input id): result}.
    """
    keys, jobs = [], []
    for input_id, text in inputs.items():
        for name, tf_pipeline in pipelines.items():
            if exclude is None or exclude(name, text) is None:
                keys.append((name, input_id))
                jobs.append((text, tf_pipeline))
    return dict(zip(keys, run_tf_pipelines(jobs, timeout=timeout)))


def strip_pass_prefix(message, pass_names):
    """`message` without tfmlir's ``<pass-name>: `` prefix (TF's messages have none)."""
    for name in pass_names:
        if message.startswith(name + ": "):
            return message[len(name) + 2:]
    return message


def run_tfmlir_pipeline(text, pipeline):
    """tfmlir's counterpart of one oracle job: parse `text`, run `pipeline` (the
    elements inside ``builtin.module(...)``) with tfmlir.passes.

    Returns ``{"ok": True, "text": structural form}`` (as :func:`canonical`)
    or ``{"ok": False, "errors": [diagnostic messages]}``.
    """
    import tfmlir
    from mlir import ir
    from tfmlir.passes import framework

    module = ir.Module.parse(text, ir.Context())
    try:
        framework.run(module, f"builtin.module({pipeline})")
    except ir.MLIRError as exc:
        return {"ok": False, "errors": [d.message for d in exc.error_diagnostics]}
    return {"ok": True, "text": tfmlir.print_ir(module, generic=True)}
