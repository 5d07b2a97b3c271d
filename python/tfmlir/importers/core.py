"""Graph -> tf_executor MLIR, mirroring TensorFlow's importer (graph_to_tf_executor.cc).

One :class:`ModuleBuilder` collects the functions of a module: the main graph
or function, then the library functions it references, converted on demand in
TensorFlow's order (breadth first, function attributes of a node in name
order). Each function is emitted as MLIR text in bulk (one island per node,
generic op form); the module is parsed once with ``ir.Module.parse``. Large
constants are not written as text: a one-element placeholder is written and
the real ``DenseElementsAttr`` is set afterwards from the tensor's buffer.

Which attributes are inherent (properties) is left to MLIR for the ops the
context has registered (all attributes go in the generic attribute dictionary
and registered ops move their inherent ones into properties when they are
created); for the ops the context does not know, the properties are the
attributes TensorFlow stores for the op in its own ODS definition, exactly as
TensorFlow prints them. Derived attributes (``T``, ``dtype``...) are dropped for
the ops TensorFlow models in ODS, as TensorFlow does.
"""
import re
import struct

from . import graph as G
from ..tfcore.tensor_names import CONTROL
from ..tfcore import opdb
from ..tfcore import protobuf as pb
from ..tfcore import tensor_proto as TP
from ..tfcore import tf_types as T
from ..device_names import canonical_device  # noqa: F401  (re-exported for the exporter)
from ..tfcore.errors import TFImportError

_BARE_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*\Z")  # \Z: no trailing newline
# Constants larger than this (bytes) are set from buffers after parsing.
LARGE_CONSTANT_BYTES = 4096

CONTROL_T = "!tf_executor.control"
TOKEN_T = "!tf_executor.token"

# ODS default values TensorFlow populates for stored attributes whose name differs from the OpDef's.
_ODS_EXTRA_DEFAULTS = {"StringFormat": {"strtemplate": '"%s"'}}


def attr_name(name):
    return name if _BARE_ID.match(name) else T.mlir_string(name)


def symbol(name):
    return "@" + (name if _BARE_ID.match(name) else T.mlir_string(name))


def _f32_text(f):
    bits = struct.unpack("<I", struct.pack("<f", f))[0]
    return f"0x{bits:08X} : f32"



def tensor_attr_text(tp):
    """ConvertTensorProto: the attribute text of TensorProto message `tp`; dense elements, or
    `#tf_type<tensor_proto : "0x...">` for the types TensorFlow keeps as mangled protos."""
    if TP.is_proto_dtype(tp.dtype):
        return TP.attr_text(tp)
    return T.dense_attr_text(T.decode_tensor(tp))

