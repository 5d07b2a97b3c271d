"""TensorFlow's TPUCompileMetadataProto in tfmlir (tfmlir.passes.analysis.tpu_protos): the generated
descriptor set against the installed TensorFlow wheel (regenerate and diff; field numbers and enum
values of the C++ header; every kept message and enum against the C++ runtime's descriptors),
round trips, the text format against C++'s ``TextFormat::Printer`` (a small program built against
the wheel's headers and libraries) and fingerprint64 against ``tf.fingerprint``."""
import importlib.util
import json
import os
import random
import re
import shutil
import subprocess
import sys

import pytest

from conftest import (REPO_ROOT, assert_same_text, describe_failure, have_tensorflow, run_python,
                      subprocess_env)

from google.protobuf import descriptor_pb2

from tfmlir.passes.generated import tpu_protos as _tpu_protos
from tfmlir.passes.analysis import tpu_protos as T
from tfmlir.passes.analysis.fingerprint import fingerprint64

MODULE = REPO_ROOT / "python" / "tfmlir" / "passes" / "generated" / "tpu_protos.py"
needs_tf = pytest.mark.skipif(not have_tensorflow(), reason="tensorflow is not installed")


def _tf_dir():
    return list(importlib.util.find_spec("tensorflow").submodule_search_locations)[0]


def _metadata():
    """A metadata message with every kind of field set (as tf-tpu-rewrite fills it, and more)."""
    m = T.compile_metadata()
    arg = m.args.add()
    arg.dtype = T.enum_value("tensorflow.DataType", "DT_FLOAT")
    arg.kind = T.enum_value("tensorflow.tpu.TPUCompileMetadataProto.Arg.Kind", "PARAMETER")
    arg.shape.dim.add().size = 8
    arg.shape.dim.add().size = -1
    arg.sharding.type = T.enum_value("xla.OpSharding.Type", "MAXIMAL")
    arg.sharding.tile_assignment_devices.append(0)
    arg.is_bounded_dynamic_dim.extend([True, False])
    arg.name = "x\u00e9\"\n"
    for value in (1.0, 0.1 + 0.2, 1e15, 1e16, 1 / 3, -0.0, 5e-324, 2.5e-7, 1e22, float("inf"),
                  float("nan")):
        meta = arg.sharding.metadata.add()
        meta.op_type, meta.op_name = "Op'\\", "na\u00efve\x01\t\x7f"
        meta.profile_info.relative_speedup = value
        meta.profile_type.extend([1, 99])  # 99: a value the (open) enum has no name for
    var = m.args.add()
    var.dtype = T.enum_value("tensorflow.DataType", "DT_RESOURCE")
    var.kind = T.enum_value("tensorflow.tpu.TPUCompileMetadataProto.Arg.Kind", "VARIABLE")
    var.shape.unknown_rank = True
    var.sharding.type = T.enum_value("xla.OpSharding.Type", "OTHER")
    var.sharding.tile_assignment_dimensions.extend([2, 1])
    var.sharding.tile_assignment_devices.extend([0, 1])
    var.is_bounded_dynamic_dim.append(False)
    m.retvals.add().sharding.type = T.enum_value("xla.OpSharding.Type", "REPLICATED")
    m.retvals.add()
    m.num_replicas, m.num_cores_per_replica = 2, 1
    m.device_assignment.replica_count, m.device_assignment.computation_count = 2, 1
    m.device_assignment.computation_devices.add().replica_device_ids.extend([0, 1])
    m.function_library_fingerprint = 2 ** 64 - 1
    m.padding_maps.add().arg_index = 1
    m.step_marker_location = T.enum_value("xla.DebugOptions.StepMarkerLocation",
                                          "STEP_MARK_AT_TOP_LEVEL_WHILE_LOOP")
    m.xla_fusion_autotuner_thresh = -5
    m.use_spmd_for_xla_partitioning = True
    m.auto_spmd_mesh_shape.extend([2, -1])
    m.mlir_fingerprint = fingerprint64(b"module {\n}\n")
    m.compile_options.matrix_unit_operand_precision = T.enum_value(
        "tensorflow.tpu.TPUCompileOptions.Precision", "FLOAT32")
    m.module_name = "cluster"
    return m


