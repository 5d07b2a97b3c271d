"""Entry points: GraphDef / FunctionDef / SavedModel -> MLIR module (tf_executor form)."""
import os

from . import core
from . import graph as G
from . import opdb
from . import protobuf as pb
from . import tf_types as T
from .errors import TFImportError


def _context(context):
    import tfmlir  # noqa: F401  (registers the dialects)
    from mlir import ir
    if context is not None:
        return context
    try:
        current = ir.Context.current
    except ValueError:
        current = None
    return current if current is not None else ir.Context()


def _versions_of(vdef):
    if vdef is None:
        return (0, 0, [])
    return (vdef.producer, vdef.min_consumer, list(vdef.bad_consumers))


def _default_versions():
    producer, min_consumer = opdb.graph_def_version()
    return (producer, min_consumer, [])


class _Importer:
    """Shared machinery of one import: the builder, library conversion, parsing."""

    def __init__(self, flib, context, *, shape_inference, locations, graph_def_version):
        self.context = _context(context)
        self.builder = core.ModuleBuilder(flib, self.context, locations=locations)
        self.builder.shape_inference = shape_inference
        self.flib = flib
        self.graph_def_version = graph_def_version
        self.release = None   # called with each large constant's buffer once MLIR holds a copy

    def types_for(self, graph, arg_shapes=None, function=None):
        if self.builder.shape_inference:
            from .shape_inference import ShapeInference
            return ShapeInference(self.builder, graph, self.graph_def_version, arg_shapes=arg_shapes,
                                  function=function)
        return core.TypeInference(self.builder, self.graph_def_version)

    def prepare(self, graph, arg_shapes=None, function=None):
        back_edges = G.remove_back_edges(graph)
        seen = {}
        for src, out, dst, _ in back_edges:
            if src in seen and seen[src] != out:
                raise TFImportError("more than one output of the node is a back edge", node=src.name)
            seen[src] = out
        order = G.topological_order(graph)
        types = self.types_for(graph, arg_shapes, function)
        if hasattr(types, "run"):
            types.run(order)
        return core.PreparedGraph(graph, back_edges, order, types)

    def convert_deferred(self):
        b = self.builder
        i = 0
        while i < len(b.deferred):
            tf_name, attrs = b.deferred[i]
            i += 1
            fdef = self.flib.find(tf_name)
            arg_shapes = None
            inp = fdef.attr.get("_input_shapes")
            if inp is not None:
                shapes = inp.list._values.get("shape") or []
                n_args = len(fdef.signature.input_arg)
                if shapes and len(shapes) != n_args:
                    raise TFImportError("the number of input arguments must equal the length of the "
                                        "_input_shapes attribute", function=tf_name)
                arg_shapes = [T.shape_from_proto(s) for s in shapes] if shapes else [None] * n_args
            body = G.function_body(tf_name, self.flib)
            prepared = self.prepare(body.graph, arg_shapes, function=tf_name)
            arg_types = []
            for k, node in enumerate(body.arg_nodes):
                if arg_shapes is not None:
                    arg_types.append(T.tensor_type(T.element_type(node.output_types[0]), arg_shapes[k]))
                else:
                    arg_types.append(prepared.types.output_type(node, 0))
            emitter = core.FunctionEmitter(b, prepared, debug_function_name=tf_name)
            if b.shape_inference:
                emitter.result_types_override = [prepared.types.input_type(r, 0) for r in body.ret_nodes]
            mlir_name = b.tf_name_to_mlir[tf_name]
            chunks, patches = emitter.convert(mlir_name, True, [(n, 0) for n in body.arg_nodes], arg_types,
                                              [(n, 0) for n in body.ret_nodes], body.control_ret_nodes, attrs)
            self.add_function(mlir_name, chunks, patches)

    def add_function(self, name, chunks, patches):
        b = self.builder
        idx = len(b.functions)
        b.functions.append((name, chunks))
        for op_index, tensor in patches:
            b.patches.append((idx, op_index, tensor))

    def finish(self, versions):
        from mlir import ir
        text = self.builder.module_text(versions)
        try:
            module = ir.Module.parse(text, self.context)
        except ir.MLIRError as exc:  # a bug in the importer, or input MLIR cannot express
            raise TFImportError(f"the imported IR does not parse/verify: {exc}") from None
        self._apply_patches(module)
        return module

    def _apply_patches(self, module):
        patches = self.builder.patches
        if not patches:
            return
        by_func = {}
        for fi, oi, t in patches:
            by_func.setdefault(fi, {})[oi] = t
        funcs = list(module.body.operations)
        for fi, ops in by_func.items():
            func = funcs[fi]
            graph_op = func.regions[0].blocks[0].operations[0]
            block = graph_op.regions[0].blocks[0]
            for k, op in enumerate(block.operations):
                t = ops.get(k)
                if t is None:
                    continue
                inner = op.regions[0].blocks[0].operations[0]
                inner.attributes["value"] = T.dense_attr(t, self.context)
                if self.release is not None:
                    self.release(t.array)
                ops[k] = None


