"""TensorFlow data types, shapes and tensors <-> MLIR (textual) types and attributes.

Element types follow TensorFlow's ``ConvertDataType``: DT_FLOAT -> f32,
DT_STRING -> !tf_type.string, DT_RESOURCE -> !tf_type.resource, reference types
-> !tf_type.f32ref ... Tensors (``TensorProto``) decode into numpy arrays with
``Tensor::FromProto`` semantics (``tensor_content`` first; otherwise the typed
repeated field, its last value repeated when short; zeros when empty) and are
written as hex dense attributes — bulk byte conversion, never per-element
formatting.
"""
import numpy as np

from . import protobuf as pb
from .errors import TFImportError

# enum: (name, mlir element type, numpy dtype for the buffer, repeated field)
_DT = {
    1: ("DT_FLOAT", "f32", "<f4", "float_val"),
    2: ("DT_DOUBLE", "f64", "<f8", "double_val"),
    3: ("DT_INT32", "i32", "<i4", "int_val"),
    4: ("DT_UINT8", "ui8", "u1", "int_val"),
    5: ("DT_INT16", "i16", "<i2", "int_val"),
    6: ("DT_INT8", "i8", "i1", "int_val"),
    7: ("DT_STRING", "!tf_type.string", None, "string_val"),
    8: ("DT_COMPLEX64", "complex<f32>", "<c8", "scomplex_val"),
    9: ("DT_INT64", "i64", "<i8", "int64_val"),
    10: ("DT_BOOL", "i1", "?", "bool_val"),
    11: ("DT_QINT8", "!tf_type.qint8", "i1", "int_val"),
    12: ("DT_QUINT8", "!tf_type.quint8", "u1", "int_val"),
    13: ("DT_QINT32", "!tf_type.qint32", "<i4", "int_val"),
    14: ("DT_BFLOAT16", "bf16", "<u2", "half_val"),
    15: ("DT_QINT16", "!tf_type.qint16", "<i2", "int_val"),
    16: ("DT_QUINT16", "!tf_type.quint16", "<u2", "int_val"),
    17: ("DT_UINT16", "ui16", "<u2", "int_val"),
    18: ("DT_COMPLEX128", "complex<f64>", "<c16", "dcomplex_val"),
    19: ("DT_HALF", "f16", "<u2", "half_val"),
    20: ("DT_RESOURCE", "!tf_type.resource", None, "resource_handle_val"),
    21: ("DT_VARIANT", "!tf_type.variant", None, "variant_val"),
    22: ("DT_UINT32", "ui32", "<u4", "uint32_val"),
    23: ("DT_UINT64", "ui64", "<u8", "uint64_val"),
    24: ("DT_FLOAT8_E5M2", "f8E5M2", "u1", "float8_val"),
    25: ("DT_FLOAT8_E4M3FN", "f8E4M3FN", "u1", "float8_val"),
    26: ("DT_FLOAT8_E4M3FNUZ", "f8E4M3FNUZ", "u1", "float8_val"),
    27: ("DT_FLOAT8_E4M3B11FNUZ", "f8E4M3B11FNUZ", "u1", "float8_val"),
    28: ("DT_FLOAT8_E5M2FNUZ", "f8E5M2FNUZ", "u1", "float8_val"),
    29: ("DT_INT4", "i4", "i1", "int_val"),
    30: ("DT_UINT4", "ui4", "u1", "int_val"),
    31: ("DT_INT2", "i2", "i1", "int_val"),
    32: ("DT_UINT2", "ui2", "u1", "int_val"),
    33: ("DT_FLOAT4_E2M1FN", "f4E2M1FN", "u1", "float8_val"),
}
# Reference types (dtype + 100).
_REF_MLIR = {
    1: "f32ref", 2: "f64ref", 3: "int32ref", 4: "uint8ref", 5: "int16ref", 6: "int8ref", 7: "stringref",
    8: "complex64ref", 9: "int64ref", 10: "boolref", 11: "qint8ref", 12: "quint8ref", 13: "qint32ref",
    14: "bfloat16ref", 15: "qint16ref", 16: "quint16ref", 17: "uint16ref", 18: "complex128ref",
    19: "halfref", 20: "resourceref", 21: "variantref", 22: "uint32ref", 23: "uint64ref",
    24: "float8e5m2ref", 25: "float8e4m3fnref", 26: "float8e4m3fnuzref", 27: "float8e4m3b11fnuzref",
    28: "float8e5m2fnuzref", 29: "int4ref", 30: "uint4ref",
}

