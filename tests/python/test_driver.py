"""tfmlir.driver: the stages from a GraphDef to a bridged module, on a TF1 TPU program with
control flow v1 inside its TPU computation (tf1_control_flow_programs' ``tpu_while``)."""
import pytest

import tf1_control_flow_programs as programs

pytestmark = pytest.mark.tf


def _ops(module):
    names = []
    module.operation.walk(lambda op: names.append(op.name) or 0)
    return set(names)


def test_the_stages_in_order_with_the_hook_between_them():
    from mlir import ir
    from tfmlir import driver

    seen = []
    options = driver.BridgeOptions(v1_compat=True, replicas=2)

    def after(stage, module):
        ops = _ops(module)
        seen.append((stage, "tf_executor.NextIteration.Source" in ops or "tf_executor.Merge" in ops,
                     "tf.devices" in module.operation.attributes, "tf._TPUCompileMlir" in ops))

    module = driver.import_and_bridge(programs.path("tpu_while"), options=options, context=ir.Context(),
                                      after=after)
    assert [s[0] for s in seen] == list(driver.STAGES)
    # v1 control flow until functionalized; devices from their stage on; compiled by the bridge.
    assert [s[1] for s in seen] == [True, False, False, False]
    assert [s[2] for s in seen] == [False, False, True, True]
    assert [s[3] for s in seen] == [False, False, False, True]
    devices = [ir.StringAttr(d).value for d in module.operation.attributes["tf.devices"]]
    assert devices == driver.device_list(2) and devices[:2] == [driver.HOST, driver.TPU_SYSTEM]


def test_bridge_pipeline_follows_the_options():
    from tfmlir import driver

    assert driver.bridge_pipeline() == "func.func(tf-executor-graph-pruning),tf-tpu-bridge{v1-compat=true}"
    assert driver.bridge_pipeline(driver.BridgeOptions(v1_compat=False, prune=False)) == \
        "tf-tpu-bridge{v1-compat=false}"


def test_failures_name_their_stage_and_leave_the_module():
    import numpy as np
    from mlir import ir
    from tfmlir import driver, print_ir
    from tfmlir.tfcore.errors import TFImportError

    with pytest.raises(TFImportError, match="nope"):
        driver.import_graph_def(programs.path("tpu_while"), [], ["nope:0"], context=ir.Context())
    assert driver.feed_specs({"x": np.zeros((2, 3), np.float32), "s": np.array([b"a"])}) == \
        [("x", "float32", (2, 3)), ("s", "string", (1,))]
    # Without functionalization the bridge refuses the v1 loop: BridgeError, module unchanged.
    module = driver.import_graph_def(programs.path("tpu_while"), context=ir.Context(), functional=False)
    driver.assign_devices(module, 1)
    before = print_ir(module)
    with pytest.raises(driver.BridgeError):
        driver.bridge(module, driver.BridgeOptions(v1_compat=False))
    assert print_ir(module) == before
