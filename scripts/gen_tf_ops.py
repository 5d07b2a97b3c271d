"""Generates ODS definitions of TensorFlow's ops from the registry snapshot.

Regeneration command (no TensorFlow needed; reads third_party/tensorflow/):

    python scripts/gen_tf_ops.py

Inputs:  third_party/tensorflow/op_registry.json (OpDefs, docs) and
         third_party/tensorflow/tf_ods_ops.json (which attributes TF's own ODS
         stores vs derives, segment-size traits).
Outputs: td/generated/TfGenOps<NN>.td (about 100 ops each, one C++ translation
         unit each), td/generated/shards.cmake (the shard list for CMake) and
         td/generated/TfGenOpsAll.td (all shards, for the Python bindings).

Conventions (TF's):
- Ops TF 2.21 defines in ODS store exactly TF's stored attributes (printed in
  `<{...}>`) and derive exactly TF's derived ones, so TF's printed IR parses and
  prints back identically.
- Other registry ops (TF prints them as unregistered ops, attributes in
  `{...}`): attributes that are inferable from operand/result types (type,
  list(type) and number attrs) are derived; the rest stay in the discardable
  dictionary and are checked by a generated verifier (kind, allowed values,
  minimum; required when the OpDef has no default).
- Operand/result constraints come from the allowed types; is_commutative ->
  Commutative.
- Side effects of the ops TF defines in ODS: what TF 2.21 was observed to do
  (third_party/tensorflow/tf_op_effects.json, scripts/dump_tf_effects.py):
  reads/writes of resource operands, allocations of resource results,
  op-based resources (one C++ resource kind per class of ops TF orders
  together, td/generated/TfEffects.td + cpp/include/tfmlir/TfResourceKinds.h.inc),
  MustExecute, Pure / NoMemoryEffect, or no MemoryEffectOpInterface (unknown
  effects). Other registry ops: Pure unless is_stateful (TF's fallback).
  The same model is written to python/tfmlir/passes/generated/tf_op_effects.py
  for the Python side-effect analysis.
- Hand-written definitions (td/TfOps.td) take precedence.
"""
import json
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
REGISTRY = os.path.join(ROOT, "third_party", "tensorflow", "op_registry.json")
ODS_FACTS = os.path.join(ROOT, "third_party", "tensorflow", "tf_ods_ops.json")
EFFECTS = os.path.join(ROOT, "third_party", "tensorflow", "tf_op_effects.json")
EFFECTS_PY = os.path.join(ROOT, "python", "tfmlir", "passes", "generated", "tf_op_effects.py")
KINDS_H = os.path.join(ROOT, "cpp", "include", "tfmlir", "TfResourceKinds.h.inc")
STATELESS_H = os.path.join(ROOT, "cpp", "include", "tfmlir", "TfRegistryStateless.h.inc")
FOLD_TRAITS_H = os.path.join(ROOT, "cpp", "include", "tfmlir", "TfFoldTraits.h.inc")
OUT_DIR = os.path.join(ROOT, "td", "generated")
HAND_WRITTEN_TD = os.path.join(ROOT, "td", "TfOps.td")
SHARD_SIZE = 100

# Hand-written semantics of generated ops live in C++, keyed by op name:
# every op TF defines in ODS gets a verify(), fold() (single result) and
# getCanonicalizationPatterns() that call tfmlir::TF::verifyTfOp / foldTfOp /
# populateTfOpPatterns (tables in cpp/lib/TfVerifiers.cpp, TfFolders.cpp,
# TfCanonicalize.cpp), so adding one recompiles only the hand-written file.
# Generated here:
# INFERENCE: LogicalResult fn(MLIRContext *, std::optional<Location>,
#            ValueRange operands, AttrGetter, SmallVectorImpl<Type> &), result
#            types (InferTypeOpInterface; cpp/lib/TfInference.cpp).
# Ops whose result type is their first operand's (TF's ODS infers these too).
SAME_TYPE_AS_FIRST_OPERAND = (
    "Abs", "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "BesselI0e", "BesselI1e",
    "Ceil", "CheckNumerics", "CollectiveReduce", "Conj", "Cos", "Cosh", "Cross",
    "DataFormatDimMap", "DataFormatVecPermute", "DebugIdentity", "Digamma", "Elu", "EluGrad", "Erf",
    "Erfc", "Exp", "Expm1", "FakeQuantWithMinMaxArgs", "FakeQuantWithMinMaxArgsGradient", "Floor",
    "Inv", "Invert", "LeakyRelu", "LeakyReluGrad", "Lgamma", "Log", "Log1p", "LogSoftmax",
    "LogicalNot", "NcclAllReduce", "Neg", "OnesLike", "PreventGradient", "QuantizeAndDequantize",
    "RandomShuffle", "Reciprocal", "ReciprocalGrad", "Relu", "Relu6", "Relu6Grad", "ReluGrad", "Rint",
    "Round", "Rsqrt", "RsqrtGrad", "Selu", "SeluGrad", "Sigmoid", "SigmoidGrad", "Sign", "Sin", "Sinh",
    "Snapshot", "Softmax", "Softplus", "SoftplusGrad", "Softsign", "SoftsignGrad", "Sqrt", "SqrtGrad",
    "Square", "StringStrip", "Tan", "Tanh", "TanhGrad", "XlaSetDynamicDimensionSize",
    "ZerosLike", "_UnaryOpsComposition")

