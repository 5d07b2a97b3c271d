"""Differential rows: the tf_device outlining, launch_func conversion and constant sinking passes.

Besides the common inputs, every row runs on the programs of TF's clustering
bridge (``bridge``: clusters, host launches, launch_funcs; tests/python/device_programs.py)
and on the chunks of its passes' ``-invalid.mlir`` lit files (``invalid``).
"""
from pass_diff import Row

_EXTRA = ("bridge", "invalid")
_CLUSTER = ("tf-device-cluster-outlining",)
_LAUNCH = ("tf-device-launch-outlining",)
_CONVERT = ("tf-device-convert-launch-func-to-tf-call",)
_SINKING = ("tf-device-constant-sinking",)

# Inputs where TF produces IR that is not valid or calls nothing (or its process dies): TF is
# not run, tfmlir must fail with the given diagnostic and leave the module as it was.
_EMPTY_NAME = {
    # TF creates a function without a name (printed as @<<INVALID EMPTY SYMBOL>>).
    '_cluster_outlined_function_name = ""':
        "has an empty '_cluster_outlined_function_name': the outlined function needs a name"}
_TF_WRONG_LAUNCH = dict(_EMPTY_NAME, **{
    # TF outlines a launch of a nested module into the outer module: the launch_func calls
    # nothing it can reach (TF succeeds).
    "@launch_in_nested_module": "is inside the nested symbol table 'inner'"})
_TF_CRASHES_CONVERT = {
    # TF's process dies (segmentation fault) converting these launch_funcs.
    "@missing_callee": "'func' attribute refers to an undefined function: @missing",
    "@callee_not_a_function": "'@not_a_function' does not reference a function",
    "@not_a_tensor": "operand #0 has type 'i32': tf.PartitionedCall takes and returns tensors only"}



def _convert_without_tf_ops(text):
    # TF 2.21's conversion creates tf.PartitionedCall without declaring the tf dialect as a
    # dependency: when the input has no tf op the dialect is not loaded and TF's process dies
    # (segmentation fault). Not a behaviour to match.
    return "tf dialect not loaded in TF's context" if '"tf.' not in text else None


ROWS = [
    Row("cluster-outlining", "tf-device-cluster-outlining", _CLUSTER, _EXTRA, _EMPTY_NAME),
    Row("launch-outlining", "tf-device-launch-outlining", _LAUNCH, _EXTRA, _TF_WRONG_LAUNCH),
    Row("launch-outlining-local-names", "tf-device-launch-outlining{globally-unique-func-names=false}",
        _LAUNCH, _EXTRA, _TF_WRONG_LAUNCH),
    Row("convert-launch-func-to-tf-call", "tf-device-convert-launch-func-to-tf-call", _CONVERT, _EXTRA,
        _TF_CRASHES_CONVERT, _convert_without_tf_ops),
    Row("launch-outlining+convert", "tf-device-launch-outlining,tf-device-convert-launch-func-to-tf-call",
        _LAUNCH + _CONVERT, ("bridge",), tf_cannot_run=_convert_without_tf_ops),
    Row("constant-sinking", "func.func(tf-device-constant-sinking)", _SINKING, _EXTRA),
    Row("constant-sinking+cluster-outlining", "func.func(tf-device-constant-sinking),tf-device-cluster-outlining",
        _SINKING + _CLUSTER, ("bridge",), _EMPTY_NAME),
]
