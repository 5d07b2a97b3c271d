"""`#tf_type<tensor_proto : "0x...">` constants: TensorFlow's mangled TensorProto text.

TensorFlow's importer (``ConvertTensor``) writes tensors it cannot express as
dense elements (quantized types, resources, variants, 2/4-bit integers) as a
``TensorProtoAttr`` whose bytes are ``"tftensor$"`` followed by the one-line
text format of the tensor re-encoded with ``Tensor::AsProtoTensorContent``:
``dtype: DT_QINT8 tensor_shape { dim { size: 2 } } tensor_content: "\\001\\377"``.

This module computes those bytes without TensorFlow (``mangle``), following
``Tensor::FromProto`` (``tensor_content`` first, else the typed field, short
fields filled with their last value; variants decoded and encoded again, with
``tensorflow::TensorList`` handled as TensorFlow's ``TensorList::Encode``
does), and parses them back into a TensorProto for the exporter (``demangle``).
"""
import numpy as np

from . import protobuf as pb
from . import tf_types as T
from .errors import TFImportError

PREFIX = b"tftensor$"

QUANTIZED = {11: "<i1", 12: "<u1", 13: "<i4", 15: "<i2", 16: "<u2"}
# int4 / uint4 / int2 / uint2: one byte per element in a TensorFlow tensor.
LOW_BIT = {29: "<i1", 30: "<u1", 31: "<i1", 32: "<u1"}
# The DataTypes whose constants TensorFlow's importer writes as tensor_proto attributes.
PROTO_DTYPES = frozenset(QUANTIZED) | frozenset(LOW_BIT) | {T.DT_RESOURCE, T.DT_VARIANT}

TENSOR_LIST = "tensorflow::TensorList"
# Variants holding variant tensors holding ... (each level decoded from bytes of its own, so
# the protobuf nesting limit does not bound it): refused beyond this depth.
MAX_VARIANT_DEPTH = 64


def is_proto_dtype(dtype):
    return dtype in PROTO_DTYPES


# --- wire helpers ------------------------------------------------------------------------------------

def _varint(v):
    out = bytearray()
    pb._enc_varint(v, out)
    return bytes(out)


def _encode_string_list(items):
    """port::StringListEncoder: all sizes (varint32) first, then the bytes."""
    return b"".join(_varint(len(s)) for s in items) + b"".join(items)


def _decode_string_list(content, n, what):
    data = bytes(content)
    sizes, pos = [], 0
    try:
        for _ in range(n):
            v, pos = pb._varint(data, pos)
            sizes.append(v)
    except (IndexError, ValueError):
        raise TFImportError(f"{what} tensor has corrupt tensor_content") from None
    out = []
    for size in sizes:
        if pos + size > len(data):
            raise TFImportError(f"{what} tensor has corrupt tensor_content")
        out.append(data[pos:pos + size])
        pos += size
    return out


def _shape_of(tp):
    shape_proto = tp._values.get("tensor_shape")
    shape = [] if shape_proto is None else T.shape_from_proto(shape_proto)
    if shape is None or any(d < 0 for d in shape):
        raise TFImportError("tensor has a partially known shape")
    return shape