# Root ops of the DRR canonicalization patterns (td/TfCanonicalize.td): their
# shards' class declarations are included by cpp/lib/TfCanonicalize.cpp.
PATTERNS = ("AddV2", "LogicalNot", "Neg", "RealDiv", "Reshape", "Sub", "Transpose")
# Ops the patterns create without being the root of one: their classes are
# needed too (td/CMakeLists.txt's TfPatternOps.h).
PATTERN_RESULT_OPS = ("Mul", "Reciprocal", "Rsqrt", "Sqrt")

# Result type inference only where TensorFlow's dialect has it (its ODS facts say
# InferTypeOpInterface): the shape functions themselves live once, in Python
# (tfmlir.shapes); this interface is TF's verifier-level contract.
INFERENCE = {n: "inferSameTypeAsFirstOperand" for n in SAME_TYPE_AS_FIRST_OPERAND}
INFERENCE.update({n: f"infer{n}Op" for n in ("Conv2D", "ToBool")})

# How an inferring op's declared result type must relate to the inferred one
# (its isCompatibleReturnTypes), from TF's own traits (tf_ods_ops.json): ops TF
# also infers (InferTypeOpInterface) keep cast-compatible types; for the others
# TF has no inference, so any declared type goes, except that ops with TF's
# SameOperandsAndResultElementTypeResolveRef trait keep the element type.
def return_types_check(facts):
    traits = (facts or {}).get("traits", {})
    if traits.get("infers_types") or not traits:
        return "areCompatibleReturnTypes"
    if traits.get("same_element_type"):
        return "areElementCompatibleReturnTypes"
    return "areAnyReturnTypes"


HEADER = "// Generated by scripts/gen_tf_ops.py from third_party/tensorflow; do not edit.\n"

# TensorFlow DataType enum values (types.proto).
DTYPES = {
    "DT_FLOAT": 1, "DT_DOUBLE": 2, "DT_INT32": 3, "DT_UINT8": 4, "DT_INT16": 5, "DT_INT8": 6,
    "DT_STRING": 7, "DT_COMPLEX64": 8, "DT_INT64": 9, "DT_BOOL": 10, "DT_QINT8": 11,
    "DT_QUINT8": 12, "DT_QINT32": 13, "DT_BFLOAT16": 14, "DT_QINT16": 15, "DT_QUINT16": 16,
    "DT_UINT16": 17, "DT_COMPLEX128": 18, "DT_HALF": 19, "DT_RESOURCE": 20, "DT_VARIANT": 21,
    "DT_UINT32": 22, "DT_UINT64": 23, "DT_FLOAT8_E5M2": 24, "DT_FLOAT8_E4M3FN": 25,
    "DT_FLOAT8_E4M3FNUZ": 26, "DT_FLOAT8_E4M3B11FNUZ": 27, "DT_FLOAT8_E5M2FNUZ": 28,
    "DT_INT4": 29, "DT_UINT4": 30, "DT_INT2": 31, "DT_UINT2": 32,
}
ALL_MASK = (1 << 64) - 1

RESERVED = {"attributes", "operands", "results", "regions", "type", "location", "context",
            "name", "operation", "parent", "result", "value", "properties", "loc", "ip",
            "default", "operator", "class", "register", "template", "new", "delete", "union",
            "struct", "namespace", "int", "float", "bool", "char", "auto", "return", "if",
            "else", "for", "while", "do", "switch", "case", "const", "static", "this",
            "body", "op"}


def camel(name):
    return "".join(p[:1].upper() + p[1:] for p in re.split(r"_", name) if p) or name


def td_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def td_block(text):
    return text.replace("}]", "} ]").replace("[{", "[ {")


def dtype_mask(names):
    mask = 0
    for n in names:
        if n in DTYPES:
            mask |= 1 << DTYPES[n]
        else:
            return ALL_MASK
    return mask


def short_dtype(n):
    return n[3:].lower()


# Value-based effects on resource operands (and allocations by handle ops):
# TF's analysis tells resources apart by alias analysis, not by kind.
VALUE_KIND = "Resource"


def kind_def(kind):
    return f"TF_{kind}Resource"


