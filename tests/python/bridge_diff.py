"""tfmlir's TPU clustering bridge against TensorFlow's, on whole programs.

TensorFlow runs its whole ``tf-replicated-clustering-bridge-v2`` from Python
but registers only some of its passes one by one. :func:`run_pipeline` runs a
bridge composition (``tfmlir.passes.bridge_pipelines``) as a sequence of
segments: passes TF registers run in a TensorFlow child (cached by content,
:mod:`tf_results`), the others -- and any registered pass named in
`tfmlir_passes` -- run in tfmlir. Comparing the result with TF's whole
pipeline checks tfmlir's passes in the context of TF's own:

* ``hybrid``: tfmlir runs only what TF cannot run alone (:data:`TF_UNREGISTERED`);
* ``hybrid`` with a registered pass in `tfmlir_passes`: that pass too;
* every pass in tfmlir: the named pipeline end to end.

Text goes between the two as printed IR without locations.
"""
import os

from conftest import REPO_ROOT

CACHE_DIR = os.path.join(str(REPO_ROOT), "build", "bridge-diff-tf")

# Passes of the bridge compositions that TF 2.21's Python build does not register one by one
# (checked against TF by test_bridge_diff.py).
TF_UNREGISTERED = frozenset({
    "tf-tpu-validate-inputs", "tf-tpu-validate-session-inputs", "tf-embedding-pipelining",
    "tf-embedding-sequencing", "tf-tpu-cluster-formation", "tf-mark-ops-for-outside-compilation",
    "tf-extract-head-tail-outside-compilation", "tf-extract-outside-compilation",
    "tf-verify-no-outside-compilation-markers", "tf-hoist-broadcast-read", "tf-xla-broadcast",
    "tf-tpu-sharding-identification", "verify-clustering-pass",
})


def elements(pipeline_text):
    """The pipeline as a list of (pass name, element text at module level), one pass each."""
    from tfmlir.passes.pipeline import NestedPipeline, parse_pipeline

    flat = []

    def visit(items, path):
        for item in items:
            if isinstance(item, NestedPipeline):
                visit(item.elements, path + (item.op_name,))
                continue
            text = item.text()
            for op_name in reversed(path):
                text = f"{op_name}({text})"
            flat.append((item.name, text))

    visit(parse_pipeline(pipeline_text), ())
    return flat


def segments(pipeline_text, tfmlir_passes=(), everything=False):
    """[(runs in TF?, pipeline text)]: maximal runs of passes on the same side."""
    result = []
    for name, text in elements(pipeline_text):
        in_tf = not everything and name not in TF_UNREGISTERED and name not in tfmlir_passes
        if result and result[-1][0] == in_tf:
            result[-1] = (in_tf, result[-1][1] + "," + text)
        else:
            result.append((in_tf, text))
    return result


def _run_tfmlir(text, pipeline):
    import tfmlir
    from mlir import ir
    from tfmlir.passes import framework

    context = ir.Context()
    try:
        module = ir.Module.parse(text, context)
        framework.run(module, f"builtin.module({pipeline})")
    except ir.MLIRError as exc:
        return {"ok": False, "error": "; ".join(f"{d.location}: {d.message}" for d in exc.error_diagnostics)
                or str(exc)}
    except ValueError as exc:  # a pipeline tfmlir cannot build (a missing pass)
        return {"ok": False, "error": str(exc)}
    return {"ok": True, "text": tfmlir.print_ir(module, debug_info=False)}


def run_pipeline(programs, pipeline_text, tfmlir_passes=(), everything=False):
    """{name: {"ok", "text" | "error", "stage"}}: `pipeline_text` on every program text.

    Segments run in order over all programs (one TF child per TF segment); a program that
    fails stops at that segment (``stage`` says which, ``error`` what).
    """
    import tf_results

    states = {name: {"ok": True, "text": text, "stage": None} for name, text in programs.items()}
    for number, (in_tf, text) in enumerate(segments(pipeline_text, tfmlir_passes, everything)):
        live = [name for name, state in states.items() if state["ok"]]
        if not live:
            break
        stage = f"{number}:{'tf' if in_tf else 'tfmlir'}:{text}"
        if in_tf:
            found, _ = tf_results.results({name: (states[name]["text"], text) for name in live},
                                          CACHE_DIR)
            outcomes = {name: found[name] for name in live}
        else:
            outcomes = {name: _run_tfmlir(states[name]["text"], text) for name in live}
        for name, outcome in outcomes.items():
            if outcome["ok"]:
                states[name]["text"] = outcome["text"]
            else:
                states[name] = {"ok": False, "error": outcome["error"], "stage": stage}
    return states


def tf_pipeline(programs, pipeline_name):
    """{name: TF's result of the whole named pipeline} (cached)."""
    import tf_results

    found, _ = tf_results.results({name: (text, pipeline_name) for name, text in programs.items()},
                                  CACHE_DIR)
    return found
