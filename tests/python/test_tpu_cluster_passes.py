"""The TPU cluster attribute passes beyond what lit checks: failures change nothing, and TF's
device name parser as the cleanup pass reads it."""
import pytest
from mlir import ir

import tfmlir  # noqa: F401  (registers the dialects)
from pass_diff import lit_inputs
from tfmlir.passes import framework
from tfmlir.passes.analysis.devices import is_tpu_replicated_core, parse_full_name

CLEANUP = "tf-tpu-cleanup-cluster-attributes"
_INVALID = {name: text for name, text in lit_inputs([CLEANUP], invalid=True).items()
            if "-invalid.mlir" in name}


def test_there_are_failing_inputs():
    assert len(_INVALID) >= 10


@pytest.mark.parametrize("name", sorted(_INVALID))
def test_failure_leaves_the_module_unchanged(name):
    # Most chunks hold attributes the pass removes when it succeeds: none may go.
    module = ir.Module.parse(_INVALID[name], ir.Context())
    before = str(module)
    with pytest.raises(ir.MLIRError) as info:
        framework.run(module, f"builtin.module({CLEANUP})")
    assert info.value.error_diagnostics
    assert str(module) == before


# (name, parses, TPU_REPLICATED_CORE) -- each checked against TensorFlow 2.21.
DEVICE_NAMES = [
    ("", True, False),
    ("/", True, False),
    ("//", False, False),
    ("/job:worker/replica:0/task:0/device:TPU_REPLICATED_CORE:0", True, True),
    ("/job:Worker_1/replica:12/task:3/device:TPU_REPLICATED_CORE:7", True, True),
    ("/device:TPU_REPLICATED_CORE", True, True),
    ("/device:TPU_REPLICATED_CORE:*", True, True),
    ("/job:*/replica:*/task:*/device:TPU_REPLICATED_CORE:1", True, True),
    ("/device:TPU_REPLICATED_CORE:0/device:CPU:0", True, False),
    ("/device:CPU:0/device:TPU_REPLICATED_CORE:0", True, True),
    ("/device:TPU_REPLICATED_CORE:0/cpu:0", True, False),
    ("/device:*", True, False),
    ("TPU_REPLICATED_CORE:0", False, False),
    ("/device:TPU_REPLICATED_CORE_0", True, False),
    ("/device:tpu_replicated_core:0", True, False),
    ("/device:TPU_REPLICATED_CORE:", False, False),
    ("/device:TPU_REPLICATED_CORE:x", False, False),
    ("/device:TPU_REPLICATED_CORE:0/", False, False),
    ("/device:TPU_REPLICATED_CORE:18446744073709551615", True, True),
    ("/device:TPU_REPLICATED_CORE:18446744073709551616", False, False),
    ("/job:1w/device:TPU_REPLICATED_CORE:0", False, False),
    ("/job:w-x/device:TPU_REPLICATED_CORE:0", False, False),
    ("/replica:x/device:TPU_REPLICATED_CORE:0", False, False),
    ("/device:1TPU:0", False, False),
    ("/cpu:0", True, False),
    ("/GPU:*", True, False),
    ("/gpu:", False, False),
]


@pytest.mark.parametrize("name,parses,replicated", DEVICE_NAMES)
def test_device_names_as_tensorflow_reads_them(name, parses, replicated):
    assert (parse_full_name(name) is not None) == parses
    assert is_tpu_replicated_core(name) == replicated


def test_parsed_device_name_parts():
    parsed = parse_full_name("/job:w/replica:2/task:*/device:TPU:3")
    assert (parsed.has_job, parsed.job, parsed.has_replica, parsed.replica) == (True, "w", True, 2)
    assert (parsed.has_task, parsed.has_type, parsed.type, parsed.has_id, parsed.id) == (
        False, True, "TPU", True, 3)
    legacy = parse_full_name("/cpu:1")
    assert (legacy.has_type, legacy.type, legacy.id) == (True, "CPU", 1)
