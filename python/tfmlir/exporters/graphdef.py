"""MLIR module (tf_executor or functional form) -> TensorFlow GraphDef + FunctionDefLibrary.

The main function (``@main``, or the module's only public function) becomes the
graph: its arguments become ``Placeholder`` nodes named after the
``tf.entry_function`` inputs, its results ``Identity`` nodes named after the
outputs (unless the output already names the producing node). Every other
function becomes a ``FunctionDef`` in the library. Each op becomes a node named
after its location (``loc(fused["Op:", "name"])`` as the importer writes it,
else a name made from the op type); control tokens become ``^name`` inputs.

* ``tf.X`` -> op ``X``; ``tf.If/While/Case`` -> ``StatelessIf`` ... when
  ``is_stateless``; ``tf.LegacyCall`` -> a node whose op is the callee.
* v1 control flow: ``tf_executor.Switch/_SwitchN/Merge/Enter/Exit/LoopCond/
  ControlTrigger`` and a ``NextIteration.Source``/``Sink`` pair -> one
  ``NextIteration`` node (the Merge's back edge).
* Attributes: the op's attributes (inherent and discardable) minus ``device``
  (-> NodeDef.device) and importer-only ones; derived attributes TensorFlow's
  OpDef needs (``T``, ``N``, ``Tin``, ``dtype``, ``output_shapes`` ...) are
  recomputed from operand/result types.
* Functional-form functions and multi-op islands are first rewritten with the
  ``tf-functional-to-executor-conversion`` and ``tf-executor-break-up-islands``
  passes (on a clone: the caller's module is not changed).

Unrepresentable IR raises :class:`TFExportError` naming the op: ops of other
dialects (``tf_device``, ``tf_saved_model``, ``arith`` ...), functions with
more than one block, tf_executor graphs mixed with other ops, resource or
variant constants, and attribute kinds with no AttrValue equivalent
(dictionaries outside ``#tf_type.func``).
"""
import re

import numpy as np

from .. import irsafe
from ..importers import graph as G
from ..tfcore.tensor_names import parse_tensor_name, tensor_name
from ..tfcore import opdb
from ..tfcore import protobuf as pb
from ..tfcore import tensor_proto as TP
from ..tfcore import tf_types as T
from ..device_names import canonical_device
from ..tfcore.errors import TFExportError

_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')
_VALID_NODE_NAME = re.compile(r"[A-Za-z0-9.][A-Za-z0-9_.\-/>]*\Z")  # \Z: no trailing newline
_EXECUTOR_OPS = {
    "tf_executor.Switch": "Switch", "tf_executor._SwitchN": "_SwitchN", "tf_executor.Merge": "Merge",
    "tf_executor.Enter": "Enter", "tf_executor.Exit": "Exit", "tf_executor.LoopCond": "LoopCond",
    "tf_executor.ControlTrigger": "ControlTrigger",
}
_DROP_ATTRS = {"device", "operandSegmentSizes", "resultSegmentSizes", "shape_invariant", "is_stateless",
               "_disable_call_shape_inference_unused"}


def _unescape(s):
    out = bytearray()
    i = 0
    b = s.encode("utf-8", "surrogateescape")
    while i < len(b):
        c = b[i]
        if c == 0x5C and i + 1 < len(b):
            nxt = chr(b[i + 1])
            if nxt in "0123456789abcdefABCDEF" and i + 2 < len(b) and chr(b[i + 2]) in "0123456789abcdefABCDEF":
                out.append(int(b[i + 1:i + 3], 16))
                i += 3
                continue
            out.append({"n": 10, "t": 9, '"': 34, "\\": 92}.get(nxt, ord(nxt)))
            i += 2
            continue
        out.append(c)
        i += 1
    return bytes(out)


def _dtype_of(elem_type):
    s = str(elem_type)
    dt = T.dtype_of_element(s)
    if dt is None:
        raise TFExportError(f"type {s} has no TensorFlow DataType")
    return dt


def _tensor_info(t):
    """(dtype, shape or None, subtypes) of an MLIR tensor type."""
    from mlir import ir
    if isinstance(t, ir.RankedTensorType) or isinstance(t, ir.UnrankedTensorType):
        elem = t.element_type
        shape = None
        if isinstance(t, ir.RankedTensorType):
            dyn = ir.ShapedType.get_dynamic_size()
            shape = [-1 if d == dyn else d for d in t.shape]
        s = str(elem)
        subs = []
        if (s.startswith("!tf_type.resource<") or s.startswith("!tf_type.variant<")):
            subs = [ir.Type.parse(x, t.context) for x in _split_top(s[s.index("<") + 1:-1])]
        return _dtype_of(elem), shape, subs
    raise TFExportError(f"type {t} is not a tensor type")


def _split_top(s):
    out, depth, start = [], 0, 0
    for i, ch in enumerate(s):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(s[start:i].strip())
            start = i + 1
    if s[start:].strip():
        out.append(s[start:].strip())
    return out


# --- dense elements -> TensorProto -----------------------------------------------------------------

def _dense_body(text):
    """The part between `dense<` and `>` of a dense attribute's text `dense<...> : type`."""
    return text[text.index("<") + 1:text.rindex(">", 0, text.rindex(" : "))]


def _literal_items(body):
    """The element texts of a dense literal body, nested lists flattened ('(re,im)' kept whole)."""
    items = []
    i = 0
    n = len(body)
    while i < n:
        ch = body[i]
        if ch in "[], \n":
            i += 1
            continue
        if ch == '"':
            m = _QUOTED.match(body, i)
            if m is None:
                raise ValueError("unterminated string")
            items.append(m.group(0))
            i = m.end()
            continue
        if ch == "(":
            j = body.index(")", i)
            items.append(body[i:j + 1])
            i = j + 1
            continue
        j = i
        while j < n and body[j] not in "[], \n)":
            j += 1
        items.append(body[i:j])
        i = j
    return items


def _parse_dense_literal(text):
    """Values of an MLIR dense<...> literal (nested lists flattened), as Python objects:
    bytes for strings, ("hex", bits) for floats written as bit patterns, complex pairs as
    (re, im) tuples of those."""
    vals = []
    for item in _literal_items(_dense_body(text)):
        if item.startswith('"'):
            vals.append(_unescape(item[1:-1]))
        elif item.startswith("("):
            re_, im = item[1:-1].split(",")
            vals.append((_num(re_), _num(im)))
        else:
            vals.append(_num(item))
    return vals


def _num(tok):
    tok = tok.strip()
    if tok == "true":
        return True
    if tok == "false":
        return False
    if tok.startswith("0x") or tok.startswith("0X"):
        return ("hex", int(tok, 16))
    if tok in ("inf", "+inf"):
        return float("inf")
    if tok == "-inf":
        return float("-inf")
    if tok == "nan":
        return float("nan")
    try:
        return int(tok)
    except ValueError:
        return float(tok)


