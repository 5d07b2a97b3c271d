"""A small protocol-buffer codec for TensorFlow's graph messages.

TensorFlow's generated ``*_pb2`` classes live inside the ``tensorflow``
package, and importing any of them imports all of TensorFlow (seconds, and a
second LLVM). This module decodes and encodes the handful of messages the
importer and exporter need (GraphDef, FunctionDefLibrary, SavedModel, ...)
from their wire format directly, driven by the schemas below, which carry
TensorFlow's field numbers (``tests/python/test_importer.py`` checks them
against TensorFlow's own descriptors).

Decoded messages are :class:`Message` objects: attribute access by field name,
proto3 defaults for absent fields, repeated fields as lists, maps as dicts.
Large ``bytes`` fields marked ``view`` (``TensorProto.tensor_content``) stay
zero-copy ``memoryview`` slices of the input. Packed numeric repeated fields
are kept as raw bytes until asked for (:func:`packed_values`), so tensors
decode through numpy buffers rather than element by element.

The text format (``.pbtxt``) is supported too: :func:`parse_text` and
:func:`to_text`.
"""
import math
import struct

__all__ = ["DecodeError", "Message", "decode", "encode", "parse_text", "to_text", "SCHEMAS",
           "packed_values"]


class DecodeError(ValueError):
    """The input is not a valid encoding of the expected message."""


# Messages nested deeper than this are refused (protobuf's default recursion limit), in the
# binary and the text format: the decoders recurse once per level.
MAX_DEPTH = 100


# Field kinds.
INT = "int"          # varint (int32/int64/uint32/uint64), two's complement for negatives
SINT = "sint"        # zigzag varint (unused by TF, kept for completeness)
BOOL = "bool"
ENUM = "enum"
FLOAT = "float"      # fixed32
DOUBLE = "double"    # fixed64
FIXED64 = "fixed64"
FIXED32 = "fixed32"
STRING = "string"    # utf-8 text (invalid utf-8 is kept with surrogateescape)
BYTES = "bytes"
VIEW = "view"        # bytes kept as a memoryview into the input
MESSAGE = "message"
MAP = "map"

_PACKABLE = {INT: 0, SINT: 0, BOOL: 0, ENUM: 0, FLOAT: 5, DOUBLE: 1, FIXED64: 1, FIXED32: 5}


class Field:
    __slots__ = ("number", "name", "kind", "repeated", "message", "key_kind", "value_kind",
                 "value_message", "packed_raw", "oneof")

    def __init__(self, number, name, kind, repeated=False, message=None, key_kind=None,
                 value_kind=None, value_message=None, packed_raw=False, oneof=None):
        self.number = number
        self.name = name
        self.kind = kind
        self.repeated = repeated
        self.message = message
        self.key_kind = key_kind
        self.value_kind = value_kind
        self.value_message = value_message
        self.packed_raw = packed_raw
        self.oneof = oneof


class Schema:
    """Fields of one message type."""

    def __init__(self, name, fields):
        self.name = name
        self.fields = fields
        self.by_number = {f.number: f for f in fields}
        self.wire_order = sorted(fields, key=lambda f: f.number)
        self.by_name = {f.name: f for f in fields}
        self.oneofs = {}
        for f in fields:
            if f.oneof:
                self.oneofs.setdefault(f.oneof, []).append(f.name)

    def default(self, field):
        if field.repeated:
            return PackedRaw(field.kind, b"", []) if field.packed_raw else []
        if field.kind == MAP:
            return {}
        if field.kind == MESSAGE:
            return Message(SCHEMAS[field.message])  # an empty message; has() stays False
        return _SCALAR_DEFAULTS[field.kind]


_SCALAR_DEFAULTS = {INT: 0, SINT: 0, BOOL: False, ENUM: 0, FLOAT: 0.0, DOUBLE: 0.0, FIXED64: 0, FIXED32: 0,
                    STRING: "", BYTES: b"", VIEW: b""}


class PackedRaw:
    """A repeated numeric field kept in wire form: packed chunks plus loose values."""
    __slots__ = ("kind", "chunks", "loose")

    def __init__(self, kind, first=b"", loose=None):
        self.kind = kind
        self.chunks = [first] if first else []
        self.loose = loose if loose is not None else []

    def __len__(self):
        return len(self.values())

    def __bool__(self):
        return bool(self.chunks) or bool(self.loose)

    def __iter__(self):
        return iter(self.values())

    def values(self):
        return packed_values(self)


class Message:
    """A decoded message: fields by name, proto3 defaults for absent ones."""
    __slots__ = ("_schema", "_values")

    def __init__(self, schema, **values):
        object.__setattr__(self, "_schema", schema if isinstance(schema, Schema) else SCHEMAS[schema])
        object.__setattr__(self, "_values", {})
        for k, v in values.items():
            setattr(self, k, v)

    def __getattr__(self, name):
        values = self._values
        if name in values:
            return values[name]
        schema = self._schema
        field = schema.by_name.get(name)
        if field is None:
            raise AttributeError(f"{schema.name} has no field '{name}'")
        value = schema.default(field)
        if field.repeated or field.kind == MAP:
            values[name] = value  # so that appends stick
        return value

    def __setattr__(self, name, value):
        schema = self._schema
        field = schema.by_name.get(name)
        if field is None:
            raise AttributeError(f"{schema.name} has no field '{name}'")
        if field.oneof:
            for other in schema.oneofs[field.oneof]:
                self._values.pop(other, None)
        self._values[name] = value

    def has(self, name):
        """True if the field was present in the input (or set)."""
        return name in self._values

    def which(self, oneof):
        """The name of the set field of a oneof group, or None."""
        for name in self._schema.oneofs.get(oneof, ()):
            if name in self._values:
                return name
        return None

    def clear(self, name):
        self._values.pop(name, None)

    @property
    def schema(self):
        return self._schema

    def __repr__(self):
        return f"<{self._schema.name} {to_text(self)[:200]!r}>"

    def __eq__(self, other):
        return isinstance(other, Message) and encode(self) == encode(other)

    def __hash__(self):
        return hash(encode(self))