class ModuleBuilder:
    """Collects function texts; converts library functions on demand."""

    def __init__(self, flib, context, *, locations=True, large_constants="dense"):
        self.flib = flib
        self.context = context
        self.locations = locations
        self.large_constants = large_constants
        self.tf_name_to_mlir = {}
        self._name_counts = {}
        self.deferred = []          # [(tf function name, attribute text list)]
        self.functions = []         # [(mlir name, text chunks list)]
        self.patches = []           # [(function index, graph op index, Tensor)]
        self.shape_inference = True
        self.unconditionally_use_set_output_shapes = False
        self._registered = {}
        self.unsupported_shape_ops = set()
        self.module_attrs = []      # extra module attributes (text)
        self.module_prefix = []     # module-level ops before the functions (text)

    # --- names -----------------------------------------------------------------------------
    def unique_function_name(self, prefix):
        """OpOrArgNameMapper::GetUniqueName with 'unique' = not in the function library."""
        counts = self._name_counts
        if prefix not in counts:
            counts[prefix] = 0
            if prefix not in self.flib:
                counts[prefix] = 1
                return prefix
        val = counts[prefix]
        while True:
            probe = f"{prefix}{val}"
            val += 1
            if probe not in self.flib and probe not in counts:
                counts[prefix] = val
                counts[probe] = 1
                return probe
            counts[prefix] = val

    def is_registered(self, op_name):
        r = self._registered.get(op_name)
        if r is None:
            r = self._registered[op_name] = self.context.is_registered_operation(op_name)
        return r

    # --- library functions -------------------------------------------------------------------
    def convert_lib_function(self, func_name):
        if func_name in self.tf_name_to_mlir:
            return self.tf_name_to_mlir[func_name]
        mlir_name = self.unique_function_name(func_name)
        self.tf_name_to_mlir[func_name] = mlir_name
        fdef = self.flib.find(func_name)
        if fdef is None:
            raise TFImportError(f"failed to find function '{func_name}'; the imported TensorFlow graph "
                                f"is ill-formed (missing library function)")
        attrs = []
        for name in sorted(fdef.attr):
            attrs.append((f"tf.{name}", self.attr_value(fdef.attr[name])))
        if fdef.signature.is_stateful:
            attrs.append(("tf.signature.is_stateful", None))
        grad = self.flib.gradients.get(func_name)
        if grad:
            gname = self.convert_lib_function(grad)
            attrs.append(("tf.gradient", symbol(gname)))
        self.deferred.append((func_name, attrs))
        return mlir_name

    def function_call_name(self, name):
        if not name:
            return None
        return symbol(self.convert_lib_function(name))

    # --- attribute values --------------------------------------------------------------------
    def attr_value(self, v, node=None, depth=0):
        """ConvertAttributeValue: AttrValue -> MLIR attribute text (None = unit)."""
        if depth > pb.MAX_DEPTH:
            raise TFImportError(f"attribute values nested more than {pb.MAX_DEPTH} deep", node=node)
        which = v.which("value")
        vals = v._values
        if which == "s":
            return T.mlir_string(vals["s"])
        if which == "i":
            return f"{vals['i']} : i64"
        if which == "f":
            return _f32_text(vals["f"])
        if which == "b":
            return "true" if vals["b"] else "false"
        if which == "type":
            return T.element_type(vals["type"])
        if which == "shape":
            return T.shape_attr(T.shape_from_proto(vals["shape"]))
        if which == "tensor":
            return tensor_attr_text(vals["tensor"])
        if which == "func":
            f = vals["func"]
            texts = {k: self.attr_value(f.attr[k], node, depth + 1) for k in sorted(f.attr)}
            items = ", ".join(attr_name(k) if t is None else f"{attr_name(k)} = {t}" for k, t in texts.items())
            return f"#tf_type.func<{symbol(f.name)}, {{{items}}}>"
        if which == "placeholder":
            return f"#tf_type.placeholder<{T.mlir_string(vals['placeholder'])}>"
        if which == "list":
            lst = vals["list"]
            lv = lst._values
            funcs = lv.get("func")
            if funcs:
                items = []
                for f in funcs:
                    if f.attr:
                        raise TFImportError("func attributes with non-zero attr.size() are not supported",
                                            node=node)
                    s = self.function_call_name(f.name)
                    if s:
                        items.append(s)
                return "[" + ", ".join(items) + "]"
            items = []
            for i in lv.get("i", ()):
                items.append(f"{i} : i64")
            for s in lv.get("s", ()):
                items.append(T.mlir_string(s))
            for f in lv.get("f", ()):
                items.append(_f32_text(f))
            for b in lv.get("b", ()):
                items.append("true" if b else "false")
            for t in lv.get("type", ()):
                items.append(T.element_type(t))
            for s in lv.get("shape", ()):
                items.append(T.shape_attr(T.shape_from_proto(s)))
            for t in lv.get("tensor", ()):
                items.append(tensor_attr_text(t))
            return "[" + ", ".join(items) + "]"
        return None  # VALUE_NOT_SET -> unit attribute

    # --- module text -------------------------------------------------------------------------
    def module_text(self, versions):
        producer, min_consumer, bad = versions
        bad_text = ", ".join(f"{b} : i32" for b in bad)
        extra = "".join(f", {a}" for a in self.module_attrs)
        head = (f"module attributes {{tf.versions = {{bad_consumers = [{bad_text}], "
                f"min_consumer = {min_consumer} : i32, producer = {producer} : i32}}{extra}}} {{\n")
        parts = [head] + list(self.module_prefix)
        for _name, chunks in self.functions:
            parts.extend(chunks)
        parts.append("} loc(unknown)\n" if self.locations else "}\n")
        return "".join(parts)


def format_dict(entries):
    """[(name, value text or None for unit)] -> '{a = 1 : i64, b}' text ('' when empty)."""
    if not entries:
        return ""
    return "{" + ", ".join(attr_name(k) if v is None else f"{attr_name(k)} = {v}" for k, v in entries) + "}"


def _loc_name(s):
    return T.mlir_string(s)


# ------------------------------------------------------------------------------------------------
# Device names: tfmlir.device_names (canonical_device is re-exported for the exporter).


