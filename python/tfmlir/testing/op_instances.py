"""Valid generic-form instances of TensorFlow ops, built from the registry snapshot.

One instance per op: operands and results as unranked tensors of an allowed
element type, every stored (property) attribute given a valid value, variadic
groups of one element (or the OpDef minimum). The same instance is meant to be
accepted by TensorFlow's own verifier and by tfmlir's, so that the two can be
compared on it (side-effect probes, DCE, the op set tests).

:func:`build_instance` makes a first guess from the OpDef and TF's ODS facts
(``third_party/tensorflow/op_registry.json`` / ``tf_ods_ops.json``);
:func:`repair` refines an instance from the verifier's error message (e.g.
"operand #1 must be ... of resource values") -- the snapshot does not record
TF's ODS type constraints, so the verifier is asked. An :class:`OpInstance`
serializes to JSON (``to_json``/``from_json``), and :meth:`OpInstance.text`
prints it with given operand names.
"""
import json
import re

from ..tfcore.tf_types import DTYPE_BY_NAME, element_type, shape_attr, tensor_type

# Element types tried for an unconstrained type attribute, in order.
_PREFERRED = ("DT_FLOAT", "DT_INT32", "DT_INT64", "DT_BOOL", "DT_STRING", "DT_RESOURCE",
              "DT_VARIANT")

SEGMENT_ATTRS = ("operandSegmentSizes", "resultSegmentSizes")


def _elem(dtype_name):
    return element_type(DTYPE_BY_NAME[dtype_name])


def unranked(elem):
    return tensor_type(elem, None)


class OpInstance:
    """One op: name, operand types, result types, properties (name -> text)."""

    def __init__(self, name, operands, results, properties, operand_segments=None,
                 result_segments=None, operand_groups=None, result_groups=None):
        self.name = name
        # Sizes of the ODS operand/result groups the flat lists fill.
        self.operand_groups = operand_groups
        self.result_groups = result_groups
        self.operands = list(operands)
        self.results = list(results)
        self.properties = dict(properties)
        self.operand_segments = operand_segments
        self.result_segments = result_segments

    def to_json(self):
        return {"operands": self.operands, "results": self.results,
                "properties": self.properties, "operand_segments": self.operand_segments,
                "result_segments": self.result_segments,
                "operand_groups": self.operand_groups, "result_groups": self.result_groups}

    @classmethod
    def from_json(cls, name, data):
        return cls(name, data["operands"], data["results"], data["properties"],
                   data.get("operand_segments"), data.get("result_segments"),
                   data.get("operand_groups"), data.get("result_groups"))

    def copy(self):
        return OpInstance.from_json(self.name, json.loads(json.dumps(self.to_json())))

    def properties_text(self, overrides=None):
        props = dict(self.properties)
        props.update(overrides or {})
        if self.operand_segments is not None:
            props["operandSegmentSizes"] = "array<i32: " + ", ".join(map(str, self.operand_segments)) + ">"
        if self.result_segments is not None:
            props["resultSegmentSizes"] = "array<i32: " + ", ".join(map(str, self.result_segments)) + ">"
        if not props:
            return ""
        return " <{" + ", ".join(f"{k} = {v}" for k, v in sorted(props.items())) + "}>"

    def text(self, operand_names, result_names=None, overrides=None, attributes=None):
        """The op in generic form. `operand_names`: SSA names (with %)."""
        assert len(operand_names) == len(self.operands)
        lhs = ""
        if self.results:
            if result_names is None:
                raise ValueError("result names needed")
            lhs = ", ".join(result_names) + " = "
        attrs = ""
        if attributes:
            attrs = " {" + ", ".join(f"{k} = {v}" for k, v in sorted(attributes.items())) + "}"
        return (f'{lhs}"{self.name}"({", ".join(operand_names)})'
                f"{self.properties_text(overrides)}{attrs} : "
                f"({', '.join(self.operands)}) -> ({', '.join(self.results)})")


