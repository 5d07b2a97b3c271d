"""The machinery every import shares: an :class:`Importer` (one module being built from a
function library) and :func:`import_graph` (one graph of NodeDefs into a function of it).

:mod:`.api` (GraphDefs, FunctionDefs) and :mod:`.saved_model` (SavedModels) build on it.
"""
from . import core
from . import graph as G
from ..tfcore.tensor_names import CONTROL, parse_tensor_name
from ..tfcore import opdb
from ..tfcore import protobuf as pb
from ..tfcore import tf_types as T
from ..tfcore.errors import TFImportError


def context_or_current(context):
    import tfmlir  # noqa: F401  (registers the dialects)
    from mlir import ir
    if context is not None:
        return context
    try:
        current = ir.Context.current
    except ValueError:
        current = None
    return current if current is not None else ir.Context()


def versions_of(vdef):
    if vdef is None:
        return (0, 0, [])
    return (vdef.producer, vdef.min_consumer, list(vdef.bad_consumers))


def default_versions():
    producer, min_consumer = opdb.graph_def_version()
    return (producer, min_consumer, [])


class Importer:
    """Shared machinery of one import: the builder, library conversion, parsing."""

    def __init__(self, flib, context, *, shape_inference, locations, graph_def_version):
        self.context = context_or_current(context)
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


def _feeds_by_node(inputs):
    feeds = {}
    for name, dtype, shape in inputs:
        node, idx = parse_tensor_name(name)
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
                elif in_place and e.src_output == CONTROL:
                    dst = e.dst
                    g.remove_edge(e)
                    g.add_edge(ph, CONTROL, dst, CONTROL)
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


def import_graph(imp, ndefs, vdef, inputs, outputs, control_outputs, func_name, *, prune_unused_nodes=False,
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
        node_name, idx = parse_tensor_name(name)
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