SCHEMAS = {}


def _schema(name, *fields):
    SCHEMAS[name] = Schema(name, list(fields))


F = Field
# --- tensorflow/core/framework ------------------------------------------------------------
_schema("VersionDef", F(1, "producer", INT), F(2, "min_consumer", INT),
        F(3, "bad_consumers", INT, repeated=True))
_schema("TensorShapeProto.Dim", F(1, "size", INT), F(2, "name", STRING))
_schema("TensorShapeProto", F(2, "dim", MESSAGE, True, "TensorShapeProto.Dim"), F(3, "unknown_rank", BOOL))
_schema("ResourceHandleProto.DtypeAndShape", F(1, "dtype", ENUM), F(2, "shape", MESSAGE, message="TensorShapeProto"))
_schema("ResourceHandleProto", F(1, "device", STRING), F(2, "container", STRING), F(3, "name", STRING),
        F(4, "hash_code", INT), F(5, "maybe_type_name", STRING),
        F(6, "dtypes_and_shapes", MESSAGE, True, "ResourceHandleProto.DtypeAndShape"))
_schema("VariantTensorDataProto", F(1, "type_name", STRING), F(2, "metadata", BYTES),
        F(3, "tensors", MESSAGE, True, "TensorProto"))
_schema("TensorProto", F(1, "dtype", ENUM), F(2, "tensor_shape", MESSAGE, message="TensorShapeProto"),
        F(3, "version_number", INT), F(4, "tensor_content", VIEW),
        F(13, "half_val", INT, True, packed_raw=True), F(5, "float_val", FLOAT, True, packed_raw=True),
        F(6, "double_val", DOUBLE, True, packed_raw=True), F(7, "int_val", INT, True, packed_raw=True),
        F(8, "string_val", BYTES, True), F(9, "scomplex_val", FLOAT, True, packed_raw=True),
        F(10, "int64_val", INT, True, packed_raw=True), F(11, "bool_val", BOOL, True, packed_raw=True),
        F(12, "dcomplex_val", DOUBLE, True, packed_raw=True),
        F(14, "resource_handle_val", MESSAGE, True, "ResourceHandleProto"),
        F(15, "variant_val", MESSAGE, True, "VariantTensorDataProto"),
        F(16, "uint32_val", INT, True, packed_raw=True), F(17, "uint64_val", INT, True, packed_raw=True),
        F(18, "float8_val", BYTES))
_schema("AttrValue.ListValue", F(2, "s", BYTES, True), F(3, "i", INT, True), F(4, "f", FLOAT, True),
        F(5, "b", BOOL, True), F(6, "type", ENUM, True), F(7, "shape", MESSAGE, True, "TensorShapeProto"),
        F(8, "tensor", MESSAGE, True, "TensorProto"), F(9, "func", MESSAGE, True, "NameAttrList"))
_schema("AttrValue", F(2, "s", BYTES, oneof="value"), F(3, "i", INT, oneof="value"),
        F(4, "f", FLOAT, oneof="value"), F(5, "b", BOOL, oneof="value"), F(6, "type", ENUM, oneof="value"),
        F(7, "shape", MESSAGE, message="TensorShapeProto", oneof="value"),
        F(8, "tensor", MESSAGE, message="TensorProto", oneof="value"),
        F(1, "list", MESSAGE, message="AttrValue.ListValue", oneof="value"),
        F(10, "func", MESSAGE, message="NameAttrList", oneof="value"),
        F(9, "placeholder", STRING, oneof="value"))
_schema("NameAttrList", F(1, "name", STRING), F(2, "attr", MAP, key_kind=STRING, value_kind=MESSAGE,
                                                  value_message="AttrValue"))
_schema("NodeDef.ExperimentalDebugInfo", F(1, "original_node_names", STRING, True),
        F(2, "original_func_names", STRING, True))
_schema("FullTypeDef", F(1, "type_id", ENUM), F(2, "args", MESSAGE, True, "FullTypeDef"),
        F(3, "s", STRING, oneof="attr"), F(4, "i", INT, oneof="attr"))
_schema("NodeDef", F(1, "name", STRING), F(2, "op", STRING), F(3, "input", STRING, True),
        F(4, "device", STRING),
        F(5, "attr", MAP, key_kind=STRING, value_kind=MESSAGE, value_message="AttrValue"),
        F(6, "experimental_debug_info", MESSAGE, message="NodeDef.ExperimentalDebugInfo"),
        F(7, "experimental_type", MESSAGE, message="FullTypeDef"))
_schema("OpDef.ArgDef", F(1, "name", STRING), F(2, "description", STRING), F(3, "type", ENUM),
        F(4, "type_attr", STRING), F(5, "number_attr", STRING), F(6, "type_list_attr", STRING),
        F(7, "handle_data", MESSAGE, True, "ResourceHandleProto.DtypeAndShape"),
        F(16, "is_ref", BOOL), F(17, "experimental_full_type", MESSAGE, message="FullTypeDef"))
_schema("OpDef.AttrDef", F(1, "name", STRING), F(2, "type", STRING),
        F(3, "default_value", MESSAGE, message="AttrValue"), F(4, "description", STRING),
        F(5, "has_minimum", BOOL), F(6, "minimum", INT), F(7, "allowed_values", MESSAGE, message="AttrValue"))