# DataTypes numpy reads from a DenseElementsAttr's buffer directly (f16 as float16).
_NUMPY_READABLE = {1, 2, 3, 4, 5, 6, 9, 10, 17, 19, 22, 23}
# The others: storage of one element in MLIR's raw data (what TensorFlow's typed field or
# tensor_content holds per element): bf16 / f16 / float8 / float4 as bit patterns.
_STORAGE = {14: "<u2", 19: "<u2", 8: "<c8", 18: "<c16", 24: "u1", 25: "u1", 26: "u1", 27: "u1", 28: "u1",
            33: "u1", 29: "u1", 30: "u1", 31: "u1", 32: "u1"}
_LOW_BITS = {29: (4, True), 30: (4, False), 31: (2, True), 32: (2, False)}
# MLIR prints dense attributes of more elements than this as hex of their raw data.
_HEX_PRINT_THRESHOLD = 100


def _float_bits(v, np_float, np_uint):
    if isinstance(v, tuple):
        return int(v[1])
    with np.errstate(over="ignore"):
        return int(np.array(v, dtype=np_float).view(np_uint))


def _raw_elements(attr, dtype, elem_type):
    """The elements of a dense attribute of a type numpy cannot read, in their storage form
    (see _STORAGE): from the hex of MLIR's raw data, or from the literal."""
    from mlir import ir
    body = _dense_body(str(attr))
    storage = np.dtype(_STORAGE[dtype])
    if not body.startswith('"0x') and storage == np.uint8 and dtype not in _LOW_BITS:
        # float8 / float4 literals: MLIR encodes them; have it print a copy as hex (padded past
        # the hex threshold with two different values, so that it is not a splat).
        items = _literal_items(body)
        pad = ["0.0", "1.0"] + ["0.0"] * max(0, _HEX_PRINT_THRESHOLD - 1 - len(items))
        copy = ir.Attribute.parse(f"dense<[{', '.join(items + pad)}]> : tensor<{len(items) + len(pad)}x"
                                  f"{elem_type}>", attr.context)
        body = _dense_body(str(copy))
        raw = bytes.fromhex(body[3:-1])[:len(items)]
    elif body.startswith('"0x'):
        raw = bytes.fromhex(body[3:-1])
    else:
        vals = _parse_dense_literal(str(attr))
        if dtype == 14:      # bf16: the upper half of the float32 bits (exact for bf16 values)
            return np.array([(v[1] if isinstance(v, tuple) else _float_bits(v, np.float32, np.uint32) >> 16)
                             for v in vals], dtype=np.uint16)
        if dtype == 19:
            return np.array([_float_bits(v, np.float16, np.uint16) for v in vals], dtype=np.uint16)
        if dtype in (8, 18):
            fl, ui = (np.float32, np.uint32) if dtype == 8 else (np.float64, np.uint64)
            parts = [np.array(_float_bits(p, fl, ui), dtype=ui).view(fl) for v in vals for p in v]
            return np.array(parts, dtype=fl).view(storage)
        raw = np.array([v[1] if isinstance(v, tuple) else int(v) for v in vals]).astype(np.int64).astype(
            np.uint8).tobytes()
    if len(raw) % storage.itemsize:
        raise ValueError("raw data is not a whole number of elements")
    arr = np.frombuffer(raw, dtype=storage)
    bits = _LOW_BITS.get(dtype)
    if bits is not None:
        width, signed = bits
        arr = arr & ((1 << width) - 1)
        if signed:
            half = 1 << (width - 1)
            arr = ((arr.astype(np.int16) ^ half) - half).astype(np.int8)
    return arr


def _utf8(attr, what, error):
    """A StringAttr's text for a GraphDef `string` field (which must be UTF-8)."""
    try:
        return attr.value_bytes.decode("utf-8")
    except UnicodeDecodeError:
        raise error(f"{what} is not valid UTF-8: {T.mlir_string(attr.value_bytes)}") from None


def _splat_scalar(attr):
    v = attr.get_splat_value()
    return v.value


def dense_to_tensor(attr):
    """A TensorProto message for a dense elements attribute (no copy of a splat's elements)."""
    from mlir import ir
    t = attr.type
    dtype, shape, _ = _tensor_info(t)
    if shape is None or any(d < 0 for d in shape):
        raise TFExportError(f"constant of non-static type {t}")
    n = 1
    for d in shape:
        n *= d
    if dtype in (T.DT_RESOURCE, T.DT_VARIANT):
        raise TFExportError(f"constants of type {t} cannot be exported")
    if dtype in (11, 12, 13, 15, 16):
        raise TFExportError(f"dense constants of type {t} cannot be exported")
    try:
        if dtype == T.DT_STRING:
            vals = _parse_dense_literal(str(attr))
            if len(vals) != n and not (len(vals) == 1 and n > 1):
                raise ValueError(f"{len(vals)} strings for {n} elements")
            # A splat: one value, which TensorFlow repeats (Tensor::FromProto).
            return T.encode_tensor(dtype, shape, strings=vals)
        opaque = isinstance(attr, _OpaqueAttr)
        if dtype in _NUMPY_READABLE and not opaque:
            if attr.is_splat:
                arr = np.array([_splat_scalar(attr)])
                if dtype == 19:
                    arr = arr.astype(np.float16)
            else:
                arr = np.asarray(attr)
            if dtype == 19:  # f16 -> bits
                arr = np.asarray(arr, dtype=np.float16).view(np.uint16)
        else:
            arr = _raw_elements(attr, dtype, str(t.element_type))
        arr = arr.reshape(-1)
        if arr.size != n and not (arr.size == 1 and n > 1):
            raise ValueError(f"{arr.size} values for {n} elements")
    except (ValueError, TypeError, IndexError, OverflowError, ir.MLIRError) as exc:
        raise TFExportError(f"cannot read the elements of constant of type {t}: {exc}") from None
    if arr.size == 1 and n != 1:
        return T.encode_tensor(dtype, shape, arr[:1])
    return T.encode_tensor(dtype, shape, arr)


class _OpaqueAttr:
    """An attribute the Python bindings cannot hand out (their downcast of a dense attribute
    of complex elements fails), kept as its text."""

    def __init__(self, text, context):
        self.text = text
        self.context = context

    def __str__(self):
        return self.text

    @property
    def type(self):
        from mlir import ir
        return ir.Type.parse(self.text[self.text.rindex(" : ") + 3:], self.context)


def attr_items(attributes, context):
    """{name: attribute} of an op's attribute map or a DictAttr, read by index so that an
    attribute the bindings cannot downcast comes back as an _OpaqueAttr rather than a TypeError."""
    out = {}
    for i in range(len(attributes)):
        name = attributes[i].name
        try:
            # By name: NamedAttribute.attr aborts the process where this raises TypeError.
            out[name] = attributes[name]
        except TypeError:
            text = str(attributes[i])
            prefix = f"NamedAttribute({name}="
            if not (text.startswith(prefix) and text.endswith(")")):
                raise TFExportError(f"attribute '{name}' cannot be read: {text[:200]}") from None
            out[name] = _OpaqueAttr(text[len(prefix):-1], context)
    return out


