"""A corpus of real TensorFlow models as MLIR text, for differential tests and benchmarks.

Models are traced with TensorFlow in a child process and converted with
``tf.mlir.experimental.convert_function`` (``pass_pipeline=''``: tf_executor
form, one island per node) or ``convert_graph_def`` for TF1 graphs. Results
are cached under ``<repo>/build/corpus`` (or ``$TFMLIR_CORPUS_DIR``); the
synthetic graph is generated here without TensorFlow.

    from tfmlir.testing import corpus
    text = corpus.get("resnet50")          # tf_executor form
    corpus.MODELS                          # the names
    protos = corpus.get_protos("resnet50")  # the TensorFlow protos of the same model

``get_protos`` returns the GraphDef (``concrete.graph.as_graph_def()``, or the
TF1 graph), the FunctionDefLibrary that ``convert_function`` saw (the traced
function plus the functions it calls) and TensorFlow's own import of the
GraphDef (``convert_graph_def(..., pass_pipeline='')``), all from the same
trace as ``get``'s text.

Model weights are random (``weights=None``): no downloads.
"""
import json
import os
import tempfile

MODELS = ("resnet50", "resnet152", "mobilenetv2", "efficientnetb0", "inceptionv3",
          "transformer_encoder", "lstm",
          "bert12", "bert48", "tf1_v1_control_flow", "synthetic50k")

# Models small enough for tests (seconds to generate); the rest are for benchmarks.
TEST_MODELS = ("resnet50", "transformer_encoder", "lstm", "tf1_v1_control_flow")

_REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
_MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus_models.py")



def cache_dir():
    path = os.environ.get("TFMLIR_CORPUS_DIR") or os.path.join(_REPO, "build", "corpus")
    os.makedirs(path, exist_ok=True)
    return path


def synthetic_graph(num_islands=50000, width=64):
    """A tf_executor graph of `num_islands` single-op islands (no TensorFlow needed).

    Layers of `width` parallel AddV2/Mul chains, every 16th op a
    ReadVariableOp/AssignVariableOp pair on a resource argument (side
    effects), occasional control edges, all fetched at the end.
    """
    lines = ["module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {",
             '  func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<!tf_type.resource<tensor<4xf32>>>) -> tensor<4xf32> '
             'attributes {tf.entry_function = {control_outputs = "", inputs = "x,v", outputs = "out"}} {',
             "    %0 = tf_executor.graph {"]
    t = "tensor<4xf32>"
    rt = "tensor<!tf_type.resource<tensor<4xf32>>>"
    heads = ["%arg0"] * width
    controls = []
    count = 0
    k = 0
    while count < num_islands:
        lane = k % width
        prev = heads[lane]
        other = heads[(lane + 1) % width]
        name = f"%v{k}"
        ctl = f"%c{k}"
        if k % 16 == 15:
            lines.append(f'      {name}, {ctl} = tf_executor.island wraps "tf.ReadVariableOp"(%arg1) {{device = ""}} : ({rt}) -> {t}')
            count += 1
            lines.append(f'      %a{k} = tf_executor.island({ctl}) wraps "tf.AssignVariableOp"(%arg1, {prev}) {{device = ""}} : ({rt}, {t}) -> ()')
            controls.append(f"%a{k}")
            count += 1
        else:
            op = "tf.AddV2" if k % 2 else "tf.Mul"
            deps = f"({controls[-1]})" if controls and k % 97 == 0 else ""
            lines.append(f'      {name}, {ctl} = tf_executor.island{deps} wraps "{op}"({prev}, {other}) {{device = ""}} : ({t}, {t}) -> {t}')
            count += 1
        heads[lane] = name
        k += 1
    # Reduce the lanes to one fetched value.
    acc = heads[0]
    for i, h in enumerate(heads[1:]):
        lines.append(f'      %r{i}, %rc{i} = tf_executor.island wraps "tf.AddV2"({acc}, {h}) {{device = ""}} : ({t}, {t}) -> {t}')
        acc = f"%r{i}"
    fetch_controls = controls[-4:]
    operands = ", ".join([acc] + fetch_controls)
    types = ", ".join([t] + ["!tf_executor.control"] * len(fetch_controls))
    lines.append(f"      tf_executor.fetch {operands} : {types}")
    lines.append("    }")
    lines.append(f"    return %0 : {t}")
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


_PROTO_FILES = ("graphdef.pb", "library.pb", "graphdef.mlir", "info.json")


def _protos_dir(name):
    return os.path.join(cache_dir(), f"{name}.protos")


