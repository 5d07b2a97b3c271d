"""Shape inference on import, as TensorFlow's GraphDef importer runs it.

TensorFlow's GraphDef importer runs its ShapeRefiner over the graph before
building MLIR, so result types carry the shapes TensorFlow's C++ shape
functions compute (``tf.Sum(tensor<2x2xf32>, [0, 1]) -> tensor<f32>``). This
module adapts NodeDefs to the shared shape library (:mod:`tfmlir.shapes`:
TensorFlow's shape functions, constant inputs and partial shapes) and walks the
graph like ShapeRefiner: function calls are inferred through the callee's body,
``_Arg`` nodes take shapes from the caller, ``_output_shapes`` overrides apply
where TensorFlow applies them. Ops without a shape function get unknown shapes;
they are recorded in :attr:`ShapeInference.unsupported` so tests can report
them.
"""
import numpy as np

from ..shapes.algebra import NOT_EVALUATED, ShapeError
from ..shapes.functions import SHAPE_FNS, Context, unknown_shape
from ..shapes.values import ValueEvaluator
from . import graph as G
from ..tfcore.tensor_names import CONTROL
from ..tfcore import tf_types as T
from ..tfcore.errors import TFImportError


def _attr_value(node, name, default=None):
    """A NodeDef attribute as the shape library reads it."""
    v = node.attrs.get(name)
    if v is None:
        return default
    which = v.which("value")
    if which is None:
        return default
    if which == "list":
        lst = v.list._values
        for key in ("i", "s", "f", "b", "type", "shape", "tensor", "func"):
            if key in lst:
                vals = lst[key]
                if key == "shape":
                    return [T.shape_from_proto(x) for x in vals]
                if key == "s":
                    return [bytes(x) for x in vals]
                return list(vals)
        return []
    if which == "shape":
        return T.shape_from_proto(v.shape)
    if which == "s":
        s = v.s
        return s.decode("utf-8", "replace") if isinstance(s, bytes) else s
    return getattr(v, which)


class Ctx(Context):
    """A NodeDef as the shape library sees it."""
    __slots__ = ("engine", "node", "in_edges")

    def __init__(self, engine, node, inputs, input_handles, in_edges):
        super().__init__(node.op, engine.producer, inputs, input_handles, node.num_outputs)
        self.engine = engine
        self.node = node
        self.in_edges = in_edges

    def attr(self, name, default=None):
        return _attr_value(self.node, name, default)

    def attr_bytes(self, name):
        v = self.node.attrs.get(name)
        if v is None or v.which("value") != "s":
            return b""
        s = v.s
        return bytes(s) if isinstance(s, (bytes, bytearray)) else str(s).encode("utf-8", "surrogateescape")

    def input_tensor(self, i):
        e = self.in_edges[i] if i < len(self.in_edges) else None
        if e is None:
            return None
        return self.engine.constant_value((e.src, e.src_output))

    def input_partial_shape(self, i):
        e = self.in_edges[i] if i < len(self.in_edges) else None
        if e is None:
            return NOT_EVALUATED
        return self.engine.constant_partial_shape((e.src, e.src_output))

    def const_shape(self):
        v = self.node.attrs.get("value")
        return T.shape_from_proto(v.tensor._values.get("tensor_shape"))


# Function bodies inferred inside function bodies at most this deep (Python's stack bounds it).
MAX_CALL_DEPTH = 32

_V1_CONTROL_FLOW = ("merge", "switch", "enter", "exit", "next_iteration", "loop_cond")


