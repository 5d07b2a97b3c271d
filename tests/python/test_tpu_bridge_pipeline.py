"""``tf-tpu-bridge`` (clustering bridge + TPU runtime lowering) on the clustering issue's programs,
from Python and from ``tfmlir-opt``, in both flavours.

After the bridge every TPU computation is a ``tf._TPUCompileMlir`` (on the host
CPU, its assert beside it) and ``tf.TPUExecute`` ops on TPU devices; nothing of
the clustering form (``tf_device.cluster(_func)``, ``TPUReplicateMetadata``,
``TPUReplicatedInput/Output``, ``_XlaCompileMlirPlaceholderProgramKey``) is left,
and every serialized device module parses and names ``@main``.
"""
import re
import subprocess
import sys

import pytest

import tpu_bridge_programs as programs

pytestmark = pytest.mark.tf

_LEFTOVERS = ("tf_device.cluster_func", "tf_device.cluster\"", "tf.TPUReplicateMetadata",
              "tf.TPUReplicatedInput", "tf.TPUReplicatedOutput",
              "tf._XlaCompileMlirPlaceholderProgramKey", "tf.TPUCompilationResult")


def _program(name):
    """The imported program with one TPU per replica (the generator lists four; the TPU rewrite
    assigns N replicas to N TPUs, or one), as tfmlir.runtime gives it."""
    from tfmlir.driver import device_list

    text = programs.get(name)
    counts = {int(n) for n in re.findall(r"num_replicas = (\d+)", text)} or {1}
    devices = ", ".join(f'"{d}"' for d in device_list(max(counts)))
    return re.sub(r"tf\.devices = \[[^\]]*\]", f"tf.devices = [{devices}]", text, count=1)


def _bridged(name, v1_compat):
    import tfmlir
    from mlir import ir
    from tfmlir.passes import run

    context = ir.Context()
    module = tfmlir.parse_module(_program(name), context)
    with context:
        run(module, f"tf-tpu-bridge{{v1-compat={'true' if v1_compat else 'false'}}}")
        module.operation.verify()
        return module, tfmlir.print_ir(module)


def _check(module, text):
    from mlir import ir

    import tfmlir
    for leftover in _LEFTOVERS:
        assert leftover not in text, leftover
    compiles = []

    def visit(op):
        if op.name == "tf._TPUCompileMlir":
            compiles.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    assert compiles
    for op in compiles:
        device = ir.StringAttr(op.parent.attributes["device"]).value
        assert device.endswith("/device:CPU:0")
        device_module = tfmlir.parse_module(ir.StringAttr(op.attributes["mlir_module"]).value,
                                            ir.Context())
        names = [ir.StringAttr(f.attributes["sym_name"]).value
                 for f in device_module.body.operations]
        assert "main" in names
    assert "tf.TPUCompileSucceededAssert" in text
    assert re.search(r'"tf\.TPUExecute(AndUpdateVariables)?"', text)


@pytest.mark.parametrize("name", programs.input_names())
@pytest.mark.parametrize("v1_compat", [False, True], ids=["v2", "v1"])
def test_bridge_lowers_every_tpu_computation_to_runtime_ops(name, v1_compat):
    module, text = _bridged(name, v1_compat)
    _check(module, text)
    if v1_compat:
        # The TPU computations went through the nested module and were inlined back.
        assert "_tpu_v1_compat_outlined" not in text


def test_bridge_runs_from_tfmlir_opt(tmp_path):
    source = tmp_path / "replicate_2.mlir"
    source.write_text(_program("replicate_2"))
    for args in (["-tf-tpu-bridge"], ["--pass-pipeline=builtin.module(tf-tpu-bridge{v1-compat=true})"]):
        proc = subprocess.run([sys.executable, "-m", "tfmlir.tools.opt", str(source), *args],
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr[-2000:]
        for leftover in _LEFTOVERS:
            assert leftover not in proc.stdout, (args, leftover)
        assert "tf._TPUCompileMlir" in proc.stdout and "TPU_REPLICATED_CORE_0" in proc.stdout


def test_bridge_option_errors_name_the_option(tmp_path):
    source = tmp_path / "p.mlir"
    source.write_text(_program("outside_head"))
    proc = subprocess.run([sys.executable, "-m", "tfmlir.tools.opt", str(source),
                           "--pass-pipeline=builtin.module(tf-tpu-bridge{v2=true})"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode != 0
    assert "no option 'v2'" in proc.stderr
