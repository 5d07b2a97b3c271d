"""The tf_type dialect: TF element types and attributes as mlir.ir subclasses."""
from .._tfmlir import (  # noqa: F401
    ResourceType, VariantType, StringType,
    Qint8Type, Qint16Type, Qint32Type, Quint8Type, Quint16Type,
    FloatRefType, DoubleRefType, Uint4RefType, Int4RefType, Uint8RefType,
    Int8RefType, Uint16RefType, Int16RefType, Uint32RefType, Int32RefType,
    Uint64RefType, Int64RefType, StringRefType, BoolRefType, Quint8RefType,
    Qint8RefType, Quint16RefType, Qint16RefType, Qint32RefType,
    Bfloat16RefType, Complex64RefType, Complex128RefType, HalfRefType,
    ResourceRefType, Float8E4M3FNRefType, Float8E5M2RefType,
    Float8E4M3FNUZRefType, Float8E4M3B11FNUZRefType, Float8E5M2FNUZRefType,
    VariantRefType,
    ShapeAttr, FuncAttr, PlaceholderAttr, TensorProtoAttr,
)