def resource_kinds(models):
    """Every resource kind the effect models use."""
    kinds = {VALUE_KIND, "MustExecute"}
    for m in models.values():
        if m["op_effect"]:
            kinds.update(m["op_effect"]["kinds"])
        kinds.update(k for k in m["results"].values() if k != "handle")
    return sorted(kinds)


def decorate(wrapper, constraint, effect):
    return f'{wrapper}<{constraint}, "", [{effect}]>' if effect else constraint


class OpGen:
    def __init__(self, opdef, facts, model=None):
        self.model = model
        self.op = opdef
        self.facts = facts  # TF's ODS facts, or None for ops TF leaves unregistered
        self.attrs = {a["name"]: a for a in opdef["attrs"]}
        # Accessor names already taken: every attribute's (stored, derived or
        # discardable) so that operands like `t` do not clash with attr `T`.
        self.used = {camel(a).lower() for a in self.attrs}
        if facts:
            self.used |= {camel(a).lower() for a in list(facts["stored"]) + list(facts["derived"])}

    # ---- names -------------------------------------------------------------
    def arg_name(self, name):
        base = name if name not in RESERVED else name + "_arg"
        candidate = base
        i = 1
        while camel(candidate).lower() in self.used:
            candidate = f"{base}{i}"
            i += 1
        self.used.add(camel(candidate).lower())
        return candidate

    # ---- operands / results --------------------------------------------------
    def arg_constraint(self, arg):
        if arg["type"]:
            names = [arg["type"]]
        elif arg["type_attr"]:
            allowed = self.attrs.get(arg["type_attr"], {}).get("allowed")
            names = allowed["value"] if allowed and allowed.get("list") == "type" else None
        else:
            names = None
        if not names:
            return "AnyTensor"
        mask = dtype_mask(names)
        if mask == ALL_MASK:
            return "AnyTensor"
        desc = ", ".join(short_dtype(n) for n in names)
        return f'TF_TensorOfDTypes<"0x{mask:x}", "{desc}">'

    @staticmethod
    def is_variadic(arg):
        return bool(arg["number_attr"] or arg["type_list_attr"])

    def groups(self, args, sized_flag, same_flag):
        """(list of (name, constraint, variadic), trait or None, collapsed)."""
        variadic = sum(1 for a in args if self.is_variadic(a))
        trait = None
        if variadic > 1:
            if self.facts and self.facts.get(sized_flag):
                trait = "AttrSizedOperandSegments" if "operand" in sized_flag else "AttrSizedResultSegments"
            elif self.facts and self.facts.get(same_flag):
                trait = "SameVariadicOperandSize" if "operand" in same_flag else "SameVariadicResultSize"
            elif len({a["number_attr"] for a in args if self.is_variadic(a)}) == 1 and all(
                    a["number_attr"] for a in args if self.is_variadic(a)):
                trait = "SameVariadicOperandSize" if "operand" in sized_flag else "SameVariadicResultSize"
            else:
                name = self.arg_name("inputs" if "operand" in sized_flag else "outputs")
                return [(name, "Variadic<AnyTensor>", True)], None, True
        out = []
        for a in args:
            c = self.arg_constraint(a)
            out.append((self.arg_name(a["name"]), f"Variadic<{c}>" if self.is_variadic(a) else c,
                        self.is_variadic(a)))
        return out, trait, False

    # ---- attributes ----------------------------------------------------------
    def inferable_attrs(self, collapsed_in, collapsed_out):
        """{attr name: derived-attr def} for attrs inferable from types."""
        derived = {}
        for kind, args, collapsed in (("Operand", self.op["inputs"], collapsed_in),
                                      ("Result", self.op["outputs"], collapsed_out)):
            if collapsed:
                continue
            for idx, a in enumerate(args):
                if a["type_attr"] and a["type_attr"] not in derived:
                    derived[a["type_attr"]] = f"TF_Derived{kind}GroupTypeAttr<{idx}>"
                if a["type_list_attr"] and a["type_list_attr"] not in derived:
                    derived[a["type_list_attr"]] = f"TF_Derived{kind}GroupTypeListAttr<{idx}>"
                if a["number_attr"] and a["number_attr"] not in derived:
                    derived[a["number_attr"]] = f"TF_Derived{kind}GroupSizeAttr<{idx}>"
        return derived

    def special_derived(self, name):
        # `T<group>` names the element types of an operand/result group
        # (e.g. Targs/Tresults), `T` the first operand's element type.
        for kind, args in (("Operand", self.op["inputs"]), ("Result", self.op["outputs"])):
            for idx, a in enumerate(args):
                if name == "T" + a["name"] or name == "T" + camel(a["name"]):
                    suffix = "TypeListAttr" if self.is_variadic(a) else "TypeAttr"
                    return f"TF_Derived{kind}Group{suffix}<{idx}>"
        if name == "T" and self.op["inputs"]:
            return "TF_DerivedOperandGroupTypeAttr<0>"
        if name in ("output_shapes", "shapes"):
            return "TF_DerivedResultShapeListAttr"
        if name == "shape":
            return "TF_DerivedResultShapeAttr"
        return "TF_DerivedSubtypeElementTypeAttr"

    def stored_attr(self, name, cpp_type):
        opdef_attr = self.attrs.get(name)
        kind = opdef_attr["type"] if opdef_attr else None
        base = {
            "::mlir::IntegerAttr": "I64Attr",
            "::mlir::StringAttr": "StrAttr",
            "::mlir::BoolAttr": "BoolAttr",
            "::mlir::FloatAttr": "F32Attr",
            "::mlir::SymbolRefAttr": "SymbolRefAttr",
            "::mlir::FlatSymbolRefAttr": "FlatSymbolRefAttr",
            "::mlir::TypeAttr": "TypeAttr",
            "::mlir::ElementsAttr": "ElementsAttr",
            "::mlir::UnitAttr": "UnitAttr",
            "::mlir::DictionaryAttr": "DictionaryAttr",
            "::mlir::Attribute": "TF_ShapeAttr" if kind in ("shape", None) else "AnyAttr",
        }.get(cpp_type)
        if cpp_type == "::mlir::ArrayAttr":
            base = {
                "list(int)": "I64ArrayAttr", "list(float)": "F32ArrayAttr",
                "list(string)": "StrArrayAttr", "list(type)": "TypeArrayAttr",
                "list(shape)": "TF_ShapeAttrArray", "list(func)": "SymbolRefArrayAttr",
                "list(bool)": "BoolArrayAttr",
            }.get(kind, "ArrayAttr")
        if base is None:
            return None
        if base == "UnitAttr":
            return base
        default = self.default_code(base, opdef_attr.get("default") if opdef_attr else None)
        if opdef_attr is None:
            attr = f"OptionalAttr<{base}>"
        elif default is not None:
            attr = f'DefaultValuedOptionalAttr<{base}, {td_string(default)}>'
        elif opdef_attr.get("default") is not None:
            attr = f"OptionalAttr<{base}>"
        else:
            attr = base
        if opdef_attr and "minimum" in opdef_attr and base == "I64Attr":
            attr = f"ConfinedAttr<{attr}, [IntMinValue<{opdef_attr['minimum']}>]>"
        return attr

    @staticmethod
    def default_code(base, default):
        if default is None:
            return None
        value = default.get("value")
        if "list" in default:
            if default["list"] == "empty" or not value:
                return "{}" if base in ("I64ArrayAttr", "F32ArrayAttr", "StrArrayAttr", "TypeArrayAttr") else None
            if base == "I64ArrayAttr":
                return "{" + ", ".join(str(int(v)) for v in value) + "}"
            if base == "F32ArrayAttr":
                return "{" + ", ".join(repr(float(v)) + "f" for v in value) + "}"
            if base == "StrArrayAttr":
                return "{" + ", ".join('"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"' for v in value) + "}"
            return None
        kind = default.get("kind")
        if base == "I64Attr" and kind == "i":
            return str(int(value))
        if base == "BoolAttr" and kind == "b":
            return "true" if value else "false"
        if base == "F32Attr" and kind == "f":
            text = repr(float(value))
            if text in ("inf", "-inf", "nan"):
                return None
            return text + "f"
        if base == "StrAttr" and kind == "s":
            return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
        return None

    def discardable_check(self, a, collapsed):
        """C++ statement verifying OpDef attribute `a` kept in the discardable dict."""
        kind = a["type"]
        required = a.get("default") is None and not collapsed
        allowed = a.get("allowed")
        allowed_strings = []
        if allowed and allowed.get("list") == "s":
            allowed_strings = allowed["value"]
        minimum = a.get("minimum")
        args = [f'"{a["name"]}"', f'"{kind}"', "true" if required else "false",
                str(int(minimum)) if minimum is not None else "std::nullopt"]
        strs = ", ".join(td_string(s) for s in allowed_strings)
        return f"  if (::mlir::failed(::tfmlir::TF::verifyOpDefAttr(*this, {', '.join(args)}, {{{strs}}}))) return ::mlir::failure();"

    # ---- whole op ------------------------------------------------------------
    def emit(self):
        op = self.op
        name = op["name"]
        if self.facts:
            # TF's own ODS names print as result names of multi-result ops.
            for key, args in (("operands", op["inputs"]), ("results", op["outputs"])):
                names = [a["name"] for a in self.facts.get(key, [])]
                if len(names) == len(args):
                    for arg, tf_name in zip(args, names):
                        arg["name"] = tf_name
        traits = []
        model = self.model
        operand_effects, result_effects = {}, {}
        if model is None:
            if not op["is_stateful"]:
                traits.append("Pure")
        elif not model["unknown"]:
            if model["pure"]:
                traits.append("Pure")
            else:
                op_level = []
                effect = model["op_effect"]
                if effect is not None:
                    mem = "MemRead" if effect["access"] == "read" else "MemWrite"
                    op_level.extend(f"{mem}<{kind_def(k)}>" for k in effect["kinds"])
                if model["must_execute"]:
                    op_level.append(f"MemWrite<{kind_def('MustExecute')}>")
                for group, access in model["operands"].items():
                    mem = "MemRead" if access == "read" else "MemWrite"
                    operand_effects[int(group)] = f"{mem}<{kind_def(VALUE_KIND)}>"
                for group, kind in model["results"].items():
                    kind = VALUE_KIND if kind == "handle" else kind
                    result_effects[int(group)] = f"MemAlloc<{kind_def(kind)}>"
                if op_level:
                    traits.append("MemoryEffects<[" + ", ".join(op_level) + "]>")
                elif not operand_effects and not result_effects:
                    traits.append("NoMemoryEffect")
        if op["is_commutative"]:
            traits.append("Commutative")
        facts_traits = (self.facts or {}).get("traits", {})
        if facts_traits.get("cannot_duplicate"):
            traits.append("TF_CannotDuplicate")
        if facts_traits.get("no_constant_fold"):
            traits.append("TF_NoConstantFold")
        operands, in_trait, in_collapsed = self.groups(op["inputs"], "attr_sized_operands", "same_variadic_operands")
        results, out_trait, out_collapsed = self.groups(op["outputs"], "attr_sized_results", "same_variadic_results")
        for t in (in_trait, out_trait):
            if t:
                traits.append(t)
        inferable = self.inferable_attrs(in_collapsed, out_collapsed)

        if self.facts is not None:
            stored = {n: t for n, t in self.facts["stored"].items()
                      if n not in ("operandSegmentSizes", "resultSegmentSizes")}
            derived_names = list(self.facts["derived"])
        else:
            stored = {}
            derived_names = [n for n in inferable if n in self.attrs]

        if (operand_effects and in_collapsed) or (result_effects and out_collapsed):
            # Groups merged into one: the effects apply to the whole op.
            merged = sorted(set(operand_effects.values()) | set(result_effects.values()))
            traits.append("MemoryEffects<[" + ", ".join(merged) + "]>")
            operand_effects, result_effects = {}, {}
        arg_lines = [f"    {decorate('Arg', c, operand_effects.get(k))}:${n}"
                     for k, (n, c, _) in enumerate(operands)]
        for attr_name in sorted(stored):
            attr = self.stored_attr(attr_name, stored[attr_name])
            if attr is None:
                return None, f"unsupported stored attribute type {stored[attr_name]} for {attr_name}"
            arg_lines.append(f"    {attr}:${attr_name}")

        derived_lines = []
        for d in derived_names:
            definition = inferable.get(d) or self.special_derived(d)
            base = definition.split("<")[0]
            field_type = {"TF_DerivedResultShapeListAttr": "DerivedAttr",
                          "TF_DerivedResultShapeAttr": "DerivedAttr",
                          "TF_DerivedSubtypeElementTypeAttr": "DerivedTypeAttr"}.get(base, base)
            derived_lines.append(f"  {field_type} {d} = {definition};")

        # OpDef attributes TF's own ODS neither stores nor derives are not
        # checked for ops TF defines in ODS: TF's verifier accepts them in any
        # form (or absent), so must ours.
        checks = [] if self.facts is not None else [
            self.discardable_check(self.attrs[n], in_collapsed or out_collapsed)
            for n in sorted(self.attrs) if n not in stored and n not in derived_names]

        summary = op["summary"] or name
        description = op["description"] or ""
        lines = [f'def TF_{name}Op : TF_Op<"{name}", [{", ".join(traits)}]> {{',
                 f"  let summary = {td_string(summary)};"]
        if description:
            lines.append(f"  let description = [{{\n{td_block(description)}\n  }}];")
        lines.append("  let arguments = (ins" + ("\n" + ",\n".join(arg_lines) if arg_lines else "") + "\n  );")
        if results:
            lines.append("  let results = (outs\n" + ",\n".join(
                f"    {decorate('Res', c, result_effects.get(k))}:${n}"
                for k, (n, c, _) in enumerate(results)) + "\n  );")
        lines.extend(derived_lines)
        declarations, definitions = [], []
        traits_facts = (self.facts or {}).get("traits", {})
        if traits_facts.get("same_element_type") and not traits_facts.get("infers_types"):
            # TF's SameOperandsAndResultElementTypeResolveRef (inferring ops check it through
            # their inferred types).
            fn = "verifySameOperandsAndResultElementTypeResolveRef"
            declarations.append(f"::mlir::LogicalResult {fn}(::mlir::Operation *op);")
            checks.append(f"  if (::mlir::failed({fn}(*this))) return ::mlir::failure();")
        if self.facts is not None:
            # Hand-written semantics are looked up by op name at run time
            # (verifyTfOp, foldTfOp, populateTfOpPatterns in cpp/lib): adding
            # or changing one recompiles only the hand-written file.
            declarations.append("::mlir::LogicalResult verifyTfOp(::mlir::Operation *op);")
            checks.append("  if (::mlir::failed(verifyTfOp(*this))) return ::mlir::failure();")
        if checks:
            lines.append("  let hasVerifier = 1;")
            definitions.append("::llvm::LogicalResult $cppClass::verify() {\n" + "\n".join(checks)
                               + "\n  return ::mlir::success();\n}")
        if self.facts is not None and len(results) == 1 and not results[0][2]:
            lines.append("  let hasFolder = 1;")
            declarations.append("::mlir::OpFoldResult foldTfOp(::mlir::Operation *op, "
                                "::llvm::ArrayRef<::mlir::Attribute> operands);")
            definitions.append("::mlir::OpFoldResult $cppClass::fold(FoldAdaptor adaptor) {\n"
                               "  return foldTfOp(*this, adaptor.getOperands());\n}")
        if self.facts is not None:
            lines.append("  let hasCanonicalizer = 1;")
            declarations.append("void populateTfOpPatterns(::llvm::StringRef opName, "
                                "::mlir::RewritePatternSet &results, ::mlir::MLIRContext *context);")
            definitions.append("void $cppClass::getCanonicalizationPatterns(::mlir::RewritePatternSet &results, "
                               f"::mlir::MLIRContext *context) {{\n  populateTfOpPatterns(\"tf.{name}\", results, context);\n}}")
        if name in INFERENCE and len(results) == 1 and \
                (self.facts or {}).get("traits", {}).get("infers_types"):
            fn = INFERENCE[name]
            lines[0] = lines[0].replace(
                "]> {", ("" if not traits else ", ")
                + "DeclareOpInterfaceMethods<InferTypeOpInterface>]> {", 1)
            lines.append("  let extraClassDeclaration = [{\n    static bool isCompatibleReturnTypes("
                         "::mlir::TypeRange inferred, ::mlir::TypeRange actual);\n  }];")
            declarations.append(
                f"::llvm::LogicalResult {fn}(::mlir::MLIRContext *context, "
                "::std::optional<::mlir::Location> location, ::mlir::ValueRange operands, "
                "AttrGetter getAttr, ::llvm::SmallVectorImpl<::mlir::Type> &inferred);")
            lookup = ("    if (properties)\n      if (auto attr = getInherentAttr(context, "
                      "*properties.as<Properties *>(), name); attr && *attr) return *attr;\n"
                      if stored else "")
            definitions.append(
                "::llvm::LogicalResult $cppClass::inferReturnTypes(::mlir::MLIRContext *context, "
                "::std::optional<::mlir::Location> location, ::mlir::ValueRange operands, "
                "::mlir::DictionaryAttr attributes, ::mlir::OpaqueProperties properties, "
                "::mlir::RegionRange regions, ::llvm::SmallVectorImpl<::mlir::Type> &inferred) {\n"
                "  auto getAttr = [&](::llvm::StringRef name) -> ::mlir::Attribute {\n" + lookup
                + "    return attributes ? attributes.get(name) : ::mlir::Attribute();\n  };\n"
                f"  return {fn}(context, location, operands, getAttr, inferred);\n}}\n"
                "bool $cppClass::isCompatibleReturnTypes(::mlir::TypeRange inferred, ::mlir::TypeRange actual) {\n"
                f"  return {return_types_check(self.facts)}(inferred, actual);\n}}")
        if definitions:
            lines.append("  let extraClassDefinition = [{\n" + "".join(d + "\n" for d in declarations)
                         + "\n".join(definitions) + "\n  }];")
        lines.append("}")
        return "\n".join(lines) + "\n", None


