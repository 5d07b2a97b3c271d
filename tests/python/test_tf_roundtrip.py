"""TensorFlow's MLIR output, generated at test time, round-trips through tfmlir.

One TensorFlow subprocess (tf_cases.py) converts a set of small tf.functions
and TF1 graphs with tf.mlir.experimental and writes TensorFlow's text to files.
Here each text is parsed with registered dialects (no
allow_unregistered_dialects), verified, printed with the same debug-info
setting and compared byte-for-byte with TensorFlow's text.
"""
import re

import pytest

import tfmlir  # noqa: F401  (registers the dialects into every new Context)
from mlir import ir

import tf_cases
from conftest import assert_same_text, read_exact


def _print(module, debug_info):
    if debug_info:
        # TF prints locations out of line as `#locN = loc(...)` aliases at the
        # end of the module; the MLIR printer does the same by default when
        # debug info is enabled (pretty_debug_info=False keeps the standard form).
        return module.operation.get_asm(enable_debug_info=True)
    return str(module)


def _load(tf_outputs, name):
    out, manifest = tf_outputs
    assert name in manifest, f"case {name} was not generated: {sorted(manifest)}"
    entry = manifest[name]
    assert entry["debug_info"] == tf_cases.CASES[name]
    return read_exact(out / entry["file"]), entry["debug_info"]


def test_all_cases_generated(tf_outputs):
    _, manifest = tf_outputs
    assert sorted(manifest) == sorted(tf_cases.CASES)
    assert len(manifest) >= 10


@pytest.mark.parametrize("name", sorted(tf_cases.CASES))
def test_tf_output_roundtrips_byte_identical(tf_outputs, name):
    text, debug_info = _load(tf_outputs, name)
    ctx = ir.Context()
    assert not ctx.allow_unregistered_dialects
    with ctx:
        module = ir.Module.parse(text)
        assert module.operation.verify()
        printed = _print(module, debug_info)
    assert_same_text(text, printed, what=name)


# What each case is meant to exercise: patterns that must occur in TF's text, so
# a change in TF (or in tf_cases.py) cannot silently make a case trivial.
_EXPECTED_FEATURES = {
    "v2_control_flow_raw": [r"tf_executor\.graph", r'"tf\.If"', r'"tf\.While"', r"func\.func private @"],
    "v2_control_flow_functional": [r'"tf\.If"', r'"tf\.While"', r"%cst"],
    "resources_raw": [r"!tf_type\.resource", r'"tf\.AssignAddVariableOp"', r'"tf\.ReadVariableOp"'],
    "resources_functional": [r"!tf_type\.resource", r'"tf\.AssignSubVariableOp"'],
    "strings_raw": [r"!tf_type\.string", r'"tf\.StringJoin"', r'"tf\.PrintV2"', r"\\0A"],
    "tensorlist_variant_raw": [r"!tf_type\.variant", r'"tf\.TensorListFromTensor"', r'"tf\.While"'],
    "devices_raw": [r'device = "/device:CPU:0"',
                    r'device = "/job:localhost/replica:0/task:0/device:CPU:0"'],
    "quantized_raw": [r"!tf_type\.qint8", r"!tf_type\.quint8", r"!tf_type\.qint32"],
    "v1_control_flow_graphdef_raw": [
        r"func\.func @main", r"tf_executor\.Enter .* constant  :", r"tf_executor\.Merge",
        r"tf_executor\.Switch", r"tf_executor\.Exit", r"tf_executor\.LoopCond",
        r"tf_executor\.NextIteration\.Source", r"tf_executor\.NextIteration\.Sink\[",
    ],
    "v1_control_flow_graphdef_debug": [r"^#loc1 = loc\(", r"loc\(fused\[#loc\d+, #loc\d+\]\)",
                                       r" loc\(#loc\d+\)$", r"tf_executor\.Switch"],
    "v2_control_flow_raw_debug": [r"^#loc1 = loc\(", r"callsite\(#loc\d+ at #loc\d+\)",
                                  r"loc\(fused\[", r'loc\("[^"]*\.py":\d+:\d+\)'],
    "resources_functional_debug": [r"^#loc1 = loc\(", r"callsite\(", r"!tf_type\.resource"],
    "tpu_rewrite_graphdef_raw": [r'"tf\.TPUReplicateMetadata"', r'"tf\.TPUCompilationResult"',
                                 r"_tpu_replicate = "],
    "tpu_replicate_graphdef_raw": [r'"tf\.TPUReplicatedInput"', r'"tf\.TPUReplicatedOutput"',
                                   r"num_replicas = 2"],
    "tpu_outside_compilation_graphdef_raw": [r"_xla_outside_compilation = ", r'"tf\.AsString"',
                                             r'"tf\.TPUCompilationResult"'],
}


def test_every_case_has_expected_features():
    assert sorted(_EXPECTED_FEATURES) == sorted(tf_cases.CASES)


@pytest.mark.parametrize("name", sorted(_EXPECTED_FEATURES))
def test_case_exercises_its_feature(tf_outputs, name):
    text, debug_info = _load(tf_outputs, name)
    missing = [p for p in _EXPECTED_FEATURES[name] if not re.search(p, text, re.MULTILINE)]
    assert missing == [], f"{name}: TF output lacks {missing}"
    # Debug-info cases print locations; the others print none.
    assert (" loc(" in text) == debug_info


def test_debug_info_only_changes_locations(tf_outputs):
    """Stripping the locations from the debug-info print gives the plain print."""
    plain, _ = _load(tf_outputs, "v1_control_flow_graphdef_raw")
    with_locs, _ = _load(tf_outputs, "v1_control_flow_graphdef_debug")
    with ir.Context():
        module = ir.Module.parse(with_locs)
        assert str(module) == plain