_schema("OpDeprecation", F(1, "version", INT), F(2, "explanation", STRING))
_schema("OpDef", F(1, "name", STRING), F(2, "input_arg", MESSAGE, True, "OpDef.ArgDef"),
        F(3, "output_arg", MESSAGE, True, "OpDef.ArgDef"), F(20, "control_output", STRING, True),
        F(4, "attr", MESSAGE, True, "OpDef.AttrDef"), F(8, "deprecation", MESSAGE, message="OpDeprecation"),
        F(5, "summary", STRING), F(6, "description", STRING), F(18, "is_commutative", BOOL),
        F(16, "is_aggregate", BOOL), F(17, "is_stateful", BOOL), F(19, "allows_uninitialized_input", BOOL),
        F(21, "is_distributed_communication", BOOL))
_schema("OpList", F(1, "op", MESSAGE, True, "OpDef"))
_schema("FunctionDef.ArgAttrs", F(1, "attr", MAP, key_kind=STRING, value_kind=MESSAGE, value_message="AttrValue"))
_schema("FunctionDef", F(1, "signature", MESSAGE, message="OpDef"),
        F(5, "attr", MAP, key_kind=STRING, value_kind=MESSAGE, value_message="AttrValue"),
        F(7, "arg_attr", MAP, key_kind=INT, value_kind=MESSAGE, value_message="FunctionDef.ArgAttrs"),
        F(8, "resource_arg_unique_id", MAP, key_kind=INT, value_kind=INT),
        F(3, "node_def", MESSAGE, True, "NodeDef"),
        F(4, "ret", MAP, key_kind=STRING, value_kind=STRING),
        F(6, "control_ret", MAP, key_kind=STRING, value_kind=STRING))
_schema("GradientDef", F(1, "function_name", STRING), F(2, "gradient_func", STRING))
_schema("RegisteredGradient", F(1, "gradient_func", STRING), F(2, "registered_op_type", STRING))
_schema("FunctionDefLibrary", F(1, "function", MESSAGE, True, "FunctionDef"),
        F(2, "gradient", MESSAGE, True, "GradientDef"),
        F(3, "registered_gradients", MESSAGE, True, "RegisteredGradient"))
_schema("GraphDebugInfo.FileLineCol", F(1, "file_index", INT), F(2, "line", INT), F(3, "col", INT),
        F(4, "func", STRING), F(5, "code", STRING))
_schema("GraphDebugInfo.StackTrace", F(1, "file_line_cols", MESSAGE, True, "GraphDebugInfo.FileLineCol"),
        F(2, "frame_id", FIXED64, True))
_schema("GraphDebugInfo", F(1, "files", STRING, True),
        F(4, "frames_by_id", MAP, key_kind=FIXED64, value_kind=MESSAGE, value_message="GraphDebugInfo.FileLineCol"),
        F(6, "traces_by_id", MAP, key_kind=FIXED64, value_kind=MESSAGE, value_message="GraphDebugInfo.StackTrace"),
        F(2, "traces", MAP, key_kind=STRING, value_kind=MESSAGE, value_message="GraphDebugInfo.StackTrace"),
        F(5, "name_to_trace_id", MAP, key_kind=STRING, value_kind=FIXED64))
_schema("GraphDef", F(1, "node", MESSAGE, True, "NodeDef"), F(4, "versions", MESSAGE, message="VersionDef"),
        F(3, "version", INT), F(2, "library", MESSAGE, message="FunctionDefLibrary"),
        F(5, "debug_info", MESSAGE, message="GraphDebugInfo"))
# --- tensorflow/core/protobuf (SavedModel) ---------------------------------------------------
_schema("TensorInfo", F(1, "name", STRING, oneof="encoding"), F(2, "dtype", ENUM),
        F(3, "tensor_shape", MESSAGE, message="TensorShapeProto"))
_schema("SignatureDef", F(1, "inputs", MAP, key_kind=STRING, value_kind=MESSAGE, value_message="TensorInfo"),
        F(2, "outputs", MAP, key_kind=STRING, value_kind=MESSAGE, value_message="TensorInfo"),
        F(3, "method_name", STRING),
        F(4, "defaults", MAP, key_kind=STRING, value_kind=MESSAGE, value_message="TensorProto"))
_schema("MetaGraphDef.MetaInfoDef", F(1, "meta_graph_version", STRING),
        F(2, "stripped_op_list", MESSAGE, message="OpList"), F(4, "tags", STRING, True),
        F(5, "tensorflow_version", STRING), F(6, "tensorflow_git_version", STRING),
        F(7, "stripped_default_attrs", BOOL),
        F(8, "function_aliases", MAP, key_kind=STRING, value_kind=STRING))
_schema("SaverDef", F(1, "filename_tensor_name", STRING), F(2, "save_tensor_name", STRING),
        F(3, "restore_op_name", STRING), F(4, "max_to_keep", INT), F(5, "sharded", BOOL),
        F(6, "keep_checkpoint_every_n_hours", FLOAT), F(7, "version", ENUM))
_schema("CollectionDef.NodeList", F(1, "value", STRING, True))
_schema("CollectionDef.BytesList", F(1, "value", BYTES, True))
_schema("CollectionDef", F(1, "node_list", MESSAGE, message="CollectionDef.NodeList", oneof="kind"),
        F(2, "bytes_list", MESSAGE, message="CollectionDef.BytesList", oneof="kind"))
_schema("AssetFileDef", F(1, "tensor_info", MESSAGE, message="TensorInfo"), F(2, "filename", STRING))
_schema("TrackableObjectGraph.TrackableObject.ObjectReference", F(1, "node_id", INT), F(2, "local_name", STRING))
_schema("SavedUserObject", F(1, "identifier", STRING), F(3, "metadata", STRING))
_schema("SavedAsset", F(1, "asset_file_def_index", INT))
_schema("SavedFunction", F(1, "concrete_functions", STRING, True))
_schema("SavedVariable", F(1, "dtype", ENUM), F(2, "shape", MESSAGE, message="TensorShapeProto"),
        F(3, "trainable", BOOL), F(4, "synchronization", ENUM), F(5, "aggregation", ENUM),
        F(6, "name", STRING), F(7, "device", STRING))
