"""Functional <-> region control flow: the two conversions undo each other, and failures
leave the module unchanged (no TensorFlow needed; the differential rows compare with TF)."""
import re

import pytest
from mlir import ir

import tfmlir
from pass_diff import lit_inputs
from tfmlir.passes import framework

TO_REGIONS = "tf-functional-control-flow-to-regions"
TO_FUNCTIONAL = "tf-region-control-flow-to-functional"

# What the way back adds: TF marks every functional op it builds, and an If keeps the names
# its IfRegion had.
_ADDED = re.compile(r'(, )?(_xla_propagate_compile_time_consts = true|_then_func_name = "[^"]*"|'
                    r'_else_func_name = "[^"]*")')


def _run(text, pipeline):
    module = ir.Module.parse(text, ir.Context())
    framework.run(module, f"builtin.module({pipeline})")
    return tfmlir.print_ir(module, generic=True)


def _generic(text):
    return tfmlir.print_ir(ir.Module.parse(text, ir.Context()), generic=True)


def _without_added(text):
    text = _ADDED.sub("", text)
    return text.replace("{, ", "{").replace(" {}", "")


ROUND_TRIP = """
func.func @main(%p: tensor<i1>, %n: tensor<i32>, %x: tensor<2xf32>) -> (tensor<2xf32>, tensor<i32>, tensor<2xf32>, tensor<f32>) {
  %0 = "tf.If"(%p, %x) {then_branch = @double, else_branch = @negate, is_stateless = true, device = "/device:CPU:0", _class = "a"} : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "tf.If"(%n, %0) {then_branch = @double, else_branch = @double, is_stateless = false} : (tensor<i32>, tensor<2xf32>) -> tensor<2xf32>
  %2:2 = "tf.While"(%n, %1) {cond = @positive, body = @step, is_stateless = false, parallel_iterations = 5 : i64, shape_invariant, _tpu_replicate = "c"} : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>)
  %f = "tf.Const"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %3 = "tf.While"(%f) {cond = @as_cond, body = @halve, is_stateless = true, parallel_iterations = 10 : i64} : (tensor<f32>) -> tensor<f32>
  func.return %1, %2#0, %2#1, %3 : tensor<2xf32>, tensor<i32>, tensor<2xf32>, tensor<f32>
}
func.func private @double(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.AddV2"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
func.func private @negate(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.Neg"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
func.func private @positive(%i: tensor<i32>, %a: tensor<2xf32>) -> tensor<i1> {
  %z = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.Greater"(%i, %z) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  func.return %0 : tensor<i1>
}
func.func private @step(%i: tensor<i32>, %a: tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>) {
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.Sub"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  func.return %0, %a : tensor<i32>, tensor<2xf32>
}
func.func private @as_cond(%a: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}
func.func private @halve(%a: tensor<f32>) -> tensor<f32> {
  %h = "tf.Const"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %0 = "tf.Mul"(%a, %h) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
"""

_REGION_OPS = ('"tf.IfRegion"(', '"tf.WhileRegion"(', '"tf.CaseRegion"(')
_FUNCTIONAL_OPS = ('"tf.If"(', '"tf.While"(', '"tf.Case"(')


@pytest.mark.parametrize("option", ["", "{allow-passthrough-args}"])
def test_functional_to_regions_and_back_is_the_identity(option):
    # Identity up to what the way back adds, for If and While ops in top-level functions
    # written with TF's attributes only (the way there keeps only `device` and "_" ones
    # among the others, TF has no trivial form for Case, and the way back leaves nested
    # modules alone). A ToBool made on the way there is folded on the way back.
    # With passthrough arguments, a While whose cond needs a ToBool is outlined on the way
    # back: TF's trivial form takes a ToBool or passthrough arguments, not both.
    text = ROUND_TRIP
    if option:
        text = re.sub(r".*@as_cond, body = @halve.*\n", "", text).replace(", %3 :", ", %f :")
    regions = _run(text, TO_REGIONS + option)
    assert not any(op in regions for op in _FUNCTIONAL_OPS) and '"tf.ToBool"' in regions
    back = _run(text, f"{TO_REGIONS}{option},{TO_FUNCTIONAL}")
    assert _without_added(back) == _without_added(_generic(text))
    if option:
        full = _run(ROUND_TRIP, f"{TO_REGIONS}{option},{TO_FUNCTIONAL}")
        assert "cond = @tf.WhileRegion_cond" in full


def _region_inputs():
    # CaseRegion has no trivial form in TF (every branch is outlined again), so it is left out.
    return {key: text for key, text in lit_inputs([TO_FUNCTIONAL]).items()
            if '"tf.' in text and "CaseRegion" not in text}


@pytest.mark.parametrize("key", sorted(_region_inputs()))
def test_regions_to_functional_and_back_reaches_a_fixed_point(key):
    text = _region_inputs()[key]
    functional = _run(text, TO_FUNCTIONAL)
    assert not any(op in functional for op in _REGION_OPS)
    regions = _run(text, f"{TO_FUNCTIONAL},{TO_REGIONS}")
    assert not any(op in regions for op in _FUNCTIONAL_OPS)
    # Each region now calls the function outlined from it, so going functional again
    # reuses those functions: the same IR as the first conversion, nothing outlined twice.
    again = _run(text, f"{TO_FUNCTIONAL},{TO_REGIONS},{TO_FUNCTIONAL}")
    assert _without_added(again) == _without_added(functional)


FAILING = """
func.func @main(%p: tensor<i1>, %x: tensor<f32>) -> (tensor<f32>, tensor<!tf_type.variant>) {
  %0 = "tf.If"(%p, %x) {then_branch = @id, else_branch = @id, is_stateless = true} : (tensor<i1>, tensor<f32>) -> tensor<f32>
  %1 = "tf.GeneratorDataset"(%x) {init_func = @id, next_func = @id, finalize_func = @id, output_shapes = [#tf_type.shape<>], output_types = [!tf_type.string], metadata = "", operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<f32>) -> tensor<!tf_type.variant>
  func.return %0, %1 : tensor<f32>, tensor<!tf_type.variant>
}
func.func private @id(%x: tensor<f32>) -> tensor<f32> {
  func.return %x : tensor<f32>
}
"""


def test_failure_leaves_the_module_unchanged():
    # The If is converted before the GeneratorDataset fails: it is rolled back.
    module = ir.Module.parse(FAILING, ir.Context())
    before = str(module)
    with pytest.raises(ir.MLIRError) as info:
        framework.run(module, f"builtin.module({TO_REGIONS}{{allow-passthrough-args}})")
    assert "'tf.GeneratorDataset' op failed to convert to region form" in str(info.value.error_diagnostics[0])
    assert str(module) == before
    # Without the option the GeneratorDataset is left alone, as in TF.
    assert '"tf.IfRegion"' in _run(FAILING, TO_REGIONS)