def _library_from(obj):
    """A FunctionDefLibrary message from bytes/GraphDef/FunctionDefLibrary messages."""
    if obj is None:
        return pb.Message("FunctionDefLibrary")
    if isinstance(obj, pb.Message):
        if obj.schema.name == "FunctionDefLibrary":
            return obj
        if obj.schema.name == "GraphDef":
            return obj.library
    raise TypeError(f"expected a FunctionDefLibrary or GraphDef, got {type(obj).__name__}")


def _library_holding(library, function_name):
    """The FunctionDefLibrary message of `library` (see import_function_def). Serialized bytes
    carry no message type: they are read as a FunctionDefLibrary and as a GraphDef, and the
    reading whose library holds `function_name` wins (a GraphDef often decodes as a
    FunctionDefLibrary without error, and the other way round)."""
    if not isinstance(library, (bytes, bytearray, memoryview)):
        return _library_from(_coerce(library, ("FunctionDefLibrary", "GraphDef")))
    errors = []
    found = None
    for schema in ("FunctionDefLibrary", "GraphDef"):
        try:
            lib = _library_from(pb.decode(schema, library))
        except pb.DecodeError as exc:
            errors.append(f"as {schema}: {exc}")
            continue
        if found is None:
            found = lib
        if any(f.signature.name == function_name for f in lib._values.get("function", ())):
            return lib
    if found is None:
        raise TFImportError(f"cannot decode the function library ({'; '.join(errors)})")
    return found


def import_function_def(library, function_name, *, context=None, locations=True, versions=None):
    """Imports function `function_name` of a function library, like TensorFlow's
    ``ConvertFunctionToMlir`` (``tf.mlir.experimental.convert_function``).

    `library`: a FunctionDefLibrary or GraphDef (decoded message, serialized bytes or a
    TensorFlow proto object), holding the function and every function it calls.
    """
    flib = G.FunctionLibrary(_library_holding(library, function_name))
    if function_name not in flib:
        raise TFImportError(f"function '{function_name}' is not in the function library")
    imp = _Importer(flib, context, shape_inference=False, locations=locations,
                    graph_def_version=opdb.graph_def_version()[0])
    body = G.function_body(function_name, flib)
    prepared = imp.prepare(body.graph, function=function_name)
    arg_types = [prepared.types.output_type(n, 0) for n in body.arg_nodes]
    control_outputs = [n.name for n in body.control_ret_nodes]
    entry = core.format_dict([
        ("control_outputs", T.mlir_string(",".join(control_outputs))),
        ("inputs", T.mlir_string(",".join(n.name for n in body.arg_nodes))),
        ("outputs", T.mlir_string(",".join(n.name for n in body.ret_nodes))),
    ])
    attrs = [("allow_soft_placement", "false"), ("tf.entry_function", entry)]
    emitter = core.FunctionEmitter(imp.builder, prepared)
    chunks, patches = emitter.convert(function_name, False, [(n, 0) for n in body.arg_nodes], arg_types,
                                      [(n, 0) for n in body.ret_nodes], body.control_ret_nodes, attrs)
    imp.add_function(function_name, chunks, patches)
    imp.convert_deferred()
    return imp.finish(versions or _default_versions())