_schema("SavedBareConcreteFunction", F(1, "concrete_function_name", STRING),
        F(2, "argument_keywords", STRING, True), F(3, "allowed_positional_arguments", INT))
_schema("SavedConstant", F(1, "operation", STRING))
_schema("SavedResource", F(1, "device", STRING))
_schema("CapturedTensor", F(1, "name", STRING), F(2, "concrete_function", STRING))
_schema("SavedObject", F(1, "children", MESSAGE, True, "TrackableObjectGraph.TrackableObject.ObjectReference"),
        F(15, "dependencies", MESSAGE, True, "TrackableObjectGraph.TrackableObject.ObjectReference"),
        F(4, "user_object", MESSAGE, message="SavedUserObject", oneof="kind"),
        F(5, "asset", MESSAGE, message="SavedAsset", oneof="kind"),
        F(6, "function", MESSAGE, message="SavedFunction", oneof="kind"),
        F(7, "variable", MESSAGE, message="SavedVariable", oneof="kind"),
        F(8, "bare_concrete_function", MESSAGE, message="SavedBareConcreteFunction", oneof="kind"),
        F(9, "constant", MESSAGE, message="SavedConstant", oneof="kind"),
        F(10, "resource", MESSAGE, message="SavedResource", oneof="kind"),
        F(12, "captured_tensor", MESSAGE, message="CapturedTensor", oneof="kind"))
_schema("SavedConcreteFunction", F(2, "bound_inputs", INT, True))
_schema("SavedObjectGraph", F(1, "nodes", MESSAGE, True, "SavedObject"),
        F(2, "concrete_functions", MAP, key_kind=STRING, value_kind=MESSAGE, value_message="SavedConcreteFunction"))
_schema("MetaGraphDef", F(1, "meta_info_def", MESSAGE, message="MetaGraphDef.MetaInfoDef"),
        F(2, "graph_def", MESSAGE, message="GraphDef"), F(3, "saver_def", MESSAGE, message="SaverDef"),
        F(4, "collection_def", MAP, key_kind=STRING, value_kind=MESSAGE, value_message="CollectionDef"),
        F(5, "signature_def", MAP, key_kind=STRING, value_kind=MESSAGE, value_message="SignatureDef"),
        F(6, "asset_file_def", MESSAGE, True, "AssetFileDef"),
        F(7, "object_graph_def", MESSAGE, message="SavedObjectGraph"))
_schema("SavedModel", F(1, "saved_model_schema_version", INT), F(2, "meta_graphs", MESSAGE, True, "MetaGraphDef"))
# Checkpoint bundle index entries (tensorflow/core/protobuf/tensor_bundle.proto).
_schema("BundleHeaderProto", F(1, "num_shards", INT), F(2, "endianness", ENUM),
        F(3, "version", MESSAGE, message="VersionDef"))
_schema("TensorSliceProto", F(1, "extent", MESSAGE, True, "TensorSliceProto.Extent"))
_schema("TensorSliceProto.Extent", F(1, "start", INT), F(2, "length", INT, oneof="has_length"))
_schema("BundleEntryProto", F(1, "dtype", ENUM), F(2, "shape", MESSAGE, message="TensorShapeProto"),
        F(3, "shard_id", INT), F(4, "offset", INT), F(5, "size", INT), F(6, "crc32c", FIXED32),
        F(7, "slices", MESSAGE, True, "TensorSliceProto"))
del F

# ------------------------------------------------------------------------------------------
# Decoding.

_unpack_f = struct.Struct("<f").unpack_from
_unpack_d = struct.Struct("<d").unpack_from
_unpack_q = struct.Struct("<Q").unpack_from


def _varint(buf, pos):
    b = buf[pos]
    if b < 0x80:
        return b, pos + 1
    result = b & 0x7F
    shift = 7
    pos += 1
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7
        if shift > 70:
            raise DecodeError("varint too long")


def _signed64(v):
    return v - (1 << 64) if v >= (1 << 63) else v


def _skip(buf, pos, wire, end):
    if wire == 0:
        _, pos = _varint(buf, pos)
    elif wire == 1:
        pos += 8
    elif wire == 2:
        n, pos = _varint(buf, pos)
        pos += n
    elif wire == 5:
        pos += 4
    elif wire == 3:  # group: skip until matching end group
        depth = 1
        while depth:
            if pos >= end:
                raise DecodeError("unterminated group")
            tag, pos = _varint(buf, pos)
            w = tag & 7
            if w == 3:
                depth += 1
            elif w == 4:
                depth -= 1
            else:
                pos = _skip(buf, pos, w, end)
    else:
        raise DecodeError(f"invalid wire type {wire}")
    if pos > end:
        raise DecodeError("field runs past the end of its message")
    return pos


def _scalar(kind, buf, view, pos, wire, end):
    """Decodes one scalar of `kind` at pos (wire type `wire`)."""
    if wire == 0:
        v, pos = _varint(buf, pos)
        if kind is INT or kind is ENUM:
            if v >= (1 << 63):
                v -= 1 << 64
            return v, pos
        if kind is BOOL:
            return v != 0, pos
        if kind is SINT:
            return (v >> 1) ^ -(v & 1), pos
        raise DecodeError(f"varint for a {kind} field")
    if wire == 2:
        n, pos = _varint(buf, pos)
        stop = pos + n
        if stop > end:
            raise DecodeError("length-delimited field runs past the end of its message")
        if kind is STRING:
            try:
                return buf[pos:stop].decode("utf-8"), stop
            except UnicodeDecodeError:
                return buf[pos:stop].decode("utf-8", "surrogateescape"), stop
        if kind is BYTES:
            return bytes(buf[pos:stop]), stop
        if kind is VIEW:
            return view[pos:stop], stop
        raise DecodeError(f"length-delimited value for a {kind} field")
    if wire == 5:
        if pos + 4 > end:
            raise DecodeError("truncated fixed32")
        if kind is FLOAT:
            return _unpack_f(buf, pos)[0], pos + 4
        if kind is INT or kind is ENUM:
            return int.from_bytes(buf[pos:pos + 4], "little"), pos + 4
        raise DecodeError(f"fixed32 for a {kind} field")
    if wire == 1:
        if pos + 8 > end:
            raise DecodeError("truncated fixed64")
        if kind is DOUBLE:
            return _unpack_d(buf, pos)[0], pos + 8
        if kind is INT or kind is ENUM:
            return _unpack_q(buf, pos)[0], pos + 8
        raise DecodeError(f"fixed64 for a {kind} field")
    raise DecodeError(f"wire type {wire} for a {kind} field")