# ------------------------------------------------------------------------------------------------
# Output types without shape inference (InferOutputType's fallbacks).

def _shape_of_attr(node, name):
    v = node.attrs.get(name)
    if v is None or v.which("value") != "shape":
        return None, False
    return T.shape_from_proto(v.shape), True


def _source_op_shape(node, graph_def_version):
    """Shape functions of common ops without inputs: ([shape or None per output], [handle data])."""
    op = node.op
    n = node.num_outputs
    scalar = []
    if op in ("Const", "HostConst"):
        v = node.attrs.get("value")
        if v is not None and v.which("value") == "tensor":
            return [T.shape_from_proto(v.tensor._values.get("tensor_shape"))], [None]
        return [None], [None]
    if op in ("Placeholder", "PlaceholderV2"):
        shape, ok = _shape_of_attr(node, "shape")
        if not ok:
            return [None], [None]
        if graph_def_version <= 21 and shape is not None and len(shape) == 0:
            return [None], [None]
        return [shape], [None]
    if op == "VarHandleOp":
        shape, _ = _shape_of_attr(node, "shape")
        dt = node.attrs["dtype"].type if "dtype" in node.attrs else 0
        return [scalar], [[(dt, shape)]]
    if op in ("VariableV2", "Variable", "TemporaryVariable"):
        shape, _ = _shape_of_attr(node, "shape")
        return [shape], [None]
    if op in ("HashTable", "MutableHashTable", "MutableHashTableOfTensors", "FIFOQueue", "PaddingFIFOQueue",
              "RandomShuffleQueue", "PriorityQueue", "ConditionalAccumulator", "SparseConditionalAccumulator",
              "Barrier"):
        return [[2]] * n, [None] * n
    if op in ("HashTableV2", "MutableHashTableV2", "MutableHashTableOfTensorsV2", "AnonymousHashTable",
              "AnonymousMutableHashTable", "AnonymousMutableHashTableOfTensors", "FIFOQueueV2",
              "PaddingFIFOQueueV2", "RandomShuffleQueueV2", "PriorityQueueV2", "IteratorV2", "Iterator",
              "AnonymousIterator", "AnonymousIteratorV2", "AnonymousIteratorV3", "MultiDeviceIterator",
              "Timestamp", "MutexV2", "ResourceConditionalAccumulator", "SummaryWriter",
              "DummyMemoryCache", "DummySeedGenerator", "DummyIterationCounter", "AnonymousMemoryCache",
              "AnonymousSeedGenerator", "AnonymousRandomSeedGenerator", "AnonymousMultiDeviceIterator",
              "AnonymousMultiDeviceIteratorV3", "StackV2"):
        return [scalar] * n, [None] * n
    if op == "_Arg":
        return [None], [None]
    return None, None