def import_function(concrete_function, *, context=None, locations=True):
    """Imports a ``tf.function`` ConcreteFunction like ``tf.mlir.experimental.convert_function(...,
    pass_pipeline='')``: the function and the library functions it calls."""
    fdef = concrete_function.function_def
    graph_def = concrete_function.graph.as_graph_def()
    lib = pb.decode("FunctionDefLibrary", graph_def.library.SerializeToString())
    main = pb.decode("FunctionDef", fdef.SerializeToString())
    lib.function = [f for f in lib.function if f.signature.name != main.signature.name] + [main]
    return import_function_def(lib, main.signature.name, context=context, locations=locations)


def _coerce(obj, schema_names):
    """bytes / TF proto object / Message -> Message of one of `schema_names` (first by default)."""
    if isinstance(obj, pb.Message):
        return obj
    if isinstance(obj, (bytes, bytearray, memoryview)):
        try:
            return pb.decode(schema_names[0], obj)
        except pb.DecodeError as exc:
            raise TFImportError(f"cannot decode {schema_names[0]}: {exc}") from None
    if hasattr(obj, "SerializeToString") and hasattr(obj, "DESCRIPTOR"):
        name = obj.DESCRIPTOR.name
        target = name if name in schema_names else schema_names[0]
        return pb.decode(target, obj.SerializeToString())
    if isinstance(obj, (str, os.PathLike)):
        raise TypeError("pass the bytes of the message (or use the CLI / load helpers for files)")
    raise TypeError(f"cannot import a {type(obj).__name__}")


# ---------------------------------------------------------------------------------------------
# GraphDef import.

def _parse_dtype(d):
    if d is None or d == "" or d == 0:
        return 0
    if isinstance(d, int):
        return d
    s = str(d).strip()
    if s in T.DTYPE_BY_NAME:
        return T.DTYPE_BY_NAME[s]
    up = "DT_" + s.upper()
    aliases = {"DT_FLOAT32": "DT_FLOAT", "DT_FLOAT64": "DT_DOUBLE", "DT_FLOAT16": "DT_HALF",
               "DT_COMPLEX": "DT_COMPLEX64", "DT_STR": "DT_STRING"}
    up = aliases.get(up, up)
    if up in T.DTYPE_BY_NAME:
        return T.DTYPE_BY_NAME[up]
    raise TFImportError(f"unknown data type '{d}'")


def _parse_shape(s):
    """None / '*' -> unknown rank; '' -> scalar; '2,?,3' or [2, -1, 3] -> dims."""
    if s is None or s == "*":
        return None
    if isinstance(s, str):
        s = s.strip()
        if not s:
            return []
        dims = []
        for part in s.split(","):
            part = part.strip()
            if part in ("?", "-1"):
                dims.append(-1)
            else:
                try:
                    dims.append(int(part))
                except ValueError:
                    raise TFImportError(f"invalid shape '{s}'") from None
        return dims
    return [int(d) if d is not None and int(d) >= 0 else -1 for d in s]


def _check_versions(vdef):
    err = opdb.versions_error(*_versions_of(vdef))
    if err is not None:
        raise TFImportError(err)


def _feeds_by_node(inputs):
    feeds = {}
    for name, dtype, shape in inputs:
        node, idx = G.parse_tensor_name(name)
        if idx < 0:
            raise TFImportError(f"feed output tensor must be a data output '{name}'")
        if idx in feeds.setdefault(node, {}):
            raise TFImportError(f"multiple feeds for the same output tensor '{name}'")
        feeds[node][idx] = (name, dtype, shape)
    return feeds


def _attr(**kw):
    return pb.Message("AttrValue", **kw)