def _decode_map_entry(field, buf, view, pos, end, depth):
    key = _SCALAR_DEFAULTS.get(field.key_kind, "")
    value = None
    while pos < end:
        tag, pos = _varint(buf, pos)
        num, wire = tag >> 3, tag & 7
        if num == 1:
            key, pos = _scalar(field.key_kind, buf, view, pos, wire, end)
        elif num == 2:
            if field.value_kind is MESSAGE:
                if wire != 2:
                    raise DecodeError("map value is not a message")
                n, pos = _varint(buf, pos)
                stop = pos + n
                if stop > end:
                    raise DecodeError("map value runs past the end of its entry")
                value = _decode(SCHEMAS[field.value_message], buf, view, pos, stop, depth + 1)
                pos = stop
            else:
                value, pos = _scalar(field.value_kind, buf, view, pos, wire, end)
        else:
            pos = _skip(buf, pos, wire, end)
    if value is None:
        value = Message(field.value_message) if field.value_kind is MESSAGE else _SCALAR_DEFAULTS[field.value_kind]
    return key, value, pos


def _decode(schema, buf, view, pos, end, depth=0):
    if depth > MAX_DEPTH:
        raise DecodeError(f"messages nested more than {MAX_DEPTH} deep")
    msg = Message.__new__(Message)
    object.__setattr__(msg, "_schema", schema)
    values = {}
    object.__setattr__(msg, "_values", values)
    by_number = schema.by_number
    while pos < end:
        tag, pos = _varint(buf, pos)
        num = tag >> 3
        wire = tag & 7
        field = by_number.get(num)
        if field is None:
            if num == 0:
                raise DecodeError("field number 0")
            pos = _skip(buf, pos, wire, end)
            continue
        kind = field.kind
        name = field.name
        if kind is MESSAGE:
            if wire != 2:
                raise DecodeError(f"{schema.name}.{name}: expected a length-delimited message")
            n, pos = _varint(buf, pos)
            stop = pos + n
            if stop > end:
                raise DecodeError(f"{schema.name}.{name}: message runs past the end of its parent")
            sub = _decode(SCHEMAS[field.message], buf, view, pos, stop, depth + 1)
            pos = stop
            if field.repeated:
                lst = values.get(name)
                if lst is None:
                    values[name] = [sub]
                else:
                    lst.append(sub)
            else:
                if field.oneof:
                    for other in schema.oneofs[field.oneof]:
                        values.pop(other, None)
                values[name] = sub  # (no merging of repeated singular messages; last wins)
        elif kind is MAP:
            if wire != 2:
                raise DecodeError(f"{schema.name}.{name}: expected a map entry")
            n, pos = _varint(buf, pos)
            stop = pos + n
            if stop > end:
                raise DecodeError(f"{schema.name}.{name}: map entry runs past the end of its parent")
            key, value, _ = _decode_map_entry(field, buf, view, pos, stop, depth + 1)
            pos = stop
            d = values.get(name)
            if d is None:
                values[name] = {key: value}
            else:
                d[key] = value
        elif field.repeated:
            if field.packed_raw:
                raw = values.get(name)
                if raw is None:
                    raw = values[name] = PackedRaw(kind)
                if wire == 2 and kind in _PACKABLE:
                    n, pos = _varint(buf, pos)
                    stop = pos + n
                    if stop > end:
                        raise DecodeError(f"{schema.name}.{name}: packed field runs past the end")
                    raw.chunks.append(view[pos:stop])
                    pos = stop
                else:
                    v, pos = _scalar(kind, buf, view, pos, wire, end)
                    raw.loose.append(v)
                continue
            lst = values.get(name)
            if lst is None:
                lst = values[name] = []
            if wire == 2 and kind in _PACKABLE:
                n, pos = _varint(buf, pos)
                stop = pos + n
                if stop > end:
                    raise DecodeError(f"{schema.name}.{name}: packed field runs past the end")
                lst.extend(_unpack_packed(kind, buf, pos, stop))
                pos = stop
            else:
                v, pos = _scalar(kind, buf, view, pos, wire, end)
                lst.append(v)
        else:
            v, pos = _scalar(kind, buf, view, pos, wire, end)
            if field.oneof:
                for other in schema.oneofs[field.oneof]:
                    values.pop(other, None)
            values[name] = v
    if pos != end:
        raise DecodeError(f"{schema.name}: truncated message")
    return msg


def _unpack_packed(kind, buf, pos, stop):
    if kind is FLOAT:
        if (stop - pos) % 4:
            raise DecodeError("packed float field has a partial element")
        return list(struct.unpack_from(f"<{(stop - pos) // 4}f", buf, pos))
    if kind is FIXED32:
        if (stop - pos) % 4:
            raise DecodeError("packed fixed32 field has a partial element")
        return list(struct.unpack_from(f"<{(stop - pos) // 4}I", buf, pos))
    if kind is DOUBLE or kind is FIXED64:
        if (stop - pos) % 8:
            raise DecodeError("packed 64-bit field has a partial element")
        fmt = "d" if kind is DOUBLE else "Q"
        return list(struct.unpack_from(f"<{(stop - pos) // 8}{fmt}", buf, pos))
    out = []
    while pos < stop:
        try:
            v, pos = _varint(buf, pos)
        except IndexError:
            raise DecodeError("packed varint field is truncated") from None
        if kind is BOOL:
            out.append(v != 0)
        elif kind is SINT:
            out.append((v >> 1) ^ -(v & 1))
        else:
            out.append(v - (1 << 64) if v >= (1 << 63) else v)
    if pos != stop:
        raise DecodeError("packed varint field runs past its length")
    return out