DT_INVALID, DT_FLOAT, DT_INT32, DT_STRING, DT_INT64, DT_BOOL = 0, 1, 3, 7, 9, 10
DT_RESOURCE, DT_VARIANT = 20, 21

DTYPE_NAMES = {k: v[0] for k, v in _DT.items()}
DTYPE_NAMES[0] = "DT_INVALID"
for _k, _v in list(_DT.items()):
    DTYPE_NAMES[_k + 100] = _v[0] + "_REF"
DTYPE_BY_NAME = {v: k for k, v in DTYPE_NAMES.items()}

# The text format prints DataType values by name.
for _schema, _field in (("TensorProto", "dtype"), ("AttrValue", "type"), ("AttrValue.ListValue", "type"),
                        ("OpDef.ArgDef", "type"), ("ResourceHandleProto.DtypeAndShape", "dtype"),
                        ("TensorInfo", "dtype"), ("SavedVariable", "dtype"), ("BundleEntryProto", "dtype")):
    pb.register_enum(_schema, _field, DTYPE_NAMES)

MLIR_TO_DTYPE = {v[1]: k for k, v in _DT.items()}
MLIR_TO_DTYPE.update({"!tf_type." + v: k + 100 for k, v in _REF_MLIR.items()})


def dtype_of_element(text):
    """The DataType of an MLIR element type given as text (``f32``, ``!tf_type.resource<...>``:
    resource and variant subtypes do not count), or None when TF has no DataType for it."""
    if text.startswith("!tf_type.resource") or text.startswith("!tf_type.variant"):
        text = text.split("<", 1)[0]
    return MLIR_TO_DTYPE.get(text)


def dtype_name(dtype):
    return DTYPE_NAMES.get(dtype, f"<unknown DataType {dtype}>")


def is_ref(dtype):
    return dtype > 100


def base_dtype(dtype):
    return dtype - 100 if dtype > 100 else dtype


def element_type(dtype, subtypes=None):
    """MLIR element type text for DataType `dtype` (`subtypes`: tensor type texts for
    resource/variant)."""
    if dtype > 100:
        ref = _REF_MLIR.get(dtype - 100)
        if ref is None:
            raise TFImportError(f"unsupported reference data type {dtype_name(dtype)}")
        return "!tf_type." + ref
    entry = _DT.get(dtype)
    if entry is None:
        raise TFImportError(f"unknown TensorFlow data type {dtype}" if dtype else "invalid data type (DT_INVALID)")
    if subtypes and dtype in (DT_RESOURCE, DT_VARIANT):
        return f"{entry[1]}<{', '.join(subtypes)}>"
    return entry[1]


def tensor_type(elem, shape):
    """`shape`: None (unranked) or a list of dims (-1 unknown)."""
    if shape is None:
        return f"tensor<*x{elem}>"
    if not shape:
        return f"tensor<{elem}>"
    return "tensor<" + "x".join("?" if d < 0 else str(d) for d in shape) + "x" + elem + ">"


# TensorShape's limit: the number of elements is an int64.
MAX_ELEMENTS = (1 << 63) - 1
# Elements the importer materializes from fewer values in a TensorProto (Tensor::FromProto
# repeats the last one): beyond this many bytes the tensor is refused, not allocated. A
# GraphDef is a protocol buffer (at most 2 GiB), so no real tensor is written like that.
MAX_EXPANDED_BYTES = 1 << 31


def shape_from_proto(shape_proto):
    """TensorShapeProto -> None (unknown rank) or list of ints (-1 unknown). Raises
    TFImportError for shapes TensorFlow refuses (PartialTensorShape::IsValid): dims below -1,
    dims with unknown rank, more than 2**63 - 1 elements."""
    if shape_proto is None:
        return []
    dims = shape_proto._values.get("dim") or ()
    if shape_proto.unknown_rank:
        if dims:
            raise TFImportError("a tensor shape of unknown rank has dimensions")
        return None
    out = [d.size for d in dims]
    n = 1
    for d in out:
        if d < -1:
            raise TFImportError(f"tensor shape {out[:8]} has a dimension below -1")
        if d > 0:
            n *= d
            if n > MAX_ELEMENTS:
                raise TFImportError(f"tensor shape {out[:8]} has more than 2**63 - 1 elements")
    return out