# --- attributes -----------------------------------------------------------------------------------------

def attr_to_proto(a, where=""):
    """An MLIR attribute -> AttrValue message (TFExportError naming `where` if it has none)."""
    try:
        return _attr_to_proto(a, where)
    except TFExportError as exc:
        msg = str(exc)
        if where and not msg.startswith(where):
            msg = f"{where}: {msg}"
        raise TFExportError(msg) from None


def _func_name(sym, where):
    from mlir import ir
    if not isinstance(sym, ir.FlatSymbolRefAttr):
        raise TFExportError(f"function reference {sym} is nested; TensorFlow's are plain names")
    return sym.value


def _attr_to_proto(a, where):
    from mlir import ir
    from ..dialects import tf_type
    AV = pb.Message
    if isinstance(a, _OpaqueAttr):
        if str(a).startswith("dense<"):
            return AV("AttrValue", tensor=dense_to_tensor(a))
        raise TFExportError(f"attribute {str(a)[:200]} cannot be read")
    if isinstance(a, ir.BoolAttr):
        return AV("AttrValue", b=bool(a.value))
    if isinstance(a, ir.IntegerAttr):
        if isinstance(a.type, ir.IntegerType) and ir.IntegerType(a.type).width > 64:
            raise TFExportError(f"integer attribute {str(a)[:100]} is wider than AttrValue's int64")
        v = int(a.value)
        if not -(1 << 63) <= v < (1 << 63):
            raise TFExportError(f"integer attribute {str(a)[:100]} does not fit AttrValue's int64")
        return AV("AttrValue", i=v)
    if isinstance(a, ir.FloatAttr):
        with np.errstate(over="ignore"):
            return AV("AttrValue", f=float(np.float32(a.value)))  # AttrValue.f is a float (f32)
    if isinstance(a, ir.StringAttr):
        return AV("AttrValue", s=a.value_bytes)
    if isinstance(a, ir.TypeAttr):
        return AV("AttrValue", type=_dtype_of(a.value))
    if isinstance(a, (ir.FlatSymbolRefAttr, ir.SymbolRefAttr)):
        return AV("AttrValue", func=AV("NameAttrList", name=_func_name(a, where)))
    if isinstance(a, ir.DenseElementsAttr):
        return AV("AttrValue", tensor=dense_to_tensor(a))
    if tf_type.TensorProtoAttr.isinstance(a):
        # TensorFlow's mangled TensorProto: the exporter writes it back as it is (DemangleTensor).
        try:
            return AV("AttrValue", tensor=TP.demangle(tf_type.TensorProtoAttr(a).value))
        except ValueError as exc:
            raise TFExportError(str(exc)) from None
    if isinstance(a, ir.UnitAttr):
        return AV("AttrValue")
    if isinstance(a, ir.ArrayAttr):
        try:
            items = list(a)
        except TypeError as exc:
            raise TFExportError(f"array attribute cannot be read: {exc}"[:300]) from None
        lst = AV("AttrValue.ListValue")
        if not items:
            return AV("AttrValue", list=lst)
        first = items[0]
        if isinstance(first, (ir.FlatSymbolRefAttr, ir.SymbolRefAttr)) or tf_type.FuncAttr.isinstance(first):
            funcs = [_attr_to_proto(x, where) for x in items]
            if any(f.which("value") != "func" for f in funcs):
                raise TFExportError(f"array attribute {str(a)[:200]} mixes functions and other values")
            if any(f.func.attr for f in funcs):
                # TensorFlow's importer refuses them too (ConvertAttributeValue).
                raise TFExportError(f"array attribute {str(a)[:200]}: functions in a list cannot have "
                                    f"attributes")
            lst.func = [f.func for f in funcs]
        else:
            conv = [_attr_to_proto(x, where) for x in items]
            which = conv[0].which("value")
            if which in (None, "list", "func", "placeholder") or any(c.which("value") != which for c in conv):
                raise TFExportError(f"array attribute {str(a)[:200]} has no AttrValue list equivalent")
            setattr(lst, which, [getattr(c, which) for c in conv])
        return AV("AttrValue", list=lst)
    if tf_type.ShapeAttr.isinstance(a):
        sa = tf_type.ShapeAttr(a)
        if sa.rank is None:
            return AV("AttrValue", shape=T.shape_to_proto(None))
        return AV("AttrValue", shape=T.shape_to_proto([-1 if d is None else d for d in sa.dims]))
    if tf_type.FuncAttr.isinstance(a):
        fa = tf_type.FuncAttr(a)
        attrs = {k: _attr_to_proto(v, where) for k, v in attr_items(fa.attrs, a.context).items()}
        return AV("AttrValue", func=AV("NameAttrList", name=_func_name(fa.name, where), attr=attrs))
    if tf_type.PlaceholderAttr.isinstance(a):
        return AV("AttrValue", placeholder=tf_type.PlaceholderAttr(a).value)
    s = str(a)
    if s.startswith("dense<"):
        # Dense string elements: the Python API has no class for them.
        return AV("AttrValue", tensor=dense_to_tensor(a))
    raise TFExportError(f"attribute {s[:200]} has no TensorFlow AttrValue equivalent")


# --- the exporter -------------------------------------------------------------------------------------

def _properties_text(op):
    """The `<{...}>` dictionary text of an op's generic form (None if it has none)."""
    text = op.get_asm(print_generic_op_form=True, enable_debug_info=False)
    start = text.find(") <{")
    if start < 0:
        return None
    i = start + 3
    depth = 0
    in_str = False
    n = len(text)
    while i < n:
        ch = text[i]
        if in_str:
            if ch == "\\":
                i += 2
                continue
            if ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "{[(<":
            depth += 1
        elif ch in "}])>":
            depth -= 1
            if depth == 0:
                return text[start + 3:i + 1]
        i += 1
    return None


def op_attributes(op, registered):
    """All attributes of `op` by name: for ops the context does not know, their properties
    (invisible to the bindings) are read back from the op's generic form."""
    from mlir import ir
    attrs = {}
    if not registered:
        props = _properties_text(op.operation)
        if props:
            attrs.update(attr_items(ir.Attribute.parse(props, op.context), op.context))
    attrs.update(attr_items(op.attributes, op.context))
    return attrs


class _Namer:
    def __init__(self, reserved=()):
        self.used = set(reserved)
        self._next = {}  # base -> the next suffix to try (a chain of 'Neg's is linear, not quadratic)

    def unique(self, base):
        base = base or "node"
        if not _VALID_NODE_NAME.match(base):
            base = re.sub(r"[^A-Za-z0-9_.\-/>]", "_", base)
            if not base or not re.match(r"[A-Za-z0-9.]", base[0]):
                base = "n" + base
        name = base
        k = self._next.get(base, 1)
        while name in self.used:
            name = f"{base}_{k}"
            k += 1
        self._next[base] = k
        self.used.add(name)
        return name


