"""The few XLA protos TensorFlow's shape functions read from string attributes, decoded from the
protobuf wire format (no protobuf dependency).

``dimension_numbers`` of ``XlaDot``/``XlaGather`` and ``manual_sharding`` of
``XlaSpmdFullToShardShape`` are serialized ``xla.DotDimensionNumbers``,
``xla.GatherDimensionNumbers`` and ``xla.OpSharding`` messages. Only their
integer fields are needed; field numbers are those of ``xla/xla_data.proto``.
"""

_VARINT, _I64, _LEN, _I32 = 0, 1, 2, 5


class ProtoError(ValueError):
    pass


def _varint(data, pos):
    result = shift = 0
    while True:
        if pos >= len(data):
            raise ProtoError("truncated varint")
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
        if shift >= 70:
            raise ProtoError("varint too long")


def _signed64(v):
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >= 1 << 63 else v


def fields(data):
    """{field number: [values]} of one serialized message: varints and fixed-width fields as
    ints, length-delimited fields as bytes. Raises ProtoError on malformed input."""
    data = bytes(data)
    out = {}
    pos = 0
    while pos < len(data):
        key, pos = _varint(data, pos)
        number, wire = key >> 3, key & 7
        if number == 0:
            raise ProtoError("field number 0")
        if wire == _VARINT:
            value, pos = _varint(data, pos)
        elif wire == _I64:
            if pos + 8 > len(data):
                raise ProtoError("truncated fixed64")
            value = int.from_bytes(data[pos:pos + 8], "little")
            pos += 8
        elif wire == _I32:
            if pos + 4 > len(data):
                raise ProtoError("truncated fixed32")
            value = int.from_bytes(data[pos:pos + 4], "little")
            pos += 4
        elif wire == _LEN:
            n, pos = _varint(data, pos)
            if pos + n > len(data):
                raise ProtoError("truncated length-delimited field")
            value = data[pos:pos + n]
            pos += n
        else:
            raise ProtoError(f"unsupported wire type {wire}")
        out.setdefault(number, []).append(value)
    return out


def repeated_int64(msg, number):
    """A repeated int64 field, packed or not."""
    out = []
    for v in msg.get(number, ()):
        if isinstance(v, bytes):
            pos = 0
            while pos < len(v):
                x, pos = _varint(v, pos)
                out.append(_signed64(x))
        else:
            out.append(_signed64(v))
    return out


def int64(msg, number, default=0):
    """A singular int64 (or enum) field: the last value wins."""
    vals = msg.get(number)
    if not vals or isinstance(vals[-1], bytes):
        return default
    return _signed64(vals[-1])


def dot_dimension_numbers(data):
    """xla.DotDimensionNumbers: (lhs contracting, rhs contracting, lhs batch, rhs batch)."""
    m = fields(data)
    return tuple(repeated_int64(m, n) for n in (1, 2, 3, 4))


class GatherDimensionNumbers:
    __slots__ = ("offset_dims", "collapsed_slice_dims", "start_index_map", "index_vector_dim",
                 "operand_batching_dims", "start_indices_batching_dims")

    def __init__(self, data):
        m = fields(data)
        self.offset_dims = repeated_int64(m, 1)
        self.collapsed_slice_dims = repeated_int64(m, 2)
        self.start_index_map = repeated_int64(m, 3)
        self.index_vector_dim = int64(m, 4)
        self.operand_batching_dims = repeated_int64(m, 5)
        self.start_indices_batching_dims = repeated_int64(m, 6)


# xla.OpSharding.Type
SHARDING_OTHER = 3


def op_sharding(data):
    """xla.OpSharding: (type, tile_assignment_dimensions)."""
    m = fields(data)
    return int64(m, 1), repeated_int64(m, 3)


# xla.OpSharding.Type
SHARDING_REPLICATED = 0


def op_sharding_type(data):
    """The ``type`` of a serialized xla.OpSharding as C++ ``ParseFromString`` leaves it, even for
    malformed data (TF's passes ignore the parse status): the last well-formed varint of field
    1 before the data stops parsing, as a C++ int32 enum; REPLICATED (0) when there is none."""
    data = bytes(data)
    result = SHARDING_REPLICATED
    pos = 0
    try:
        while pos < len(data):
            key, pos = _varint(data, pos)
            number, wire = key >> 3, key & 7
            if number == 0:
                break
            if wire == _VARINT:
                value, pos = _varint(data, pos)
                if number == 1:
                    value &= 0xFFFFFFFF
                    result = value - (1 << 32) if value >= 1 << 31 else value
            elif wire == _I64:
                pos += 8
            elif wire == _I32:
                pos += 4
            elif wire == _LEN:
                n, pos = _varint(data, pos)
                pos += n
            else:
                break
            if pos > len(data):
                break
    except ProtoError:
        pass
    return result
