"""The mission's loop: TF1 TPU programs in, imported and bridged by tfmlir, run on XLA, TF's numbers out.

Every program of :mod:`tpu_e2e_programs` (the clustering issue's list and a
ResNet50-sized Keras model under ``tpu.rewrite``) runs through
``tfmlir.runtime.Session(graph_def)``: import, functionalization, tfmlir's
``tf-tpu-bridge`` (v1-compat, as TF's session bridge; v2 as well for a subset),
the runtime. The initializer runs as a target first, then every step fetches
with the feeds; the values equal plain TensorFlow's (the same computation
without TPU wrappers in a ``tf.compat.v1.Session``) within 1e-6 relative.
"""
import numpy as np
import pytest

import tpu_e2e_programs as programs

pytestmark = [pytest.mark.tf, pytest.mark.slow]

RTOL = 1e-6


def _close(got, expected, what):
    got = np.asarray(got)
    assert got.shape == expected.shape, (what, got.shape, expected.shape)
    if expected.dtype == object:
        assert got.tolist() == expected.tolist(), what
        return
    scale = float(np.max(np.abs(expected))) if expected.size else 0.0
    np.testing.assert_allclose(got.astype(np.float64), expected.astype(np.float64), rtol=RTOL,
                               atol=RTOL * scale, err_msg=what)


def _run(name, v1_compat=True):
    from tfmlir import runtime

    spec = programs.spec(name)
    with runtime.Session(programs.path(name), v1_compat=v1_compat) as session:
        session.run(targets=[t.split(":")[0] for t in spec["targets"]])
        if spec["weights"]:
            session.run(targets=["load_weights"], feeds=spec["weights"])
        for step, expected in enumerate(spec["expected"]):
            got = session.run(spec["fetches"], spec["feeds"])
            for value, want, fetch in zip(got, expected, spec["fetches"]):
                _close(value, want, f"{name} step {step} fetch {fetch}")
        return session.timings


@pytest.mark.parametrize("name", programs.PROGRAMS)
def test_program_runs_like_plain_tf(name):
    timings = _run(name)
    assert timings["bridges"] >= 2  # the initializer's signature and the step's
    assert timings["executions"] >= 1  # the device program ran on XLA


@pytest.mark.parametrize("name", ["variables_steps", "replicate_2", "outside_in_while",
                                  "outside_replicated", "control_flow_v1"])
def test_program_runs_like_plain_tf_with_the_v2_bridge(name):
    _run(name, v1_compat=False)


@pytest.mark.parametrize("name", programs.LARGE_PROGRAMS)
def test_large_model_runs_like_plain_tf(name):
    _run(name)


def test_the_bridged_program_holds_tpu_runtime_ops():
    """What the runtime ran: the bridge's output, with the compile, the assert and the executes."""
    from tfmlir import runtime

    texts = []
    with runtime.Session(programs.path("replicate_2"), print_ir_after_bridge=texts.append) as session:
        spec = programs.spec("replicate_2")
        session.run(targets=[t.split(":")[0] for t in spec["targets"]])
        session.run(spec["fetches"], spec["feeds"])
    step = texts[-1]
    for op in ("tf._TPUCompileMlir", "tf.TPUCompileSucceededAssert", "tf.TPUExecute",
               "tf_device.replicate"):
        assert op in step, op
    for op in ("tf_device.cluster", "tf.TPUReplicateMetadata", "tf.TPUReplicatedInput"):
        assert op + '"' not in step and op + " " not in step, op
    assert "TPU_REPLICATED_CORE_0" in step