def _name_from_loc(loc, op_type):
    s = str(loc)
    names = [m.group(1) for m in _QUOTED.finditer(s)]
    names = [n for n in names if not n.endswith(":") and ":" not in n.split("@")[0][-1:]]
    if not names or s.startswith("loc(\"-\"") or "callsite(" in s and not names:
        return op_type
    name = names[-1]
    if "@" in name:
        name = name.split("@", 1)[0]
    return _unescape(name).decode("utf-8", "surrogateescape")


class _FunctionExporter:
    """Converts one func.func (tf_executor form) into NodeDefs."""

    def __init__(self, exporter, func, is_main):
        self.x = exporter
        self.func = func
        self.is_main = is_main
        self.fname = func.attributes["sym_name"].value
        self.value_names = {}   # ir.Value -> input string
        self.ctl_names = {}     # control ir.Value -> node name
        self.nodes = []
        self.namer = _Namer()
        self.output_sizes = {}  # node name -> results per output argument (as derive_attrs split them)

    def err(self, msg, op=None):
        where = f"'{op.name}' at {op.location}" if op is not None else f"function @{self.fname}"
        return TFExportError(f"{where} in @{self.fname}: {msg}")

    def run(self):
        from mlir import ir
        func = self.func
        blocks = list(func.regions[0].blocks)
        if len(blocks) != 1:
            raise self.err("functions must have exactly one block")
        block = blocks[0]
        ops = list(block.operations)
        if len(ops) != 2 or ops[0].operation.name != "tf_executor.graph" or ops[1].operation.name != "func.return":
            raise self.err("expected a body of one tf_executor.graph and a return (tf_executor form)")
        graph, ret = ops[0], ops[1]
        self.args = list(block.arguments)
        self.graph_results = list(graph.results)
        gops = list(graph.regions[0].blocks[0].operations)
        fetch = gops[-1]
        self.setup_args()
        # First pass: names, so that back edges (NextIteration) resolve.
        sources = {}
        planned = []
        for op in gops[:-1]:
            name = op.operation.name
            if name == "tf_executor.island":
                inner = list(op.regions[0].blocks[0].operations)
                if len(inner) != 2:
                    raise self.err("islands must wrap exactly one op (run tf-executor-break-up-islands)", op)
                iop = inner[0]
                node_name = self.namer.unique(_name_from_loc(iop.location, iop.operation.name.split(".")[-1]))
                # The island's k-th result is what its yield gives: one of the op's results.
                yielded = list(inner[1].operands)
                for k, v in enumerate(yielded):
                    owner = v.owner
                    if isinstance(owner, ir.Block) or owner.operation != iop.operation:
                        raise self.err("the island yields a value its op does not produce "
                                       "(run tf-executor-break-up-islands)", op)
                    self.value_names[op.results[k]] = (node_name, iop, ir.OpResult(v).result_number)
                self.ctl_names[op.results[len(op.results) - 1]] = node_name
                planned.append((op, iop, node_name))
            elif name == "tf_executor.NextIteration.Source":
                sources[op.results[1]] = op
            elif name == "tf_executor.NextIteration.Sink":
                src = op.operands[0].owner
                node_name = self.namer.unique(_name_from_loc(op.location, "NextIteration"))
                self.value_names[src.results[0]] = (node_name, op, 0)
                self.ctl_names[src.results[2]] = node_name
                planned.append((op, op, node_name))
            elif name in _EXECUTOR_OPS:
                node_name = self.namer.unique(_name_from_loc(op.location, _EXECUTOR_OPS[name]))
                n = len(op.results)
                for k in range(n - 1):
                    self.value_names[op.results[k]] = (node_name, op, k)
                self.ctl_names[op.results[n - 1]] = node_name
                planned.append((op, op, node_name))
            else:
                raise self.err("op cannot be expressed in a GraphDef", op)
        for island, op, node_name in planned:
            self.nodes.append(self.convert_op(island, op, node_name))
        self.finish(fetch, ret)
        self.check_cycles()

    def check_cycles(self):
        """TensorFlow builds a graph only if NextIteration -> Merge edges close its cycles; a
        NextIteration.Source -> Sink loop without a Merge verifies in MLIR but would not."""
        def node_of(s):
            ctl = s.startswith("^")
            name = (s[1:] if ctl else s).split(":", 1)[0]
            return "^" + name if ctl else name
        err = G.cycle_error([G.NDef(n.name, n.op, [node_of(s) for s in n.input]) for n in self.nodes])
        if err is not None:
            node, msg = err
            raise TFExportError(f"node '{node}' in @{self.fname}: {msg}")

    # --- values -----------------------------------------------------------------------------------
    def setup_args(self):
        raise NotImplementedError

    def input_string(self, v, op):
        if v in self.arg_names:
            return self.arg_names[v]
        entry = self.value_names.get(v)
        if entry is None:
            raise self.err("operand is not produced by an op of the same graph", op)
        node_name, producer, k = entry
        return self.output_ref(node_name, producer, k)

    def output_ref(self, node_name, producer, k):
        return tensor_name(node_name, k)

    def control_inputs(self, values, op):
        out = []
        for v in values:
            if v in self.arg_names:
                continue
            name = self.ctl_names.get(v)
            if name is None:
                raise self.err("control operand is not a control token of the graph", op)
            out.append("^" + name)
        return out

    # --- ops ------------------------------------------------------------------------------------------
    def convert_op(self, island, op, node_name):
        try:
            return self._convert_op(island, op, node_name)
        except TFExportError as exc:
            msg = str(exc)
            if f"node '{node_name}'" in msg:
                raise
            raise TFExportError(f"node '{node_name}': {msg}") from None

    def _convert_op(self, island, op, node_name):
        tf_op, av, device, data, ctl = self.node_parts(island, op, node_name)
        inputs = [self.input_string(v, op) for v in data] + self.control_inputs(ctl, op)
        return G.NDef(node_name, tf_op, inputs, device, av).to_proto()

    def node_parts(self, island, op, node_name):
        """(op type, {name: AttrValue}, device, data operands, control operands) of `op`'s
        NodeDef: TensorFlow's op name, the attributes with those derived from types."""
        from mlir import ir
        name = op.operation.name
        attrs = {}
        device = ""
        dotted = []
        all_attrs = op_attributes(op, self.x.is_registered(name))
        self.current_attrs = all_attrs
        for key, a in all_attrs.items():
            if key == "device":
                if not isinstance(a, ir.StringAttr):
                    raise self.err(f"attribute 'device' is {a}, not a string", op)
                device = _utf8(a, "attribute 'device'", lambda m: self.err(m, op))
                if canonical_device(device) is None:
                    raise self.err(f"attribute 'device' = {T.mlir_string(device)} is not a device name "
                                   f"(TensorFlow cannot import it)", op)
                continue
            if key in _DROP_ATTRS:
                continue
            if "." in key and not key.startswith("_"):
                dotted.append((key, a))
                continue
            attrs[key] = (a, key)
        if name == "tf_executor.NextIteration.Sink":
            src = op.operands[0].owner
            data = [op.operands[1]]
            ctl = list(op.operands[2:])
            tf_op = "NextIteration"
            result_types = [src.results[0].type]
            for key, a in attr_items(src.attributes, src.context).items():
                if key not in attrs and key != "device" and key not in _DROP_ATTRS:
                    attrs[key] = (a, key)
        elif name in _EXECUTOR_OPS:
            tf_op = _EXECUTOR_OPS[name]
            operands = list(op.operands)
            data = [v for v in operands if str(v.type) != "!tf_executor.control"]
            ctl = [v for v in operands if str(v.type) == "!tf_executor.control"]
            result_types = [r.type for r in list(op.results)[:-1]]
            if tf_op == "Merge":
                result_types = result_types[:1] + result_types[1:]
        else:
            if not name.startswith("tf."):
                raise self.err("op of a dialect other than tf cannot be expressed in a GraphDef", op)
            tf_op = name[3:]
            data = list(op.operands)
            ctl = [v for v in island.operands] if island is not None else []
            result_types = [r.type for r in op.results]
            if tf_op == "LegacyCall":
                f = all_attrs["f"]
                tf_op = f.value
                attrs.pop("f", None)
            elif tf_op in ("If", "While", "Case"):
                st = all_attrs.get("is_stateless")
                if st is not None and st.value:
                    tf_op = "Stateless" + tf_op
        opdef = self.x.lookup(tf_op)
        if opdef is None:
            raise self.err(f"TensorFlow has no op '{tf_op}' and the module has no such function", op)
        where = f"'{name}' at {op.location}"
        av = {}
        for key, (a, _) in attrs.items():
            av[key] = attr_to_proto(a, f"{where}: attribute '{key}'")
        for key, a in dotted:
            base, _, sub = key.partition(".")
            if base in av and av[base].which("value") == "func":
                av[base].func.attr[sub] = attr_to_proto(a, f"{where}: attribute '{key}'")
            else:
                av[key] = attr_to_proto(a, f"{where}: attribute '{key}'")
        for key, v in av.items():
            which = v.which("value")
            funcs = [v.func] if which == "func" else list(v.list._values.get("func") or ()) if which == "list" else []
            for f in funcs:
                if f.name and not self.x.is_library_function(f.name):
                    raise self.err(f"attribute '{key}' names @{f.name}, which is not a library function of the "
                                   f"module (the main function is the graph)", op)
        operand_types = [v.type for v in data]
        segments = {}
        for key, what in (("operandSegmentSizes", "operand"), ("resultSegmentSizes", "result")):
            if key in all_attrs:
                try:
                    segments[what] = [int(x) for x in all_attrs[key]]
                except (TypeError, ValueError):
                    raise self.err(f"attribute '{key}' is not an array of sizes", op) from None
        self.output_sizes[node_name] = self.derive_attrs(opdef, av, operand_types, result_types, op, tf_op,
                                                         segments)
        if not opdef.is_function:
            known = {a[0] for a in opdef.attrs}
            for key in list(av):
                if key not in known and not key.startswith("_"):
                    del av[key]
            for key, attr_type, _default in opdef.attrs:
                if key in av:
                    err = G.attr_value_error(av[key], attr_type)
                    if err is not None:
                        raise self.err(f"attribute '{key}' of op {tf_op}: {err}", op)
        return tf_op, av, device, data, ctl

    def derive_attrs(self, opdef, av, operand_types, result_types, op, tf_op, segments=None):
        """Re-creates the attributes MLIR derives from types (T, N, Tin, dtype, output_shapes...)."""
        if tf_op == "Const" and "dtype" not in av and "value" in av:
            av["dtype"] = pb.Message("AttrValue", type=av["value"].tensor.dtype)
        if tf_op == "VarHandleOp" and ("dtype" not in av or "shape" not in av) and result_types:
            _, _, subs = _tensor_info(result_types[0])
            if not subs:
                raise self.err("VarHandleOp result has no resource subtype (dtype/shape unknown)", op)
            dt, shape, _ = _tensor_info(subs[0])
            av.setdefault("dtype", pb.Message("AttrValue", type=dt))
            av.setdefault("shape", pb.Message("AttrValue", shape=T.shape_to_proto(shape)))
        needs_output_shapes = opdef.attr_type("output_shapes") == "list(shape)" and "output_shapes" not in av
        if needs_output_shapes and tf_op in ("If", "StatelessIf", "While", "StatelessWhile", "Case",
                                             "StatelessCase"):
            shapes = []
            for t in result_types:
                shapes.append(T.shape_to_proto(_tensor_info(t)[1]))
            av["output_shapes"] = pb.Message("AttrValue", list=pb.Message("AttrValue.ListValue", shape=shapes))
        derived = {}
        segments = segments or {}
        self._derive_from_args(opdef.inputs, operand_types, av, op, "operand", derived, segments.get("operand"))
        output_sizes = self._derive_from_args(opdef.outputs, result_types, av, op, "result", derived,
                                              segments.get("result"))
        for name, typ, default in opdef.attrs:
            if name not in av and typ == "type":
                # e.g. TensorListReserve's element_dtype: the subtype of a variant/resource.
                for t in list(result_types) + list(operand_types):
                    subs = _tensor_info(t)[2]
                    if subs:
                        av[name] = pb.Message("AttrValue", type=T.base_dtype(_tensor_info(subs[0])[0]))
                        break
        for name, typ, default in opdef.attrs:
            if name not in av and default is None and not opdef.is_function:
                raise self.err(f"attribute '{name}' of op {tf_op} is missing and cannot be derived", op)
        return output_sizes

    def _group_sizes(self, args, total, av, op, what, segments=None):
        """How many of the op's `total` operands (results) each OpDef argument of `args` takes.

        The op's segment sizes (operandSegmentSizes: one per argument) say it where it has
        them. Otherwise, with one variadic group (or several sharing one number attr) the sizes
        follow from the operand count alone, whatever the op's attributes say; with several
        independent groups their attributes (N, T lists) say how the operands split and must
        add up."""
        if segments is not None:
            if len(segments) != len(args) or sum(segments) != total or any(
                    n < 0 or (n != 1 and not (a.number_attr or a.type_list_attr)) for a, n in zip(args, segments)):
                raise self.err(f"the {what} segment sizes {segments} do not fit the {total} {what}s and the "
                               f"op's {len(args)} TensorFlow arguments", op)
            return list(segments)
        sizes = {}
        variadic = []
        for a in args:
            if a.type_list_attr or a.number_attr:
                variadic.append(a)
            else:
                sizes[a.name] = 1
        rest = total - len(sizes)
        if rest < 0 or (not variadic and rest):
            raise self.err(f"the op has {total} {what}s, its TensorFlow op definition "
                           f"{'at least ' if variadic else ''}{len(sizes)}", op)
        keys = {a.number_attr or a.type_list_attr for a in variadic}
        if variadic and len(keys) == 1 and (len(variadic) == 1 or all(a.number_attr for a in variadic)):
            if rest % len(variadic):
                raise self.err(f"cannot split {total} {what}s over the op's arguments", op)
            for a in variadic:
                sizes[a.name] = rest // len(variadic)
        elif variadic:
            unknown = []
            for a in variadic:
                n = self._attr_length(a, av, op)
                if n is None:
                    unknown.append(a)
                else:
                    sizes[a.name] = n
                    rest -= n
            if unknown:
                if len({a.number_attr or a.type_list_attr for a in unknown}) != 1:
                    raise self.err(f"cannot infer the sizes of several variadic {what} groups", op)
                if rest < 0 or rest % len(unknown):
                    raise self.err(f"cannot split {total} {what}s over the op's arguments", op)
                for a in unknown:
                    sizes[a.name] = rest // len(unknown)
            elif rest:
                said = ", ".join(f"{a.number_attr or a.type_list_attr} -> {sizes[a.name]}" for a in variadic)
                raise self.err(f"the op has {total} {what}s but its attributes say otherwise ({said})", op)
        return [sizes[a.name] for a in args]

    def _attr_length(self, a, av, op):
        """The group length attribute `a`'s number / type-list attribute states (None: absent)."""
        key = a.number_attr or a.type_list_attr
        v = av.get(key)
        if v is None:
            return None
        err = G.attr_value_error(v, "int" if a.number_attr else "list(type)")
        if err is not None:
            raise self.err(f"attribute '{key}': {err}", op)
        return v.i if a.number_attr else len(v.list._values.get("type", ()))

    def _derive_from_args(self, args, types, av, op, what, derived, segments=None):
        """Sets the attributes the operand (result) types decide: number attrs (N), type lists
        and type attrs (T), replacing what the op carries, as TensorFlow's OpDef derives them.
        `derived`: {attr name: AttrValue} set by earlier groups; a group that disagrees is an
        error (TensorFlow could not import the node). Returns the group sizes."""
        sizes = self._group_sizes(args, len(types), av, op, what, segments)
        pos = 0

        def put(key, value, desc):
            prev = derived.get(key)
            if prev is not None and prev != value:
                raise self.err(f"the {what} types give attribute '{key}' two values ({desc})", op)
            derived[key] = value
            av[key] = value

        for a, n in zip(args, sizes):
            group = types[pos:pos + n]
            pos += n
            dts = [T.base_dtype(_tensor_info(t)[0]) for t in group]
            if a.number_attr:
                put(a.number_attr, pb.Message("AttrValue", i=n), f"argument '{a.name}' has {n}")
            if a.type_list_attr:
                put(a.type_list_attr, pb.Message("AttrValue", list=pb.Message("AttrValue.ListValue", type=dts)),
                    f"argument '{a.name}' has {', '.join(T.dtype_name(d) for d in dts)}")
            if a.type_attr and dts:
                if any(d != dts[0] for d in dts):
                    raise self.err(f"the {what}s of argument '{a.name}' (attribute '{a.type_attr}') have "
                                   f"different types: {', '.join(T.dtype_name(d) for d in dts)}", op)
                put(a.type_attr, pb.Message("AttrValue", type=dts[0]),
                    f"argument '{a.name}' is {T.dtype_name(dts[0])}")
            if a.type and any(d != a.type for d in dts):
                raise self.err(f"{what} of argument '{a.name}' must be {T.dtype_name(a.type)}, not "
                               f"{', '.join(T.dtype_name(d) for d in dts)}", op)
        return sizes