def packed_values(raw):
    """The values of a PackedRaw field as a Python list (decoded on demand)."""
    if isinstance(raw, list):
        return raw
    out = []
    for chunk in raw.chunks:
        b = bytes(chunk)
        out.extend(_unpack_packed(raw.kind, b, 0, len(b)))
    out.extend(raw.loose)
    return out


def decode(schema_name, data):
    """Decodes `data` (bytes-like) as message `schema_name`.

    Raises :class:`DecodeError` for malformed input (truncation, bad wire types).
    """
    import mmap as _mmap
    if isinstance(data, _mmap.mmap):
        buf = data  # indexing gives ints, slicing copies small strings; views stay zero-copy
    else:
        buf = data if isinstance(data, bytes) else bytes(data)
    view = memoryview(buf)
    try:
        return _decode(SCHEMAS[schema_name], buf, view, 0, len(buf))
    except DecodeError:
        raise
    except (IndexError, struct.error) as exc:
        raise DecodeError(f"truncated or corrupt {schema_name}: {exc}") from None


# ------------------------------------------------------------------------------------------
# Encoding.

def _enc_varint(v, out):
    if v < 0:
        v += 1 << 64
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)


def _enc_tag(num, wire, out):
    _enc_varint((num << 3) | wire, out)


def _enc_len(data, out):
    _enc_varint(len(data), out)
    out += data


def _enc_scalar(kind, num, v, out):
    if kind in (INT, ENUM, SINT):
        _enc_tag(num, 0, out)
        if kind is SINT:
            v = (v << 1) ^ (v >> 63)
        _enc_varint(int(v), out)
    elif kind is BOOL:
        _enc_tag(num, 0, out)
        out.append(1 if v else 0)
    elif kind is FLOAT:
        _enc_tag(num, 5, out)
        out += struct.pack("<f", v)
    elif kind is DOUBLE:
        _enc_tag(num, 1, out)
        out += struct.pack("<d", v)
    elif kind is FIXED64:
        _enc_tag(num, 1, out)
        out += struct.pack("<Q", v)
    elif kind is FIXED32:
        _enc_tag(num, 5, out)
        out += struct.pack("<I", v)
    elif kind is STRING:
        _enc_tag(num, 2, out)
        _enc_len(v.encode("utf-8", "surrogateescape") if isinstance(v, str) else bytes(v), out)
    elif kind in (BYTES, VIEW):
        _enc_tag(num, 2, out)
        _enc_len(v.encode("utf-8", "surrogateescape") if isinstance(v, str) else v, out)
    else:
        raise TypeError(kind)


def _enc_packed(kind, num, values, out):
    body = bytearray()
    if kind is FLOAT:
        body += struct.pack(f"<{len(values)}f", *values)
    elif kind is DOUBLE:
        body += struct.pack(f"<{len(values)}d", *values)
    elif kind is FIXED64:
        body += struct.pack(f"<{len(values)}Q", *values)
    elif kind is FIXED32:
        body += struct.pack(f"<{len(values)}I", *values)
    else:
        for v in values:
            if kind is BOOL:
                body.append(1 if v else 0)
            else:
                _enc_varint(int(v), body)
    _enc_tag(num, 2, out)
    _enc_len(body, out)


class _Out:
    """Encoder output: small writes go to a buffer; big byte strings and nested messages are kept
    as separate parts, so a large tensor is copied once (when the parts are joined)."""
    __slots__ = ("parts", "cur")

    def __init__(self):
        self.parts = []
        self.cur = bytearray()

    def size(self):
        return sum(len(p) for p in self.parts) + len(self.cur)

    def flush(self):
        if self.cur:
            self.parts.append(self.cur)
            self.cur = bytearray()

    def add_length_delimited(self, num, data):
        _enc_tag(num, 2, self.cur)
        _enc_varint(len(data), self.cur)
        if len(data) > 4096:
            self.flush()
            self.parts.append(data)
        else:
            self.cur += data

    def add_message(self, num, sub):
        _enc_tag(num, 2, self.cur)
        _enc_varint(sub.size(), self.cur)
        self.flush()
        sub.flush()
        self.parts.extend(sub.parts)


def _encode(msg, out):
    schema = msg._schema
    values = msg._values
    for field in schema.wire_order:
        name = field.name
        if name not in values:
            continue
        v = values[name]
        num = field.number
        kind = field.kind
        if kind is MAP:
            for key in sorted(v) if field.key_kind is not MESSAGE else v:
                entry = _Out()
                _enc_scalar(field.key_kind, 1, key, entry.cur)
                val = v[key]
                if field.value_kind is MESSAGE:
                    sub = _Out()
                    _encode(val, sub)
                    entry.add_message(2, sub)
                else:
                    _enc_scalar(field.value_kind, 2, val, entry.cur)
                out.add_message(num, entry)
        elif field.repeated:
            if isinstance(v, PackedRaw):
                if v.chunks and not v.loose:
                    body = b"".join(bytes(c) for c in v.chunks)
                    if body:
                        out.add_length_delimited(num, body)
                    continue
                v = packed_values(v)
            if not len(v):
                continue
            if kind is MESSAGE:
                for item in v:
                    sub = _Out()
                    _encode(item, sub)
                    out.add_message(num, sub)
            elif kind in _PACKABLE:
                _enc_packed(kind, num, v, out.cur)
            else:
                for item in v:
                    _enc_scalar(kind, num, item, out.cur)
        elif kind is MESSAGE:
            if v is None:
                continue
            sub = _Out()
            _encode(v, sub)
            out.add_message(num, sub)
        else:
            # proto3: defaults are not written, except inside oneofs.
            if not field.oneof and (v == _SCALAR_DEFAULTS[kind] and not (kind is FLOAT and math.copysign(1, v) < 0)):
                if not (kind in (BYTES, VIEW) and len(v)):
                    continue
            if kind in (BYTES, VIEW) and len(v) > 4096:
                out.add_length_delimited(num, v if not isinstance(v, str) else v.encode("utf-8", "surrogateescape"))
            else:
                _enc_scalar(kind, num, v, out.cur)


