"""tf-tpu-merge-variables-with-execute beyond its lit tests: a failure leaves the module as it
was, and the runtime computes the same before and after the merge."""
import json
import textwrap

import pytest
from mlir import ir

import tfmlir
from conftest import TESTS_DIR, describe_failure, require_tensorflow, run_python
from tfmlir.passes.framework import run as run_pipeline

PIPELINE = "builtin.module(tf-tpu-merge-variables-with-execute)"
TPU = "/job:localhost/replica:0/task:0/device:TPU:0"
RES = "tensor<*x!tf_type.resource<tensor<f32>>>"
KEY = "tensor<3x!tf_type.string>"

# @merges is rewritten before @fails reports TF's error: the whole module must come back.
FAILING = f'''
func.func @merges(%v: {RES} {{tf.device = "{TPU}"}}, %key: {KEY}) {{
  %r = "tf.ReadVariableOp"(%v) : ({RES}) -> tensor<f32>
  %e = "tf_device.launch"() ({{
    %0 = "tf.TPUExecute"(%r, %key) : (tensor<f32>, {KEY}) -> tensor<f32>
    tf_device.return %0 : tensor<f32>
  }}) {{device = "{TPU}"}} : () -> tensor<f32>
  "tf.AssignVariableOp"(%v, %e) : ({RES}, tensor<f32>) -> ()
  func.return
}}
func.func @fails(%v: {RES} {{tf.device = "{TPU}"}}, %w: {RES}, %key: {KEY}) {{
  %r = "tf.ReadVariableOp"(%v) : ({RES}) -> tensor<f32>
  "tf_device.launch"() ({{
    "tf.TPUExecute"(%r, %w, %key) : (tensor<f32>, {RES}, {KEY}) -> ()
    tf_device.return
  }}) {{device = "{TPU}"}} : () -> ()
  func.return
}}
'''


def test_failure_leaves_the_module_unchanged():
    with ir.Context() as context:
        module = tfmlir.parse_module(FAILING, context)
        before = str(module)
        with pytest.raises(ir.MLIRError, match="operand #1 is a resource that was neither read"):
            run_pipeline(module, PIPELINE)
        assert str(module) == before
        module.operation.verify()


def test_success_output_verifies_and_runs_again_unchanged():
    text = FAILING[:FAILING.index("func.func @fails")]
    with ir.Context() as context:
        module = tfmlir.parse_module(text, context)
        run_pipeline(module, PIPELINE)
        once = str(module)
        assert "TPUExecuteAndUpdateVariables" in once and "ReadVariableOp" not in once
        run_pipeline(module, PIPELINE)  # nothing left to merge
        assert str(module) == once


# The runtime's variables program before the merge: v read and updated, lr only read, each
# through tf.ReadVariableOp / tf.AssignVariableOp around a plain tf.TPUExecute.
_CHILD = textwrap.dedent('''
    import json, sys
    import numpy as np
    sys.path.insert(0, sys.argv[1])
    import runtime_programs as P
    import tfmlir
    from mlir import ir
    from tfmlir import runtime
    from tfmlir.passes.framework import run as run_pipeline

    V = "tensor<!tf_type.resource<tensor<2x2xf32>>>"
    LR = "tensor<!tf_type.resource<tensor<f32>>>"
    body = f"""    %v = "tf.VarHandleOp"() {{container = "", shared_name = "v", dtype = f32, shape = #tf_type.shape<2x2>, device = "{P.TPU}"}} : () -> {V} loc("v")
        %lr = "tf.VarHandleOp"() {{container = "", shared_name = "lr", dtype = f32, shape = #tf_type.shape<>, device = "{P.TPU}"}} : () -> {LR} loc("lr")
        %init_v = "tf.Const"() {{value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>}} : () -> tensor<2x2xf32>
        "tf.AssignVariableOp"(%v, %init_v) : ({V}, tensor<2x2xf32>) -> () loc("init")
        %init_lr = "tf.Const"() {{value = dense<0.125> : tensor<f32>}} : () -> tensor<f32>
        "tf.AssignVariableOp"(%lr, %init_lr) : ({LR}, tensor<f32>) -> () loc("init_lr")
    """ + P.compile_ops(P.STEP_DEVICE) + f"""    %rv = "tf.ReadVariableOp"(%v) : ({V}) -> tensor<2x2xf32>
        %rlr = "tf.ReadVariableOp"(%lr) : ({LR}) -> tensor<f32>
        %out:2 = "tf_device.launch"() ({{
          %e:2 = "tf.TPUExecute"(%rv, %x, %rlr, %compile#1) : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<f32>, {P.KEY}) -> (tensor<2x2xf32>, tensor<f32>)
          tf_device.return %e#0, %e#1 : tensor<2x2xf32>, tensor<f32>
        }}) {{device = "{P.TPU}"}} : () -> (tensor<2x2xf32>, tensor<f32>) loc("step")
        "tf.AssignVariableOp"(%v, %out#0) : ({V}, tensor<2x2xf32>) -> () loc("update")
        %now = "tf.ReadVariableOp"(%v) : ({V}) -> tensor<2x2xf32> loc("read_v")
        func.return %out#1 : tensor<f32>
    """
    text = P.host_module("%x: tensor<2x2xf32>", body, ("x", "loss"), " -> tensor<f32>")
    with ir.Context() as context:
        module = tfmlir.parse_module(text, context)
        run_pipeline(module, "builtin.module(tf-tpu-merge-variables-with-execute)")
        merged = module.operation.get_asm(enable_debug_info=True)
    x = np.array([[0.5, 1.0], [-1.0, 2.0]], np.float32)
    results = {}
    # Before the merge the update is its own node; after it, the execute does it.
    for name, program, targets in (("unmerged", text, ["update"]), ("merged", merged, [])):
        with runtime.Session(program) as session:
            session.run(targets=["init", "init_lr"])
            steps = []
            for _ in range(3):
                steps.append(session.run(["loss"], {"x": x}, targets=targets)[0].tolist())
                steps.append(session.run(["read_v"])[0].tolist())
        results[name] = steps
    results["merged_text"] = merged
    print(json.dumps(results))
''')


@pytest.mark.tf
def test_runtime_computes_the_same_before_and_after_the_merge():
    require_tensorflow()
    pytest.importorskip("jax")
    proc = run_python([TESTS_DIR], code=_CHILD)
    assert proc.returncode == 0, describe_failure(proc)
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    merged = results["merged_text"]
    assert "device_var_reads_indices = [0, 2], device_var_updates_indices = [0, -1]" in merged
    assert '"tf.TPUExecute"(' not in merged
    assert results["merged"] == results["unmerged"]
    assert results["merged"][1] != [[1.0, 2.0], [3.0, 4.0]]  # the variable did change