def shape_attr(shape):
    if shape is None:
        return "#tf_type.shape<*>"
    return "#tf_type.shape<" + "x".join("?" if d < 0 else str(d) for d in shape) + ">"


def shape_to_proto(shape):
    if shape is None:
        return pb.Message("TensorShapeProto", unknown_rank=True)
    return pb.Message("TensorShapeProto",
                      dim=[pb.Message("TensorShapeProto.Dim", size=int(d)) for d in shape])


# --------------------------------------------------------------------------------------------
# Strings.

import re as _re

# Printable ASCII other than '"' and '\\': written as they are. (fullmatch: a trailing
# newline must not pass, as it would with '$'.)
_PLAIN = _re.compile(rb'[\x20\x21\x23-\x5b\x5d-\x7e]*')


def mlir_string(b):
    """An MLIR string literal for bytes/str `b`: printable ASCII as it is, every other byte
    (non-printable, non-ASCII, '"' and '\\') as \\XX hex, which MLIR's lexer reads back.

    The one place the importers write strings (attribute values, names, locations) into
    MLIR text."""
    if isinstance(b, str):
        if b.isascii() and b.isprintable() and '"' not in b and "\\" not in b:
            return f'"{b}"'
        b = b.encode("utf-8", "surrogateescape")
    elif _PLAIN.fullmatch(b):
        return '"' + b.decode("ascii") + '"'
    out = ['"']
    for c in b:
        if c == 0x22 or c == 0x5C or c < 0x20 or c >= 0x7F:
            out.append("\\%02X" % c)
        else:
            out.append(chr(c))
    out.append('"')
    return "".join(out)


# --------------------------------------------------------------------------------------------
# Tensors.

