"""-tf-extract-outside-compilation beyond lit: failures leave the module unchanged, and on TPU
programs with formed clusters (the ``.expansion`` inputs, close to what the pass sees in TF's
bridge) the host and device sides match up: every channel the device uses is received or sent
on the host under the same key, the outside-compiled ops all moved to a host launch, no mark is
left and the output verifies. TF's Python build does not register the pass, so its lit tests
follow TF's clustering-bridge output instead of a differential run."""
import collections
import os

import pytest
from mlir import ir

import tfmlir  # noqa: F401  (registers the dialects)
import generated_inputs
import tpu_cluster_programs
from conftest import have_tensorflow
from pass_diff import lit_inputs

PASS = "tf-extract-outside-compilation"
OC = "_xla_outside_compilation"

_INVALID = {name: text for name, text in lit_inputs([PASS], invalid=True).items()
            if "-invalid.mlir" in name}


def _run(text):
    from tfmlir.passes import framework

    module = ir.Module.parse(text, ir.Context())
    framework.run(module, f"builtin.module({PASS})")
    module.operation.verify()
    return module


def test_there_are_failing_inputs():
    assert len(_INVALID) >= 8


@pytest.mark.parametrize("name", sorted(_INVALID))
def test_failure_leaves_the_module_unchanged(name):
    from tfmlir.passes import framework

    module = ir.Module.parse(_INVALID[name], ir.Context())
    before = str(module)
    with pytest.raises(ir.MLIRError) as info:
        framework.run(module, f"builtin.module({PASS})")
    assert info.value.error_diagnostics
    assert str(module) == before


def _all_ops(module):
    found = []

    def visit(op):
        found.append(op.operation)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return found


def _enclosing(op, name):
    parent = op.parent
    while parent is not None:
        if parent.name == name:
            return parent
        parent = parent.parent
    return None


def _string(op, name):
    return ir.StringAttr(op.attributes[name]).value if name in op.attributes else None


def _generated():
    if not have_tensorflow() and not os.environ.get("TFMLIR_CORPUS_DIR"):
        return []
    return [name for name in tpu_cluster_programs.input_names() if name.endswith(".expansion")]


@pytest.mark.parametrize("name", _generated())
def test_generated_tpu_programs(name):
    text = generated_inputs.read(tpu_cluster_programs.__file__, name)
    module_in = ir.Module.parse(text, ir.Context())
    marked_in = collections.Counter(op.name for op in _all_ops(module_in)
                                    if OC in op.attributes and _enclosing(op, "tf_device.cluster"))
    assert marked_in, "the input has no outside compilation"
    out = _run(text)
    ops = _all_ops(out)
    assert not any(OC in op.attributes for op in ops)
    sends, recvs = set(), set()
    host_ops = collections.Counter()
    for op in ops:
        if op.name == "tf._XlaHostComputeMlir":
            assert _enclosing(op, "tf_device.cluster") is not None
            assert _enclosing(op, "tf_device.parallel_execute") is not None
            if len(op.operands):
                sends.add(_string(op, "send_key"))
            if len(op.results):
                recvs.add(_string(op, "recv_key"))
        launch = _enclosing(op, "tf_device.launch")
        if launch is not None and _enclosing(launch, "tf_device.parallel_execute") is not None:
            host_ops[op.name] += 1
    host_keys = {_string(op, "key") for op in ops
                 if op.name in ("tf._XlaRecvAtHost", "tf._XlaRecvAtHostV2", "tf._XlaSendFromHost",
                                "tf._XlaSendFromHostV2")}
    assert sends | recvs == host_keys
    for op_name, count in marked_in.items():
        assert host_ops[op_name] >= count, op_name
