//===- TfTypeBase.td - the tf_type dialect: TF element types and attributes -===//
//
// TensorFlow element types that have no builtin MLIR equivalent (quantized
// integers, string, resource, variant and the reference types) and the
// attributes TF prints: #tf_type.shape, #tf_type.func, #tf_type.placeholder.
//
//===----------------------------------------------------------------------===//
#ifndef TFMLIR_TF_TYPE_BASE_TD
#define TFMLIR_TF_TYPE_BASE_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "mlir/IR/OpBase.td"

def TFType_Dialect : Dialect {
  let name = "tf_type";
  let cppNamespace = "::tfmlir::tf_type";
  let summary = "TensorFlow element types and attributes";
  let description = [{
    Types and attributes shared by the `tf`, `tf_executor` and `tf_device`
    dialects: `!tf_type.qint8` ... `!tf_type.string`, `!tf_type.resource<...>`,
    `!tf_type.variant<...>`, every `*ref` type, and `#tf_type.shape<...>`,
    `#tf_type.func<@f, {...}>`, `#tf_type.placeholder<"...">`,
    `#tf_type<tensor_proto : "0x...">`.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

class TFType_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<TFType_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

// Types without parameters; the mnemonic is the whole printed form.
class TFType_SimpleType<string name, string typeMnemonic, string doc>
    : TFType_Type<name, typeMnemonic> {
  let summary = doc;
}

def TFType_Qint8 : TFType_SimpleType<"Qint8", "qint8", "TensorFlow qint8">;
def TFType_Qint16 : TFType_SimpleType<"Qint16", "qint16", "TensorFlow qint16">;
def TFType_Qint32 : TFType_SimpleType<"Qint32", "qint32", "TensorFlow qint32">;
def TFType_Quint8 : TFType_SimpleType<"Quint8", "quint8", "TensorFlow quint8">;
def TFType_Quint16 : TFType_SimpleType<"Quint16", "quint16", "TensorFlow quint16">;
def TFType_String : TFType_SimpleType<"String", "string", "TensorFlow string">;

// Resource and variant carry optional subtypes: !tf_type.resource<tensor<2xf32>>.
class TFType_TypeWithSubtypes<string name, string typeMnemonic, string doc>
    : TFType_Type<name, typeMnemonic> {
  let summary = doc;
  let parameters = (ins OptionalArrayRefParameter<"::mlir::TensorType">:$subtypes);
  let hasCustomAssemblyFormat = 1;
  let builders = [
    TypeBuilder<(ins), [{ return $_get($_ctxt, ::llvm::ArrayRef<::mlir::TensorType>{}); }]>,
  ];
  let skipDefaultBuilders = 0;
}
def TFType_Resource : TFType_TypeWithSubtypes<"Resource", "resource",
    "TensorFlow resource handle, optionally with the types it holds">;
def TFType_Variant : TFType_TypeWithSubtypes<"Variant", "variant",
    "TensorFlow variant, optionally with the types it holds">;

// Reference types (TF1 ref-edges): !tf_type.f32ref ...
class TFType_RefType<string name, string typeMnemonic>
    : TFType_SimpleType<name, typeMnemonic, "TensorFlow reference type " # typeMnemonic>;
def TFType_FloatRef : TFType_RefType<"FloatRef", "f32ref">;
def TFType_DoubleRef : TFType_RefType<"DoubleRef", "f64ref">;
def TFType_Uint4Ref : TFType_RefType<"Uint4Ref", "uint4ref">;
def TFType_Int4Ref : TFType_RefType<"Int4Ref", "int4ref">;
def TFType_Uint8Ref : TFType_RefType<"Uint8Ref", "uint8ref">;
def TFType_Int8Ref : TFType_RefType<"Int8Ref", "int8ref">;
def TFType_Uint16Ref : TFType_RefType<"Uint16Ref", "uint16ref">;
def TFType_Int16Ref : TFType_RefType<"Int16Ref", "int16ref">;
def TFType_Uint32Ref : TFType_RefType<"Uint32Ref", "uint32ref">;
def TFType_Int32Ref : TFType_RefType<"Int32Ref", "int32ref">;
def TFType_Uint64Ref : TFType_RefType<"Uint64Ref", "uint64ref">;
def TFType_Int64Ref : TFType_RefType<"Int64Ref", "int64ref">;
def TFType_StringRef : TFType_RefType<"StringRef", "stringref">;
def TFType_BoolRef : TFType_RefType<"BoolRef", "boolref">;
def TFType_Quint8Ref : TFType_RefType<"Quint8Ref", "quint8ref">;
def TFType_Qint8Ref : TFType_RefType<"Qint8Ref", "qint8ref">;
def TFType_Quint16Ref : TFType_RefType<"Quint16Ref", "quint16ref">;
def TFType_Qint16Ref : TFType_RefType<"Qint16Ref", "qint16ref">;
def TFType_Qint32Ref : TFType_RefType<"Qint32Ref", "qint32ref">;
def TFType_Bfloat16Ref : TFType_RefType<"Bfloat16Ref", "bfloat16ref">;
def TFType_Complex64Ref : TFType_RefType<"Complex64Ref", "complex64ref">;
def TFType_Complex128Ref : TFType_RefType<"Complex128Ref", "complex128ref">;
def TFType_HalfRef : TFType_RefType<"HalfRef", "halfref">;
def TFType_ResourceRef : TFType_RefType<"ResourceRef", "resourceref">;
def TFType_Float8E4M3FNRef : TFType_RefType<"Float8E4M3FNRef", "float8e4m3fnref">;
def TFType_Float8E5M2Ref : TFType_RefType<"Float8E5M2Ref", "float8e5m2ref">;
def TFType_Float8E4M3FNUZRef : TFType_RefType<"Float8E4M3FNUZRef", "float8e4m3fnuzref">;
def TFType_Float8E4M3B11FNUZRef : TFType_RefType<"Float8E4M3B11FNUZRef", "float8e4m3b11fnuzref">;
def TFType_Float8E5M2FNUZRef : TFType_RefType<"Float8E5M2FNUZRef", "float8e5m2fnuzref">;
def TFType_VariantRef : TFType_RefType<"VariantRef", "variantref">;

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

class TFType_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TFType_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

// #tf_type.shape<2x?x3>, #tf_type.shape<> (scalar), #tf_type.shape<*> (unranked).
def TFType_ShapeAttr : TFType_Attr<"Shape", "shape"> {
  let summary = "A TensorFlow shape: unranked, or a list of (possibly unknown) dimensions";
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$shape,
    "bool":$unranked
  );
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// The dimensions; std::nullopt when unranked. Unknown dimensions are
    /// ::mlir::ShapedType::kDynamic.
    std::optional<::llvm::ArrayRef<int64_t>> getValue() const;
    bool hasRank() const { return !getUnranked(); }
    int64_t getRank() const;
    bool hasStaticShape() const;
    static ShapeAttr get(::mlir::MLIRContext *context,
                         std::optional<::llvm::ArrayRef<int64_t>> shape);
    static ShapeAttr get(::mlir::MLIRContext *context, ::mlir::Type type);
  }];
}

