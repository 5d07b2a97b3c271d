"""-tf-tpu-space-to-depth-pass beyond what the differential rows compare: the locations of the new
ops (the rows compare without locations; these are TF's, checked once against TF's pass with its
debug info printed) and failures leaving the module as it was."""
import pathlib

import pytest
from mlir import ir

import tfmlir  # noqa: F401  (registers the dialects)

PASS = "tf-tpu-space-to-depth-pass"
LIT = pathlib.Path(__file__).resolve().parents[1] / "lit" / "passes"


def _run(module):
    from tfmlir.passes import framework

    framework.run(module, f"builtin.module({PASS})")


def _snapshot(module):
    return module.operation.get_asm(print_generic_op_form=True, enable_debug_info=True)


_LOCATED = '''
module {
  func.func @step(%it: tensor<!tf_type.resource>, %w: tensor<3x3x3x8xf32>) -> tensor<3x3x3x8xf32> {
    %a = "tf.IteratorGetNext"(%it) {device = "/job:w/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x32x3xf32> loc("images")
    %1 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<3x3x3x8xf32> loc("cluster")
    func.return %1 : tensor<3x3x3x8xf32>
  }
  func.func private @computation(%images: tensor<2x32x32x3xf32> loc("x"), %w: tensor<3x3x3x8xf32> loc("weights")) -> tensor<3x3x3x8xf32> {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32> loc("paddings")
    %sizes = "tf.Const"() {value = dense<[3, 3, 3, 8]> : tensor<4xi32>} : () -> tensor<4xi32> loc("sizes")
    %padded = "tf.Pad"(%images, %paddings) : (tensor<2x32x32x3xf32>, tensor<4x2xi32>) -> tensor<2x34x34x3xf32> loc("pad")
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32> loc("conv")
    %g = "tf.Conv2DBackpropFilter"(%padded, %sizes, %y) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x34x34x3xf32>, tensor<4xi32>, tensor<2x16x16x8xf32>) -> tensor<3x3x3x8xf32> loc("grad")
    func.return %g : tensor<3x3x3x8xf32>
  }
}
'''


def _ops(func):
    return [op.operation for op in func.regions[0].blocks[0].operations]


def test_new_ops_take_tfs_locations():
    module = ir.Module.parse(_LOCATED, ir.Context())
    _run(module)
    host, device = [op.operation for op in module.body.operations]
    located = [(op.name, str(op.location)) for op in _ops(host)]
    assert located[:2] == [("tf.IteratorGetNext", 'loc("images")'), ("tf.SpaceToDepth", 'loc("cluster")')]
    located = [(op.name, str(op.location)) for op in _ops(device)]
    assert located == [
        ("tf.Const", 'loc("paddings")'),
        ("tf.Const", 'loc("sizes")'),
        ("tf.Const", 'loc("pad")'),  # the new paddings
        ("tf.Pad", 'loc("pad")'),
        # The filter transform, at the filter's (an argument's) location.
        ("tf.Const", 'loc("weights")'),
        ("tf.Pad", 'loc("weights")'),
        ("tf.Const", 'loc("weights")'),
        ("tf.Reshape", 'loc("weights")'),
        ("tf.Const", 'loc("weights")'),
        ("tf.Transpose", 'loc("weights")'),
        ("tf.Const", 'loc("weights")'),
        ("tf.Reshape", 'loc("weights")'),
        ("tf.Conv2D", 'loc("conv")'),
        # The new gradient and its way back to the old layout, at the old gradient's location.
        *[(name, 'loc("grad")') for name in (
            "tf.Const", "tf.Conv2DBackpropFilter", "tf.Const", "tf.Reshape", "tf.Const",
            "tf.Transpose", "tf.Const", "tf.Reshape", "tf.Const", "tf.Const", "tf.Slice")],
        ("tf.Conv2DBackpropFilter", 'loc("grad")'),  # the old one, unused
        ("func.return", located[-1][1]),
    ]
    assert not list(_ops(device)[-2].results[0].uses)


def _chunks(name):
    text = (LIT / name).read_text()
    return [chunk for chunk in text.split("// -----") if "func.func" in chunk]


@pytest.mark.parametrize("name", ["tf-tpu-space-to-depth-pass-verify.mlir",
                                  "tf-tpu-space-to-depth-pass-invalid.mlir"])
def test_failures_leave_the_module_unchanged(name):
    chunks = _chunks(name)
    assert len(chunks) >= 3
    for chunk in chunks:
        module = ir.Module.parse(chunk, ir.Context())
        before = _snapshot(module)
        with pytest.raises(ir.MLIRError) as failure:
            _run(module)
        messages = [d.message for d in failure.value.error_diagnostics]
        assert messages[-1].startswith(PASS + ": "), messages
        assert _snapshot(module) == before
