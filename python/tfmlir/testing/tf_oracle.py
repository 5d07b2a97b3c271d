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
    """Structural form of `text`: tfmlir-parsed, generic, no locations.

    Attributes and types of dialects tfmlir does not load (TF's passes emit
    ``#mhlo.type_extensions``) are read as opaque ones, which print the same.
    """
    import tfmlir  # noqa: F401  (registers the dialects)
    from mlir import ir

    ctx = context
    if ctx is None:
        ctx = ir.Context()
        ctx.allow_unregistered_dialects = True
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

    try:
        module = ir.Module.parse(text, ir.Context())
    except ir.MLIRError as exc:  # input the verifier refuses (TF's parse fails too)
        return {"ok": False, "errors": [d.message for d in exc.error_diagnostics]}
    try:
        framework.run(module, f"builtin.module({pipeline})")
    except ir.MLIRError as exc:
        return {"ok": False, "errors": [d.message for d in exc.error_diagnostics]}
    return {"ok": True, "text": tfmlir.print_ir(module, generic=True)}


_ISOLATING_CHILD = r"""
import json, os, sys, time
jobs_path, work, first = sys.argv[1], sys.argv[2], int(sys.argv[3])
jobs = json.load(open(jobs_path))
import tensorflow as tf
progress = open(os.path.join(work, "progress"), "a")
for index in range(first, len(jobs)):
    progress.write("%d %f\n" % (index, time.time()))
    progress.flush()
    sys.stderr.flush()
    saved = os.dup(2)
    log = os.open(os.path.join(work, "%d.log" % index), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(log, 2)
    start = time.perf_counter()
    try:
        text = tf.mlir.experimental.run_pass_pipeline(jobs[index]["text"], jobs[index]["pipeline"],
                                                      show_debug_info=False)
        result = {"ok": True, "text": text}
    except Exception as exc:
        result = {"ok": False, "error": str(exc)}
    result["seconds"] = time.perf_counter() - start
    sys.stderr.flush()
    os.dup2(saved, 2)
    os.close(saved)
    os.close(log)
    with open(os.path.join(work, "%d.tmp" % index), "w") as f:
        json.dump(result, f)
    os.replace(os.path.join(work, "%d.tmp" % index), os.path.join(work, "%d.json" % index))
"""


def run_tf_pipelines_isolated(jobs, timeout=1800, job_timeout=600):
    """:func:`run_tf_pipelines` that survives TensorFlow dying on a job.

    The jobs run in one child process, in order; a job that kills it (a crash, an abort) or runs
    longer than `job_timeout` seconds gets ``{"ok": False, "crashed": True, "error": ...}`` (how
    it ended and the job's stderr), and a new child goes on with the next job. Every result also
    has ``seconds`` (TF's time for the job, or until it died) and ``stderr`` (what TF printed
    during the job: warnings, diagnostics of passes that still succeed). TF's failure without a
    diagnostic (``run_pass_pipeline`` then returns ``"// error"``) is a failure here, with that
    text as its message. Jobs not run because the whole run passed `timeout` seconds get
    ``crashed`` results saying so.
    """
    import time

    results = [None] * len(jobs)
    deadline = time.monotonic() + timeout
    env = dict(os.environ)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    env.setdefault("OMP_NUM_THREADS", "1")
    with tempfile.TemporaryDirectory() as work:
        jobs_path = os.path.join(work, "jobs.json")
        with open(jobs_path, "w") as f:
            json.dump([{"text": t, "pipeline": p} for t, p in jobs], f)

        def started():
            path = os.path.join(work, "progress")
            if not os.path.exists(path):
                return {}
            with open(path) as f:
                return {int(i): float(t) for i, t in (line.split() for line in f if line.endswith("\n"))}

        def log_of(index):
            path = os.path.join(work, "%d.log" % index)
            if not os.path.exists(path):
                return ""
            with open(path, errors="replace") as f:
                return f.read()[-4000:]

        first = 0
        while first < len(jobs):
            with open(os.path.join(work, "child.err"), "w+b") as child_err:
                proc = subprocess.Popen([sys.executable, "-c", _ISOLATING_CHILD, jobs_path, work, str(first)],
                                        stdout=subprocess.DEVNULL, stderr=child_err, env=env)
                killed = None
                while proc.poll() is None:
                    time.sleep(0.1)
                    begun = started()
                    running = [i for i in begun if not os.path.exists(os.path.join(work, "%d.json" % i))]
                    if time.monotonic() > deadline:
                        killed = "not finished: the whole run exceeded %d s" % timeout
                    elif running and time.time() - begun[max(running)] > job_timeout:
                        killed = "killed: the job exceeded %d s" % job_timeout
                    if killed:
                        proc.kill()
                        proc.wait()
                child_err.seek(0)
                child_stderr = child_err.read().decode(errors="replace")
            begun = started()
            for index in range(first, len(jobs)):
                path = os.path.join(work, "%d.json" % index)
                if results[index] is None and os.path.exists(path):
                    with open(path) as f:
                        result = json.load(f)
                    result["stderr"] = log_of(index)
                    if result["ok"] and result["text"].startswith("// error"):
                        result = {"ok": False, "error": result["text"].strip(), "seconds": result["seconds"],
                                  "stderr": result["stderr"]}
                    results[index] = result
            pending = [i for i in range(first, len(jobs)) if results[i] is None]
            if not pending:
                break
            victim = pending[0]
            if victim not in begun:
                raise OracleError(f"TensorFlow child failed before job {victim} "
                                  f"(exit {proc.returncode}):\n{child_stderr[-4000:]}")
            how = killed or f"TensorFlow's process died (exit status {proc.returncode})"
            results[victim] = {"ok": False, "crashed": True, "seconds": time.time() - begun[victim],
                               "error": how, "stderr": log_of(victim)}
            if time.monotonic() > deadline:
                for i in pending[1:]:
                    results[i] = {"ok": False, "crashed": True, "seconds": 0.0, "stderr": "",
                                  "error": "not run: the whole run exceeded %d s" % timeout}
                break
            first = victim + 1
    return results