# Unknown fields (numbers the messages do not have): a varint, a length-delimited one that is a
# message, one that is not, an empty one, fixed32, fixed64 and a group.
_UNKNOWN = (b"\xa8\x06\x05" b"\xb2\x06\x02\x08\x01" b"\xb2\x06\x03\x08\x01\x10" b"\xb2\x06\x00"
            b"\xc5\x06\x01\x02\x03\x04" b"\xc1\x06\x01\x02\x03\x04\x05\x06\x07\x08"
            b"\xcb\x06\x08\x07\xcc\x06")


def _with_unknown_fields():
    m = _metadata()
    sharding = T.message_class("xla.OpSharding")()
    sharding.ParseFromString(m.args[1].sharding.SerializeToString() + _UNKNOWN)
    m.args[1].sharding.CopyFrom(sharding)
    m.ParseFromString(m.SerializeToString() + _UNKNOWN)
    return m


# --- the generated module ---------------------------------------------------------------------

@pytest.mark.tf
@needs_tf
def test_generated_protos_match_installed_tensorflow(tmp_path):
    out = tmp_path / "_tpu_protos.py"
    proc = subprocess.run([sys.executable, str(REPO_ROOT / "scripts" / "gen_tpu_protos.py"),
                           "-o", str(out)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert out.read_text() == MODULE.read_text(), (
        "python/tfmlir/passes/generated/tpu_protos.py is stale: run scripts/gen_tpu_protos.py")


def _files():
    return {f.name: f for f in
            descriptor_pb2.FileDescriptorSet.FromString(_tpu_protos.FILE_DESCRIPTOR_SET).file}


def test_descriptor_set_is_pruned_to_what_the_roots_reach():
    files = _files()
    assert list(files)[-2:] == ["tensorflow/core/protobuf/tpu/compile_metadata.proto",
                                "tensorflow/core/protobuf/tpu/topology.proto"]
    xla = files["xla/xla.proto"]
    # DebugOptions only scopes StepMarkerLocation: no fields, no other nested types.
    assert [m.name for m in xla.message_type] == ["DebugOptions"]
    debug_options = xla.message_type[0]
    assert not debug_options.field and not debug_options.nested_type
    assert [e.name for e in debug_options.enum_type] == ["StepMarkerLocation"]
    assert not any(f.service or f.extension or f.HasField("options") for f in files.values())
    assert "xla.HloModuleProto" not in {m.name for m in files["xla/xla_data.proto"].message_type}
    # Every kept file is imported by a later one or is a root; imports come first.
    seen = set()
    for f in files.values():
        assert set(f.dependency) <= seen
        seen.add(f.name)
    assert T.enum_values("xla.DebugOptions.StepMarkerLocation")["STEP_MARK_AT_ENTRY"] == 0


def _camel(name):
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def _header_class(text, cls):
    start = re.search(rf"^class (?:\w+ )?{cls} final", text, re.M)
    assert start, cls
    end = re.search(r"^class (?:\w+ )?\w+ final", text[start.end():], re.M)
    return text[start.start():start.end() + (end.start() if end else len(text))]


@needs_tf
@pytest.mark.parametrize("cls, full_name", [
    ("TPUCompileMetadataProto", "tensorflow.tpu.TPUCompileMetadataProto"),
    ("TPUCompileMetadataProto_Arg", "tensorflow.tpu.TPUCompileMetadataProto.Arg"),
    ("TPUCompileMetadataProto_Retval", "tensorflow.tpu.TPUCompileMetadataProto.Retval"),
    ("TPUCompileOptions", "tensorflow.tpu.TPUCompileOptions"),
])
def test_field_numbers_match_the_cpp_header(cls, full_name):
    header = os.path.join(_tf_dir(), "include", "tensorflow", "core", "protobuf", "tpu",
                          "compile_metadata.pb.h")
    with open(header) as f:
        body = _header_class(f.read(), cls)
    expected = {name: int(n) for name, n in
                re.findall(r"\bk(\w+)FieldNumber = (\d+),", body)}
    assert expected
    ours = {_camel(f.name): f.number for f in T.message_class(full_name).DESCRIPTOR.fields}
    assert ours == expected


@needs_tf
@pytest.mark.parametrize("cpp_enum, full_name", [
    ("TPUCompileMetadataProto_Arg_Kind", "tensorflow.tpu.TPUCompileMetadataProto.Arg.Kind"),
    ("TPUCompileMetadataProto_Arg_EnableXlaSharding",
     "tensorflow.tpu.TPUCompileMetadataProto.Arg.EnableXlaSharding"),
    ("TPUCompileOptions_Precision", "tensorflow.tpu.TPUCompileOptions.Precision"),
])
def test_enum_values_match_the_cpp_header(cpp_enum, full_name):
    header = os.path.join(_tf_dir(), "include", "tensorflow", "core", "protobuf", "tpu",
                          "compile_metadata.pb.h")
    with open(header) as f:
        text = f.read()
    body = re.search(rf"^enum {cpp_enum} : int \{{(.*?)^\}};", text, re.M | re.S).group(1)
    expected = {name: int(n) for name, n in re.findall(rf"\b{cpp_enum}_(\w+) = (-?\d+),", body)
                if not name.endswith("_INT_MIN_SENTINEL_DO_NOT_USE_")
                and not name.endswith("_INT_MAX_SENTINEL_DO_NOT_USE_")}
    assert T.enum_values(full_name) == expected


# --- the API ----------------------------------------------------------------------------------

def test_binary_and_text_round_trip():
    m = _metadata()
    binary = T.serialize_metadata(m)
    assert binary == m.SerializeToString(deterministic=True)
    assert T.parse_metadata(binary) == m
    text = T.serialize_metadata(m, debug=True)
    assert isinstance(text, bytes) and text.startswith(b"args {\n  dtype: DT_FLOAT\n  shape {\n")
    assert T.parse_metadata(text) == m
    assert T.parse_metadata(text.decode()) == m
    assert T.parse_metadata(b"") == T.compile_metadata()
    unknown = _with_unknown_fields()
    assert T.parse_metadata(T.serialize_metadata(unknown)) == unknown
    assert b"101: 5\n" in T.serialize_metadata(unknown, debug=True)


def test_text_format_conventions():
    m = T.compile_metadata()
    m.args.add().name = "\u00e9\x00'"
    m.args[0].shape.dim.add().size = 3
    m.num_replicas = 1
    m.step_marker_location = 99
    m.compile_options.SetInParent()
    assert T.serialize_metadata(m, debug=True).decode() == (
        "args {\n"
        "  shape {\n"
        "    dim {\n"
        "      size: 3\n"
        "    }\n"
        "  }\n"
        '  name: "\\303\\251\\000\\\'"\n'
        "}\n"
        "num_replicas: 1\n"
        "step_marker_location: 99\n"
        "compile_options {\n"
        "}\n")


def test_parse_errors_and_lookups():
    with pytest.raises(ValueError, match="not a tensorflow.tpu.TPUCompileMetadataProto"):
        T.parse_metadata(b"\xff\xff\xff")
    with pytest.raises(ValueError, match="text format"):
        T.parse_metadata("num_replicas: x")
    assert T.parse_metadata(b"num_replicas: 3").num_replicas == 3
    # Text that parses in the binary format too (field 12 as fixed64: an unknown field) is text.
    binary = T.compile_metadata()
    binary.ParseFromString(b"args {\n}\n")
    assert not binary.args
    assert len(T.parse_metadata(b"args {\n}\n").args) == 1
    with pytest.raises(KeyError, match="no message"):
        T.message_class("tensorflow.tpu.NoSuchProto")
    with pytest.raises(KeyError, match="no value"):
        T.enum_value("tensorflow.DataType", "DT_NOPE")
    assert T.enum_name("tensorflow.DataType", 1) == "DT_FLOAT"
    assert T.message_class("xla.OpSharding") is T.message_class("xla.OpSharding")
    assert T.message_class(T.TOPOLOGY)().DESCRIPTOR.fields_by_name["mesh_shape"].number == 1


# --- against TensorFlow -----------------------------------------------------------------------

_FINGERPRINT_CHILD = r'''
import json, sys
import numpy as np
import tensorflow as tf
rows = [bytes.fromhex(h) for h in json.load(open(sys.argv[1]))]
out = []
for row in rows:
    data = tf.constant(np.frombuffer(row, np.uint8).reshape(1, len(row)))
    fp = tf.fingerprint(data, method="farmhash64").numpy()[0]
    out.append(int.from_bytes(bytes(fp), "little"))
print(json.dumps(out))
'''


@pytest.mark.tf
@needs_tf
def test_fingerprint64_matches_tensorflow(tmp_path):
    rng = random.Random(1234)
    rows = [bytes(rng.randrange(256) for _ in range(n)) for n in range(301)]
    rows += [bytes(rng.randrange(256) for _ in range(rng.randrange(301, 5000))) for _ in range(20)]
    rows += [b"\x00" * 64, b"\xff" * 65, b"\xff" * 128, b"\xff" * 129, "module {\n}\n".encode()]
    path = tmp_path / "rows.json"
    path.write_text(json.dumps([r.hex() for r in rows]))
    proc = run_python([path], code=_FINGERPRINT_CHILD)
    assert proc.returncode == 0, describe_failure(proc)
    expected = json.loads(proc.stdout.strip().splitlines()[-1])
    wrong = [len(r) for r, e in zip(rows, expected) if fingerprint64(r) != e]
    assert not wrong, f"fingerprint64 differs from tf.fingerprint at lengths {wrong[:20]}"
    assert fingerprint64("module {\n}\n") == expected[-1]


# A program built against the TensorFlow wheel's headers and libraries: TF's own C++
# TPUCompileMetadataProto and protobuf's C++ text format.
_ORACLE = r'''
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>
#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"
#include "google/protobuf/text_format.h"
#include "tensorflow/core/protobuf/tpu/compile_metadata.pb.h"
#include "tensorflow/core/protobuf/tpu/topology.pb.h"

static std::string Hex(const std::string& s) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) { out += digits[c >> 4]; out += digits[c & 15]; }
  return out;
}

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "";
  std::string in((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  tensorflow::tpu::TPUCompileMetadataProto m;
  tensorflow::tpu::TopologyProto topology;  // linked in, so its descriptor is in the pool
  std::string out;
  if (mode == "text") {  // binary in, text (as tf-tpu-rewrite's debug option prints it) out
    if (!m.ParseFromString(in)) return 2;
    google::protobuf::TextFormat::Printer printer;
    printer.SetExpandAny(true);
    printer.PrintToString(m, &out);
  } else if (mode == "binary") {  // binary in, C++'s serialization out
    if (!m.ParseFromString(in)) return 2;
    m.SerializeToString(&out);
  } else if (mode == "parse-text") {  // text in, binary out
    if (!google::protobuf::TextFormat::ParseFromString(in, &m)) return 3;
    m.SerializeToString(&out);
  } else if (mode == "descriptors") {  // full names in (one a line), hex descriptors out
    const auto* pool = google::protobuf::DescriptorPool::generated_pool();
    size_t start = 0;
    while (start < in.size()) {
      size_t end = in.find('\n', start);
      if (end == std::string::npos) end = in.size();
      std::string name = in.substr(start, end - start);
      start = end + 1;
      if (const auto* d = pool->FindMessageTypeByName(name)) {
        google::protobuf::DescriptorProto p;
        d->CopyTo(&p);
        out += "M " + Hex(p.SerializeAsString()) + "\n";
      } else if (const auto* e = pool->FindEnumTypeByName(name)) {
        google::protobuf::EnumDescriptorProto p;
        e->CopyTo(&p);
        out += "E " + Hex(p.SerializeAsString()) + "\n";
      } else {
        out += "? " + name + "\n";
      }
    }
  } else {
    return 1;
  }
  std::cout << out;
  return 0;
}
'''


@pytest.fixture(scope="module")
def cpp_oracle(tmp_path_factory):
    if not have_tensorflow():
        pytest.skip("tensorflow is not installed")
    compiler = shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")
    if compiler is None:
        pytest.skip("no C++ compiler")
    tf_dir = _tf_dir()
    libs = [os.path.join(tf_dir, name) for name in ("libtensorflow_cc.so.2",
                                                     "libtensorflow_framework.so.2")]
    if not all(os.path.exists(lib) for lib in libs):
        pytest.skip("the TensorFlow wheel has no libtensorflow_cc / libtensorflow_framework")
    work = tmp_path_factory.mktemp("tpu_protos_oracle")
    (work / "oracle.cc").write_text(_ORACLE)
    exe = work / "oracle"
    proc = subprocess.run([compiler, "-std=c++17", "-O0", "-D_GLIBCXX_USE_CXX11_ABI=1",
                           "-DEIGEN_MAX_ALIGN_BYTES=64", "-I" + os.path.join(tf_dir, "include"),
                           str(work / "oracle.cc"), "-o", str(exe), *libs, "-Wl,-rpath," + tf_dir],
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        pytest.fail("building the C++ oracle against the TensorFlow wheel failed:\n"
                    + proc.stderr[-4000:])

    def run(mode, data):
        result = subprocess.run([str(exe), mode], input=data, capture_output=True, timeout=120,
                                env=subprocess_env(TF_CPP_MIN_LOG_LEVEL="3"))
        assert result.returncode == 0, (mode, result.returncode, result.stderr[-2000:])
        return result.stdout
    return run


@pytest.mark.tf
@pytest.mark.slow
def test_text_format_is_cpp_printers(cpp_oracle):
    for m in (_metadata(), _with_unknown_fields(), T.compile_metadata()):
        binary = T.serialize_metadata(m)
        assert cpp_oracle("binary", binary) == binary
        expected = cpp_oracle("text", binary).decode("ascii")
        assert_same_text(expected, T.serialize_metadata(m, debug=True).decode("ascii"),
                         "C++ TextFormat::Printer", "tpu_protos", "metadata text")
    # C++ reads our text back to the same message.
    m = _metadata()
    m.args[0].sharding.ClearField("metadata")  # NaN != NaN
    assert cpp_oracle("parse-text", T.serialize_metadata(m, debug=True)) == T.serialize_metadata(m)


def _kept_types():
    """{full name: DescriptorProto or EnumDescriptorProto} of the generated set, nested types
    cleared; messages that only scope a kept type (the module's comments say which) left out."""
    out = {}
    scopes = set(re.findall(r"^#   (\S+) \(scope only\)$", MODULE.read_text(), re.M))

    def walk(prefix, messages, enums):
        for e in enums:
            out[f"{prefix}.{e.name}"] = e
        for msg in messages:
            name = f"{prefix}.{msg.name}"
            walk(name, msg.nested_type, msg.enum_type)
            if name not in scopes:
                copy = descriptor_pb2.DescriptorProto()
                copy.CopyFrom(msg)
                del copy.nested_type[:]
                del copy.enum_type[:]
                for field in copy.field:
                    field.ClearField("json_name")  # Descriptor::CopyTo leaves it out
                out[name] = copy

    for f in _files().values():
        walk(f.package, f.message_type, f.enum_type)
    return out


@pytest.mark.tf
@pytest.mark.slow
def test_kept_types_are_cpp_runtimes(cpp_oracle):
    kept = _kept_types()
    assert "xla.DebugOptions" not in kept and "xla.DebugOptions.StepMarkerLocation" in kept
    lines = cpp_oracle("descriptors", "\n".join(kept).encode()).decode().splitlines()
    assert len(lines) == len(kept)
    for (name, ours), line in zip(kept.items(), lines):
        kind, _, data = line.partition(" ")
        assert kind in "ME", f"{name}: not in the C++ runtime's pool"
        theirs = (descriptor_pb2.DescriptorProto() if kind == "M"
                  else descriptor_pb2.EnumDescriptorProto())
        theirs.ParseFromString(bytes.fromhex(data))
        if kind == "M":
            del theirs.nested_type[:]
            del theirs.enum_type[:]
            del theirs.extension[:]
        assert theirs == ours, name


# --- the runtime reads the metadata of tf._TPUCompileMlir -------------------------------------

def _compile_op(context, metadata):
    from mlir import ir
    from tfmlir.tfcore.tf_types import mlir_string
    module = ir.Module.parse(
        '"tf._TPUCompileMlir"() {metadata = ' + mlir_string(metadata) + ', mlir_module = ""} : '
        "() -> (tensor<!tf_type.string>, tensor<3x!tf_type.string>)", context)
    return list(module.body.operations)[0].operation


def test_runtime_checks_the_metadata_of_compile_ops():
    import tfmlir  # noqa: F401  (registers the dialects)
    from mlir import ir
    from tfmlir.runtime.host import ProgramError
    from tfmlir.runtime.session import _TPUSteps
    import types
    # The replica-count check asks the session's platform how many devices run replicas.
    steps = _TPUSteps(types.SimpleNamespace(platform="cpu"))
    m = _metadata()
    with ir.Context() as context:
        for data in (b"", T.serialize_metadata(m), T.serialize_metadata(m, debug=True)):
            steps._check_metadata(_compile_op(context, data), "compile")
        # Several cores per replica run (model parallelism), on a device assignment of that
        # many computations: this metadata's has one.
        m.num_cores_per_replica = 2
        for debug in (False, True):
            with pytest.raises(ProgramError, match="device_assignment has computation_count 1, "
                                                   "num_cores_per_replica is 2"):
                steps._check_metadata(_compile_op(context, T.serialize_metadata(m, debug)), "compile")
        with pytest.raises(ProgramError, match="compile: the metadata is not a TPUCompileMetadataProto"):
            steps._check_metadata(_compile_op(context, b"\xff\xfe"), "compile")
