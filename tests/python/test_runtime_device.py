"""tfmlir.runtime's device side: TF legalization, host callbacks, replicas on XLA CPU."""
import numpy as np
import pytest

from conftest import require_tensorflow

jax = pytest.importorskip("jax")

from tfmlir import tf_child  # noqa: E402
from tfmlir.runtime import _jaxlib, device, host_transfer, legalize  # noqa: E402
from tfmlir.runtime.errors import LegalizationError  # noqa: E402

MATMUL = """
module attributes {tf.versions = {producer = 888 : i32}} {
  func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3x4xf32>) -> tensor<2x4xf32> {
    %0 = "tf.MatMul"(%arg0, %arg1) {transpose_a = false, transpose_b = false} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %1 = "tf.Relu"(%0) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    func.return %1 : tensor<2x4xf32>
  }
}
"""

HOST_COMPUTE = """
module attributes {tf.versions = {producer = 888 : i32}} {
  func.func @main(%arg0: tensor<3xf32>) -> tensor<3xf32> {
    %0 = "tf.Neg"(%arg0) : (tensor<3xf32>) -> tensor<3xf32>
    %1:2 = "tf._XlaHostComputeMlir"(%0, %arg0) {recv_key = "host_compute_channel_0_retvals", send_key = "host_compute_channel_0_args", host_mlir_module = "", manual_sharding = false} : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<i32>)
    %2 = "tf.Add"(%1#0, %0) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    func.return %2 : tensor<3xf32>
  }
}
"""

pytestmark = pytest.mark.tf


@pytest.fixture(scope="module", autouse=True)
def _tensorflow():
    require_tensorflow()
    yield
    tf_child.shutdown()


def test_unlowerable_op_is_named_before_anything_runs():
    program = MATMUL.replace(
        "    func.return %1",
        '    %2 = "tf.StringToNumber"(%1) : (tensor<2x4xf32>) -> tensor<2x4xf32> loc("parse_it")\n'
        "    func.return %2")
    with pytest.raises(LegalizationError, match=r"'tf.StringToNumber' at loc\(\"parse_it\""):
        legalize.legalize(program)


def test_matmul_on_two_replicas_and_argument_checks():
    program = device.DeviceProgram(MATMUL)
    executable = program.executable(num_replicas=2)
    rng = np.random.default_rng(0)
    a, b = rng.random((2, 3), np.float32), rng.random((3, 4), np.float32)
    out = executable.run([[a, b], [2 * a, b]])
    np.testing.assert_allclose(out[0][0], np.maximum(a @ b, 0), rtol=1e-6)
    np.testing.assert_allclose(out[1][0], np.maximum((2 * a) @ b, 0), rtol=1e-6)
    assert program.executable(num_replicas=2) is executable  # cached
    with pytest.raises(device.DeviceProgramError, match=r"argument 1: expected float32\[3, 4\], got float64"):
        executable.run([[a, b.astype(np.float64)], [a, b]])
    with pytest.raises(device.DeviceProgramError, match=r"expected float32\[2, 3\], got float32\[3, 2\]"):
        executable.run([[a.T.copy(), b], [a, b]])
    with pytest.raises(device.DeviceProgramError, match="for 2 replicas, got 1"):
        executable.run([[a, b]])
    program.release()


def test_host_compute_becomes_a_callback_with_the_replica_id():
    stablehlo, groups = host_transfer.rewrite(legalize.legalize(HOST_COMPUTE))
    assert "stablehlo.send" not in stablehlo and "stablehlo.recv" not in stablehlo
    assert [(g.send_key, g.recv_key, len(g.send_types), len(g.recv_types)) for g in groups] == [
        ("host_compute_channel_0_args", "host_compute_channel_0_retvals", 2, 2)]
    seen = []

    def host(token, negated, original, replica):
        seen.append(int(replica))
        return token, (negated * original).astype(np.float32), np.array(7, np.int32)

    executable = device.Executable(stablehlo, 2, [host])
    x = np.arange(3, dtype=np.float32)
    out = executable.run([[x], [x + 1]])
    np.testing.assert_array_equal(out[0][0], -x * x - x)
    np.testing.assert_array_equal(out[1][0], -(x + 1) * (x + 1) - (x + 1))
    assert sorted(seen) == [0, 1]
    executable.release()


def test_jaxlib_version_is_checked(monkeypatch):
    monkeypatch.setattr(_jaxlib, "SUPPORTED_JAX", "0.0.1")
    monkeypatch.setattr(_jaxlib, "_state", {})
    monkeypatch.delenv("TFMLIR_ALLOW_OTHER_JAXLIB", raising=False)
    with pytest.raises(_jaxlib.JaxlibVersionError, match="written for jax/jaxlib 0.0.1"):
        _jaxlib._load()
