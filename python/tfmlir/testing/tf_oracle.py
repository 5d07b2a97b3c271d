"""Runs TensorFlow's C++ passes as an oracle and compares IR structurally.

TensorFlow runs in a child process (:class:`tfmlir.tf_child.TensorFlowChild`, the runner
the runtime uses too: ``tf.mlir.experimental.run_pass_pipeline`` jobs), so it never shares
the caller's process; many (text, pipeline) jobs go through one child to pay TensorFlow's
import once.

:func:`canonical` is the structural form used for comparisons: the IR parsed
with tfmlir and printed in generic form without locations, so SSA names and
pretty-printing choices do not matter but op order, operands, attributes and
types do.
"""
import os
import tempfile
import time

from ..tf_child import TensorFlowChild, TensorFlowChildError

# The oracle's children run single-threaded (results do not depend on it; tests run beside).
_ENV = {"OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "1")}


class OracleError(RuntimeError):
    pass


def _job(text, pipeline):
    return {"kind": "pipeline", "text": text, "pipeline": pipeline, "debug_info": False}


def run_tf_pipelines(jobs, timeout=600, crashes="raise"):
    """Runs TF's C++ pipelines. `jobs`: list of (mlir_text, pipeline).

    Returns a list of dicts: {"ok": True, "text": ..., "seconds": ...} or
    {"ok": False, "error": message}. `pipeline` is TF's syntax, e.g.
    ``"func.func(tf-executor-island-coarsening)"``. `timeout`: seconds for all the jobs.

    A job that crashes TensorFlow (the child dies) raises :class:`OracleError`;
    with ``crashes="record"`` it gets ``{"ok": False, "crashed": True, "error": ...}``
    instead and the jobs after it run in a new child.
    """
    if crashes not in ("raise", "record"):
        raise ValueError(f"crashes must be 'raise' or 'record', not {crashes!r}")
    deadline = time.monotonic() + timeout
    child = TensorFlowChild(env=_ENV, keep_stderr=True)
    results = []
    try:
        for text, pipeline in jobs:
            try:
                result = child.request(_job(text, pipeline), timeout=max(0.0, deadline - time.monotonic()))
            except TensorFlowChildError as err:
                if crashes == "raise" or not err.started or err.timed_out:
                    raise OracleError(f"TensorFlow child failed ({err}):\n{err.stderr[-4000:]}") from None
                result = {"ok": False, "crashed": True,
                          "error": f"TensorFlow crashed ({err}): {err.stderr[-1000:]}"}
            results.append(result)
    finally:
        child.close()
    return results


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


def run_tf_pipelines_isolated(jobs, timeout=1800, job_timeout=600, python=None, env=None):
    """:func:`run_tf_pipelines` that survives TensorFlow dying on a job.

    The jobs run in one child process, in order; a job that kills it (a crash, an abort) or runs
    longer than `job_timeout` seconds gets ``{"ok": False, "crashed": True, "error": ...}`` (how
    it ended and the job's stderr), and a new child goes on with the next job. Every result also
    has ``seconds`` (TF's time for the job, or until it died) and ``stderr`` (what TF printed
    during the job: warnings, diagnostics of passes that still succeed). TF's failure without a
    diagnostic (``run_pass_pipeline`` then returns ``"// error"``) is a failure here, with that
    text as its message. Jobs not run because the whole run passed `timeout` seconds get
    ``crashed`` results saying so. `python`: the interpreter that has TensorFlow (default: this
    one); `env`: more environment variables for the child.
    """
    results = []
    deadline = time.monotonic() + timeout
    child = TensorFlowChild(env=dict(_ENV, **(env or {})), keep_stderr=True, python=python)
    try:
        with tempfile.TemporaryDirectory() as work:
            for index, (text, pipeline) in enumerate(jobs):
                left = deadline - time.monotonic()
                if left <= 0:
                    results.append({"ok": False, "crashed": True, "seconds": 0.0, "stderr": "",
                                    "error": "not run: the whole run exceeded %d s" % timeout})
                    continue
                log = os.path.join(work, "%d.log" % index)
                job = dict(_job(text, pipeline), stderr_path=log)
                began = time.monotonic()
                try:
                    result = child.request(job, timeout=min(job_timeout, left))
                except TensorFlowChildError as err:
                    if not err.started:
                        raise OracleError(f"TensorFlow child failed before job {index} ({err}):\n"
                                          f"{err.stderr[-4000:]}") from None
                    how = str(err)
                    if err.timed_out and job_timeout >= left:
                        how = "killed: the whole run exceeded %d s" % timeout
                    result = {"ok": False, "crashed": True, "seconds": time.monotonic() - began,
                              "error": how}
                result["stderr"] = _tail(log)
                if result["ok"] and result["text"].startswith("// error"):
                    result = {"ok": False, "error": result["text"].strip(), "seconds": result["seconds"],
                              "stderr": result["stderr"]}
                results.append(result)
    finally:
        child.close()
    return results


def _tail(path, size=4000):
    if not os.path.exists(path):
        return ""
    with open(path, errors="replace") as f:
        return f.read()[-size:]