def _replace_feeds(g, inputs, set_placeholder_attrs):
    """Feeds become Placeholder nodes (CreatePlaceholderNodeForFeed). Returns {feed name: node}."""
    feeds = _feeds_by_node(inputs)
    by_name = g.by_name()
    remapped = {}
    for node_name in list(feeds):
        node = by_name.get(node_name)
        if node is None:
            raise TFImportError(f"graph does not contain node '{node_name}' (an input array)")
        if node.op in ("Placeholder", "LegacyFedInput", "_Arg"):
            if 0 not in feeds[node_name]:
                raise TFImportError(f"missing feed output tensor at index 0 for node '{node_name}'")
            name, dtype, shape = feeds[node_name][0]
            if set_placeholder_attrs:
                attrs = dict(node.attrs)
                attrs["shape"] = _attr(shape=T.shape_to_proto(shape))
                attrs["dtype"] = _attr(type=dtype or node.output_types[0])
                node.attrs = attrs
            for idx, (name, _, _) in feeds[node_name].items():
                remapped[name] = node
            continue
        for idx, (name, dtype, shape) in sorted(feeds[node_name].items()):
            if idx >= node.num_outputs:
                raise TFImportError(f"invalid output index {idx} in input array '{name}'", node=node_name)
            dtype = dtype or node.output_types[idx]
            in_place = node.num_outputs == 1 and idx == 0
            if in_place:
                new_name = node.name
            else:
                base = f"{node.name}_{idx}"
                new_name, count = base, 0
                while new_name in by_name:
                    new_name = f"{base}_{count}"
                    count += 1
            ph = g.add_node(G.NDef(new_name, "Placeholder", [], "", {
                "shape": _attr(shape=T.shape_to_proto(shape)), "dtype": _attr(type=dtype)}),
                opdb.get("Placeholder"), [], [dtype])
            by_name[new_name] = ph
            for e in list(node.out_edges):
                if e.src_output == idx:
                    dst, slot = e.dst, e.dst_input
                    g.remove_edge(e)
                    g.add_edge(ph, 0, dst, slot)
                elif in_place and e.src_output == G.CONTROL:
                    dst = e.dst
                    g.remove_edge(e)
                    g.add_edge(ph, G.CONTROL, dst, G.CONTROL)
            if in_place:
                g.remove_node(node)
            remapped[name] = ph
    return remapped


def _prune(g, keep):
    visited = set(keep)
    queue = list(keep)
    while queue:
        n = queue.pop()
        for e in n.in_edges:
            if e.src not in visited:
                visited.add(e.src)
                queue.append(e.src)
    for n in g.op_nodes():
        if n not in visited:
            g.remove_node(n)


def import_graph_def(graph_def, *, input_names=None, input_data_types=None, input_data_shapes=None,
                     output_names=None, control_output_names=None, prune_unused_nodes=False,
                     context=None, locations=True, graph_func_name="main", enable_shape_inference=True,
                     unconditionally_use_set_output_shapes=False, report=None, upgrade_legacy=False,
                     _release=None):
    """Imports a GraphDef like TensorFlow's ``import_graphdef`` (``tf.mlir.experimental.convert_graph_def``
    with ``pass_pipeline=''``).

    `graph_def`: serialized bytes, a decoded :class:`protobuf.Message`, a TensorFlow GraphDef object,
    or the path of a binary ``.pb`` file (memory-mapped: constants are copied once, into MLIR).
    Feeds and fetches follow tf-mlir-translate: `input_names` ("x" or "x:1"), `input_data_types`
    ("DT_FLOAT"/"float32"; empty: the node's type), `input_data_shapes` (lists of dims, -1 unknown;
    None: unknown rank; or strings "2,2"), `output_names`, `control_output_names`. With feeds or
    fetches the main function gets those as arguments/results and a ``tf.entry_function`` attribute.
    Returns an ``mlir.ir.Module``; raises :class:`TFImportError` naming the offending node.
    `report`: an optional dict; ``report["unsupported_shape_ops"]`` lists the op types shape
    inference had no shape function for (their results get unknown shapes).
    `upgrade_legacy` (tf-mlir-translate's ``--tf-upgrade-legacy``): TF1 control flow
    (Switch/Merge/Enter/Exit/NextIteration) becomes ``tf.While`` / ``tf.If`` with functions
    (``tf-executor-functionalize-control-flow``); a graph it cannot convert raises
    :class:`TFImportError` with the pass's diagnostic.
    """
    if isinstance(graph_def, (str, os.PathLike)):
        with _MappedFile(graph_def) as mapped:
            return import_graph_def(
                mapped.message("GraphDef"), input_names=input_names, input_data_types=input_data_types,
                input_data_shapes=input_data_shapes, output_names=output_names,
                control_output_names=control_output_names, prune_unused_nodes=prune_unused_nodes,
                context=context, locations=locations, graph_func_name=graph_func_name,
                enable_shape_inference=enable_shape_inference,
                unconditionally_use_set_output_shapes=unconditionally_use_set_output_shapes, report=report,
                upgrade_legacy=upgrade_legacy, _release=mapped.release)
    gd = _coerce(graph_def, ("GraphDef",))
    input_names = [s for s in (input_names or []) if s != ""]
    if isinstance(input_names, str):
        input_names = [s for s in input_names.split(",") if s]
    types = list(input_data_types or [])
    shapes = list(input_data_shapes or [])
    if types and len(types) != len(input_names):
        raise TFImportError(f"{len(input_names)} input arrays but {len(types)} input data types")
    if shapes and len(shapes) != len(input_names):
        raise TFImportError(f"{len(input_names)} input arrays but {len(shapes)} input shapes")
    inputs = []
    for i, name in enumerate(input_names):
        dtype = _parse_dtype(types[i]) if types else 0
        shape = _parse_shape(shapes[i]) if shapes else None
        inputs.append((name, dtype, shape))
    outputs = list(output_names or [])
    control_outputs = list(control_output_names or [])
    if len(set(control_outputs)) != len(control_outputs):
        raise TFImportError("control outputs must be unique")

    _check_versions(gd._values.get("versions"))
    flib = G.FunctionLibrary(gd.library)
    versions = _versions_of(gd._values.get("versions"))
    imp = _Importer(flib, context, shape_inference=enable_shape_inference, locations=locations,
                    graph_def_version=versions[0])
    imp.builder.unconditionally_use_set_output_shapes = unconditionally_use_set_output_shapes
    imp.release = _release
    ndefs = [G.NDef.from_proto(n) for n in gd.node]
    _import_graph(imp, ndefs, gd._values.get("versions"), inputs, outputs, control_outputs, graph_func_name,
                  prune_unused_nodes=prune_unused_nodes)
    imp.convert_deferred()
    module = imp.finish(versions)
    if report is not None:
        report["unsupported_shape_ops"] = sorted(imp.builder.unsupported_shape_ops)
    if upgrade_legacy:
        upgrade_legacy_control_flow(module)
    return module


