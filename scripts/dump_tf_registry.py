"""Snapshots TensorFlow's op registry into third_party/tensorflow/ (needs TensorFlow).

Regeneration command (TensorFlow 2.21 installed):

    python scripts/dump_tf_registry.py

Writes, sorted and stable:
  op_registry.json  every OpDef of TF_GetAllOpList (inputs, outputs, attrs with
                    defaults/minimums/allowed values, statefulness, commutative,
                    aggregate) with summary, description and the tf.raw_ops doc;
                    plus the ops that have an XLA_CPU_JIT kernel.
  tf_ods_ops.json   facts about the ops TensorFlow itself defines in ODS, read
                    from the C++ headers its wheel ships (tf_*.h.inc): op name,
                    stored (property) attributes with their C++ storage types,
                    derived attribute names, whether operand/result
                    segment sizes are stored, and the op classes' traits
                    and interfaces (effects, speculatability, resource
                    allocation/instances, regions, calls, type inference).
Building tfmlir does not need TensorFlow: it reads these snapshots.
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_DIR = os.path.join(HERE, "..", "third_party", "tensorflow")


def _scrub_paths(doc):
    """TF's docs show example `file:///tmp/...` URLs; keep machine paths out of the snapshot."""
    return re.sub(r"file:///tmp/", "file:///<dump_root>/", doc)


def _attr_value(value):
    """AttrValue proto -> JSON (kind, value)."""
    from tensorflow.core.framework import types_pb2

    kind = value.WhichOneof("value")
    if kind is None:
        return None
    if kind == "list":
        lst = value.list
        for field in ("s", "i", "f", "b", "type", "shape", "tensor", "func"):
            items = list(getattr(lst, field))
            if items:
                return {"list": field, "value": [_scalar(field, x) for x in items]}
        return {"list": "empty", "value": []}
    return {"kind": kind, "value": _scalar(kind, getattr(value, kind))}


def _scalar(kind, x):
    from tensorflow.core.framework import types_pb2

    if kind == "s":
        return x.decode("utf-8", "backslashreplace")
    if kind == "type":
        return types_pb2.DataType.Name(x)
    if kind == "shape":
        if x.unknown_rank:
            return None
        return [d.size for d in x.dim]
    if kind in ("tensor", "func"):
        from google.protobuf import json_format
        return json_format.MessageToDict(x)
    if kind == "f":
        return float(x)
    return x


def dump_registry():
    import tensorflow as tf
    from tensorflow.core.framework import op_def_pb2, types_pb2
    from tensorflow.python.client import pywrap_tf_session as c_api
    from tensorflow.python.framework import kernels

    # One XLA compile registers the XLA_CPU_JIT kernels.
    tf.function(lambda x: x + 1.0, jit_compile=True)(tf.ones([2]))

    buf = c_api.TF_GetAllOpList()
    op_list = op_def_pb2.OpList()
    op_list.ParseFromString(c_api.TF_GetBuffer(buf))

    def arg(a):
        return {
            "name": a.name,
            "type": types_pb2.DataType.Name(a.type) if a.type else None,
            "type_attr": a.type_attr or None,
            "number_attr": a.number_attr or None,
            "type_list_attr": a.type_list_attr or None,
            "is_ref": a.is_ref,
        }

    ops = []
    xla_cpu = []
    for op in sorted(op_list.op, key=lambda o: o.name):
        attrs = []
        for a in op.attr:
            entry = {"name": a.name, "type": a.type}
            if a.HasField("default_value"):
                entry["default"] = _attr_value(a.default_value)
            if a.has_minimum:
                entry["minimum"] = a.minimum
            if a.HasField("allowed_values"):
                entry["allowed"] = _attr_value(a.allowed_values)
            attrs.append(entry)
        raw = getattr(tf.raw_ops, op.name, None)
        ops.append({
            "name": op.name,
            "inputs": [arg(a) for a in op.input_arg],
            "outputs": [arg(a) for a in op.output_arg],
            "control_outputs": list(op.control_output),
            "attrs": attrs,
            "is_stateful": op.is_stateful,
            "is_commutative": op.is_commutative,
            "is_aggregate": op.is_aggregate,
            "summary": op.summary,
            "description": op.description,
            "doc": _scrub_paths((raw.__doc__ or "") if raw is not None else ""),
            "deprecated": op.deprecation.explanation if op.HasField("deprecation") else None,
        })
        try:
            found = kernels.get_registered_kernels_for_op(op.name)
        except Exception:
            continue
        if any(k.device_type == "XLA_CPU_JIT" for k in found.kernel):
            xla_cpu.append(op.name)
    return {"tensorflow_version": tf.__version__, "ops": ops, "xla_cpu_jit_ops": sorted(xla_cpu)}