class TypeInference:
    """Result types of nodes when shape inference is off (TF's function import)."""

    def __init__(self, builder, graph_def_version):
        self.builder = builder
        self.producer = graph_def_version

    def output_type(self, node, idx):
        dtype = node.output_types[idx]
        attrs = node.attrs
        op = node.op
        if op in ("TensorListReserve", "EmptyTensorList"):
            ed = attrs.get("element_dtype")
            et = T.element_type(ed.type) if ed is not None else None
            sub = [T.tensor_type(et, None)] if et else None
            return T.tensor_type(T.element_type(T.DT_VARIANT, sub), [])
        if node.cls == "while":
            shapes = attrs.get("output_shapes")
            types = attrs.get("T")
            if shapes is not None and shapes.list._values.get("shape"):
                return T.tensor_type(T.element_type(types.list.type[idx]),
                                     T.shape_from_proto(shapes.list.shape[idx]))
        if op in ("IteratorGetNext", "IteratorGetNextSync", "MultiDeviceIteratorGetNextFromShard"):
            return self._from_array_attr(node, idx, "output_shapes", "output_types")
        if op == "InfeedDequeueTuple":
            return self._from_array_attr(node, idx, "shapes", "dtypes")
        if op == "InfeedDequeue":
            shape, _ = _shape_of_attr(node, "shape")
            return T.tensor_type(T.element_type(attrs["dtype"].type), shape)
        elem = T.element_type(dtype)
        default = T.tensor_type(elem, None)
        if self.builder.unconditionally_use_set_output_shapes:
            osh = attrs.get("_output_shapes")
            if osh is not None:
                lst = osh.list._values.get("shape") or []
                if len(lst) > idx:
                    default = T.tensor_type(elem, T.shape_from_proto(lst[idx]))
        if node.num_inputs > 0:
            return default
        if node.cls == "arg":
            if dtype == T.DT_RESOURCE:
                hd = attrs.get("_handle_dtypes")
                hs = attrs.get("_handle_shapes")
                if hd is not None and hs is not None:
                    types = hd.list._values.get("type") or []
                    shapes = hs.list._values.get("shape") or []
                    if not types or not shapes:
                        raise TFImportError("invalid _handle_dtypes/_handle_shapes attribute on _Arg node",
                                            node=node.name)
                    sub = T.tensor_type(T.element_type(types[0]), T.shape_from_proto(shapes[0]))
                    return T.tensor_type(T.element_type(T.DT_RESOURCE, [sub]), None)
                return T.tensor_type(T.element_type(T.DT_RESOURCE), None)
            osh = attrs.get("_output_shapes")
            if osh is not None and osh.which("value") == "list":
                lst = osh.list._values.get("shape") or []
                if len(lst) == 1:
                    return T.tensor_type(elem, T.shape_from_proto(lst[0]))
        shapes, handles = _source_op_shape(node, self.producer)
        if shapes is None:
            return default
        shape = shapes[idx] if idx < len(shapes) else None
        handle = handles[idx] if idx < len(handles) else None
        if handle and dtype in (T.DT_RESOURCE, T.DT_VARIANT):
            subs = [T.tensor_type(T.element_type(dt), sh) for dt, sh in handle]
            elem = T.element_type(dtype, subs)
        ret = T.tensor_type(elem, shape)
        if self.builder.unconditionally_use_set_output_shapes:
            osh = attrs.get("_output_shapes")
            if osh is not None:
                lst = osh.list._values.get("shape") or []
                if len(lst) > idx:
                    ret = T.tensor_type(elem, T.shape_from_proto(lst[idx]))
        return ret

    def _from_array_attr(self, node, idx, shapes_attr, types_attr):
        shapes = node.attrs[shapes_attr].list.shape
        types = node.attrs[types_attr].list.type
        return T.tensor_type(T.element_type(types[idx]), T.shape_from_proto(shapes[idx]))

    def input_type(self, node, idx):
        return T.tensor_type(T.element_type(node.input_types[idx]), None)


# ------------------------------------------------------------------------------------------------

class PreparedGraph:
    """A graph ready for conversion: back edges removed, nodes ordered, types known."""

    def __init__(self, graph, back_edges, order, types):
        self.graph = graph
        self.back_edges = back_edges          # [(src, src_output, dst, dst_input)]
        self.order = order                    # [Node] (including _SOURCE/_SINK)
        self.types = types                    # TypeInference or ShapeInference