def upgrade_legacy_control_flow(module):
    """Runs ``tf-executor-functionalize-control-flow`` on an imported `module` when it holds TF1
    control flow; a failure raises :class:`TFImportError` carrying the pass's diagnostics."""
    from mlir import ir
    from ..passes import framework
    from ..passes.tf_executor_functionalize_control_flow import has_v1_control_flow
    if not has_v1_control_flow(module):
        return
    try:
        framework.run(module, "builtin.module(tf-executor-functionalize-control-flow)")
    except ir.MLIRError as exc:
        raise TFImportError(f"functionalizing TF1 control flow failed: {_diagnostics_text(exc)}") from None


def _diagnostics_text(exc):
    parts = []
    for diag in getattr(exc, "error_diagnostics", []) or []:
        parts.append(f"{diag.location}: {diag.message}")
    return "; ".join(parts) or str(exc)


class _MappedFile:
    """A memory-mapped binary proto file; constant buffers are released page by page once
    MLIR holds their copy, so peak memory stays near one copy of the constants."""

    def __init__(self, path):
        self.path = os.fspath(path)

    def __enter__(self):
        import mmap
        self._f = open(self.path, "rb")
        size = os.fstat(self._f.fileno()).st_size
        if size == 0:
            self.mm = b""
        else:
            self.mm = mmap.mmap(self._f.fileno(), 0, access=mmap.ACCESS_READ)
        import numpy as np
        self._base = np.frombuffer(self.mm, dtype=np.uint8).__array_interface__["data"][0] if size else 0
        self._page = mmap.PAGESIZE
        return self

    def message(self, schema):
        try:
            return pb.decode(schema, self.mm)
        except pb.DecodeError as exc:
            raise TFImportError(f"cannot decode {schema} from {self.path}: {exc}") from None

    def release(self, array):
        import mmap
        if not self._base or array is None or not hasattr(self.mm, "madvise"):
            return
        addr = array.__array_interface__["data"][0]
        start = addr - self._base
        if start < 0 or start >= len(self.mm):
            return
        end = start + array.nbytes
        page = self._page
        lo = (start + page - 1) // page * page
        hi = end // page * page
        if hi > lo:
            try:
                self.mm.madvise(mmap.MADV_DONTNEED, lo, hi - lo)
            except (OSError, ValueError):
                pass

    def __exit__(self, *exc):
        import gc
        gc.collect()
        try:
            if hasattr(self.mm, "close"):
                self.mm.close()
        except BufferError:
            pass  # a view is still alive somewhere; the mapping goes away with it
        self._f.close()
        return False