// #tf_type.func<@name, {attrs}>: a function reference with its attributes.
def TFType_FuncAttr : TFType_Attr<"Func", "func"> {
  let summary = "A TensorFlow function reference with attributes (AttrValue.func)";
  let parameters = (ins "::mlir::SymbolRefAttr":$name, "::mlir::DictionaryAttr":$attrs);
  let assemblyFormat = "`<` $name `,` $attrs `>`";
}

// #tf_type.placeholder<"attr_name">: an attribute placeholder inside a function
// body that refers to an attribute of the enclosing function call.
def TFType_PlaceholderAttr : TFType_Attr<"Placeholder", "placeholder"> {
  let summary = "Placeholder for an attribute of the enclosing function (AttrValue.placeholder)";
  let parameters = (ins StringRefParameter<"">:$value);
  let assemblyFormat = "`<` $value `>`";
}

// #tf_type<tensor_proto : "0x74667465...."> : tensor<2x!tf_type.qint8>: a tensor
// that has no dense elements form (quantized, resource, variant, 2/4-bit
// integer elements), kept as TensorFlow's mangled TensorProto bytes
// ("tftensor$" + the one-line text format). An ElementsAttr with a shaped
// type, so it is a valid tf.Const `value`; its elements are opaque (no
// iterable value types: folders never look through it).
def TFType_TensorProtoAttr : TFType_Attr<"TensorProto", "tensor_proto",
    [ElementsAttrInterface, TypedAttrInterface]> {
  let summary = "A TensorFlow tensor kept as its mangled TensorProto bytes";
  let parameters = (ins AttributeSelfTypeParameter<"", "::mlir::ShapedType">:$type,
                        StringRefParameter<"the mangled TensorProto bytes">:$value);
  let builders = [
    AttrBuilderWithInferredContext<(ins "::mlir::ShapedType":$type,
                                        "::llvm::StringRef":$value), [{
      return $_get(type.getContext(), type, value);
    }]>,
  ];
  let hasCustomAssemblyFormat = 1;
}

#endif // TFMLIR_TF_TYPE_BASE_TD
