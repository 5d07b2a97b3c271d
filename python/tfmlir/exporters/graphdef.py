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

from ..importers import graph as G
from ..importers import opdb
from ..importers import protobuf as pb
from ..importers import tensor_proto as TP
from ..importers import tf_types as T
from ..importers.errors import TFExportError

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
    base = s.split("<", 1)[0] if s.startswith("!tf_type.resource") or s.startswith("!tf_type.variant") else s
    dt = T.MLIR_TO_DTYPE.get(base)
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

def _parse_dense_literal(text):
    """Values of an MLIR dense<...> literal (nested lists flattened), as Python objects."""
    body = text[text.index("<") + 1:text.rindex(">", 0, text.rindex(":"))]
    vals = []
    i = 0
    n = len(body)
    while i < n:
        ch = body[i]
        if ch in "[], \n":
            i += 1
            continue
        if ch == '"':
            m = _QUOTED.match(body, i)
            vals.append(_unescape(m.group(1)))
            i = m.end()
            continue
        if ch == "(":
            j = body.index(")", i)
            re_, im = body[i + 1:j].split(",")
            vals.append(complex(_num(re_), _num(im)))
            i = j + 1
            continue
        j = i
        while j < n and body[j] not in "[], \n)":
            j += 1
        vals.append(_num(body[i:j]))
        i = j
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


def _bits(vals, np_float, np_uint):
    out = np.empty(len(vals), dtype=np_uint)
    for k, v in enumerate(vals):
        if isinstance(v, tuple):
            out[k] = v[1]
        else:
            out[k] = np.array(v, dtype=np_float).view(np_uint) if np_float is not None else int(v)
    return out


def dense_to_tensor(attr):
    """A TensorProto message for a dense elements attribute."""
    from mlir import ir
    t = attr.type
    dtype, shape, _ = _tensor_info(t)
    if shape is None or any(d < 0 for d in shape):
        raise TFExportError(f"constant of non-static type {t}")
    n = int(np.prod(shape)) if shape else 1
    if dtype == T.DT_STRING:
        vals = _parse_dense_literal(str(attr))
        if len(vals) == 1 and n != 1:
            vals = vals * n
        return T.encode_tensor(dtype, shape, strings=vals)
    if dtype in (T.DT_RESOURCE, T.DT_VARIANT):
        raise TFExportError(f"constants of type {t} cannot be exported")
    splat = getattr(attr, "is_splat", False)
    try:
        if dtype in (14, 8, 18) or dtype >= 24 or dtype in (11, 12, 13, 15, 16):
            raise TypeError
        arr = np.asarray(attr)
        if splat:
            arr = arr.reshape(-1)[:1]
    except (TypeError, ValueError, RuntimeError):
        vals = _parse_dense_literal(str(attr))
        if dtype == 14:      # bf16: upper half of the float32 bits
            arr = np.array([(v[1] if isinstance(v, tuple) else
                             int(np.array(v, np.float32).view(np.uint32)) >> 16) for v in vals], dtype=np.uint16)
        elif dtype in (8, 18):
            arr = np.array([complex(v) for v in vals], dtype=np.complex64 if dtype == 8 else np.complex128)
        else:
            arr = np.array([v[1] if isinstance(v, tuple) else v for v in vals])
    if dtype == 19:  # f16 -> bits
        arr = np.asarray(arr, dtype=np.float16).view(np.uint16)
    if arr.size == 1 and n != 1:
        return T.encode_tensor(dtype, shape, arr.reshape(-1)[:1])
    return T.encode_tensor(dtype, shape, arr.reshape(-1))


# --- attributes -----------------------------------------------------------------------------------------

def _shape_text_to_proto(s):
    inner = s[s.index("<") + 1:s.rindex(">")]
    if inner == "*":
        return T.shape_to_proto(None)
    if inner == "":
        return T.shape_to_proto([])
    return T.shape_to_proto([-1 if d == "?" else int(d) for d in inner.split("x")])


