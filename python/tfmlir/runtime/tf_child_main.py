"""The program of TensorFlow's child process (:mod:`.tf_child`): jobs in, replies out.

Run as a script by :class:`.tf_child.TensorFlowChild` (by path, so that the
child imports TensorFlow alone: running it with ``python -m`` would import
tfmlir's MLIR libraries into the child first). It writes ``ready`` once
TensorFlow is imported, then reads one JSON job per line from stdin and writes
one JSON reply per line: ``{"ok": true, ...}`` or ``{"ok": false, "error": ...}``.

Jobs (``"kind"``):

* ``"pipeline"``: ``text`` (tf-dialect MLIR) after TensorFlow's pass
  ``pipeline`` (``tf.mlir.experimental.run_pass_pipeline``): the MLIR route;
* ``"graph"``: a GraphDef (``graph_def``, base64) pruned to a function from
  ``inputs`` to ``outputs``, compiled the way ``tf.function(jit_compile=True)``
  compiles it, its compiler IR at ``stage``: the graph route.

Nothing here imports tfmlir.
"""
import base64
import json
import sys


def pipeline(tf, job):
    return {"text": tf.mlir.experimental.run_pass_pipeline(job["text"], job["pipeline"],
                                                           show_debug_info=True)}


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


KINDS = {"pipeline": pipeline, "graph": graph}


def serve(stdin, out):
    """Answers the jobs of `stdin` on `out` until stdin closes."""
    import tensorflow as tf

    out.write("ready\n")
    out.flush()
    for line in stdin:
        try:
            job = json.loads(line)
            reply = json.dumps(dict(KINDS[job["kind"]](tf, job), ok=True))
        except Exception as exc:
            reply = json.dumps({"ok": False, "error": "%s: %s" % (type(exc).__name__, exc)})
        out.write(reply + "\n")
        out.flush()


if __name__ == "__main__":
    # Replies go to the real stdout; whatever TensorFlow prints goes to stderr.
    replies = sys.stdout
    sys.stdout = sys.stderr
    serve(sys.stdin, replies)
