"""A TF1 TPU program with a ``while_loop`` and a ``cond`` (control flow v1) inside the TPU
computation goes through the clustering bridge once functionalized.

Without functionalization TF's bridge (and tfmlir's) refuse the program: the loop's
``NextIteration`` cannot be lifted out of the executor graph. Imported with
``upgrade_legacy=True`` (``tf-executor-functionalize-control-flow``), tfmlir's whole
``tf-replicated-clustering-bridge-v2`` succeeds and gives exactly what TF's own bridge gives
on the same functionalized module. Program: ``tpu_while`` of :mod:`tf1_control_flow_programs`.
"""
import pytest

import bridge_diff
import tf1_control_flow_programs as programs

V2 = "tf-replicated-clustering-bridge-v2"

pytestmark = pytest.mark.tf


def _imported(upgrade_legacy):
    import tfmlir
    from mlir import ir
    from tfmlir import driver
    from tfmlir.importers.api import import_graph_def

    module = import_graph_def(programs.path("tpu_while"), context=ir.Context())
    if upgrade_legacy:
        driver.functionalize(module)
    with module.context:
        module.operation.attributes["tf.devices"] = ir.ArrayAttr.get(
            [ir.StringAttr.get(d) for d in programs.spec("tpu_while")["devices"]])
    return tfmlir.print_ir(module, debug_info=False)


@pytest.fixture(scope="module")
def functionalized():
    return _imported(True)


def _composition():
    from tfmlir.passes import bridge_pipelines
    return bridge_pipelines.BRIDGE_V2


def test_functionalized_tpu_program_has_functional_control_flow(functionalized):
    for name in ("tf_executor.Switch", "tf_executor.Merge", "tf_executor.Enter", "tf_executor.Exit",
                 "tf_executor.NextIteration", "tf_executor.LoopCond"):
        assert name not in functionalized
    while_line = next(line for line in functionalized.splitlines() if '"tf.While"' in line)
    # TF's functionalization keeps the computation's attribute on the new op (from the LoopCond).
    assert "_tpu_replicate" in while_line
    assert '"tf.If"' in functionalized


def test_unfunctionalized_tpu_program_fails_both_bridges():
    text = _imported(False)
    ours = bridge_diff.run_pipeline({"p": text}, _composition(), everything=True)["p"]
    theirs = bridge_diff.tf_pipeline({"p": text}, V2)["p"]
    assert not theirs["ok"] and "NextIteration" in theirs["error"], theirs
    assert not ours["ok"] and "NextIteration" in ours["error"], ours


def test_functionalized_tpu_program_goes_through_the_bridge_as_in_tf(functionalized):
    from ir_diff import first_difference
    from tfmlir.testing.tf_oracle import canonical

    ours = bridge_diff.run_pipeline({"p": functionalized}, _composition(), everything=True)["p"]
    assert ours["ok"], f"tfmlir's bridge fails at {ours['stage']}: {ours['error'][:2000]}"
    assert "tf_device.cluster_func" in ours["text"] and "tf_device.replicate" in ours["text"]
    theirs = bridge_diff.tf_pipeline({"p": functionalized}, V2)["p"]
    assert theirs["ok"], theirs["error"][:2000]
    mine, tf_text = canonical(ours["text"]), canonical(theirs["text"])
    if mine != tf_text:
        pytest.fail("tfmlir's bridge differs from TF's\n" + first_difference(tf_text, mine))