def attr_to_proto(a, where=""):
    """An MLIR attribute -> AttrValue message."""
    from mlir import ir
    from ..dialects import tf_type
    AV = pb.Message
    if isinstance(a, ir.BoolAttr):
        return AV("AttrValue", b=bool(a.value))
    if isinstance(a, ir.IntegerAttr):
        return AV("AttrValue", i=int(a.value))
    if isinstance(a, ir.FloatAttr):
        return AV("AttrValue", f=float(a.value))
    if isinstance(a, ir.StringAttr):
        return AV("AttrValue", s=a.value_bytes)
    if isinstance(a, ir.TypeAttr):
        return AV("AttrValue", type=_dtype_of(a.value))
    if isinstance(a, ir.FlatSymbolRefAttr):
        return AV("AttrValue", func=AV("NameAttrList", name=a.value))
    if isinstance(a, ir.SymbolRefAttr):
        return AV("AttrValue", func=AV("NameAttrList", name=str(a)[1:].strip('"')))
    if isinstance(a, ir.DenseElementsAttr):
        return AV("AttrValue", tensor=dense_to_tensor(a))
    if tf_type.TensorProtoAttr.isinstance(a):
        # TensorFlow's mangled TensorProto: the exporter writes it back as it is (DemangleTensor).
        try:
            return AV("AttrValue", tensor=TP.demangle(tf_type.TensorProtoAttr(a).value))
        except ValueError as exc:
            raise TFExportError(f"{where}: {exc}") from None
    if isinstance(a, ir.UnitAttr):
        return AV("AttrValue")
    if isinstance(a, ir.ArrayAttr):
        items = list(a)
        lst = AV("AttrValue.ListValue")
        if not items:
            return AV("AttrValue", list=lst)
        first = items[0]
        if isinstance(first, (ir.FlatSymbolRefAttr, ir.SymbolRefAttr)) or str(first).startswith("#tf_type.func"):
            lst.func = [attr_to_proto(x, where).func for x in items]
        else:
            conv = [attr_to_proto(x, where) for x in items]
            which = conv[0].which("value")
            if which in (None, "list", "func", "placeholder") or any(c.which("value") != which for c in conv):
                raise TFExportError(f"{where}: array attribute {a} has no AttrValue list equivalent")
            setattr(lst, which, [getattr(c, which) for c in conv])
        return AV("AttrValue", list=lst)
    s = str(a)
    if s.startswith("dense<"):
        # Dense string elements: the Python API has no class for them.
        return AV("AttrValue", tensor=dense_to_tensor(a))
    if s.startswith("#tf_type.shape"):
        return AV("AttrValue", shape=_shape_text_to_proto(s))
    if s.startswith("#tf_type.func<"):
        body = s[len("#tf_type.func<"):-1]
        name_part, _, dict_part = body.partition(",")
        name = name_part.strip()[1:]
        if name.startswith('"'):
            name = _unescape(name[1:-1]).decode("utf-8", "surrogateescape")
        attrs = {}
        dict_part = dict_part.strip()
        if dict_part and dict_part != "{}":
            d = ir.Attribute.parse(dict_part, a.context)
            for na in d:
                attrs[na.name] = attr_to_proto(na.attr, where)
        return AV("AttrValue", func=AV("NameAttrList", name=name, attr=attrs))
    if s.startswith("#tf_type.placeholder<"):
        m = _QUOTED.search(s)
        return AV("AttrValue", placeholder=_unescape(m.group(1)).decode("utf-8", "surrogateescape"))
    raise TFExportError(f"{where}: attribute {s[:200]} has no TensorFlow AttrValue equivalent")


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
            d = ir.Attribute.parse(props, op.context)
            for na in d:
                attrs[na.name] = na.attr
    for key in op.attributes:
        attrs[key] = op.attributes[key]
    return attrs