class _GraphExporter(_FunctionExporter):
    """The main function: arguments -> Placeholders, results -> named outputs."""

    def setup_args(self):
        from mlir import ir
        entry = self.func.attributes["tf.entry_function"] if "tf.entry_function" in self.func.attributes else None
        inputs, outputs = [], []
        if entry is not None:
            if not isinstance(entry, ir.DictAttr):
                raise self.err(f"attribute tf.entry_function is {str(entry)[:100]}, not a dictionary")
            d = attr_items(entry, entry.context)
            for key in ("inputs", "outputs"):
                if key in d and not isinstance(d[key], ir.StringAttr):
                    raise self.err(f"tf.entry_function's '{key}' is {str(d[key])[:100]}, not a string")
            names = {key: _utf8(d[key], f"tf.entry_function's '{key}'", self.err) if key in d else ""
                     for key in ("inputs", "outputs")}
            if names["inputs"]:
                inputs = names["inputs"].split(",")
            if names["outputs"]:
                outputs = names["outputs"].split(",")
        self.output_names = outputs
        self.arg_names = {}
        placeholders = []
        for i, arg in enumerate(self.args):
            base = parse_tensor_name(inputs[i])[0] if i < len(inputs) else f"arg{i}"
            name = self.namer.unique(base)
            dtype, shape, subs = _tensor_info(arg.type)
            attrs = {"dtype": pb.Message("AttrValue", type=T.base_dtype(dtype)),
                     "shape": pb.Message("AttrValue", shape=T.shape_to_proto(shape))}
            if subs and dtype == T.DT_RESOURCE:
                sdt, ssh, _ = _tensor_info(subs[0])
                attrs["_handle_dtypes"] = pb.Message("AttrValue", list=pb.Message("AttrValue.ListValue", type=[sdt]))
                attrs["_handle_shapes"] = pb.Message(
                    "AttrValue", list=pb.Message("AttrValue.ListValue", shape=[T.shape_to_proto(ssh)]))
            placeholders.append(G.NDef(name, "Placeholder", [], "", attrs).to_proto())
            self.arg_names[arg] = name
        self.nodes.extend(placeholders)

    def finish(self, fetch, ret):
        data = [v for v in fetch.operands if str(v.type) != "!tf_executor.control"]
        for i, v in enumerate(data):
            src = self.input_string(v, fetch)
            want = self.output_names[i] if i < len(self.output_names) else f"output{i}"
            want_node, want_idx = parse_tensor_name(want)
            if tensor_name(want_node, want_idx) == src or (want_idx == 0 and want_node == src):
                continue
            name = self.namer.unique(want_node)
            dtype = _tensor_info(v.type)[0]
            self.nodes.append(G.NDef(name, "Identity", [src], "",
                                     {"T": pb.Message("AttrValue", type=T.base_dtype(dtype))}).to_proto())