def opdef_from_facts(name, facts):
    """A minimal OpDef for an op TF defines only in ODS (no registry entry).

    Operands/results come from the accessors of TF's generated C++; variadic
    groups are type lists. Such ops are stateful (conservative) and their
    stored attributes are taken as optional.
    """
    def args(items):
        return [{"name": a["name"], "type": None, "type_attr": None, "number_attr": None,
                 "type_list_attr": f"__{a['name']}" if a["variadic"] else None, "is_ref": False}
                for a in items]

    return {"name": name[3:], "inputs": args(facts["operands"]), "outputs": args(facts["results"]),
            "attrs": [], "is_stateful": True, "is_commutative": False, "is_aggregate": False,
            "summary": f"{name} (defined by TensorFlow's MLIR dialect only; no OpDef).",
            "description": ""}


def hand_written_ops():
    text = open(HAND_WRITTEN_TD).read()
    return set(re.findall(r'TF_(?:Op|CallOp)<"([^"]+)"', text))


def write_effects(effects):
    """The resource kinds (ODS + C++) and the Python effect table."""
    ods = json.load(open(ODS_FACTS))["ops"]
    kinds = resource_kinds({n: e["model"] for n, e in effects.items()})
    with open(os.path.join(OUT_DIR, "TfEffects.td"), "w") as f:
        f.write(HEADER + "#ifndef TFMLIR_TFEFFECTS_TD\n#define TFMLIR_TFEFFECTS_TD\n\n"
                'include "mlir/Interfaces/SideEffectInterfaces.td"\n\n'
                "// Side-effect resources of the generated ops: one per class of ops that\n"
                "// TensorFlow orders together (op-based effects), one per allocation kind,\n"
                "// `Resource` for effects on resource values, and `MustExecute`.\n"
                + "".join(f'def TF_{k}Resource : Resource<"::tfmlir::TF::ResourceEffects::{k}">;\n'
                          for k in kinds if k != "Variable")
                + "\n#endif // TFMLIR_TFEFFECTS_TD\n")
    with open(KINDS_H, "w") as f:
        f.write(HEADER + "// Side-effect resource kinds of the generated tf ops (see td/generated/TfEffects.td).\n"
                + "".join(f"struct {k} : public ::mlir::SideEffects::Resource::Base<{k}> {{\n"
                          f'  ::llvm::StringRef getName() final {{ return "{k}"; }}\n}};\n'
                          for k in kinds if k != "Variable"))
    table = {}
    for name, entry in sorted(effects.items()):
        m = entry["model"]
        t = ods[name]["traits"]
        table[name[3:]] = {
            "unknown": m["unknown"], "pure": m["pure"],
            "operands": {int(k): v for k, v in m["operands"].items()},
            "results": {int(k): v for k, v in m["results"].items()},
            "op_effect": m["op_effect"], "must_execute": m["must_execute"],
            "allocator": t.get("allocator", False), "unique_allocation": t.get("unique_allocation", False),
            "resource_instance": t.get("resource_instance", False),
            "call": t.get("call", False),
            "operand_variadic": [bool(a["variadic"]) for a in ods.get(name, {}).get("operands", [])],
        }
    stateless = sorted(op["name"] for op in json.load(open(REGISTRY))["ops"]
                       if not op["is_stateful"] and "tf." + op["name"] not in effects)
    with open(EFFECTS_PY, "w") as f:
        f.write('"""Generated by scripts/gen_tf_ops.py from third_party/tensorflow/tf_op_effects.json; '
                'do not edit.\n\nThe side effects TensorFlow 2.21 gives the ops it defines in ODS, as observed\n'
                "by scripts/dump_tf_effects.py (the same model the generated ODS declares).\n"
                "MODELS: op name without \"tf.\" -> {unknown, pure, operands: {ODS operand group:\n"
                '"read"|"write"}, results: {ODS result group: allocation kind | "handle"},\n'
                "op_effect: None | {kinds, access, self_dependent_only, instance, instance_attrs},\n"
                "must_execute, allocator, unique_allocation, resource_instance, call}.\n"
                '"""\n')
        f.write(f"TF_VERSION = {json.dumps(json.load(open(EFFECTS))['tensorflow_version'])}\n\n")
        f.write("MODELS = {\n")
        for name, entry in table.items():
            f.write(f"    {name!r}: {entry!r},\n")
        f.write("}\n\n# Op-based resource kinds that only depend on themselves (TF's\n"
                "# IsOnlySelfDependent: sends and receives).\nSELF_DEPENDENT_KINDS = frozenset((\n")
        for kind in json.load(open(EFFECTS)).get("self_dependent_kinds", []):
            f.write(f"    {kind!r},\n")
        f.write("))\n\n# Registry ops outside TF's ODS that are not stateful: TF's fallback gives them\n"
                "# no effects.\nREGISTRY_STATELESS = frozenset((\n")
        for name in stateless:
            f.write(f"    {name!r},\n")
        f.write("))\n")