def encode(msg):
    """Serializes a :class:`Message` to bytes (fields in number order, maps sorted by key)."""
    out = _Out()
    _encode(msg, out)
    out.flush()
    return b"".join(out.parts)


# ------------------------------------------------------------------------------------------
# Text format.

_ENUMS = {}  # enum value names by (schema name, field name); filled by tf_types


def register_enum(schema_name, field_name, names):
    """`names`: dict value -> name, used by the text format."""
    _ENUMS[(schema_name, field_name)] = (names, {v: k for k, v in names.items()})


def _text_escape(b):
    out = []
    for c in b:
        if c == 0x22:
            out.append('\\"')
        elif c == 0x27:
            out.append("\\'")
        elif c == 0x5C:
            out.append("\\\\")
        elif c == 0x0A:
            out.append("\\n")
        elif c == 0x0D:
            out.append("\\r")
        elif c == 0x09:
            out.append("\\t")
        elif 0x20 <= c < 0x7F:
            out.append(chr(c))
        else:
            out.append("\\%03o" % c)
    return "".join(out)


def _fmt_float(v):
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    r = repr(float(v))
    return r[:-2] if r.endswith(".0") else r


def _text_scalar(schema, field, v):
    kind = field.kind
    if kind is ENUM:
        names = _ENUMS.get((schema.name, field.name))
        if names and v in names[0]:
            return names[0][v]
        return str(v)
    if kind is BOOL:
        return "true" if v else "false"
    if kind is FLOAT:
        return _fmt_float(struct.unpack("<f", struct.pack("<f", v))[0]) if not math.isnan(v) else "nan"
    if kind is DOUBLE:
        return _fmt_float(v)
    if kind in (STRING, BYTES, VIEW):
        b = v.encode("utf-8", "surrogateescape") if isinstance(v, str) else bytes(v)
        return '"' + _text_escape(b) + '"'
    return str(int(v))


def _to_text(msg, indent, out):
    schema = msg._schema
    pad = "  " * indent
    for field in schema.fields:
        name = field.name
        if name not in msg._values:
            continue
        v = msg._values[name]
        if field.kind is MAP:
            for key in sorted(v):
                val = v[key]
                out.append(f"{pad}{name} {{\n")
                kfield = Field(1, "key", field.key_kind)
                out.append(f"{pad}  key: {_text_scalar(schema, kfield, key)}\n")
                if field.value_kind is MESSAGE:
                    out.append(f"{pad}  value {{\n")
                    _to_text(val, indent + 2, out)
                    out.append(f"{pad}  }}\n")
                else:
                    vfield = Field(2, "value", field.value_kind)
                    out.append(f"{pad}  value: {_text_scalar(schema, vfield, val)}\n")
                out.append(f"{pad}}}\n")
            continue
        items = (packed_values(v) if isinstance(v, PackedRaw) else v) if field.repeated else [v]
        for item in items:
            if field.kind is MESSAGE:
                if item is None:
                    continue
                out.append(f"{pad}{name} {{\n")
                _to_text(item, indent + 1, out)
                out.append(f"{pad}}}\n")
            else:
                if (not field.repeated and not field.oneof and item == _SCALAR_DEFAULTS[field.kind]
                        and not (field.kind in (BYTES, VIEW) and len(item))):
                    continue
                out.append(f"{pad}{name}: {_text_scalar(schema, field, item)}\n")


def to_text(msg):
    """Text format of `msg` (as TensorFlow's ``str(proto)`` prints it, modulo float digits)."""
    out = []
    _to_text(msg, 0, out)
    return "".join(out)


class _Lexer:
    def __init__(self, text):
        self.text = text
        self.pos = 0
        self.n = len(text)

    def error(self, msg):
        line = self.text.count("\n", 0, self.pos) + 1
        raise DecodeError(f"text proto, line {line}: {msg}")

    def skip_ws(self):
        text, n = self.text, self.n
        pos = self.pos
        while pos < n:
            c = text[pos]
            if c in " \t\r\n,;":
                pos += 1
            elif c == "#":
                nl = text.find("\n", pos)
                pos = n if nl < 0 else nl + 1
            else:
                break
        self.pos = pos

    def peek(self):
        self.skip_ws()
        return self.text[self.pos] if self.pos < self.n else ""

    def take(self, ch):
        if self.peek() != ch:
            self.error(f"expected '{ch}'")
        self.pos += 1

    def ident(self):
        self.skip_ws()
        start = self.pos
        text = self.text
        while self.pos < self.n and (text[self.pos].isalnum() or text[self.pos] in "_.-+"):
            self.pos += 1
        if start == self.pos:
            self.error("expected an identifier or a number")
        return text[start:self.pos]

    def string(self):
        parts = []
        if self.peek() not in ("'", '"'):
            self.error("expected a string")
        while self.peek() in ("'", '"'):
            quote = self.text[self.pos]
            self.pos += 1
            out = bytearray()
            text = self.text
            while True:
                if self.pos >= self.n:
                    self.error("unterminated string")
                c = text[self.pos]
                if c == quote:
                    self.pos += 1
                    break
                if c == "\\":
                    self.pos += 1
                    if self.pos >= self.n:
                        self.error("unterminated string")
                    e = text[self.pos]
                    if e in "01234567":
                        j = self.pos
                        while j < self.pos + 3 and j < self.n and text[j] in "01234567":
                            j += 1
                        out.append(int(text[self.pos:j], 8) & 0xFF)
                        self.pos = j
                        continue
                    if e in "xX":
                        j = self.pos + 1
                        while j < self.pos + 3 and j < self.n and text[j] in "0123456789abcdefABCDEF":
                            j += 1
                        if j == self.pos + 1:
                            self.error("'\\x' without hex digits")
                        out.append(int(text[self.pos + 1:j], 16))
                        self.pos = j
                        continue
                    simple = {"n": 10, "t": 9, "r": 13, "a": 7, "b": 8, "f": 12, "v": 11, "\\": 92,
                              "'": 39, '"': 34, "?": 63}
                    if e not in simple:
                        self.error(f"bad escape '\\{e}'")
                    out.append(simple[e])
                    self.pos += 1
                    continue
                out += c.encode("utf-8", "surrogateescape")  # invalid UTF-8 of the input, kept as bytes
                self.pos += 1
            parts.append(bytes(out))
        return b"".join(parts)