def _num(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def _check_size(what, n, itemsize):
    """The mangled text holds every element: refuse what would not fit a protocol buffer."""
    if n * itemsize > T.MAX_EXPANDED_BYTES:
        raise TFImportError(f"{what} tensor of {n} elements is too large to be written as a tensor_proto "
                            f"attribute")


def _shape_proto(shape):
    """TensorShape::AsProto (dims only; size 0 is the proto3 default and not written)."""
    return pb.Message("TensorShapeProto", dim=[pb.Message("TensorShapeProto.Dim", size=int(d))
                                               if d else pb.Message("TensorShapeProto.Dim") for d in shape])


def _partial_shape_proto(sp):
    """PartialTensorShape(proto).AsProto(): unknown rank, or dims (-1 unknown); names dropped."""
    if sp is None:
        return pb.Message("TensorShapeProto")
    if sp.unknown_rank:
        return pb.Message("TensorShapeProto", unknown_rank=True)
    dims = []
    for d in sp.dim:
        size = d.size
        if size < -1:
            raise TFImportError(f"invalid dimension {size} in a tensor shape")
        dims.append(pb.Message("TensorShapeProto.Dim", size=size) if size else pb.Message("TensorShapeProto.Dim"))
    return pb.Message("TensorShapeProto", dim=dims)


# --- elements of a tensor (Tensor::FromProto) --------------------------------------------------------

def _message_elements(tp, dtype, n, field, schema):
    """Elements of a resource/variant tensor as decoded messages (None: default value)."""
    content = tp._values.get("tensor_content")
    what = T.dtype_name(dtype)
    if content is not None and len(content):
        out = []
        for raw in _decode_string_list(content, n, what):
            try:
                out.append(pb.decode(schema, raw))
            except pb.DecodeError:
                raise TFImportError(f"{what} tensor has a corrupt element") from None
        return out
    # FromProtoField for handles and variants: the first min(n, in_n) elements, the rest
    # default values (not the last one repeated as for numbers).
    vals = list(tp._values.get(field) or ())
    if n > len(vals):
        _check_size(what, n, 8)
    return vals[:n] + [None] * max(0, n - len(vals))


# --- resources ----------------------------------------------------------------------------------------

def _encode_resource_list(handles):
    """EncodeResourceHandleList: ResourceHandle::AsProto into ONE reused proto; its
    dtypes_and_shapes are never cleared, so they accumulate from element to element."""
    proto = pb.Message("ResourceHandleProto")
    out = []
    acc = []
    for h in handles:
        h = h if h is not None else pb.Message("ResourceHandleProto")
        for name in ("device", "container", "name", "hash_code", "maybe_type_name"):
            setattr(proto, name, getattr(h, name))
        for ds in h.dtypes_and_shapes:
            acc.append(pb.Message("ResourceHandleProto.DtypeAndShape", dtype=ds.dtype,
                                  shape=_partial_shape_proto(ds._values.get("shape"))))
        proto.dtypes_and_shapes = list(acc)
        out.append(pb.encode(proto))
    return out


# --- variants -----------------------------------------------------------------------------------------

def _get_varint(data, pos, what):
    try:
        return pb._varint(data, pos)
    except (IndexError, ValueError):
        raise TFImportError(f"corrupt {what} metadata") from None


def _as_proto_field(tp, depth):
    """Tensor::FromProto + Tensor::AsProtoField of an inner (variant-held) tensor."""
    dtype = tp.dtype
    shape = _shape_of(tp)
    n = _num(shape)
    out = pb.Message("TensorProto", dtype=dtype, tensor_shape=_shape_proto(shape))
    if dtype == T.DT_INVALID or n == 0:
        return out
    if dtype == T.DT_RESOURCE:
        handles = _message_elements(tp, dtype, n, "resource_handle_val", "ResourceHandleProto")
        out.resource_handle_val = [_resource_as_proto(h) for h in handles]
        return out
    if dtype == T.DT_VARIANT:
        elems = _message_elements(tp, dtype, n, "variant_val", "VariantTensorDataProto")
        out.variant_val = [_variant_data(e, depth + 1) or pb.Message("VariantTensorDataProto") for e in elems]
        return out
    t = T.decode_tensor(tp)
    if t.strings is not None:
        if t.splat:
            _check_size("string", n, 8)
        out.string_val = list(t.strings) * (n if t.splat else 1)
        return out
    _check_size(T.dtype_name(dtype), n, 8)
    field, vals = T.typed_field(dtype, t.full_array())
    setattr(out, field, vals)
    return out


def _resource_as_proto(h):
    h = h if h is not None else pb.Message("ResourceHandleProto")
    return pb.Message("ResourceHandleProto", device=h.device, container=h.container, name=h.name,
                      hash_code=h.hash_code, maybe_type_name=h.maybe_type_name,
                      dtypes_and_shapes=[pb.Message("ResourceHandleProto.DtypeAndShape", dtype=ds.dtype,
                                                    shape=_partial_shape_proto(ds._values.get("shape")))
                                         for ds in h.dtypes_and_shapes])


def _variant_data(proto, depth=0):
    """DecodeUnaryVariant + Variant::Encode of one VariantTensorDataProto, as the proto
    written back (None: an empty variant)."""
    if proto is None:
        return None
    if depth > MAX_VARIANT_DEPTH:
        raise TFImportError(f"variant tensors nested more than {MAX_VARIANT_DEPTH} deep")
    type_name = proto.type_name
    if not type_name:
        if len(proto.metadata) or proto.tensors:
            raise TFImportError("variant tensor element has no type name")
        return None
    if type_name == TENSOR_LIST:
        return _tensor_list(proto, depth)
    # Other variant types: their data as written, inner tensors normalized like
    # VariantTensorData::ToProto does.
    return pb.Message("VariantTensorDataProto", type_name=type_name, metadata=bytes(proto.metadata),
                      tensors=[_as_proto_field(t, depth) for t in proto.tensors])


def _tensor_list(proto, depth):
    """TensorList::Decode then TensorList::Encode (+ VariantTensorData::ToProto)."""
    what = "TensorList"
    meta = bytes(proto.metadata)
    pos = 0
    num_invalid, pos = _get_varint(meta, pos, what)
    invalid = []
    for _ in range(num_invalid):
        i, pos = _get_varint(meta, pos, what)
        invalid.append(i)
    tensors = list(proto.tensors)
    total = len(tensors) + num_invalid
    elements = []   # None for DT_INVALID entries
    it = iter(tensors)
    inv = iter(invalid)
    next_invalid = next(inv, None)
    for i in range(total):
        if next_invalid is not None and next_invalid == i:
            elements.append(None)
            next_invalid = next(inv, None)
        else:
            t = next(it, None)
            if t is None:
                raise TFImportError("corrupt TensorList variant (too few tensors)")
            elements.append(t)
    element_dtype, pos = _get_varint(meta, pos, what)
    max_num, pos = _get_varint(meta, pos, what)
    max_num &= 0xFFFFFFFF          # static_cast<int>
    if max_num >= 1 << 31:
        max_num -= 1 << 32
    try:
        shape_proto = pb.decode("TensorShapeProto", meta[pos:])
    except pb.DecodeError:
        raise TFImportError("corrupt TensorList element shape") from None
    new_meta = bytearray()
    invalid_out = [i for i, e in enumerate(elements) if e is None or e.dtype == T.DT_INVALID]
    pb._enc_varint(len(invalid_out), new_meta)
    for i in invalid_out:
        pb._enc_varint(i, new_meta)
    pb._enc_varint(element_dtype & ((1 << 64) - 1), new_meta)
    pb._enc_varint(max_num, new_meta)
    new_meta += pb.encode(_partial_shape_proto(shape_proto))
    return pb.Message("VariantTensorDataProto", type_name=TENSOR_LIST, metadata=bytes(new_meta),
                      tensors=[_as_proto_field(e, depth) for e in elements
                               if e is not None and e.dtype != T.DT_INVALID])


# --- the mangled text -------------------------------------------------------------------------------

def _content(tp, dtype, shape, n):
    """Helper<T>::Encode of Tensor::FromProto(tp): the tensor_content TensorFlow writes."""
    if n == 0:
        return b""
    if dtype in QUANTIZED or dtype in LOW_BIT:
        np_dtype = QUANTIZED.get(dtype) or LOW_BIT[dtype]
        _check_size(T.dtype_name(dtype), n, np.dtype(np_dtype).itemsize)
        t = T.decode_tensor(tp)
        arr = np.ascontiguousarray(np.asarray(t.full_array()).reshape(-1)).astype(np_dtype, copy=False)
        return arr.tobytes()
    if dtype == T.DT_RESOURCE:
        handles = _message_elements(tp, dtype, n, "resource_handle_val", "ResourceHandleProto")
        return _encode_string_list(_encode_resource_list(handles))
    if dtype == T.DT_VARIANT:
        elems = _message_elements(tp, dtype, n, "variant_val", "VariantTensorDataProto")
        encoded = []
        for e in elems:
            data = _variant_data(e)
            encoded.append(b"" if data is None else pb.encode(data))
        return _encode_string_list(encoded)
    raise TFImportError(f"{T.dtype_name(dtype)} tensors are not written as tensor_proto attributes")


def mangle(tp):
    """The bytes of TensorFlow's TensorProtoAttr for TensorProto message `tp`."""
    dtype = tp.dtype
    if dtype not in PROTO_DTYPES:
        raise TFImportError(f"{T.dtype_name(dtype)} tensors are not written as tensor_proto attributes")
    shape = _shape_of(tp)
    content = _content(tp, dtype, shape, _num(shape))
    dims = "".join(f"dim {{ size: {d} }} " if d else "dim { } " for d in shape)
    text = f"dtype: {T.dtype_name(dtype)} tensor_shape {{ {dims}}}"
    if content:
        text += ' tensor_content: "' + pb._text_escape(content) + '"'
    return PREFIX + text.encode("ascii")


def attr_text(tp):
    """`#tf_type<tensor_proto : "0x..."> : tensor<...>` for TensorProto message `tp`."""
    data = mangle(tp)
    ttype = T.tensor_type(T.element_type(tp.dtype), _shape_of(tp))
    return f'#tf_type<tensor_proto : "0x{data.hex().upper()}"> : {ttype}'


def demangle(data):
    """TensorProto message from the bytes of a tensor_proto attribute (DemangleTensor)."""
    data = bytes(data)
    if not data.startswith(PREFIX):
        raise ValueError("tensor_proto attribute bytes do not start with 'tftensor$'")
    try:
        return pb.parse_text("TensorProto", data[len(PREFIX):])
    except pb.DecodeError as exc:
        raise ValueError(f"tensor_proto attribute does not hold a TensorProto: {exc}") from None