def write_fold_traits(facts):
    """TF's folding traits (IsIdempotent, IsInvolution) of its ODS ops, for foldTfOp."""
    with open(FOLD_TRAITS_H, "w") as f:
        f.write(HEADER + "// The ops TF's dialect gives its IsIdempotent (f(f(x)) -> f(x)) and\n"
                "// IsInvolution (f(f(x)) -> x) folding traits.\n")
        for trait, macro in (("idempotent", "TFMLIR_IDEMPOTENT_OP"), ("involution", "TFMLIR_INVOLUTION_OP")):
            for name, fact in sorted(facts.items()):
                if fact.get("traits", {}).get(trait):
                    f.write(f'{macro}("{name}")\n')


def write_registry_stateless(registry, facts, hand_written):
    """The registry ops outside TF's ODS that are not stateful, for the C++ fallback.

    TF's dialect gives an unknown op of its registry that is not stateful an
    empty MemoryEffectOpInterface (TensorFlowRegistryEffectInterfaceFallback);
    every other unknown op has unknown effects.
    """
    names = sorted(op["name"] for op in registry["ops"]
                   if not op["is_stateful"] and "tf." + op["name"] not in facts
                   and op["name"] not in hand_written)
    with open(STATELESS_H, "w") as f:
        f.write(HEADER + "// Registry ops TensorFlow's dialect does not define that are not stateful\n"
                "// (sorted; TF gives these unknown ops no memory effects).\n"
                + "".join(f'"{n}",\n' for n in names))


