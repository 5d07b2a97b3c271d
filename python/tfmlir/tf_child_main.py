"""The program of TensorFlow's child process (:mod:`tfmlir.tf_child`): jobs in, replies out.

Started by :class:`tfmlir.tf_child.TensorFlowChild` as a script (by path, so that the child
imports TensorFlow alone: ``python -m`` would first import the tfmlir package and its MLIR
libraries). Its own folder (tfmlir's) is taken off ``sys.path`` first, so that no tfmlir
module shadows a top-level module TensorFlow imports. It writes ``ready`` once TensorFlow is imported, then reads one JSON job per
line from stdin and writes one JSON reply per line on stdout: ``{"ok": true, ...}`` or
``{"ok": false, "error": str(exception), "error_type": its class name}``, both with
``seconds`` (the job's time).

Jobs (``"kind"``):

* ``"pipeline"``: ``text`` (MLIR) after TensorFlow's pass ``pipeline``
  (``tf.mlir.experimental.run_pass_pipeline``; ``debug_info``: print locations);
* ``"graph"``: a GraphDef (``graph_def``, base64) pruned to a function from ``inputs`` to
  ``outputs``, compiled the way ``tf.function(jit_compile=True)`` compiles it, its compiler
  IR at ``stage``;
* ``"script"``: the Python file ``path`` run as ``__main__`` with ``sys.argv[1:] = args``
  (TensorFlow imported already); it answers through the files it writes.

A job with ``stderr_path`` has what is printed on fd 2 while it runs (TensorFlow's
warnings and diagnostics) written to that file, which survives the job killing the process.
Nothing here imports tfmlir.
"""
import base64
import json
import os
import sys
import time


def pipeline(tf, job):
    return {"text": tf.mlir.experimental.run_pass_pipeline(
        job["text"], job["pipeline"], show_debug_info=bool(job.get("debug_info", False)))}


def graph(tf, job):
    graph_def = tf.compat.v1.GraphDef.FromString(base64.b64decode(job["graph_def"]))
    wrapped = tf.compat.v1.wrap_function(
        lambda: tf.graph_util.import_graph_def(graph_def, name=""), [])
    g = wrapped.graph
    feeds = [g.get_tensor_by_name(name + ":0") for name in job["inputs"]]
    fetches = [g.get_tensor_by_name(name + ":0") for name in job["outputs"]]
    # Side effects with no data path to a result stay: run them as control outputs.
    effects = [op for op in g.get_operations() if op._is_stateful and op.type != "Placeholder"]
    pruned = wrapped.prune(feeds, (fetches, effects))

    def device_program(*args):
        return pruned(*args)[0]

    compiled = tf.function(device_program, jit_compile=True, autograph=False)
    specs = [tf.TensorSpec(t.shape, t.dtype) for t in feeds]
    ir = compiled.experimental_get_compiler_ir(*specs)(stage=job["stage"])
    if isinstance(ir, bytes):
        return {"data": base64.b64encode(ir).decode()}
    return {"text": ir}


def script(tf, job):
    import runpy

    saved = sys.argv
    sys.argv = [job["path"]] + [str(a) for a in job.get("args", [])]
    try:
        runpy.run_path(job["path"], run_name="__main__")
    finally:
        sys.argv = saved
    return {}


KINDS = {"pipeline": pipeline, "graph": graph, "script": script}


def _run(tf, job):
    start = time.perf_counter()
    try:
        reply = dict(KINDS[job["kind"]](tf, job), ok=True)
    except Exception as exc:
        reply = {"ok": False, "error": str(exc), "error_type": type(exc).__name__}
    reply["seconds"] = time.perf_counter() - start
    return reply


def serve(stdin, out, tf=None):
    """Answers the jobs of `stdin` on `out` until stdin closes; `tf`: the TensorFlow module
    (imported here when not given)."""
    if tf is None:
        import tensorflow as tf

    out.write("ready\n")
    out.flush()
    for line in stdin:
        try:
            job = json.loads(line)
        except ValueError as exc:
            out.write(json.dumps({"ok": False, "error": "not a JSON job: %s" % exc,
                                  "error_type": type(exc).__name__}) + "\n")
            out.flush()
            continue
        path = job.get("stderr_path")
        if path:
            sys.stderr.flush()
            saved = os.dup(2)
            log = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(log, 2)
            try:
                reply = _run(tf, job)
            finally:
                sys.stderr.flush()
                os.dup2(saved, 2)
                os.close(saved)
                os.close(log)
        else:
            reply = _run(tf, job)
        out.write(json.dumps(reply) + "\n")
        out.flush()


def drop_own_folder():
    """Takes the folder of this script (Python puts it first on ``sys.path``) off the path."""
    here = os.path.dirname(os.path.realpath(__file__))  # the folder, links resolved
    sys.path[:] = [p for p in sys.path if os.path.realpath(p or os.curdir) != here]


if __name__ == "__main__":
    drop_own_folder()
    # Replies go to the real stdout; whatever TensorFlow prints goes to stderr.
    replies = sys.stdout
    sys.stdout = sys.stderr
    serve(sys.stdin, replies)