class ShapeInference(ValueEvaluator):
    """Shapes of all nodes of one graph (one ShapeRefiner)."""

    def __init__(self, builder, graph, producer, arg_shapes=None, function=None, outer=None):
        self.b = builder
        self.graph = graph
        self.producer = producer
        self.function = function
        self.arg_shapes = arg_shapes
        self.outer = outer            # (shapes, handles) of an outer call: function body inference
        self.ctx = {}                 # node -> Ctx
        ValueEvaluator.__init__(self)
        self.unsupported = builder.unsupported_shape_ops
        self._function_cache = {}
        self.calls = ()               # the functions whose bodies are being inferred, outermost first

    # --- running ------------------------------------------------------------------------------
    def run(self, order):
        for node in order:
            if node.is_op:
                self.add_node(node)

    def add_node(self, node):
        n_in = node.num_inputs
        inputs = [None] * n_in
        handles = [None] * n_in
        edges = [None] * n_in
        for e in node.in_edges:
            if e.src_output == CONTROL:
                continue
            edges[e.dst_input] = e
            src_ctx = self.ctx.get(e.src)
            if src_ctx is None:
                continue  # a broken loop: the input stays unknown
            inputs[e.dst_input] = src_ctx.outputs[e.src_output]
            handles[e.dst_input] = src_ctx.output_handles[e.src_output]
        c = Ctx(self, node, inputs, handles, edges)
        self.ctx[node] = c
        try:
            self._run_shape_fn(node, c)
        except ShapeError as exc:
            raise TFImportError(f"shape inference failed: {exc}", node=node.name, function=self.function) \
                from None
        except TFImportError as exc:
            if exc.node is None:  # e.g. an invalid shape attribute: name the node
                raise TFImportError(str(exc), node=node.name, function=self.function) from None
            raise
        self._apply_overrides(node, c)
        return c

    def _run_shape_fn(self, node, c):
        if node.cls == "arg":
            self._arg_shape(node, c)
            return
        if node.cls == "retval" and self.outer is not None:
            return
        flib = self.graph.flib
        fname = None
        if node.op in flib:
            fname = node.op
        elif node.op in ("PartitionedCall", "StatefulPartitionedCall"):
            f = node.attrs.get("f")
            if f is not None and f.which("value") == "func":
                fname = f.func.name
        if fname is not None:
            dis = node.attrs.get("_disable_call_shape_inference")
            if not (dis is not None and dis._values.get("b")) and fname in flib:
                self._infer_function_call(fname, c)
                return
        fn = SHAPE_FNS.get(node.op)
        if fn is None:
            if node.op not in ("PartitionedCall", "StatefulPartitionedCall") and not (node.op in flib):
                self.unsupported.add(node.op)
            unknown_shape(c)
            return
        fn(c)

    def _arg_shape(self, node, c):
        if self.outer is not None:
            shapes, handles, _ = self.outer
            idx = node.attrs["index"].i
            c.set_output(0, shapes[idx] if idx < len(shapes) else None)
            if idx < len(handles) and handles[idx] is not None:
                c.output_handles[0] = handles[idx]
            return
        if self.arg_shapes is not None:
            idx = node.attrs["index"].i
            if idx < len(self.arg_shapes):
                c.set_output(0, self.arg_shapes[idx])
                return
        # _Arg's own shape function: handle data of resources.
        if node.output_types[0] == T.DT_RESOURCE:
            hd = node.attrs.get("_handle_dtypes")
            hs = node.attrs.get("_handle_shapes")
            if hd is not None and hs is not None:
                types = hd.list._values.get("type") or []
                shapes = hs.list._values.get("shape") or []
                c.output_handles[0] = [(t, T.shape_from_proto(s)) for t, s in zip(types, shapes)]
        shape_attr = node.attrs.get("shape")
        if shape_attr is not None and shape_attr.which("value") == "shape":
            c.set_output(0, T.shape_from_proto(shape_attr.shape))
            return
        osh = node.attrs.get("_output_shapes")
        if osh is not None:
            self._set_from_output_shapes(node, c, osh)
            return
        c.set_output(0, None)

    def _set_from_output_shapes(self, node, c, attr):
        lst = attr.list._values.get("shape") or [] if attr.which("value") == "list" else []
        if len(lst) != node.num_outputs:
            return
        for i, s in enumerate(lst):
            c.set_output(i, T.shape_from_proto(s))

    def _apply_overrides(self, node, c):
        if self.outer is not None:
            return
        if self.b.unconditionally_use_set_output_shapes or node.op == "ReadVariableOp":
            osh = node.attrs.get("_output_shapes")
            if osh is not None:
                self._set_from_output_shapes(node, c, osh)

    def _infer_function_call(self, fname, c):
        if fname in self.calls or len(self.calls) >= MAX_CALL_DEPTH:
            # A recursive call (TensorFlow's ShapeRefiner does not support them and recurses
            # without end) or calls nested absurdly deep: the results' shapes stay unknown.
            unknown_shape(c)
            return
        body = self._function_cache.get(fname)
        if body is None:
            body = G.function_body(fname, self.graph.flib)
            self._function_cache[fname] = body
        inner = ShapeInference(self.b, body.graph, self.producer, function=fname,
                               outer=(c.inputs, c.input_handles, self.unsupported))
        inner._function_cache = self._function_cache
        inner.calls = self.calls + (fname,)
        order = G.topological_order(body.graph)
        inner.run(order)
        for r in body.ret_nodes:
            idx = r.attrs["index"].i
            if idx >= c.num_outputs:
                continue
            e = next((e for e in r.in_edges if e.src_output != CONTROL), None)
            if e is None:
                continue
            src = inner.ctx.get(e.src)
            if src is None:
                continue
            c.set_output(idx, src.outputs[e.src_output])
            if src.output_handles[e.src_output] is not None:
                c.output_handles[idx] = src.output_handles[e.src_output]

    # --- the values the shape library evaluates: (node, output) pairs ----------------------------
    def _v_op(self, v):
        node = v[0]
        return None if node.cls == "arg" else node.op

    def _v_index(self, v):
        return v[1]

    def _v_attr(self, v, name, default=None):
        return _attr_value(v[0], name, default)

    def _v_num_operands(self, v):
        return v[0].num_inputs

    def _v_operand(self, v, i):
        for e in v[0].in_edges:
            if e.dst_input == i and e.src_output != CONTROL:
                return (e.src, e.src_output)
        return None

    def _v_input_shape(self, v, i):
        c = self.ctx.get(v[0])
        return c.inputs[i] if c is not None else None

    def _v_input_handle(self, v, i):
        c = self.ctx.get(v[0])
        return c.input_handles[i] if c is not None else None

    def _v_shape(self, v):
        c = self.ctx.get(v[0])
        return c.outputs[v[1]] if c is not None else None

    def _v_const(self, v):
        t = T.decode_tensor(v[0].attrs["value"].tensor)
        if t.strings is not None:
            return None
        return np.asarray(t.full_array())

    def _v_foldable(self, v):
        node = v[0]
        return not (node.num_inputs == 0 or node.opdef is None or node.opdef.is_stateful
                    or node.cls in _V1_CONTROL_FLOW)

    # --- types -----------------------------------------------------------------------------------
    def _type(self, dtype, shape, handle):
        subs = None
        if handle and dtype in (T.DT_RESOURCE, T.DT_VARIANT):
            subs = [T.tensor_type(T.element_type(dt), sh) for dt, sh in handle]
        return T.tensor_type(T.element_type(dtype, subs), shape)

    def output_type(self, node, idx):
        c = self.ctx.get(node)
        dtype = node.output_types[idx]
        if c is None:
            return T.tensor_type(T.element_type(dtype), None)
        return self._type(dtype, c.outputs[idx], c.output_handles[idx])

    def input_type(self, node, idx):
        c = self.ctx.get(node)
        dtype = node.input_types[idx]
        if c is None:
            return T.tensor_type(T.element_type(dtype), None)
        return self._type(dtype, c.inputs[idx], c.input_handles[idx])