def _attr_value_text(attr, kind, stored_type, symbol):
    """A valid value for a stored attribute (text), from the OpDef attr."""
    default = attr.get("default") if attr else None
    minimum = attr.get("minimum", 0) if attr else 0
    if stored_type == "::mlir::UnitAttr":
        return "unit"
    if stored_type in ("::mlir::SymbolRefAttr", "::mlir::FlatSymbolRefAttr") or kind == "func":
        return "@" + symbol
    if kind == "list(func)":
        return "[@" + symbol + "]"
    if kind is None and stored_type == "::mlir::ArrayAttr":
        return "[]"
    if kind is None and stored_type == "::mlir::Attribute":
        return shape_attr(None)
    if stored_type == "::mlir::ElementsAttr" or kind == "tensor":
        return "dense<0.000000e+00> : tensor<f32>"
    if stored_type == "::mlir::TypeAttr" or kind == "type":
        if default and default.get("kind") == "type":
            return _elem(default["value"])
        allowed = (attr or {}).get("allowed") or {}
        values = allowed.get("value") if allowed.get("list") == "type" else None
        for name in _PREFERRED:
            if not values or name in values:
                return _elem(name)
        return _elem(values[0])
    if kind == "int" or stored_type == "::mlir::IntegerAttr":
        value = default["value"] if default and default.get("kind") == "i" else max(minimum, 1)
        return f"{int(value)} : i64"
    if kind == "float" or stored_type == "::mlir::FloatAttr":
        value = default["value"] if default and default.get("kind") == "f" else 0.0
        text = repr(float(value))
        if text in ("inf", "-inf", "nan"):
            text = "0.0"
        return f"{text} : f32"
    if kind == "bool" or stored_type == "::mlir::BoolAttr":
        value = default["value"] if default and default.get("kind") == "b" else False
        return "true" if value else "false"
    if kind == "string" or stored_type == "::mlir::StringAttr":
        allowed = (attr or {}).get("allowed") or {}
        if default and default.get("kind") == "s":
            value = default["value"]
        elif allowed.get("list") == "s" and allowed.get("value"):
            value = allowed["value"][0]
        else:
            value = "probe"
        return json.dumps(value)
    if kind == "shape":
        return shape_attr(None)
    if kind and kind.startswith("list("):
        count = max(minimum, 0)
        if default and "list" in default and default["value"]:
            values = default["value"]
            item = kind[5:-1]
            return "[" + ", ".join(_list_item_text(item, v) for v in values) + "]"
        item = kind[5:-1]
        filler = {"int": "1 : i64", "float": "0.0 : f32", "string": '"probe"', "bool": "false",
                  "type": "f32", "shape": shape_attr(None)}.get(item, "1 : i64")
        return "[" + ", ".join([filler] * count) + "]"
    return "unit"


def _list_item_text(item, value):
    if item == "int":
        return f"{int(value)} : i64"
    if item == "float":
        return f"{float(value)!r} : f32"
    if item == "string":
        return json.dumps(value)
    if item == "bool":
        return "true" if value else "false"
    if item == "type":
        return _elem(value)
    if item == "shape":
        return shape_attr(value)
    return str(value)


def build_instance(name, opdef, facts, symbol="probe_fn"):
    """First guess at a valid instance of tf op `name` ("tf.X").

    `opdef`: the op's registry entry (or None), `facts`: TF's ODS facts (or
    None for ops TF leaves unregistered). Function-valued attributes name
    `symbol`.
    """
    attrs = {a["name"]: a for a in (opdef or {}).get("attrs", [])}
    type_choice = {}
    counts = {}

    def dtype_for_attr(attr_name):
        if attr_name not in type_choice:
            allowed = (attrs.get(attr_name) or {}).get("allowed") or {}
            values = allowed.get("value") if allowed.get("list") == "type" else None
            choice = None
            for pref in _PREFERRED:
                if not values or pref in values:
                    choice = pref
                    break
            type_choice[attr_name] = choice or values[0]
        return type_choice[attr_name]

    def count_for(attr_name):
        if attr_name not in counts:
            counts[attr_name] = max(int((attrs.get(attr_name) or {}).get("minimum", 1) or 1), 1)
        return counts[attr_name]

    def group_types(arg):
        if arg is None:
            return [unranked("f32")]
        if arg.get("type_list_attr"):
            return [unranked("f32")] * count_for(arg["type_list_attr"])
        if arg.get("type"):
            elem = _elem(arg["type"])
        elif arg.get("type_attr"):
            elem = _elem(dtype_for_attr(arg["type_attr"]))
        else:
            elem = "f32"
        n = count_for(arg["number_attr"]) if arg.get("number_attr") else 1
        return [unranked(elem)] * n

    def groups(kind):
        opdef_args = (opdef or {}).get("inputs" if kind == "operands" else "outputs", [])
        ods_args = (facts or {}).get(kind)
        if facts is None or not ods_args or len(ods_args) != len(opdef_args):
            ods_args = [{"variadic": bool(a.get("number_attr") or a.get("type_list_attr"))}
                        for a in opdef_args] if opdef_args or facts is None else ods_args
        out = []
        for k, ods in enumerate(ods_args):
            arg = opdef_args[k] if k < len(opdef_args) else None
            types = group_types(arg)
            if not ods.get("variadic"):
                types = types[:1]
            out.append(types)
        return out

    operand_groups = groups("operands")
    result_groups = groups("results")
    stored = (facts or {}).get("stored", {})
    if any(t in ("::mlir::SymbolRefAttr", "::mlir::FlatSymbolRefAttr") for t in stored.values()):
        # Ops calling functions: empty variadic groups, so that a function
        # `() -> ()` has the signature the call needs.
        variadic = [bool(a.get("variadic")) for a in (facts or {}).get("operands", [])]
        operand_groups = [[] if k < len(variadic) and variadic[k] else g
                          for k, g in enumerate(operand_groups)]
        variadic = [bool(a.get("variadic")) for a in (facts or {}).get("results", [])]
        result_groups = [[] if k < len(variadic) and variadic[k] else g
                         for k, g in enumerate(result_groups)]
    operand_segments = result_segments = None
    if "operandSegmentSizes" in stored:
        operand_segments = [len(g) for g in operand_groups]
    if "resultSegmentSizes" in stored:
        result_segments = [len(g) for g in result_groups]
    properties = {}
    for attr_name, cpp_type in stored.items():
        if attr_name in SEGMENT_ATTRS:
            continue
        attr = attrs.get(attr_name)
        if cpp_type == "::mlir::UnitAttr" or cpp_type.startswith("std::"):
            continue
        properties[attr_name] = _attr_value_text(attr, attr["type"] if attr else None, cpp_type,
                                                 symbol)
    return OpInstance(name, [t for g in operand_groups for t in g],
                      [t for g in result_groups for t in g], properties, operand_segments,
                      result_segments, [len(g) for g in operand_groups],
                      [len(g) for g in result_groups])