class _LibraryFunctionExporter(_FunctionExporter):
    """A library function -> FunctionDef (inputs written as node:output_arg:index)."""

    def setup_args(self):
        self.arg_names = {}
        self.input_args = []
        self.arg_attrs = {}
        arg_attrs = self.func.attributes["arg_attrs"] if "arg_attrs" in self.func.attributes else None
        arg_attr_list = list(arg_attrs) if arg_attrs is not None else []
        for i, arg in enumerate(self.args):
            name = f"arg{i}"
            self.namer.used.add(name)
            dtype, shape, subs = _tensor_info(arg.type)
            self.input_args.append(pb.Message("OpDef.ArgDef", name=name, type=T.base_dtype(dtype),
                                              is_ref=T.is_ref(dtype)))
            attrs = {}
            if i < len(arg_attr_list):
                for key, a in attr_items(arg_attr_list[i], self.func.context).items():
                    if key.startswith("tf.") and key != "tf.device":
                        attrs[key[3:]] = attr_to_proto(a, f"argument {i} of @{self.fname}")
            if shape is not None:
                attrs["_output_shapes"] = pb.Message(
                    "AttrValue", list=pb.Message("AttrValue.ListValue", shape=[T.shape_to_proto(shape)]))
            if subs and dtype == T.DT_RESOURCE:
                sdt, ssh, _ = _tensor_info(subs[0])
                attrs["_handle_dtypes"] = pb.Message("AttrValue", list=pb.Message("AttrValue.ListValue", type=[sdt]))
                attrs["_handle_shapes"] = pb.Message(
                    "AttrValue", list=pb.Message("AttrValue.ListValue", shape=[T.shape_to_proto(ssh)]))
            if attrs:
                self.arg_attrs[i] = pb.Message("FunctionDef.ArgAttrs", attr=attrs)
            self.arg_names[arg] = name

    def output_ref(self, node_name, producer, k):
        from mlir import ir
        op_name = producer.operation.name
        if op_name.startswith("tf_executor."):
            tf_op = "NextIteration" if op_name == "tf_executor.NextIteration.Sink" else _EXECUTOR_OPS[op_name]
            attrs = {}
        else:
            tf_op = op_name[3:]
            pattrs = op_attributes(producer, self.x.is_registered(op_name))
            if tf_op == "LegacyCall":
                tf_op = pattrs["f"].value
            elif tf_op in ("If", "While", "Case"):
                st = pattrs.get("is_stateless")
                if st is not None and st.value:
                    tf_op = "Stateless" + tf_op
        opdef = self.x.lookup(tf_op)
        if opdef is None:
            raise self.err(f"TensorFlow has no op '{tf_op}'", producer)
        # Find the output argument holding flat result k.
        counts = self.output_sizes.get(node_name)
        if counts is None:
            n_results = len(producer.results) - (1 if op_name.startswith("tf_executor.") else 0)
            counts = self._output_counts(opdef, producer, n_results,
                                         op_attributes(producer, self.x.is_registered(op_name)))
        start = 0
        for a, n in zip(opdef.outputs, counts):
            if k < start + n:
                return f"{node_name}:{a.name}:{k - start}"
            start += n
        raise self.err(f"result {k} does not map to an output argument of {tf_op}", producer)

    def _output_counts(self, opdef, op, n_results, attrs):
        counts = []
        unknown = []
        for a in opdef.outputs:
            if a.type_list_attr or a.number_attr:
                key = a.type_list_attr or a.number_attr
                if key in attrs:
                    attr = attrs[key]
                    counts.append(len(list(attr)) if a.type_list_attr else int(attr.value))
                else:
                    counts.append(None)
                    unknown.append(len(counts) - 1)
            else:
                counts.append(1)
        if unknown:
            rest = n_results - sum(c for c in counts if c is not None)
            for i in unknown:
                counts[i] = rest // len(unknown)
        return counts

    def finish(self, fetch, ret):
        from mlir import ir
        data = [v for v in fetch.operands if str(v.type) != "!tf_executor.control"]
        ctl = [v for v in fetch.operands if str(v.type) == "!tf_executor.control"]
        sig = pb.Message("OpDef", name=self.fname)
        sig.input_arg = self.input_args
        outs = []
        ret_map = {}
        for i, v in enumerate(data):
            name = f"output{i}"
            dtype = _tensor_info(v.type)[0]
            outs.append(pb.Message("OpDef.ArgDef", name=name, type=T.base_dtype(dtype), is_ref=T.is_ref(dtype)))
            ret_map[name] = self.input_string(v, fetch)
        sig.output_arg = outs
        control_ret = {}
        control_outputs = []
        for v in ctl:
            name = self.ctl_names.get(v)
            if name is None:
                continue
            if name not in control_ret:
                control_ret[name] = name
                control_outputs.append(name)
        if control_outputs:
            sig.control_output = control_outputs
        fattrs = {}
        gradient = None
        for key, a in attr_items(self.func.attributes, self.func.context).items():
            if key == "tf.signature.is_stateful":
                sig.is_stateful = True
            elif key == "tf.gradient":
                if not isinstance(a, ir.FlatSymbolRefAttr) or not self.x.is_library_function(a.value):
                    raise self.err(f"attribute tf.gradient = {str(a)[:100]} does not name a function of the "
                                   f"module")
                gradient = a.value
            elif key.startswith("tf.") and key not in ("tf.entry_function",):
                fattrs[key[3:]] = attr_to_proto(a, f"attribute {key} of @{self.fname}")
        shapes = fattrs.get("_input_shapes")
        if shapes is not None and (G.attr_value_error(shapes, "list(shape)") is not None
                                   or len(shapes.list._values.get("shape") or ()) not in (0, len(self.args))):
            raise self.err(f"attribute tf._input_shapes must be a list of {len(self.args)} shapes (one per "
                           f"argument)")
        fdef = pb.Message("FunctionDef", signature=sig)
        if fattrs:
            fdef.attr = fattrs
        if self.arg_attrs:
            fdef.arg_attr = self.arg_attrs
        fdef.node_def = self.nodes
        fdef.ret = ret_map
        if control_ret:
            fdef.control_ret = control_ret
        self.fdef = fdef
        self.gradient = gradient