_HEADERS = ("tf_ops_a_m.h.inc", "tf_ops_n_z.h.inc", "tf_remaining_ops.h.inc", "tf_all_ops.h.inc")


def dump_ods_facts():
    import tensorflow as tf

    root = os.path.join(os.path.dirname(tf.__file__), "include", "tensorflow", "compiler", "mlir",
                        "tensorflow", "ir")
    facts = {}
    for header in _HEADERS:
        path = os.path.join(root, header)
        if not os.path.exists(path):
            continue
        text = open(path).read()
        for m in re.finditer(r"class (\w+)GenericAdaptorBase \{(.*?)\n\};", text, re.S):
            cls, body = m.group(1), m.group(2)
            name = re.search(r'odsOpName.emplace\("([^"]+)"', body)
            if not name or not name.group(1).startswith("tf."):
                continue
            props = re.findall(r"using (\w+)Ty = ([^;]+);", body)
            op = re.search(r"class %s : public ::mlir::Op<%s,(.*?)> \{(.*?)\n\};" % (cls, cls), text, re.S)
            traits = op.group(1) if op else ""
            all_names = []
            if op:
                names = re.search(r"static ::llvm::StringRef attrNames\[\] = \{(.*?)\};", op.group(2))
                if names:
                    all_names = re.findall(r'StringRef\("([^"]+)"\)', names.group(1))
            stored = {n: t.strip() for n, t in props}
            operands, results = [], []
            if op:
                for acc in re.finditer(
                        r"get(\w+)\(\) \{\s*\n\s*return [^;\n]*?getODS(Operands|Results)\((\d+)\)(\.begin\(\))?",
                        op.group(2)):
                    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", acc.group(1)).lower()
                    (operands if acc.group(2) == "Operands" else results).append(
                        {"name": snake, "index": int(acc.group(3)), "variadic": acc.group(4) is None})
            facts[name.group(1)] = {
                "class": cls,
                "stored": stored,
                "derived": sorted(n for n in all_names if n not in stored),
                "operands": sorted(operands, key=lambda a: a["index"]),
                "results": sorted(results, key=lambda a: a["index"]),
                "attr_sized_operands": "AttrSizedOperandSegments" in traits,
                "attr_sized_results": "AttrSizedResultSegments" in traits,
                "same_variadic_operands": "SameVariadicOperandSize" in traits,
                "same_variadic_results": "SameVariadicResultSize" in traits,
                "pure": "AlwaysSpeculatableImplTrait" in traits and "MemoryEffectOpInterface" in traits,
                "traits": {
                    "memory_interface": "MemoryEffectOpInterface::Trait" in traits,
                    "speculatable": "AlwaysSpeculatableImplTrait" in traits,
                    "allocator": "ResourceHandleAllocatorInterface::Trait" in traits,
                    "unique_allocation": "UniqueResourceAllocation" in traits,
                    "resource_instance": "GetResourceInstanceInterface::Trait" in traits,
                    "regions": "ZeroRegions" not in traits,
                    "terminator": "IsTerminator" in traits,
                    "call": "CallOpInterface::Trait" in traits,
                    "infers_types": "InferTypeOpInterface::Trait" in traits,
                    "same_element_type": "SameOperandsAndResultElementTypeResolveRef" in traits,
                    # TF's own traits read by its inliner (CanDuplicate) and
                    # constant-folding hook (CanBeFolded).
                    "cannot_duplicate": "TF::CannotDuplicate" in traits,
                    "no_constant_fold": "TF::NoConstantFold" in traits,
                    # TF's folding traits: f(f(x)) -> f(x) and f(f(x)) -> x.
                    "idempotent": "TF::IsIdempotent" in traits,
                    "involution": "TF::IsInvolution" in traits,
                },
                "commutative": "IsCommutative" in traits,
            }
    return {"tensorflow_version": tf.__version__, "ops": dict(sorted(facts.items()))}


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    registry = dump_registry()
    with open(os.path.join(OUT_DIR, "op_registry.json"), "w") as f:
        json.dump(registry, f, indent=1, sort_keys=True)
        f.write("\n")
    facts = dump_ods_facts()
    with open(os.path.join(OUT_DIR, "tf_ods_ops.json"), "w") as f:
        json.dump(facts, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"{len(registry['ops'])} ops, {len(registry['xla_cpu_jit_ops'])} with XLA_CPU_JIT kernels, "
          f"{len(facts['ops'])} defined in TF's ODS", file=sys.stderr)


if __name__ == "__main__":
    main()