class FunctionEmitter:
    """Converts one prepared graph to the text of one func.func (ImporterBase::Convert)."""

    def __init__(self, builder, prepared, debug_function_name=""):
        self.b = builder
        self.p = prepared
        self.debug_function_name = debug_function_name
        self.lines = []
        self.sources = []
        self.value_of = {}     # node -> SSA base name
        self.nresults = {}     # node -> number of results (including control)
        self.arg_of = {}       # node -> "%argN" (feeds/args)
        self.op_index = 0      # index of the next op in the graph block
        self.patches = []      # (op index, Tensor)

    def loc(self, node):
        if not self.b.locations:
            return ""
        fn = self.debug_function_name
        name = node.name if not fn else f"{node.name}@{fn}"
        op_loc = T.mlir_string(node.op + ":")
        debug = node.debug
        if debug is not None and node.cls != "next_iteration":
            orig = debug._values.get("original_node_names") or []
            funcs = debug._values.get("original_func_names") or []
            if orig:
                locs = [op_loc]
                for i, on in enumerate(orig):
                    f = funcs[i] if i < len(funcs) else ""
                    locs.append(T.mlir_string(on if not f else f"{on}@{f}"))
                locs.append(T.mlir_string(name))
                return f" loc(fused[{', '.join(locs)}])"
        return f" loc(fused[{op_loc}, {T.mlir_string(name)}])"

    def ref(self, node, idx):
        """SSA reference to output `idx` of `node` (or its control token for idx == -1)."""
        arg = self.arg_of.get(node)
        if arg is not None:
            return arg
        base = self.value_of.get(node)
        if base is None:
            raise TFImportError("graph is not in topological order (use before definition)", node=node.name)
        n = self.nresults[node]
        if idx == CONTROL:
            idx = n - 1
        return base if n == 1 else f"{base}#{idx}"

    def convert_node(self, node, back_edge_outputs, back_edge_into):
        """Emits `node` (ConvertNode + CreateOperation)."""
        try:
            self._convert_node(node, back_edge_outputs, back_edge_into)
        except TFImportError as exc:
            if exc.node is None:
                raise TFImportError(str(exc), node=node.name, function=self.debug_function_name or None) \
                    from None
            raise

    def _convert_node(self, node, back_edge_outputs, back_edge_into):
        b = self.b
        flib = b.flib
        node_type = node.op
        convert_to_legacy_call = False
        if node_type in flib:
            node_type = b.convert_lib_function(node_type)
            convert_to_legacy_call = True
        op_name = "tf." + node_type
        sink = node in back_edge_outputs
        if sink:
            op_name += ".sink"
        types = self.p.types
        result_types = []
        for i in range(node.num_outputs):
            if sink and back_edge_outputs[node] == i:
                continue
            result_types.append(types.output_type(node, i))
        # Operands: data edges by input slot, then control edges by source id.
        data = []
        controls = []
        for e in node.in_edges:
            src = e.src
            if src.id == 0:
                if len(node.in_edges) != 1:
                    raise TFImportError("the node has other inputs besides the _SOURCE node", node=node.name)
                continue
            if e.src_output == CONTROL:
                if src.cls == "arg" or src in self.arg_of:
                    continue
                controls.append(e)
            else:
                data.append(e)
        data.sort(key=lambda e: e.dst_input)
        controls.sort(key=lambda e: e.src.id)
        operands = [self.ref(e.src, e.src_output) for e in data]
        operand_types = [self.value_type(e.src, e.src_output) for e in data]
        control_operands = [self.ref(e.src, CONTROL) for e in controls]
        # Attributes.
        ods_name = node_type if not sink else None
        ods = opdb.ods(ods_name) if ods_name else None
        derived = ods.derived if ods is not None else ()
        attrs = []
        funcs = []
        self.pending_patch = None
        large_const_ok = node.op == "Const" and not convert_to_legacy_call and b.is_registered("tf.Const")
        for name in sorted(node.attrs):
            if name in derived:
                continue
            v = node.attrs[name]
            which = v.which("value")
            if name == "_output_shapes" and which == "list":
                continue
            if which == "func":
                funcs.append((name, v))
                continue
            if large_const_ok and name == "value" and which == "tensor" and not TP.is_proto_dtype(v.tensor.dtype):
                t = T.decode_tensor(v.tensor)
                if t.strings is None and not t.splat and t.nbytes() > LARGE_CONSTANT_BYTES and not T.is_splat(t):
                    # Written as a one-element placeholder; the value is set from the buffer later.
                    self.pending_patch = t
                    attrs.append((name, T.dense_attr_text(T.Tensor(t.dtype, t.shape, t.array[:1], splat=True))))
                    continue
                attrs.append((name, T.dense_attr_text(t)))
                continue
            attrs.append((name, b.attr_value(v, node=node.name)))
        for name, v in funcs:
            fname = v.func.name
            s = b.function_call_name(fname)
            if s is None:
                continue
            attrs.append((name, s))
            for k in sorted(v.func.attr):
                attrs.append((f"{name}.{k}", b.attr_value(v.func.attr[k], node=node.name)))
        dev = canonical_device(node.device)
        if dev is None:
            raise TFImportError(f"invalid device name '{node.device}'", node=node.name)
        attrs.append(("device", T.mlir_string(dev)))
        final_op = op_name
        if convert_to_legacy_call:
            final_op = "tf.LegacyCall"
            attrs.append(("f", symbol(node_type)))
            if "_disable_call_shape_inference" not in node.attrs:
                attrs.append(("_disable_call_shape_inference", "false"))
        elif node.cls in ("if", "while", "case"):
            final_op = {"if": "tf.If", "while": "tf.While", "case": "tf.Case"}[node.cls]
            attrs.append(("is_stateless", "true" if node.op.startswith("Stateless") else "false"))
            if node.cls == "while":
                osh = node.attrs.get("output_shapes")
                if osh is not None and osh.list._values.get("shape"):
                    attrs.append(("shape_invariant", None))
        # Later duplicates win, like NamedAttrList::set / push_back then dictionary uniquing.
        seen = {}
        for k, v in attrs:
            seen[k] = v
        attrs = sorted(seen.items())
        loc = self.loc(node)
        cls = node.cls
        if cls in ("switch", "merge", "next_iteration", "loop_cond", "enter", "exit", "control_trigger"):
            self.emit_executor_op(node, cls, attrs, operands, operand_types, control_operands, result_types,
                                  loc, back_edge_into)
        else:
            self.emit_island(node, final_op, node_type, attrs, operands, operand_types, control_operands,
                             result_types, loc, back_edge_into)

    def value_type(self, src, idx):
        if src in self.arg_of:
            return self.arg_types[self.arg_index[src]]
        return self.result_types_of[src][idx]

    def emit_island(self, node, op_name, node_type, attrs, operands, operand_types, controls, result_types,
                    loc, back_edge_into):
        b = self.b
        registered = b.is_registered(op_name)
        props = []
        discardable = attrs
        tensor_patch = self.pending_patch if op_name == "tf.Const" else None
        extra = _ODS_EXTRA_DEFAULTS.get(op_name[3:]) if op_name.startswith("tf.") else None
        if extra:
            # ODS defaults TensorFlow populates for stored attributes the OpDef does not have.
            have = {k for k, _ in attrs}
            attrs = sorted(list(attrs) + [(k, v) for k, v in extra.items() if k not in have])
            discardable = attrs
        ods = opdb.ods(op_name[3:]) if op_name.startswith("tf.") else None
        segments = []
        if ods is not None and (ods.attr_sized_operands or ods.attr_sized_results):
            opdef = node.opdef
            if ods.attr_sized_operands:
                sizes = [hi - lo for _, lo, hi in G.input_ranges(opdef, node.attrs, node.name)]
                segments.append(("operandSegmentSizes", "array<i32: " + ", ".join(map(str, sizes)) + ">"))
            if ods.attr_sized_results:
                rr = G.output_ranges(opdef, node.attrs, node.name)
                sizes = [rr[a.name][1] - rr[a.name][0] for a in opdef.outputs]
                segments.append(("resultSegmentSizes", "array<i32: " + ", ".join(map(str, sizes)) + ">"))
        if not registered:
            if ods is not None:
                stored = ods.stored
                props = sorted([(k, v) for k, v in attrs if k in stored] + segments)
                discardable = [(k, v) for k, v in attrs if k not in stored]
        elif segments:
            # Inherent: MLIR moves them into the registered op's properties.
            discardable = sorted(list(discardable) + segments)
        nres = len(result_types)
        inner = f"%i{self.op_index}"
        base = f"%n{self.op_index}"
        head = ""
        if nres == 1:
            head = f"{inner} = "
        elif nres > 1:
            head = f"{inner}:{nres} = "
        prop_text = ("<" + format_dict(props) + "> ") if props else ""
        attr_text = format_dict(discardable)
        inner_op = (f'{head}"{op_name}"({", ".join(operands)}) {prop_text}{attr_text} : '
                    f'({", ".join(operand_types)}) -> ({", ".join(result_types)}){loc}')
        if nres == 1:
            yield_vals = [inner]
        else:
            yield_vals = [f"{inner}#{i}" for i in range(nres)]
        yield_op = (f'"tf_executor.yield"({", ".join(yield_vals)}) : ({", ".join(result_types)}) -> (){loc}')
        all_types = result_types + [CONTROL_T]
        head2 = f"{base} = " if nres == 0 else f"{base}:{nres + 1} = "
        self.lines.append(
            f'      {head2}"tf_executor.island"({", ".join(controls)}) ({{\n'
            f"        {inner_op}\n        {yield_op}\n      }}) : ({', '.join([CONTROL_T] * len(controls))}) -> "
            f"({', '.join(all_types)}){loc}\n")
        self.value_of[node] = base
        self.nresults[node] = nres + 1
        self.result_types_of[node] = result_types + [CONTROL_T]
        if tensor_patch is not None:
            self.patches.append((self.op_index, tensor_patch))
        self.op_index += 1

    def emit_executor_op(self, node, cls, attrs, operands, operand_types, controls, result_types, loc,
                         back_edge_into):
        base = f"%n{self.op_index}"
        attr_text = format_dict(attrs)
        if cls == "next_iteration":
            src_type = operand_types[0]
            sname = f"%s{self.op_index}"
            self.sources.append(
                f'      {sname}:3 = "tf_executor.NextIteration.Source"() {attr_text} : () -> '
                f"({src_type}, {TOKEN_T}, {CONTROL_T}){loc}\n")
            ops = [f"{sname}#1"] + operands + controls
            types = [TOKEN_T] + operand_types + [CONTROL_T] * len(controls)
            self.lines.append(f'      "tf_executor.NextIteration.Sink"({", ".join(ops)}) {attr_text} : '
                              f'({", ".join(types)}) -> (){loc}\n')
            self.next_iteration_source[node] = sname
            self.value_of[node] = None
            self.nresults[node] = 0
            self.op_index += 1
            return
        ops = operands + controls
        types = operand_types + [CONTROL_T] * len(controls)
        # A back edge into a Merge: the NextIteration source output goes in at the edge's slot.
        if node in back_edge_into:
            for src, _src_out, dst_input in sorted(back_edge_into[node], key=lambda t: t[2]):
                sname = self.pending_sources.setdefault(src, f"%s{{{src.name}}}")
                ops.insert(dst_input, sname)
                types.insert(dst_input, None)  # filled in later
                self.merge_fixups.append((node, src))
        op = {"switch": "tf_executor.Switch", "merge": "tf_executor.Merge", "loop_cond": "tf_executor.LoopCond",
              "enter": "tf_executor.Enter", "exit": "tf_executor.Exit",
              "control_trigger": "tf_executor.ControlTrigger"}[cls]
        if cls == "switch" and node.op == "_SwitchN":
            op = "tf_executor._SwitchN"
        all_types = result_types + [CONTROL_T]
        n = len(all_types)
        head = f"{base} = " if n == 1 else f"{base}:{n} = "
        line_index = len(self.lines)
        self.lines.append([head, op, ops, attr_text, types, all_types, loc])
        self.value_of[node] = base
        self.nresults[node] = n
        self.result_types_of[node] = all_types
        self.op_index += 1
        return line_index

    def convert(self, func_name, private, arg_nodes, arg_types, ret_nodes, control_ret_nodes, func_attrs,
                extra_arg_attrs=None, extra_res_attrs=None):
        """Returns the text chunks of the function (and the large-constant patches)."""
        p = self.p
        g = p.graph
        self.result_types_of = {}
        self.next_iteration_source = {}
        self.pending_sources = {}
        self.merge_fixups = []
        self.arg_types = arg_types
        self.arg_index = {}
        for i, (node, _idx) in enumerate(arg_nodes):
            self.arg_of[node] = f"%arg{i}"
            self.arg_index[node] = i
        back_edge_outputs = {}
        back_edge_into = {}
        for src, src_out, dst, dst_in in p.back_edges:
            back_edge_outputs[src] = src_out
            back_edge_into.setdefault(dst, []).append((src, src_out, dst_in))
        for node in p.order:
            if not node.is_op:
                continue
            if node in self.arg_of:
                continue
            if node.cls == "retval" and self.rets_are_retvals:
                continue
            self.convert_node(node, back_edge_outputs, back_edge_into)
        # Resolve back-edge operands now that every NextIteration source exists.
        body = []
        for line in self.lines:
            if isinstance(line, list):
                head, op, ops, attr_text, types, all_types, loc = line
                ops = list(ops)
                types = list(types)
                for k, o in enumerate(ops):
                    if o.startswith("%s{"):
                        src = next(s for s, n in self.pending_sources.items() if n == o)
                        sname = self.next_iteration_source.get(src)
                        if sname is None:
                            raise TFImportError("invalid back edge: should be from NextIteration to Merge",
                                                node=src.name)
                        ops[k] = f"{sname}#0"
                        types[k] = self.source_type(src)
                body.append(f'      {head}"{op}"({", ".join(ops)}) {attr_text} : ({", ".join(types)}) -> '
                            f'({", ".join(all_types)}){loc}\n')
            else:
                body.append(line)
        # Function results.
        fetch_vals, fetch_types = [], []
        ret_attrs = []
        for node, idx in ret_nodes:
            if node.cls == "retval" and self.rets_are_retvals:
                e = next((e for e in node.in_edges if e.src_output != CONTROL), None)
                if e is None or sum(1 for e2 in node.in_edges if e2.src_output != CONTROL) != 1:
                    raise TFImportError("return node with multiple inputs", node=node.name)
                fetch_vals.append(self.ref(e.src, e.src_output))
                fetch_types.append(self.value_type(e.src, e.src_output))
                ra = []
                dev = node.device
                if dev:
                    ra.append(("tf.device", T.mlir_string(dev)))
                ra.extend(self.underscore_attrs(node))
                ret_attrs.append(ra)
            else:
                if node in self.arg_of:
                    fetch_vals.append(self.arg_of[node])
                    fetch_types.append(self.arg_types[self.arg_index[node]])
                else:
                    if idx >= node.num_outputs:
                        raise TFImportError(f"invalid output index {idx}", node=node.name)
                    fetch_vals.append(self.ref(node, idx))
                    fetch_types.append(self.value_type(node, idx))
                ret_attrs.append([])
        if extra_res_attrs:
            for i, extra in enumerate(extra_res_attrs):
                ret_attrs[i] = list(ret_attrs[i]) + list(extra)
        n_data = len(fetch_vals)
        for node in control_ret_nodes:
            if node in self.arg_of:
                continue
            fetch_vals.append(self.ref(node, CONTROL))
            fetch_types.append(CONTROL_T)
        result_types = fetch_types[:n_data]
        if self.result_types_override is not None:
            result_types = self.result_types_override
        # Arguments.
        arg_texts = []
        for i, (node, _idx) in enumerate(arg_nodes):
            aa = []
            if node.device:
                aa.append(("tf.device", T.mlir_string(node.device)))
            if node.cls == "arg":
                aa.extend(self.underscore_attrs(node))
            if extra_arg_attrs and i < len(extra_arg_attrs):
                aa.extend(extra_arg_attrs[i])
            aa.sort()
            text = f"%arg{i}: {arg_types[i]}"
            d = format_dict(aa)
            if d:
                text += " " + d
            if self.b.locations:
                text += " loc(unknown)"
            arg_texts.append(text)
        res_texts = []
        for i, t in enumerate(result_types):
            d = format_dict(sorted(ret_attrs[i])) if i < len(ret_attrs) else ""
            res_texts.append(t + (" " + d if d else ""))
        sig = f"({', '.join(arg_texts)})"
        if res_texts:
            if len(res_texts) == 1 and not ret_attrs[0]:
                sig += f" -> {res_texts[0]}"
            else:
                sig += f" -> ({', '.join(res_texts)})"
        fattrs = format_dict(sorted(func_attrs))
        head = f"  func.func {'private ' if private else ''}{symbol(func_name)}{sig}"
        if fattrs:
            head += f" attributes {fattrs}"
        unknown = " loc(unknown)" if self.b.locations else ""
        chunks = [head + " {\n"]
        nres = len(result_types)
        gname = "%graph"
        ghead = "" if nres == 0 else (f"{gname} = " if nres == 1 else f"{gname}:{nres} = ")
        chunks.append(f'    {ghead}"tf_executor.graph"() ({{\n')
        chunks.extend(reversed(self.sources))
        chunks.extend(body)
        chunks.append(f'      "tf_executor.fetch"({", ".join(fetch_vals)}) : ({", ".join(fetch_types)}) -> ()'
                      f"{unknown}\n")
        chunks.append(f"    }}) : () -> ({', '.join(result_types)}){unknown}\n")
        if nres == 0:
            rets = ""
        elif nres == 1:
            rets = gname
        else:
            rets = ", ".join(f"{gname}#{i}" for i in range(nres))
        chunks.append(f'    "func.return"({rets}) : ({", ".join(result_types)}) -> (){unknown}\n')
        chunks.append(f"  }}{unknown}\n")
        # The ops of the graph block: the NextIteration sources come first.
        n_sources = len(self.sources)
        patches = [(idx + n_sources, t) for idx, t in self.patches]
        return chunks, patches

    result_types_override = None
    rets_are_retvals = True

    def source_type(self, src):
        # The NextIteration source has the type of the sink's data input.
        e = next(e for e in src.in_edges if e.src_output != CONTROL and e.dst_input == 0)
        return self.value_type(e.src, e.src_output)

    def underscore_attrs(self, node):
        out = []
        for k in sorted(node.attrs):
            if not k.startswith("_"):
                continue
            v = node.attrs[k]
            which = v.which("value")
            if k == "_output_shapes" and which == "list":
                continue
            if k in ("_handle_dtypes", "_handle_shapes") and which == "list":
                continue
            out.append((f"tf.{k}", self.b.attr_value(v, node=node.name)))
        return out