class Exporter:
    def __init__(self, module):
        self.module = module
        self.funcs = {}
        for op in module.body.operations:
            name = op.operation.name
            if name != "func.func":
                raise TFExportError(f"'{name}' at {op.location}: only func.func ops can be exported "
                                    f"(tf_saved_model and other module-level ops have no GraphDef form)")
            self.funcs[op.attributes["sym_name"].value] = op
        self._sigs = {}
        self._registered = {}
        self.main = None

    def is_registered(self, op_name):
        r = self._registered.get(op_name)
        if r is None:
            r = self._registered[op_name] = self.module.context.is_registered_operation(op_name)
        return r

    def is_library_function(self, name):
        return name in self.funcs and name != self.main

    def lookup(self, op_type):
        if self.is_library_function(op_type):
            od = self._sigs.get(op_type)
            if od is None:
                od = self._sigs[op_type] = self._signature(op_type)
            return od
        return opdb.get(op_type)

    def _signature(self, name):
        func = self.funcs[name]
        ftype = func.attributes["function_type"].value
        ins = [opdb.ArgDef(f"arg{i}", T.base_dtype(_tensor_info(t)[0]), "", "", "", False)
               for i, t in enumerate(ftype.inputs)]
        outs = [opdb.ArgDef(f"output{i}", T.base_dtype(_tensor_info(t)[0]), "", "", "", False)
                for i, t in enumerate(ftype.results)]
        return opdb.OpDef(name, ins, outs, [], False, is_function=True)

    def main_name(self, function_name):
        if function_name:
            if function_name not in self.funcs:
                raise TFExportError(f"the module has no function @{function_name}")
            return function_name
        if "main" in self.funcs:
            return "main"
        public = [n for n, f in self.funcs.items()
                  if not ("sym_visibility" in f.attributes and f.attributes["sym_visibility"].value == "private")]
        if len(public) == 1:
            return public[0]
        if not public and len(self.funcs) == 1:
            return next(iter(self.funcs))
        raise TFExportError(f"cannot tell the main function: {len(public)} public functions; pass function_name")

    def export(self, function_name=None):
        main = self.main = self.main_name(function_name)
        gx = _GraphExporter(self, self.funcs[main], True)
        gx.run()
        library = pb.Message("FunctionDefLibrary")
        functions = []
        gradients = []
        for name, func in self.funcs.items():
            if name == main:
                continue
            fx = _LibraryFunctionExporter(self, func, False)
            fx.run()
            functions.append(fx.fdef)
            if fx.gradient:
                gradients.append(pb.Message("GradientDef", function_name=name, gradient_func=fx.gradient))
        gd = pb.Message("GraphDef")
        gd.node = gx.nodes
        if functions:
            library.function = functions
        if gradients:
            library.gradient = gradients
        if functions or gradients:
            gd.library = library
        versions = self._versions()
        gd.versions = versions
        return gd

    def _versions(self):
        from mlir import ir
        attrs = self.module.operation.attributes
        producer, min_consumer = opdb.graph_def_version()
        bad = []
        if "tf.versions" in attrs:
            versions = attrs["tf.versions"]

            def fail(what):
                return TFExportError(f"module attribute tf.versions: {what} ({str(versions)[:200]})")

            if not isinstance(versions, ir.DictAttr):
                raise fail("expected a dictionary {producer, min_consumer, bad_consumers}")

            def int32(a, name):
                if not isinstance(a, ir.IntegerAttr) or isinstance(a, ir.BoolAttr):
                    raise fail(f"'{name}' must be an integer")
                v = a.value
                if not -(1 << 31) <= v < (1 << 31):
                    raise fail(f"'{name}' = {v} is not a 32-bit integer")
                return v

            d = irsafe.attribute_dict(versions)
            producer = int32(d["producer"], "producer") if "producer" in d else producer
            min_consumer = int32(d["min_consumer"], "min_consumer") if "min_consumer" in d else 0
            if "bad_consumers" in d:
                if not isinstance(d["bad_consumers"], ir.ArrayAttr):
                    raise fail("'bad_consumers' must be an array of integers")
                bad = [int32(x, "bad_consumers") for x in d["bad_consumers"]]
            err = opdb.versions_error(producer, min_consumer, bad)
            if err is not None:
                raise fail(f"TensorFlow would not import the graph: {err}")
        v = pb.Message("VersionDef", producer=producer, min_consumer=min_consumer)
        if bad:
            v.bad_consumers = bad
        return v