def _text_value(lex, schema, field):
    kind = field.kind
    if kind in (STRING, BYTES, VIEW):
        b = lex.string()
        return b.decode("utf-8", "surrogateescape") if kind is STRING else b
    tok = lex.ident()
    if kind is ENUM:
        names = _ENUMS.get((schema.name, field.name))
        if names and tok in names[1]:
            return names[1][tok]
        try:
            return int(tok, 0)
        except ValueError:
            lex.error(f"unknown enum value '{tok}' for {schema.name}.{field.name}")
    if kind is BOOL:
        if tok in ("true", "True", "t", "1"):
            return True
        if tok in ("false", "False", "f", "0"):
            return False
        lex.error(f"bad bool '{tok}'")
    if kind in (FLOAT, DOUBLE):
        low = tok.lower().rstrip("f") if not tok.lower().startswith("inf") else tok.lower()
        if low in ("inf", "infinity", "+inf"):
            return math.inf
        if low in ("-inf", "-infinity"):
            return -math.inf
        if low == "nan":
            return math.nan
        try:
            return float(low)
        except ValueError:
            lex.error(f"bad float '{tok}'")
    try:
        return int(tok, 0)
    except ValueError:
        lex.error(f"bad integer '{tok}'")


def _parse_text_message(lex, schema, closing, depth=0):
    if depth > MAX_DEPTH:
        lex.error(f"messages nested more than {MAX_DEPTH} deep")
    msg = Message(schema)
    values = msg._values
    while True:
        c = lex.peek()
        if c == closing:
            if closing:
                lex.pos += 1
            return msg
        if not c:
            lex.error(f"unexpected end of input in {schema.name}")
        name = lex.ident()
        field = schema.by_name.get(name)
        if field is None:
            lex.error(f"{schema.name} has no field '{name}'")
        c = lex.peek()
        if c == ":":
            lex.pos += 1
            c = lex.peek()
        if field.kind is MAP:
            open_ = lex.peek()
            if open_ not in ("{", "<"):
                lex.error("expected a map entry")
            lex.pos += 1
            close = "}" if open_ == "{" else ">"
            key = _SCALAR_DEFAULTS.get(field.key_kind, "")
            value = None
            while lex.peek() != close:
                ename = lex.ident()
                if lex.peek() == ":":
                    lex.pos += 1
                if ename == "key":
                    key = _text_value(lex, schema, Field(1, "key", field.key_kind))
                elif ename == "value":
                    if field.value_kind is MESSAGE:
                        o = lex.peek()
                        if o not in ("{", "<"):
                            lex.error("expected '{'")
                        lex.pos += 1
                        value = _parse_text_message(lex, SCHEMAS[field.value_message], "}" if o == "{" else ">",
                                                    depth + 2)
                    else:
                        value = _text_value(lex, schema, Field(2, "value", field.value_kind))
                else:
                    lex.error(f"unexpected '{ename}' in a map entry")
            lex.pos += 1
            if value is None:
                value = Message(field.value_message) if field.value_kind is MESSAGE else _SCALAR_DEFAULTS[field.value_kind]
            values.setdefault(name, {})[key] = value
            continue
        items = []
        if c == "[":
            lex.pos += 1
            while lex.peek() != "]":
                if not lex.peek():
                    lex.error("unterminated list")
                items.append(_parse_one(lex, schema, field, depth))
            lex.pos += 1
        else:
            items.append(_parse_one(lex, schema, field, depth))
        if field.repeated:
            if field.packed_raw:
                raw = values.get(name)
                if raw is None:
                    raw = values[name] = PackedRaw(field.kind)
                raw.loose.extend(items)
            else:
                values.setdefault(name, []).extend(items)
        else:
            if len(items) != 1:
                lex.error(f"{schema.name}.{name} is not a repeated field")
            if field.oneof:
                for other in schema.oneofs[field.oneof]:
                    values.pop(other, None)
            values[name] = items[-1]


def _parse_one(lex, schema, field, depth):
    if field.kind is MESSAGE:
        o = lex.peek()
        if o not in ("{", "<"):
            lex.error(f"expected '{{' for {schema.name}.{field.name}")
        lex.pos += 1
        return _parse_text_message(lex, SCHEMAS[field.message], "}" if o == "{" else ">", depth + 1)
    return _text_value(lex, schema, field)


def parse_text(schema_name, text):
    """Parses the protobuf text format into message `schema_name`."""
    if isinstance(text, (bytes, bytearray, memoryview)):
        text = bytes(text).decode("utf-8", "surrogateescape")
    lex = _Lexer(text)
    return _parse_text_message(lex, SCHEMAS[schema_name], "")