def main():
    registry = json.load(open(REGISTRY))
    facts = json.load(open(ODS_FACTS))["ops"]
    effects = json.load(open(EFFECTS))["ops"]
    models = {n: e["model"] for n, e in effects.items()}
    skip = hand_written_ops()
    defs, problems = [], []
    registry_names = {op["name"] for op in registry["ops"]}
    ods_only = [opdef_from_facts(n, f) for n, f in sorted(facts.items())
                if n[3:] not in registry_names and n[3:] not in skip]
    for opdef in registry["ops"] + ods_only:
        if opdef["name"] in skip:
            continue
        if not re.fullmatch(r"\w+", opdef["name"]):
            problems.append(f"{opdef['name']}: not an identifier (a test-only op)")
            continue
        text, problem = OpGen(opdef, facts.get("tf." + opdef["name"]),
                              models.get("tf." + opdef["name"])).emit()
        if text is None:
            problems.append(f"{opdef['name']}: {problem}")
            continue
        defs.append((opdef["name"], text))
    os.makedirs(OUT_DIR, exist_ok=True)
    for old in os.listdir(OUT_DIR):
        if old.startswith(("TfGenOps", "TfPyOps")):
            os.remove(os.path.join(OUT_DIR, old))
    # Ops TF defines in ODS become C++ op classes; the other registry ops stay
    # unknown ops of the open tf dialect, as in TF (any operands, results and
    # attributes verify), with Python op classes only (typed builders, docs).
    native = [(n, t) for n, t in defs if "tf." + n in facts]
    python_only = [(n, t) for n, t in defs if "tf." + n not in facts]

    def write_shards(prefix, items, note):
        names = []
        for i in range(0, len(items), SHARD_SIZE):
            shard = f"{prefix}{i // SHARD_SIZE:02d}"
            names.append(shard)
            with open(os.path.join(OUT_DIR, shard + ".td"), "w") as f:
                f.write(HEADER + note + f"#ifndef TFMLIR_{shard.upper()}_TD\n#define TFMLIR_{shard.upper()}_TD\n\n"
                        'include "TfOpBase.td"\ninclude "generated/TfEffects.td"\n\n'
                        + "\n".join(t for _, t in items[i:i + SHARD_SIZE])
                        + f"\n#endif // TFMLIR_{shard.upper()}_TD\n")
        return names

    shards = write_shards("TfGenOps", native, "")
    pattern_shards = [shard for k, shard in enumerate(shards)
                      if any(n in PATTERNS or n in PATTERN_RESULT_OPS
                             for n, _ in native[k * SHARD_SIZE:(k + 1) * SHARD_SIZE])]
    py_shards = write_shards(
        "TfPyOps", python_only,
        "// Registry ops TensorFlow's dialect does not define: Python op classes only\n"
        "// (never compiled to C++; the ops stay unknown ops of the tf dialect).\n")
    write_effects(effects)
    write_registry_stateless(registry, facts, skip)
    write_fold_traits(facts)
    with open(os.path.join(OUT_DIR, "TfGenOpsAll.td"), "w") as f:
        f.write(HEADER + '// Every tf op (hand-written, generated and Python-only), for the Python bindings.\n'
                'include "TfOps.td"\n' + "".join(f'include "generated/{s}.td"\n' for s in shards + py_shards))
    with open(os.path.join(OUT_DIR, "shards.cmake"), "w") as f:
        f.write("# Generated by scripts/gen_tf_ops.py; do not edit.\nset(TFMLIR_GEN_OP_SHARDS\n"
                + "".join(f"  {s}\n" for s in shards) + ")\n"
                "# Shards holding the ops that canonicalization patterns (td/TfCanonicalize.td) use.\n"
                "set(TFMLIR_PATTERN_OP_SHARDS\n" + "".join(f"  {s}\n" for s in pattern_shards) + ")\n")
    print(f"{len(native)} generated ops in {len(shards)} shards, {len(python_only)} Python-only ops "
          f"in {len(py_shards)} shards; {len(skip)} hand-written; "
          f"{len(problems)} skipped", file=sys.stderr)
    for p in problems:
        print("  skipped:", p, file=sys.stderr)


if __name__ == "__main__":
    main()
