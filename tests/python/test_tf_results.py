"""TF's results through one isolating child process, cached by content (tf_results.py)."""
import pytest

import tf_results

_ADD = '''module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 1987 : i32}} {
  func.func @main(%arg0: tensor<1x2xf32>, %arg1: tensor<*xf32>) -> tensor<*xf32> {
    %0 = "tf.AddV2"(%arg0, %arg1) : (tensor<1x2xf32>, tensor<*xf32>) -> tensor<*xf32>
    return %0 : tensor<*xf32>
  }
}
'''

# TF's process dies (segmentation fault) converting a launch_func whose function is missing.
_KILLS_TF = '''func.func @missing_callee(%x: tensor<i32>) -> tensor<i32> {
  %0 = "tf_device.launch_func"(%x) {device = "d", func = @missing} : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}
'''


@pytest.mark.tf
def test_a_crash_is_recorded_the_rest_run_and_everything_is_cached(tmp_path):
    from conftest import require_tensorflow

    require_tensorflow()
    jobs = {
        "refined": (_ADD, "tf-shape-inference{input-arg-shapes=1,2:2}"),
        "crash": (_KILLS_TF, "tf-device-convert-launch-func-to-tf-call"),
        "fails": (_ADD, "tf-shape-inference{max-iterations=0}"),
        "nested": (_ADD, "builtin.module(tf-shape-inference)"),
    }
    found, ran = tf_results.results(jobs, str(tmp_path))
    assert sorted(ran) == sorted(jobs)
    assert found["refined"]["ok"] and "%arg1: tensor<2xf32>" in found["refined"]["text"]
    assert found["crash"]["crashed"] and "died" in found["crash"]["error"], found["crash"]
    assert not found["fails"]["ok"] and "did not reach convergence" in found["fails"]["error"]
    # TF's run_pass_pipeline anchors on the module: builtin.module(...) looks for nested modules.
    assert found["nested"]["ok"] and "-> tensor<*xf32>" in found["nested"]["text"]
    assert all(r["seconds"] >= 0 for r in found.values())
    again, ran = tf_results.results(jobs, str(tmp_path))
    assert ran == [] and again == found