class Tensor:
    """A decoded TensorProto: dtype, shape and its value.

    ``array``: numpy array in the element type's storage (bf16/f16 as uint16
    bits, complex as numpy complex, bool as bool) with the full shape, or
    ``splat``: a 1-element array when the proto holds a single value for many
    elements. ``strings``: list of bytes for DT_STRING.
    """
    __slots__ = ("dtype", "shape", "array", "splat", "strings")

    def __init__(self, dtype, shape, array=None, splat=False, strings=None):
        self.dtype = dtype
        self.shape = shape
        self.array = array
        self.splat = splat
        self.strings = strings

    @property
    def num_elements(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def nbytes(self):
        if self.array is None:
            return sum(len(s) for s in self.strings or ())
        return self.array.nbytes

    def full_array(self):
        """The value as a numpy array of the full shape (a splat: a read-only broadcast view)."""
        if self.strings is not None:
            arr = np.empty(len(self.strings), dtype=object)
            arr[:] = self.strings
            if self.splat:
                return np.broadcast_to(arr.reshape(()), tuple(self.shape))
            return arr.reshape(self.shape)
        if self.splat:
            return np.broadcast_to(self.array.reshape(()), tuple(self.shape))
        return self.array.reshape(self.shape)


def _field_values(tp, field):
    raw = tp._values.get(field)
    if raw is None:
        return None
    return raw


def _numpy_from_field(tp, dtype, field, np_dtype):
    try:
        return _numpy_from_field_raw(tp, dtype, field, np_dtype)
    except (pb.DecodeError, ValueError, OverflowError) as exc:
        # Packed fields are decoded here, on demand: their errors surface now.
        raise TFImportError(f"{dtype_name(dtype)} tensor has a corrupt {field} field: {exc}") from None


def _numpy_from_field_raw(tp, dtype, field, np_dtype):
    raw = _field_values(tp, field)
    if raw is None:
        return np.zeros(0, dtype=np_dtype)
    if field == "float8_val":  # one bytes field, an element per byte
        return np.frombuffer(b"".join(bytes(v) for v in raw) if isinstance(raw, list) else bytes(raw),
                             dtype=np.uint8)
    if isinstance(raw, pb.PackedRaw):
        parts = []
        kind = raw.kind
        for chunk in raw.chunks:
            if kind is pb.FLOAT:
                parts.append(np.frombuffer(chunk, dtype="<f4"))
            elif kind is pb.DOUBLE:
                parts.append(np.frombuffer(chunk, dtype="<f8"))
            else:
                parts.append(np.array(pb._unpack_packed(kind, bytes(chunk), 0, len(chunk)), dtype=np.int64
                                      if kind is not pb.BOOL else bool))
        if raw.loose:
            parts.append(np.array(raw.loose))
        if not parts:
            return np.zeros(0, dtype=np_dtype)
        vals = np.concatenate(parts) if len(parts) > 1 else parts[0]
    else:
        vals = np.array(raw)
    if field in ("scomplex_val", "dcomplex_val"):
        vals = vals.astype("<f4" if field == "scomplex_val" else "<f8")
        n = len(vals) // 2
        vals = vals[:2 * n].view(np_dtype)
        return vals
    if vals.dtype.kind in "iub" and np.dtype(np_dtype).kind in "iu":
        # C++ static_cast semantics (wrap-around).
        return vals.astype(np.int64).astype(np_dtype) if vals.dtype != np.dtype(np_dtype) else vals
    return vals.astype(np_dtype, copy=False)


def _decode_string_content(content, n):
    data = bytes(content)
    lengths = []
    pos = 0
    for _ in range(n):
        v, pos = pb._varint(data, pos)
        lengths.append(v)
    out = []
    for ln in lengths:
        out.append(data[pos:pos + ln])
        pos += ln
    if pos != len(data):
        raise ValueError("bad string tensor content")
    return out


def _check_expansion(name, shape, n, itemsize):
    if n * itemsize > MAX_EXPANDED_BYTES:
        raise TFImportError(f"{name} tensor of shape {shape[:8]} ({n} elements) holds fewer values than "
                            f"elements and would take more than {MAX_EXPANDED_BYTES} bytes once filled in")


def decode_tensor(tp):
    """TensorProto message -> Tensor. Raises TFImportError for invalid protos."""
    dtype = tp.dtype
    if dtype == DT_INVALID:
        raise TFImportError("tensor has an invalid data type (DT_INVALID)")
    if dtype not in _DT:
        raise TFImportError(f"tensor has an unknown data type {dtype}")
    shape_proto = tp._values.get("tensor_shape")
    shape = [] if shape_proto is None else shape_from_proto(shape_proto)
    if shape is None or any(d < 0 for d in shape):
        raise TFImportError("tensor has a partially known shape")
    n = 1
    for d in shape:
        n *= d
    name, _, np_dtype, field = _DT[dtype]
    if dtype == DT_STRING:
        content = tp._values.get("tensor_content")
        if content is not None and len(content) and n > 0:
            try:
                strings = _decode_string_content(content, n)
            except (ValueError, IndexError):
                raise TFImportError("string tensor has corrupt tensor_content") from None
        else:
            strings = list(tp._values.get("string_val") or [])
            if n == 0:
                strings = []
            elif len(strings) < n and len(set(strings)) <= 1 and n * 8 > MAX_EXPANDED_BYTES:
                # One value for very many elements: kept as a splat, not repeated.
                return Tensor(dtype, shape, splat=True, strings=[bytes(strings[0]) if strings else b""])
            elif len(strings) < n:
                _check_expansion(name, shape, n, 8)
                strings = strings + [strings[-1] if strings else b""] * (n - len(strings))
            else:
                strings = strings[:n]
        return Tensor(dtype, shape, strings=[bytes(s) for s in strings])
    if np_dtype is None:
        raise TFImportError(f"{name} tensors have no numeric value (they import as "
                            f"#tf_type tensor_proto attributes, see tfcore.tensor_proto)")
    content = tp._values.get("tensor_content")
    if n == 0:
        return Tensor(dtype, shape, np.zeros(0, dtype=np_dtype))
    if content is not None and len(content):
        itemsize = np.dtype(np_dtype).itemsize
        if len(content) != n * itemsize:
            raise TFImportError(f"{name} tensor of shape {shape} has {len(content)} bytes of "
                                f"tensor_content, expected {n * itemsize}")
        return Tensor(dtype, shape, np.frombuffer(content, dtype=np_dtype))
    vals = _numpy_from_field(tp, dtype, field, np_dtype)
    if dtype == DT_BOOL:
        vals = vals.astype(bool)
    m = len(vals)
    if m == 0:
        return Tensor(dtype, shape, np.zeros(1, dtype=np_dtype), splat=True)
    if m >= n:
        if n == 1 or m == 1:
            return Tensor(dtype, shape, vals[:1].copy(), splat=n > 1)
        return Tensor(dtype, shape, vals[:n])
    if m == 1:
        return Tensor(dtype, shape, vals[:1].copy(), splat=True)
    _check_expansion(name, shape, n, vals.dtype.itemsize)
    full = np.empty(n, dtype=vals.dtype)
    full[:m] = vals
    full[m:] = vals[m - 1]
    return Tensor(dtype, shape, full)


def is_splat(t):
    return t.splat or t.array is None or _is_splat(t.array)


def _is_splat(arr):
    if arr.size <= 1:
        return True
    # Cheap early exit: real data almost never starts with 16 equal elements.
    head = arr[:16]
    if head.dtype == bool:
        if not (head == head[0]).all():
            return False
    else:
        hr = head.view(np.uint8).reshape(len(head), head.dtype.itemsize)
        if not (hr == hr[0]).all():
            return False
    if arr.dtype == bool:
        first = arr[0]
        return bool((arr == first).all())
    raw = arr.view(np.uint8).reshape(arr.size, arr.dtype.itemsize)
    return bool((raw == raw[0]).all())


def dense_attr_text(t, elem=None):
    """The MLIR text of a dense elements attribute for Tensor `t`."""
    elem = elem or element_type(t.dtype)
    ttype = tensor_type(elem, t.shape)
    n = t.num_elements
    if t.strings is not None:
        if n == 0:
            return f"dense<> : {ttype}"
        if len(set(t.strings)) == 1:
            return f"dense<{mlir_string(t.strings[0])}> : {ttype}"
        return "dense<[" + ", ".join(mlir_string(s) for s in t.strings) + f"]> : {ttype}"
    if n == 0:
        return f"dense<> : {ttype}"
    arr = t.array
    if t.splat or _is_splat(arr):
        arr = arr[:1]
    if arr.dtype == bool:
        if len(arr) == 1:
            return f"dense<{'true' if arr[0] else 'false'}> : {ttype}"
        return f'dense<"0x{np.packbits(arr, bitorder="little").tobytes().hex().upper()}"> : {ttype}'
    return f'dense<"0x{np.ascontiguousarray(arr).tobytes().hex().upper()}"> : {ttype}'


def dense_attr(t, context):
    """An ir.DenseElementsAttr for numeric Tensor `t`, built from its buffer (no text)."""
    from mlir import ir
    arr = t.array
    if t.splat or t.num_elements == 0 or _is_splat(arr):
        return ir.Attribute.parse(dense_attr_text(t), context)
    arr = np.ascontiguousarray(arr).reshape(t.shape)
    if arr.dtype == bool:
        return ir.DenseElementsAttr.get(arr, context=context)
    elem = ir.Type.parse(element_type(t.dtype), context)
    if arr.dtype.kind == "c":
        arr = arr.view("<f4" if arr.dtype.itemsize == 8 else "<f8")
    return ir.DenseElementsAttr.get(arr, type=elem, shape=list(t.shape), context=context)


def typed_field(dtype, values):
    """(repeated field name, Python values) holding the numpy `values` of a
    numeric `dtype` in a TensorProto's typed field (Tensor::AsProtoField's
    layout: complex as (real, imag) pairs, half/bfloat16 as bit patterns,
    float8 as bytes)."""
    _, _, np_dtype, field = _DT[dtype]
    flat = np.asarray(values).astype(np_dtype, copy=False).reshape(-1)
    if field == "bool_val":
        return field, [bool(v) for v in flat]
    if field in ("scomplex_val", "dcomplex_val"):
        return field, [float(x) for v in flat for x in (v.real, v.imag)]
    if field == "float8_val":
        return field, flat.astype(np.uint8).tobytes()
    if field in ("float_val", "double_val"):
        return field, [float(v) for v in flat]
    return field, [int(v) for v in flat]


def encode_tensor(dtype, shape, array=None, strings=None):
    """A TensorProto message for a value (used by the exporter)."""
    tp = pb.Message("TensorProto", dtype=dtype, tensor_shape=shape_to_proto(shape))
    if strings is not None:
        tp.string_val = [bytes(s) for s in strings]
        return tp
    name, _, np_dtype, field = _DT[dtype]
    arr = np.ascontiguousarray(array).astype(np_dtype, copy=False)
    n = 1
    for d in shape:
        n *= d
    if arr.size == 1 and n != 1:
        # splat: one value in the typed field
        field, vals = typed_field(dtype, arr.reshape(-1)[:1])
        setattr(tp, field, vals)
        return tp
    if n:
        flat = arr.reshape(-1) if arr.dtype != bool else arr.reshape(-1).astype(np.uint8)
        tp.tensor_content = memoryview(np.ascontiguousarray(flat)).cast("B")  # no copy until serialized
    return tp