def node_attributes(exporter, func, op):
    """(TensorFlow op type, {name: AttrValue}) of a tf-dialect `op` of `func` as its NodeDef
    would carry them (derived attributes recomputed from types), for running it by itself."""
    fx = _FunctionExporter(exporter, func, False)
    tf_op, av, _device, _data, _ctl = fx.node_parts(None, op, _name_from_loc(op.location, op.name))
    return tf_op, av


def _needs_preparation(module):
    for op in module.body.operations:
        if op.operation.name != "func.func":
            continue
        blocks = list(op.regions[0].blocks)
        if len(blocks) != 1:
            continue
        ops = list(blocks[0].operations)
        if not (len(ops) == 2 and ops[0].operation.name == "tf_executor.graph"):
            return True
        for gop in ops[0].regions[0].blocks[0].operations:
            if gop.operation.name == "tf_executor.island":
                if len(list(gop.regions[0].blocks[0].operations)) != 2:
                    return True
    return False


def prepare(module):
    """Functional form / multi-op islands -> one op per island (on a clone)."""
    if not _needs_preparation(module):
        return module
    try:
        from ..passes import framework
        framework.get_pass("tf-functional-to-executor-conversion")
        framework.get_pass("tf-executor-break-up-islands")
    except Exception as exc:  # passes not available
        raise TFExportError("the module is not in tf_executor form with one op per island, and the "
                            f"conversion passes are not available: {exc}") from None
    cloned_op = module.operation.clone()
    from ..passes import run
    try:
        run(cloned_op, "builtin.module(func.func(tf-functional-to-executor-conversion),"
                       "tf-executor-break-up-islands)")
    except Exception as exc:
        raise TFExportError(f"converting the module to tf_executor form failed: {exc}") from None
    return _ModuleView(cloned_op)


class _ModuleView:
    """A module-like wrapper around a cloned builtin.module operation."""

    def __init__(self, op):
        self.operation = op
        self.context = op.context

    @property
    def body(self):
        return self.operation.regions[0].blocks[0]


def export_graph_def(module, *, function_name=None, validate=True):
    """The GraphDef (a :class:`tfmlir.tfcore.protobuf.Message`) of an MLIR module.

    With `validate` (the default) the GraphDef is imported once more, with
    TensorFlow's import checks (op registry types, shape functions, graph
    structure): IR that verifies but that TensorFlow would refuse as a graph
    (e.g. operand types an op's registry entry does not allow) is a
    TFExportError here rather than a GraphDef nobody can load.
    """
    try:
        irsafe.check_utf8(module, "the GraphDef exporter")
    except irsafe.NonUtf8Error as err:
        raise TFExportError(str(err)) from None
    graph_def = Exporter(prepare(module)).export(function_name)
    if validate:
        _check_importable(graph_def)
    return graph_def


def _check_importable(graph_def):
    from mlir import ir

    from ..importers import TFImportError, import_graph_def

    try:
        import_graph_def(graph_def, context=ir.Context())
    except TFImportError as err:
        raise TFExportError(f"the exported GraphDef is not one TensorFlow would import: {err}") from None
