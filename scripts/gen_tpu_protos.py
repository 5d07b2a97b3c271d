"""Generates python/tfmlir/passes/generated/tpu_protos.py: the protobuf descriptors of TensorFlow's
``tensorflow.tpu.TPUCompileMetadataProto`` and ``tensorflow.tpu.TopologyProto``, pruned to the
messages and enums they reach, as one serialized ``FileDescriptorSet``.

The TensorFlow wheel does not ship ``compile_metadata_pb2`` for Python; the serialized
``FileDescriptorProto`` of every .proto file is still in the wheel: as the bytes literal of a
generated ``*_pb2.py`` module (read as text, not imported), or embedded by protoc's C++ output in
the shared libraries. This script finds each file it needs there (no TensorFlow import), keeps the
messages and enums reachable from the roots (field numbers, names, types, labels, field, message
and enum options and enum values as they are; a message that only scopes a reachable nested type is
kept with that type and nothing else), drops the rest (other messages, enums, services,
extensions, file options, imports no longer used) and writes the set, files in dependency order.

    python scripts/gen_tpu_protos.py [-o OUT]

tests/python/test_tpu_protos.py regenerates and diffs.
"""
import argparse
import ast
import importlib.util
import mmap
import os
import re
import sys

from google.protobuf import descriptor_pb2, descriptor_pool

# Root message -> the .proto file that defines it.
ROOTS = {
    "tensorflow.tpu.TPUCompileMetadataProto": "tensorflow/core/protobuf/tpu/compile_metadata.proto",
    "tensorflow.tpu.TopologyProto": "tensorflow/core/protobuf/tpu/topology.proto",
}
# Shared libraries of the wheel searched for files no *_pb2.py module holds, in this order.
LIBRARIES = ("libtensorflow_cc.so.2", "libtensorflow_framework.so.2")
DEFAULT_OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python", "tfmlir",
                           "passes", "generated", "tpu_protos.py")
WIDTH = 100


def package_dir():
    spec = importlib.util.find_spec("tensorflow")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("tensorflow is not installed")
    return list(spec.submodule_search_locations)[0]


# --- finding serialized FileDescriptorProtos in the wheel -------------------------------------

_SOURCE = re.compile(r"^# source: (\S+)$", re.M)


def pb2_index(root):
    """{proto file name: path of the *_pb2.py module generated from it} (first in sorted order)."""
    index = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            if not name.endswith("_pb2.py"):
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                m = _SOURCE.search(f.read(4096))
            if m:
                index.setdefault(m.group(1), path)
    return index


def from_pb2(path):
    """The bytes literal a generated module passes to ``AddSerializedFile``."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "AddSerializedFile" and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, bytes)):
            return node.args[0].value
    raise SystemExit(f"{path}: no AddSerializedFile(b'...') call")


def _varint(buf, i):
    value = shift = 0
    while True:
        if i >= len(buf) or shift > 63:
            raise ValueError("truncated varint")
        b = buf[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, i


def _encode_varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


# FileDescriptorProto's fields by wire type (1 name ... 14 edition); protoc writes them in
# field number order.
_LENGTH_DELIMITED = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12}
_VARINT = {10, 11, 14}


def record_ends(buf, start):
    """Offsets after each wire record from `start` on that can be a FileDescriptorProto field,
    in ascending field number order, up to the first that cannot."""
    ends, i, last = [], start, 0
    while True:
        try:
            tag, j = _varint(buf, i)
            number, wire_type = tag >> 3, tag & 7
            if number < last:
                break
            if number in _LENGTH_DELIMITED and wire_type == 2:
                n, j = _varint(buf, j)
                j += n
                if j > len(buf):
                    break
            elif number in _VARINT and wire_type == 0:
                _, j = _varint(buf, j)
            else:
                break
        except ValueError:
            break
        last, i = number, j
        ends.append(i)
    return ends


def from_library(path, name):
    """The longest run of records at an occurrence of ``name`` as field 1 that parses as a
    FileDescriptorProto of that name, or None."""
    needle = b"\n" + _encode_varint(len(name)) + name.encode()
    found = None
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as buf:
        at = buf.find(needle)
        while at >= 0:
            for end in reversed(record_ends(buf, at)):
                data = buf[at:end]
                fdp = descriptor_pb2.FileDescriptorProto()
                try:
                    fdp.ParseFromString(data)
                except Exception:
                    continue
                if fdp.name == name and (found is None or len(data) > len(found)):
                    found = data
                break
            at = buf.find(needle, at + 1)
    return found


class Wheel:
    """The FileDescriptorProtos of TensorFlow's wheel, found on demand."""

    def __init__(self, root):
        self.root = root
        self.pb2 = pb2_index(root)
        self.files = {}
        self.origin = {}

    def get(self, name):
        if name not in self.files:
            if name in self.pb2:
                data, origin = from_pb2(self.pb2[name]), os.path.relpath(self.pb2[name], self.root)
            else:
                data = origin = None
                for lib in LIBRARIES:
                    data = from_library(os.path.join(self.root, lib), name)
                    if data is not None:
                        origin = lib
                        break
                if data is None:
                    raise SystemExit(f"{name}: no serialized descriptor in the TensorFlow wheel")
            fdp = descriptor_pb2.FileDescriptorProto()
            fdp.ParseFromString(data)
            if fdp.name != name:
                raise SystemExit(f"{origin}: holds {fdp.name!r}, not {name!r}")
            self.files[name], self.origin[name] = fdp, origin
        return self.files[name]


