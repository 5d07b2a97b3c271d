"""SavedModel -> MLIR in tf_saved_model form (signatures as exported functions).

``import_saved_model(path, exported_names=None, tags=("serve",))`` reads
``saved_model.pb`` (or ``.pbtxt``), picks the MetaGraphDef with exactly the
given tags, and imports each SignatureDef (all, or those in `exported_names`) as
a public function named after the signature key, in tf_executor form:

* arguments are the signature inputs (sorted by key) with
  ``tf_saved_model.index_path = ["key"]``, results the outputs likewise;
  ``tf.entry_function`` names the tensors; the graph is pruned to what the
  signature needs (as TensorFlow's signature-def importer does);
* ``tf_saved_model.exported_names = ["key"]`` on the function and
  ``tf_saved_model.semantics`` on the module;
* the init op (TF2 ``__saved_model_init_op`` signature, TF1 ``saved_model_main_op``
  / ``legacy_init_op`` collections) becomes an initializer function listed by a
  ``tf_saved_model.session_initializer`` op;
* functions the signatures call are private library functions, shared.

Differences from TensorFlow's SavedModel importers (``convert_saved_model[_v1]``),
which also run pass pipelines: variables are not lifted into
``tf_saved_model.global_tensor`` ops (their ``VarHandleOp``s stay in the graph and
no checkpoint is read), and no functionalization / standard pipeline runs.
"""
import os

from . import core
from .graph_import import Importer, import_graph, versions_of
from . import graph as G
from ..tfcore.tensor_names import parse_tensor_name
from ..tfcore import protobuf as pb
from ..tfcore import tf_types as T
from ..tfcore.errors import TFImportError


def _load(path):
    for name, text in (("saved_model.pb", False), ("saved_model.pbtxt", True)):
        p = os.path.join(path, name)
        if os.path.exists(p):
            with open(p, "rb") as f:
                data = f.read()
            try:
                return pb.parse_text("SavedModel", data) if text else pb.decode("SavedModel", data)
            except pb.DecodeError as exc:
                raise TFImportError(f"cannot decode {p}: {exc}") from None
    raise TFImportError(f"'{path}' is not a SavedModel directory (no saved_model.pb or saved_model.pbtxt)")


def _init_op(meta):
    sig = meta.signature_def.get("__saved_model_init_op")
    if sig is not None:
        out = sig.outputs.get("__saved_model_init_op")
        if out is not None and out.name:
            return parse_tensor_name(out.name)[0]
    for key in ("saved_model_main_op", "legacy_init_op"):
        coll = meta.collection_def.get(key)
        if coll is not None and coll.has("node_list") and coll.node_list.value:
            return parse_tensor_name(coll.node_list.value[0])[0]
    return None


def import_saved_model(path, exported_names=None, tags=("serve",), *, context=None, locations=True,
                       enable_shape_inference=True):
    """Imports a SavedModel's signatures (see the module docstring). Returns an ``mlir.ir.Module``."""
    sm = _load(os.fspath(path))
    want = set(tags or ())
    metas = [m for m in sm.meta_graphs if set(m.meta_info_def.tags) == want]
    if not metas:
        available = [sorted(m.meta_info_def.tags) for m in sm.meta_graphs]
        raise TFImportError(f"no MetaGraphDef with tags {sorted(want)} (available: {available})")
    meta = metas[0]
    gd = meta.graph_def
    flib = G.FunctionLibrary(gd.library)
    versions = versions_of(gd._values.get("versions"))
    imp = Importer(flib, context, shape_inference=enable_shape_inference, locations=locations,
                        graph_def_version=versions[0])
    ndefs = [G.NDef.from_proto(n) for n in gd.node]
    keys = sorted(k for k in meta.signature_def if not k.startswith("__"))
    if exported_names:
        missing = [n for n in exported_names if n not in meta.signature_def]
        if missing:
            raise TFImportError(f"the SavedModel has no signature {missing} (signatures: {keys})")
        keys = [k for k in keys if k in exported_names]
    initializers = []
    init = _init_op(meta)
    if init is not None:
        name = f"__tf_saved_model_session_initializer_{init}"
        fname = init
        import_graph(imp, ndefs, gd._values.get("versions"), [], [], [init], fname, prune_unused_nodes=True,
                          func_attrs=[("tf_saved_model.exported_names", f"[{T.mlir_string(name)}]"),
                                      ("tf_saved_model.initializer_type", '"init_op"')],
                          entry_function=None)
        initializers.append(fname)
    for key in keys:
        sig = meta.signature_def[key]
        in_keys = sorted(sig.inputs)
        out_keys = sorted(sig.outputs)
        inputs = []
        for k in in_keys:
            info = sig.inputs[k]
            if info.which("encoding") != "name":
                raise TFImportError(f"signature '{key}' input '{k}' is not a dense tensor (sparse/composite "
                                    f"inputs are not supported)")
            shape = T.shape_from_proto(info.tensor_shape) if info.has("tensor_shape") else None
            inputs.append((info.name, info.dtype, shape))
        outputs = []
        for k in out_keys:
            info = sig.outputs[k]
            if info.which("encoding") != "name":
                raise TFImportError(f"signature '{key}' output '{k}' is not a dense tensor")
            outputs.append(info.name)
        arg_attrs = [[("tf_saved_model.index_path", f"[{T.mlir_string(k)}]")] for k in in_keys]
        res_attrs = [[("tf_saved_model.index_path", f"[{T.mlir_string(k)}]")] for k in out_keys]
        import_graph(imp, ndefs, gd._values.get("versions"), inputs, outputs, [], key,
                          prune_unused_nodes=True,
                          func_attrs=[("tf_saved_model.exported_names", f"[{T.mlir_string(key)}]")],
                          arg_attrs=arg_attrs, res_attrs=res_attrs)
    imp.convert_deferred()
    head = []
    if initializers:
        refs = ", ".join(core.symbol(n) for n in initializers)
        head.append(f'  "tf_saved_model.session_initializer"() <{{initializers = [{refs}]}}> : () -> ()\n')
    imp.builder.module_prefix = head
    imp.builder.module_attrs = ["tf_saved_model.semantics"]
    return imp.finish(versions)