def _generate(name, timeout, with_protos):
    """Traces model `name` in a TensorFlow child (:mod:`.corpus_models`, run by
    :class:`tfmlir.tf_child.TensorFlowChild`); writes <name>.mlir (and <name>.protos/)."""
    from ..tf_child import TensorFlowChild, TensorFlowChildError

    path = os.path.join(cache_dir(), f"{name}.mlir")
    with tempfile.TemporaryDirectory(dir=cache_dir()) as tmp:
        out = os.path.join(tmp, "out.mlir")
        args = [name, out]
        protos_tmp = os.path.join(tmp, "protos")
        if with_protos:
            os.makedirs(protos_tmp)
            args.append(protos_tmp)
        # A child of its own: building a model changes TensorFlow's global state.
        child = TensorFlowChild(env={"CUDA_VISIBLE_DEVICES": os.environ.get("CUDA_VISIBLE_DEVICES", "")},
                                keep_stderr=True)
        try:
            reply = child.request({"kind": "script", "path": _MODELS, "args": args}, timeout=timeout)
        except TensorFlowChildError as err:
            raise RuntimeError(f"generating corpus model '{name}' failed ({err}):\n{err.stderr[-4000:]}") \
                from None
        finally:
            child.close()
        if not reply["ok"]:
            raise RuntimeError(f"generating corpus model '{name}' failed: {reply['error_type']}: "
                               f"{reply['error']}")
        with open(out) as f:
            text = f.read()
        if with_protos:
            final = _protos_dir(name)
            if os.path.isdir(final):
                import shutil
                shutil.rmtree(final)
            os.replace(protos_tmp, final)
    tmp_path = path + ".tmp"
    with open(tmp_path, "w") as f:
        f.write(text)
    os.replace(tmp_path, path)
    return text


def get(name, *, refresh=False, timeout=1800):
    """The tf_executor-form MLIR text of model `name` (generated once, then cached)."""
    if name not in MODELS:
        raise KeyError(f"unknown corpus model '{name}' (known: {', '.join(MODELS)})")
    path = os.path.join(cache_dir(), f"{name}.mlir")
    if not refresh and os.path.exists(path):
        with open(path) as f:
            return f.read()
    if name == "synthetic50k":
        text = synthetic_graph()
        tmp_path = path + ".tmp"
        with open(tmp_path, "w") as f:
            f.write(text)
        os.replace(tmp_path, path)
        return text
    return _generate(name, timeout, with_protos=True)


def get_protos(name, *, refresh=False, timeout=1800):
    """The TensorFlow protos of model `name`, from the same trace as :func:`get`.

    Returns a dict: ``graph_def`` (serialized GraphDef: ``concrete.graph.as_graph_def()``,
    or the TF1 graph), ``library`` (serialized FunctionDefLibrary holding the traced function
    and every function it calls; None for TF1 graphs), ``function_name`` (the traced
    function, or None), ``graph_def_mlir`` (TensorFlow's ``convert_graph_def(graph_def,
    pass_pipeline='')`` text), ``function_mlir`` (``get(name)``: TensorFlow's
    ``convert_function`` text, or its GraphDef import for TF1 graphs) and ``frozen``: a
    runnable GraphDef (variables folded into constants with
    ``convert_variables_to_constants_v2``; the TF1 graph as is) as ``{"path": file,
    "inputs": [[tensor name, shape, dtype]...], "outputs": [tensor names], "init": [ops to
    run first]}``. Generating them
    re-traces the model, which also refreshes :func:`get`'s cached text.
    """
    if name not in MODELS or name == "synthetic50k":
        raise KeyError(f"no TensorFlow protos for corpus model '{name}'")
    pdir = _protos_dir(name)
    mlir_path = os.path.join(cache_dir(), f"{name}.mlir")
    complete = os.path.exists(mlir_path) and all(
        os.path.exists(os.path.join(pdir, f)) for f in ("graphdef.pb", "graphdef.mlir", "info.json",
                                                          "frozen.pb", "frozen.json"))
    if refresh or not complete:
        _generate(name, timeout, with_protos=True)
    with open(os.path.join(pdir, "info.json")) as f:
        info = json.load(f)
    with open(os.path.join(pdir, "graphdef.pb"), "rb") as f:
        graph_def = f.read()
    library = None
    if os.path.exists(os.path.join(pdir, "library.pb")):
        with open(os.path.join(pdir, "library.pb"), "rb") as f:
            library = f.read()
    with open(os.path.join(pdir, "graphdef.mlir")) as f:
        graph_def_mlir = f.read()
    with open(mlir_path) as f:
        function_mlir = f.read()
    with open(os.path.join(pdir, "frozen.json")) as f:
        frozen = json.load(f)
    frozen["path"] = os.path.join(pdir, "frozen.pb")
    return {"graph_def": graph_def, "library": library, "function_name": info.get("function_name"),
            "graph_def_mlir": graph_def_mlir, "function_mlir": function_mlir, "frozen": frozen}


def main(argv=None):
    import argparse

    parser = argparse.ArgumentParser(description="Generate (and cache) corpus models.")
    parser.add_argument("names", nargs="*", default=list(MODELS))
    parser.add_argument("--refresh", action="store_true")
    args = parser.parse_args(argv)
    for name in args.names:
        text = get(name, refresh=args.refresh)
        print(f"{name}: {text.count(chr(10))} lines, {text.count('tf_executor.island')} islands")


if __name__ == "__main__":
    main()