def _import_graph(imp, ndefs, vdef, inputs, outputs, control_outputs, func_name, *, prune_unused_nodes=False,
                  private=False, func_attrs=(), arg_attrs=None, res_attrs=None, entry_function="auto"):
    """Converts one graph (NodeDefs) to function `func_name` of the importer's module."""
    flib = imp.flib
    enable_shape_inference = imp.builder.shape_inference
    g = G.construct(ndefs, flib, vdef)
    back_edges = G.remove_back_edges(g)
    seen = {}
    for src, out, _dst, _ in back_edges:
        if src in seen and seen[src] != out:
            raise TFImportError("more than one output of the node is a back edge", node=src.name)
        seen[src] = out
    remapped = _replace_feeds(g, inputs, enable_shape_inference)
    if enable_shape_inference:
        g.fixup_source_and_sink()
    by_name = g.by_name()

    def lookup(name, what):
        node = remapped.get(name)
        if node is not None:
            return node, 0
        node_name, idx = G.parse_tensor_name(name)
        node = by_name.get(node_name)
        if node is None:
            raise TFImportError(f"{what} '{name}' was not found in the graph")
        return node, idx

    arg_nodes = [lookup(name, "input")[0] for name, _, _ in inputs]
    ret_nodes = [lookup(name, "output") for name in outputs]
    control_nodes = [lookup(name, "control output")[0] for name in control_outputs]
    for node, idx in ret_nodes:
        if idx >= node.num_outputs:
            raise TFImportError(f"invalid output index {idx} specified for node '{node.name}'")
    if prune_unused_nodes and (arg_nodes or ret_nodes or control_nodes):
        _prune(g, set(arg_nodes) | {n for n, _ in ret_nodes} | set(control_nodes))
    order = G.topological_order(g)
    types_ = imp.types_for(g)
    if hasattr(types_, "run"):
        types_.run(order)
    prepared = core.PreparedGraph(g, [be for be in back_edges if g.nodes[be[0].id] is not None], order, types_)
    arg_types = []
    for (name, dtype, shape), node in zip(inputs, arg_nodes):
        if node.num_outputs != 1:
            raise TFImportError("only feed output tensors of single output nodes are supported", node=node.name)
        dtype = dtype or node.output_types[0]
        arg_types.append(T.tensor_type(T.element_type(dtype), shape))
    attrs = list(func_attrs)
    if entry_function == "auto" and (inputs or outputs or control_outputs):
        entry = core.format_dict([
            ("control_outputs", T.mlir_string(",".join(control_outputs))),
            ("inputs", T.mlir_string(",".join(name for name, _, _ in inputs))),
            ("outputs", T.mlir_string(",".join(outputs))),
        ])
        attrs.append(("tf.entry_function", entry))
    emitter = core.FunctionEmitter(imp.builder, prepared)
    emitter.rets_are_retvals = False
    if enable_shape_inference:
        emitter.result_types_override = [types_.output_type(n, i) if n not in arg_nodes
                                         else arg_types[arg_nodes.index(n)] for n, i in ret_nodes]
    chunks, patches = emitter.convert(func_name, private, [(n, 0) for n in arg_nodes], arg_types,
                                      ret_nodes, control_nodes, attrs, extra_arg_attrs=arg_attrs,
                                      extra_res_attrs=res_attrs)
    imp.add_function(func_name, chunks, patches)


def import_saved_model(path, exported_names=None, tags=("serve",), *, context=None, locations=True,
                       enable_shape_inference=True, upgrade_legacy=False):
    """Imports a SavedModel directory's signatures into tf_saved_model form
    (see :mod:`tfmlir.importers.saved_model`); `upgrade_legacy` as for :func:`import_graph_def`."""
    from .saved_model import import_saved_model as run
    module = run(path, exported_names=exported_names, tags=tags, context=context, locations=locations,
                 enable_shape_inference=enable_shape_inference)
    if upgrade_legacy:
        upgrade_legacy_control_flow(module)
    return module