# --- pruning ---------------------------------------------------------------------------------

def _symbols(fdp):
    """{'.full.Name': ('message' | 'enum', proto)} of a file's messages and enums, nested ones too."""
    out = {}

    def walk(prefix, messages, enums):
        for e in enums:
            out[f"{prefix}.{e.name}"] = ("enum", e)
        for m in messages:
            out[f"{prefix}.{m.name}"] = ("message", m)
            walk(f"{prefix}.{m.name}", m.nested_type, m.enum_type)

    walk("." + fdp.package if fdp.package else "", fdp.message_type, fdp.enum_type)
    return out


class Pruner:
    def __init__(self, wheel):
        self.wheel = wheel
        self.symbols = {}  # file name -> its _symbols
        self.owner = {}  # '.full.Name' -> file name
        self.kept = set()  # reachable messages and enums ('.full.Name')
        self.uses = {}  # file name -> files whose types its kept fields use

    def _load(self, name):
        if name not in self.symbols:
            self.symbols[name] = _symbols(self.wheel.get(name))
            for symbol in self.symbols[name]:
                self.owner.setdefault(symbol, name)
        return self.symbols[name]

    def resolve(self, file_name, type_name):
        """The file visible from `file_name` that defines `type_name` (fully qualified): the file
        itself, its imports, and what those publicly import."""
        seen, queue = set(), [file_name] + list(self.wheel.get(file_name).dependency)
        while queue:
            name = queue.pop(0)
            if name in seen:
                continue
            seen.add(name)
            if type_name in self._load(name):
                return name
            fdp = self.wheel.get(name)
            queue.extend(fdp.dependency[i] for i in fdp.public_dependency)
        raise SystemExit(f"{file_name}: type {type_name} not defined in it or its imports")

    def mark(self, file_name, type_name):
        if type_name in self.kept:
            return
        kind, proto = self._load(file_name)[type_name]
        self.kept.add(type_name)
        if kind != "message":
            return
        for field in proto.field:
            if field.type_name:
                if not field.type_name.startswith("."):
                    raise SystemExit(f"{type_name}.{field.name}: type name {field.type_name!r} "
                                     "not fully qualified")
                owner = self.resolve(file_name, field.type_name)
                if owner != file_name:
                    if owner not in self.wheel.get(file_name).dependency:
                        raise SystemExit(f"{type_name}.{field.name}: {field.type_name} comes "
                                         "through a public import (not supported)")
                    self.uses.setdefault(file_name, set()).add(owner)
                self.mark(owner, field.type_name)

    def pruned_file(self, name):
        """The file with only what is kept (None when nothing is), or SystemExit."""
        fdp = self.wheel.get(name)
        if fdp.syntax not in ("proto2", "proto3", ""):
            raise SystemExit(f"{name}: syntax {fdp.syntax!r} is not supported (features live in "
                             "file options, which are dropped)")
        prefix = "." + fdp.package if fdp.package else ""

        def prune(full, message):
            """The pruned copy of a message: whole when kept, else a scope of kept nested types
            (None when it is neither)."""
            nested = [p for p in (prune(f"{full}.{m.name}", m) for m in message.nested_type) if p]
            enums = [e for e in message.enum_type if f"{full}.{e.name}" in self.kept]
            if full in self.kept:
                out = descriptor_pb2.DescriptorProto()
                out.CopyFrom(message)
                del out.nested_type[:]
                del out.enum_type[:]
                del out.extension[:]
            elif nested or enums:
                out = descriptor_pb2.DescriptorProto(name=message.name)
            else:
                return None
            out.nested_type.extend(nested)
            out.enum_type.extend(enums)
            return out

        out = descriptor_pb2.FileDescriptorProto(name=fdp.name, package=fdp.package)
        if fdp.HasField("syntax"):
            out.syntax = fdp.syntax
        messages = [p for p in (prune(f"{prefix}.{m.name}", m) for m in fdp.message_type) if p]
        enums = [e for e in fdp.enum_type if f"{prefix}.{e.name}" in self.kept]
        if not messages and not enums:
            return None
        uses = self.uses.get(name, set())
        out.dependency.extend(d for d in fdp.dependency if d in uses)
        out.message_type.extend(messages)
        out.enum_type.extend(enums)
        return out

    def file_set(self):
        """The pruned files, each after the files it imports (roots' order, then imports' order)."""
        ordered, done = [], set()

        def visit(name):
            if name in done:
                return
            done.add(name)
            pruned = self.pruned_file(name)
            for dep in pruned.dependency:
                visit(dep)
            ordered.append(pruned)

        for root_file in dict.fromkeys(ROOTS.values()):
            visit(root_file)
        return descriptor_pb2.FileDescriptorSet(file=ordered)