class _Namer:
    def __init__(self, reserved=()):
        self.used = set(reserved)

    def unique(self, base):
        base = base or "node"
        if not _VALID_NODE_NAME.match(base):
            base = re.sub(r"[^A-Za-z0-9_.\-/>]", "_", base)
            if not base or not re.match(r"[A-Za-z0-9.]", base[0]):
                base = "n" + base
        name = base
        k = 1
        while name in self.used:
            name = f"{base}_{k}"
            k += 1
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
                for k, r in enumerate(iop.results):
                    self.value_names[op.results[k]] = (node_name, iop, k)
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
        return G.tensor_name(node_name, k)

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
        from mlir import ir
        name = op.operation.name
        attrs = {}
        device = ""
        dotted = []
        all_attrs = op_attributes(op, self.x.is_registered(name))
        self.current_attrs = all_attrs
        for key, a in all_attrs.items():
            if key == "device":
                device = a.value if isinstance(a, ir.StringAttr) else ""
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
            for key in src.attributes:
                if key not in attrs and key != "device" and key not in _DROP_ATTRS:
                    attrs[key] = (src.attributes[key], key)
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
            ctl = [v for v in island.operands]
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
            av[key] = attr_to_proto(a, where)
        for key, a in dotted:
            base, _, sub = key.partition(".")
            if base in av and av[base].which("value") == "func":
                av[base].func.attr[sub] = attr_to_proto(a, where)
            else:
                av[key] = attr_to_proto(a, where)
        operand_types = [v.type for v in data]
        self.derive_attrs(opdef, av, operand_types, result_types, op, tf_op)
        if not opdef.is_function:
            known = {a[0] for a in opdef.attrs}
            for key in list(av):
                if key not in known and not key.startswith("_"):
                    del av[key]
        inputs = [self.input_string(v, op) for v in data] + self.control_inputs(ctl, op)
        return G.NDef(node_name, tf_op, inputs, device, av).to_proto()

    def derive_attrs(self, opdef, av, operand_types, result_types, op, tf_op):
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
        self._derive_from_args(opdef.inputs, operand_types, av, op, "operand")
        self._derive_from_args(opdef.outputs, result_types, av, op, "result")
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

    def _derive_from_args(self, args, types, av, op, what):
        # Sizes of the argument groups.
        fixed = {}
        unknown = []
        for a in args:
            if a.type_list_attr:
                if a.type_list_attr in av:
                    fixed[a.name] = len(av[a.type_list_attr].list._values.get("type", ()))
                else:
                    unknown.append(a)
            elif a.number_attr:
                if a.number_attr in av:
                    fixed[a.name] = av[a.number_attr].i
                else:
                    unknown.append(a)
            else:
                fixed[a.name] = 1
        total = len(types)
        rest = total - sum(fixed.values())
        if unknown:
            keys = {a.number_attr or a.type_list_attr for a in unknown}
            if len(unknown) == 1 or (len(keys) == 1 and all(a.number_attr for a in unknown)):
                if rest < 0 or rest % len(unknown):
                    raise self.err(f"cannot split {total} {what}s over the op's arguments", op)
                for a in unknown:
                    fixed[a.name] = rest // len(unknown)
            else:
                raise self.err(f"cannot infer the sizes of several variadic {what} groups", op)
        pos = 0
        for a in args:
            n = fixed[a.name]
            group = types[pos:pos + n]
            pos += n
            dts = [_tensor_info(t)[0] for t in group]
            if a.number_attr and a.number_attr not in av:
                av[a.number_attr] = pb.Message("AttrValue", i=n)
            if a.type_list_attr and a.type_list_attr not in av:
                av[a.type_list_attr] = pb.Message(
                    "AttrValue", list=pb.Message("AttrValue.ListValue", type=[T.base_dtype(d) for d in dts]))
            if a.type_attr and a.type_attr not in av and dts:
                av[a.type_attr] = pb.Message("AttrValue", type=T.base_dtype(dts[0]))


class _GraphExporter(_FunctionExporter):
    """The main function: arguments -> Placeholders, results -> named outputs."""

    def setup_args(self):
        entry = self.func.attributes["tf.entry_function"] if "tf.entry_function" in self.func.attributes else None
        inputs, outputs = [], []
        if entry is not None:
            d = {na.name: na.attr for na in entry}
            if "inputs" in d and d["inputs"].value:
                inputs = d["inputs"].value.split(",")
            if "outputs" in d and d["outputs"].value:
                outputs = d["outputs"].value.split(",")
        self.output_names = outputs
        self.arg_names = {}
        placeholders = []
        for i, arg in enumerate(self.args):
            base = G.parse_tensor_name(inputs[i])[0] if i < len(inputs) else f"arg{i}"
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
            want_node, want_idx = G.parse_tensor_name(want)
            if G.tensor_name(want_node, want_idx) == src or (want_idx == 0 and want_node == src):
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
                for na in arg_attr_list[i]:
                    key = na.name
                    if key.startswith("tf.") and key != "tf.device":
                        attrs[key[3:]] = attr_to_proto(na.attr, f"argument {i} of @{self.fname}")
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
        for na in self.func.attributes:
            key = na if isinstance(na, str) else na.name
            a = self.func.attributes[key]
            if key == "tf.signature.is_stateful":
                sig.is_stateful = True
            elif key == "tf.gradient":
                gradient = str(a)[1:].strip('"')
            elif key.startswith("tf.") and key not in ("tf.entry_function",):
                fattrs[key[3:]] = attr_to_proto(a, f"@{self.fname}")
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

    def is_registered(self, op_name):
        r = self._registered.get(op_name)
        if r is None:
            r = self._registered[op_name] = self.module.context.is_registered_operation(op_name)
        return r

    def lookup(self, op_type):
        if op_type in self.funcs:
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
        main = self.main_name(function_name)
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
        attrs = self.module.operation.attributes
        producer, min_consumer = opdb.graph_def_version()
        bad = []
        if "tf.versions" in attrs:
            d = {na.name: na.attr for na in attrs["tf.versions"]}
            producer = int(d["producer"].value) if "producer" in d else producer
            min_consumer = int(d["min_consumer"].value) if "min_consumer" in d else 0
            bad = [int(x.value) for x in d["bad_consumers"]] if "bad_consumers" in d else []
        v = pb.Message("VersionDef", producer=producer, min_consumer=min_consumer)
        if bad:
            v.bad_consumers = bad
        return v


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


def export_graph_def(module, *, function_name=None):
    """The GraphDef (a :class:`tfmlir.importers.protobuf.Message`) of an MLIR module."""
    return Exporter(prepare(module)).export(function_name)