# Verifier phrases -> element type of a replacement.
_TYPE_WORDS = (
    ("resource", "!tf_type.resource"), ("variant", "!tf_type.variant"),
    ("string", "!tf_type.string"), ("bool", "i1"), ("1-bit signless integer", "i1"),
    ("32-bit float", "f32"), ("32-bit signless integer", "i32"), ("64-bit signless integer", "i64"),
    ("32/64-bit signed integer", "i32"), ("64-bit integer", "i64"), ("64-bit unsigned integer", "ui64"),
    ("32-bit unsigned integer", "ui32"), ("32-bit integer", "i32"), ("64-bit float", "f64"), ("16-bit float", "f16"),
    ("8-bit unsigned integer", "ui8"), ("8-bit signless integer", "i8"),
    ("bfloat16", "bf16"), ("complex", "complex<f32>"), ("integer", "i32"), ("float", "f32"),
    ("tf.dtype", "f32"), ("number", "f32"),
)


def _first_type_word(text):
    best = None
    for word, elem in _TYPE_WORDS:
        pos = text.find(word)
        if pos >= 0 and (best is None or pos < best[0]):
            best = (pos, elem)
    return best[1] if best else None


def repair(instance, error):
    """A new instance fixing what `error` (TF's verifier message) complains
    about, or None when the message is not understood."""
    m = re.search(r"(operand|result) #(\d+) must be (.*?)(, but got|$)", error, re.M)
    if m:
        elem = _first_type_word(m.group(3))
        if elem is None:
            return None
        fixed = instance.copy()
        seq = fixed.operands if m.group(1) == "operand" else fixed.results
        index = int(m.group(2))
        if index >= len(seq):
            return None
        new = unranked(elem)
        if "0D tensor" in m.group(3) or "scalar" in m.group(3):
            new = f"tensor<{elem}>"
        if seq[index] == new:
            return None
        seq[index] = new
        return fixed
    m = re.search(r"must have exactly one subtype in the (result|operand) (variant|resource) type", error)
    if m:
        fixed = instance.copy()
        seq = fixed.results if m.group(1) == "result" else fixed.operands
        old = f"tensor<*x!tf_type.{m.group(2)}>"
        new = f"tensor<*x!tf_type.{m.group(2)}<tensor<*xf32>>>"
        if old not in seq:
            return None
        seq[seq.index(old)] = new
        return fixed
    m = re.search(r"requires (\w+) attribute length to be (\d+)", error)
    if m and m.group(1) in instance.properties:
        fixed = instance.copy()
        fixed.properties[m.group(1)] = "[" + ", ".join(["1 : i64"] * int(m.group(2))) + "]"
        return fixed
    m = re.search(r"attribute '(\w+)' failed to satisfy constraint: string attribute whose value "
                  r"is (\w+)", error)
    if m and m.group(1) in instance.properties:
        fixed = instance.copy()
        if fixed.properties[m.group(1)] == json.dumps(m.group(2)):
            return None
        fixed.properties[m.group(1)] = json.dumps(m.group(2))
        return fixed
    m = re.search(r"requires attribute '(\w+)'", error)
    if m:
        fixed = instance.copy()
        if m.group(1) in fixed.properties:
            return None
        fixed.properties[m.group(1)] = '"probe"'
        return fixed
    return None