def build(root):
    """(FileDescriptorSet, {file name: where in the wheel it came from}, kept messages and enums
    as '.full.Name')."""
    wheel = Wheel(root)
    pruner = Pruner(wheel)
    for message, file_name in ROOTS.items():
        symbol = "." + message
        if symbol not in pruner._load(file_name) or pruner.symbols[file_name][symbol][0] != "message":
            raise SystemExit(f"{file_name}: no message {message}")
        pruner.mark(file_name, symbol)
    fds = pruner.file_set()
    pool = descriptor_pool.DescriptorPool()  # the set must build on its own
    for fdp in fds.file:
        pool.AddSerializedFile(fdp.SerializeToString())
    for message in ROOTS:
        pool.FindMessageTypeByName(message)
    return fds, {f.name: wheel.origin[f.name] for f in fds.file}, frozenset(pruner.kept)


# --- output ----------------------------------------------------------------------------------

def _escape(byte):
    if byte == 0x5C:
        return "\\\\"
    if byte == 0x27:
        return "\\'"
    if 0x20 <= byte < 0x7F:
        return chr(byte)
    return f"\\x{byte:02x}"


def bytes_lines(data, indent="    "):
    """`data` as adjacent bytes literals, each line at most WIDTH characters."""
    lines, current = [], ""
    room = WIDTH - len(indent) - 3  # b'...'
    for byte in data:
        piece = _escape(byte)
        if len(current) + len(piece) > room:
            lines.append(f"{indent}b'{current}'")
            current = ""
        current += piece
    if current or not lines:
        lines.append(f"{indent}b'{current}'")
    return lines


def _type_names(fdp, kept):
    names = []

    def walk(prefix, messages, enums):
        for m in messages:
            name = f"{prefix}.{m.name}"
            names.append(name + ("" if "." + name in kept else " (scope only)"))
            walk(f"{prefix}.{m.name}", m.nested_type, m.enum_type)
        for e in enums:
            names.append(f"{prefix}.{e.name} (enum)")

    walk(fdp.package, fdp.message_type, fdp.enum_type)
    return names


def render(fds, origins, kept, version):
    lines = ['"""TensorFlow\'s TPUCompileMetadataProto and TopologyProto with the messages and enums they',
             "reach, as a serialized FileDescriptorSet (generated by scripts/gen_tpu_protos.py from the",
             f'descriptors in the wheel of TensorFlow {version}; do not edit)."""', "",
             "# Files, in dependency order, with the messages and enums kept:"]
    for fdp in fds.file:
        lines.append(f"# {fdp.name} (from {origins[fdp.name]})")
        lines.extend(f"#   {name}" for name in _type_names(fdp, kept))
    lines.append("FILE_DESCRIPTOR_SET = (")
    lines.extend(bytes_lines(fds.SerializeToString(deterministic=True)))
    lines.append(")")
    return "\n".join(lines) + "\n"


def _version():
    from importlib.metadata import version
    return version("tensorflow")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    fds, origins, kept = build(package_dir())
    with open(args.output, "w") as f:
        f.write(render(fds, origins, kept, _version()))


if __name__ == "__main__":
    sys.exit(main())
