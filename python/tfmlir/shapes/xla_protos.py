"""The few XLA protos TensorFlow's shape functions read from string attributes, decoded from the
protobuf wire format (no protobuf dependency).

``dimension_numbers`` of ``XlaDot``/``XlaGather`` and ``manual_sharding`` of
``XlaSpmdFullToShardShape`` are serialized ``xla.DotDimensionNumbers``,
``xla.GatherDimensionNumbers`` and ``xla.OpSharding`` messages. Only their
integer fields are needed; field numbers are those of ``xla/xla_data.proto``.
:class:`OpSharding` also reads the nested ``tuple_shardings`` (the sharding
attributes ``_XlaSharding`` / ``sharding`` the TPU bridge checks) and prints
itself as protobuf's ``DebugString`` does.
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


class ConvolutionDimensionNumbers:
    """xla.ConvolutionDimensionNumbers (the fields a convolution's output shape needs)."""
    __slots__ = ("input_batch", "input_feature", "input_spatial", "kernel_input_feature",
                 "kernel_output_feature", "kernel_spatial", "output_batch", "output_feature",
                 "output_spatial")

    def __init__(self, data=b""):
        m = fields(data)
        self.kernel_input_feature = int64(m, 3)
        self.kernel_output_feature = int64(m, 4)
        self.kernel_spatial = repeated_int64(m, 6)
        self.input_batch = int64(m, 7)
        self.input_feature = int64(m, 8)
        self.output_batch = int64(m, 9)
        self.output_feature = int64(m, 10)
        self.input_spatial = repeated_int64(m, 11)
        self.output_spatial = repeated_int64(m, 12)


class GatherDimensionNumbers:
    __slots__ = ("offset_dims", "collapsed_slice_dims", "start_index_map", "index_vector_dim",
                 "operand_batching_dims", "start_indices_batching_dims")

    def __init__(self, data=b""):
        m = fields(data)
        self.offset_dims = repeated_int64(m, 1)
        self.collapsed_slice_dims = repeated_int64(m, 2)
        self.start_index_map = repeated_int64(m, 3)
        self.index_vector_dim = int64(m, 4)
        self.operand_batching_dims = repeated_int64(m, 5)
        self.start_indices_batching_dims = repeated_int64(m, 6)


def op_sharding(data):
    """xla.OpSharding: (type, tile_assignment_dimensions)."""
    sharding = OpSharding(data)
    return sharding.type, sharding.tile_assignment_dimensions


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


# --- xla.OpSharding as TF's sharding passes read and write it ------------------------------

# xla.OpSharding.Type and xla.OpSharding.ShardGroupType names, by value.
SHARDING_TYPES = ("REPLICATED", "MAXIMAL", "TUPLE", "OTHER", "MANUAL", "UNKNOWN", "UNREDUCED")
SHARDING_REPLICATED, SHARDING_MAXIMAL, SHARDING_TUPLE, SHARDING_OTHER = 0, 1, 2, 3
SHARDING_MANUAL, SHARDING_UNKNOWN, SHARDING_UNREDUCED = 4, 5, 6
_SHARD_GROUP_TYPES = ("AS", "LIKE")
_MAX_NESTING = 100  # protobuf's default recursion limit when parsing
DEBUG_STRING_MARKER = "goo.gle/debugonly "


class OpSharding:
    """A decoded ``xla.OpSharding``; :func:`parse_op_sharding` builds it.

    The integer fields are read (enums as their numbers), ``tuple_shardings``
    recursively; ``tile_shape`` (2) and ``metadata`` (7) are kept undecoded.
    """
    __slots__ = ("type", "tile_assignment_dimensions", "tile_assignment_devices",
                 "tuple_shardings", "replicate_on_last_tile_dim", "last_tile_dims",
                 "iota_reshape_dims", "iota_transpose_perm", "is_shard_group", "shard_group_id",
                 "shard_group_type", "has_tile_shape", "metadata_count")

    def __init__(self, data=b"", depth=0):
        if depth > _MAX_NESTING:
            raise ProtoError("nested too deeply")
        m = fields(data)
        self.type = int64(m, 1)
        self.tile_assignment_dimensions = repeated_int64(m, 3)
        self.tile_assignment_devices = repeated_int64(m, 4)
        self.tuple_shardings = [OpSharding(v, depth + 1) for v in m.get(5, ())
                                if isinstance(v, bytes)]
        self.replicate_on_last_tile_dim = bool(int64(m, 6))
        self.last_tile_dims = repeated_int64(m, 8)
        self.iota_reshape_dims = repeated_int64(m, 9)
        self.iota_transpose_perm = [_signed32(v) for v in repeated_int64(m, 10)]
        self.is_shard_group = bool(int64(m, 11))
        self.shard_group_id = int64(m, 12)
        self.shard_group_type = int64(m, 13)
        self.has_tile_shape = any(isinstance(v, bytes) for v in m.get(2, ()))
        self.metadata_count = sum(isinstance(v, bytes) for v in m.get(7, ()))

    def flattened(self):
        """The non-TUPLE shardings of this one, breadth first (TF's ``GetFlattenedShardings``)."""
        out, queue, k = [], [self], 0
        while k < len(queue):
            sharding = queue[k]
            k += 1
            if sharding.type == SHARDING_TUPLE:
                queue.extend(sharding.tuple_shardings)
            else:
                out.append(sharding)
        return out

    def debug_string(self):
        """Protobuf's ``DebugString``: since protobuf 30 a line with a link to protobuf's
        debug-format page and random trailing spaces (one here; protobuf picks the link and
        the spaces at random so that nothing parses the text), then :meth:`text_format`."""
        return DEBUG_STRING_MARKER + "\n" + self.text_format()

    def text_format(self, indent=""):
        """Protobuf's text format of the decoded fields: the non-default ones in field order,
        one per line, enums by name; ``tile_shape`` and ``metadata`` are not printed."""
        lines = []

        def enum(value, names):
            return names[value] if 0 <= value < len(names) else str(value)

        if self.type:
            lines.append(f"{indent}type: {enum(self.type, SHARDING_TYPES)}\n")
        for v in self.tile_assignment_dimensions:
            lines.append(f"{indent}tile_assignment_dimensions: {v}\n")
        for v in self.tile_assignment_devices:
            lines.append(f"{indent}tile_assignment_devices: {v}\n")
        for child in self.tuple_shardings:
            lines.append(f"{indent}tuple_shardings {{\n")
            lines.append(child.text_format(indent + "  "))
            lines.append(f"{indent}}}\n")
        if self.replicate_on_last_tile_dim:
            lines.append(f"{indent}replicate_on_last_tile_dim: true\n")
        for v in self.last_tile_dims:
            lines.append(f"{indent}last_tile_dims: {enum(v, SHARDING_TYPES)}\n")
        for v in self.iota_reshape_dims:
            lines.append(f"{indent}iota_reshape_dims: {v}\n")
        for v in self.iota_transpose_perm:
            lines.append(f"{indent}iota_transpose_perm: {v}\n")
        if self.is_shard_group:
            lines.append(f"{indent}is_shard_group: true\n")
        if self.shard_group_id:
            lines.append(f"{indent}shard_group_id: {self.shard_group_id}\n")
        if self.shard_group_type:
            lines.append(f"{indent}shard_group_type: "
                         f"{enum(self.shard_group_type, _SHARD_GROUP_TYPES)}\n")
        return "".join(lines)


def _signed32(v):
    v &= (1 << 32) - 1
    return v - (1 << 32) if v >= 1 << 31 else v


def parse_op_sharding(data):
    """The :class:`OpSharding` serialized in `data` (bytes), or None where protobuf's
    ``ParseFromString`` fails (malformed wire data)."""
    try:
        return OpSharding(data)
    except ProtoError:
        return None


def _encode_varint(value):
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def assign_device_sharding(device):
    """The serialized ``xla.OpSharding`` of XLA's ``sharding_builder::AssignDevice(device)``
    (type MAXIMAL, ``tile_assignment_dimensions = [1]``, ``tile_assignment_devices = [device]``),
    byte for byte as protobuf's ``SerializeAsString`` writes it."""
    packed = _encode_varint(device)
    return b"\x08\x01\x1a\x01\x01\x22" + _encode_varint(len(packed)) + packed


def _iota_devices(dims, reshape, perm):
    """The device order of XLA's ``IotaTileAssignment(dims, reshape, perm)``."""
    total = 1
    for d in reshape:
        total *= d
    ids = list(range(total))
    # Transpose the row-major array of shape `reshape` by `perm`.
    strides = [1] * len(reshape)
    for i in range(len(reshape) - 2, -1, -1):
        strides[i] = strides[i + 1] * reshape[i + 1]
    shape = [reshape[p] for p in perm]
    out = []
    index = [0] * len(shape)
    for _ in range(total):
        out.append(ids[sum(index[k] * strides[perm[k]] for k in range(len(perm)))])
        for k in range(len(shape) - 1, -1, -1):
            index[k] += 1
            if index[k] < shape[k]:
                break
            index[k] = 0
    return out


def expanded_devices(sharding):
    """The tile assignment devices of an OTHER `sharding`, iota form expanded."""
    if sharding.tile_assignment_devices or not sharding.iota_reshape_dims:
        return list(sharding.tile_assignment_devices)
    return _iota_devices(sharding.tile_assignment_dimensions, sharding.iota_reshape_dims,
                         sharding.iota_transpose_perm or list(range(len(sharding.iota_reshape_dims))))


_SIMPLE_TEXT = {"replicated": SHARDING_REPLICATED, "manual": SHARDING_MANUAL,
                "unknown": SHARDING_UNKNOWN, "unreduced": SHARDING_UNREDUCED}
_TYPE_BY_NAME = {"replicated": SHARDING_REPLICATED, "manual": SHARDING_MANUAL,
                 "unknown": SHARDING_UNKNOWN, "unreduced": SHARDING_UNREDUCED}


def _ints(text):
    text = text.strip()
    return [int(v) for v in text.split(",")] if text else []


def parse_hlo_sharding(text):
    """An OpSharding from XLA's human-readable sharding (``{replicated}``,
    ``{maximal device=0}``, ``{devices=[2,1]0,1}``, ``{devices=[2,1]<=[2]}``,
    ``... last_tile_dim_replicate``, ``... last_tile_dims={manual}``, tuples ``{{..}, {..}}``),
    or None when it is not one of these forms (metadata and shard groups are not read)."""
    import re
    text = text.strip()
    if not (text.startswith("{") and text.endswith("}")):
        return None
    inner = text[1:-1].strip()
    out = OpSharding()
    if inner.startswith("{"):
        depth, start, parts = 0, 0, []
        for i, c in enumerate(inner):
            depth += c == "{"
            depth -= c == "}"
            if c == "," and depth == 0:
                parts.append(inner[start:i])
                start = i + 1
        parts.append(inner[start:])
        elements = [parse_hlo_sharding(part) for part in parts]
        if any(e is None for e in elements):
            return None
        out.type = SHARDING_TUPLE
        out.tuple_shardings = elements
        return out
    if inner in _SIMPLE_TEXT:
        out.type = _SIMPLE_TEXT[inner]
        return out
    m = re.fullmatch(r"maximal device=(\d+)", inner)
    if m:
        out.type = SHARDING_MAXIMAL
        out.tile_assignment_devices = [int(m.group(1))]
        return out
    m = re.fullmatch(r"devices=\[([\d,\s]*)\]\s*(?:<=\[([\d,\s]*)\](?:T\(([\d,\s]*)\))?|([\d,\s]*?))"
                     r"(\s+last_tile_dim_replicate)?(?:\s+last_tile_dims=\{([\w,\s]*)\})?", inner)
    if not m:
        return None
    out.type = SHARDING_OTHER
    out.tile_assignment_dimensions = _ints(m.group(1))
    if m.group(2) is not None:
        out.iota_reshape_dims = _ints(m.group(2))
        out.iota_transpose_perm = _ints(m.group(3) or "") or list(range(len(out.iota_reshape_dims)))
    else:
        out.tile_assignment_devices = _ints(m.group(4))
    out.replicate_on_last_tile_dim = bool(m.group(5))
    if m.group(6):
        names = [n.strip() for n in m.group(6).split(",")]
        if any(n not in _TYPE_BY_NAME for n in names):
            return None
        out.last_tile_dims = [_TYPE_BY_NAME[n] for n in names]
    return out


def decode_sharding(data):
    """TF's ``DecodeShardingAttribute``: a serialized ``xla.OpSharding``, else XLA's
    human-readable form; None when neither."""
    try:
        return OpSharding(data)
    except ProtoError:
        pass
    try:
        return parse_hlo_sharding(bytes(data).decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None


def is_replicated_other(sharding):
    """An OTHER sharding that replicates the value: every data dimension has one tile, the rest
    of the tile assignment is the last dimension under ``replicate_on_last_tile_dim`` or the
    ``last_tile_dims`` subgroups (how TF's tf-tpu-rewrite reads such a sharding)."""
    tiled = len(sharding.tile_assignment_dimensions) - (1 if sharding.replicate_on_last_tile_dim else 0) \
        - len(sharding.last_tile_dims)
    if any(d != 1 for d in sharding.tile_assignment_dimensions[:max(tiled, 0)]):
        return False
    return sharding.type == SHARDING_OTHER and (
        sharding.replicate_on_last_tile_dim or bool(sharding.last_tile_dims))


def is_split(sharding):
    """A tiled sharding: each logical core holds a tile of the value (the host splits operands
    and concatenates results of this sharding)."""
    return sharding.type == SHARDING_OTHER and not is_replicated_other(sharding)


def is_replicated(sharding):
    """A sharding that gives every logical core the whole value."""
    return sharding.type == SHARDING_REPLICATED or is_replicated_other(sharding)


def sharding_cores(sharding, num_cores):
    """The logical cores of a computation of `num_cores` cores that hold a value of `sharding`,
    as tf-tpu-rewrite distributes operands and results over the cores' TPUExecutes: every core
    for a replicated sharding, the tiles' cores (tile assignment order, repeats kept) for a
    split one, the one device of a MAXIMAL one (core 0 when it names none); None for the other
    types (TUPLE, MANUAL, ...)."""
    if is_replicated(sharding):
        return list(range(num_cores))
    if is_split(sharding):
        return expanded_devices(sharding)
    if sharding.type == SHARDING_MAXIMAL:
        return [sharding.tile_assignment_devices[0] if sharding.tile_assignment_devices else 0]
    return None


def same_sharding(a, b):
    """XLA's ``HloSharding`` equality of two decoded shardings (metadata ignored)."""
    if a.type != b.type:
        return False
    if a.type == SHARDING_TUPLE:
        return (len(a.tuple_shardings) == len(b.tuple_shardings)
                and all(same_sharding(x, y) for x, y in zip(a.tuple_shardings, b.tuple_shardings)))
    if a.type == SHARDING_MAXIMAL:
        return a.tile_assignment_devices[:1] == b.tile_assignment_devices[:1]
    if a.type != SHARDING_OTHER:
        return True
    return (a.tile_assignment_dimensions == b.tile_assignment_dimensions
            and expanded_devices(a) == expanded_devices(b)
            and a.replicate_on_last_tile_dim == b.replicate_on_last_tile_dim
            and a.last_tile_dims == b.last_tile_dims)
