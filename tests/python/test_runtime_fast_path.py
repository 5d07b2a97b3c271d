"""tfmlir.runtime's steady-state path: arguments placed on the device in one call each (64-bit values
unchanged, caller's arrays read in place, never written), numpy kept from feed to device to fetch,
fetched values the caller's own, run plans kept per (fetches, targets)."""
import numpy as np
import pytest

from conftest import require_tensorflow

pytest.importorskip("jax")

import runtime_programs as P  # noqa: E402

pytestmark = pytest.mark.tf

WIDE = """
module attributes {tf.versions = {producer = 888 : i32}} {
  func.func @main(%x: tensor<3xi64>, %y: tensor<2xf64>) -> (tensor<3xi64>, tensor<2xf64>) {
    %0 = "tf.AddV2"(%x, %x) : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
    %1 = "tf.Mul"(%y, %y) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    func.return %0, %1 : tensor<3xi64>, tensor<2xf64>
  }
}
"""

MEAN = """
module attributes {tf.versions = {producer = 888 : i32}} {
  func.func @main(%x: tensor<2x7x7x4xf32>) -> tensor<2x4xf32> {
    %axes = "tf.Const"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
    %m = "tf.Mean"(%x, %axes) {keep_dims = false} : (tensor<2x7x7x4xf32>, tensor<2xi32>) -> tensor<2x4xf32>
    func.return %m : tensor<2x4xf32>
  }
}
"""


@pytest.fixture(scope="module")
def runtime():
    require_tensorflow()
    from tfmlir import runtime as rt
    yield rt
    from tfmlir import tf_child
    tf_child.shutdown()


@pytest.mark.parametrize("replicas", [1, 2])
def test_64_bit_arguments_reach_the_device_unchanged(runtime, replicas):
    from tfmlir.runtime import device

    executable = device.DeviceProgram(WIDE).executable(replicas)
    x = np.array([2 ** 40, -3, 2 ** 33 + 1], np.int64)
    y = np.array([1e-200, 3.0000000001], np.float64)
    for r, (a, b) in enumerate(executable.run([[x * (r + 1), y] for r in range(replicas)])):
        np.testing.assert_array_equal(a, 2 * x * (r + 1))
        np.testing.assert_array_equal(b, y * y)
        assert a.dtype == np.int64 and b.dtype == np.float64


def test_arguments_are_read_in_place_and_never_written(runtime):
    from tfmlir.runtime import device

    executable = device.DeviceProgram(P.DENSE_DEVICE).executable(1)
    rng = np.random.default_rng(3)
    x = rng.standard_normal((3, 4)).astype(np.float32).T  # not contiguous
    w = rng.standard_normal((3, 5)).astype(np.float32)
    w.flags.writeable = False
    b = rng.standard_normal(5).astype(np.float32)
    before = [v.copy() for v in (x, w, b)]
    (y,) = executable.run([[x, w, b]])[0]
    np.testing.assert_allclose(y, np.tanh(x @ w + b), rtol=1e-5, atol=1e-6)
    for value, kept in zip((x, w, b), before):
        np.testing.assert_array_equal(value, kept)


def _at_offset(array, offset):
    """A copy of `array` whose data starts `offset` bytes past a 64-byte boundary."""
    buf = np.empty(array.nbytes + 128, np.uint8)
    start = (-buf.ctypes.data) % 64 + offset
    out = buf[start:start + array.nbytes].view(array.dtype).reshape(array.shape)
    out[...] = array
    return out


@pytest.mark.parametrize("offset", [0, 16])  # used in place / copied
@pytest.mark.parametrize("replicas", [1, 2])
def test_one_array_shared_by_replicas_aligned_or_not(runtime, offset, replicas):
    from tfmlir.runtime import device

    executable = device.DeviceProgram(P.DENSE_DEVICE).executable(replicas)
    rng = np.random.default_rng(offset + replicas)
    x, w, b = (_at_offset(rng.standard_normal(s).astype(np.float32), offset) for s in ((4, 3), (3, 5), (5,)))
    for out in executable.run([[x, w, b]] * replicas):
        np.testing.assert_allclose(out[0], np.tanh(x @ w + b), rtol=1e-5, atol=1e-6)


def test_mean_legalizes_and_runs(runtime):
    from tfmlir.runtime import device

    x = np.random.default_rng(4).random((2, 7, 7, 4), np.float32)
    (y,) = device.DeviceProgram(MEAN).executable(1).run([[x]])[0]
    np.testing.assert_allclose(y, x.mean(axis=(1, 2)), rtol=1e-6)


def test_fetched_values_are_the_callers_own(runtime):
    rng = np.random.default_rng(5)
    x, w, b = (rng.standard_normal(s).astype(np.float32) for s in ((4, 3), (3, 5), (5,)))
    x0 = x.copy()
    with runtime.Session(P.dense()) as session:
        y, fed = session.run(["y", "x"], {"x": x, "w": w, "b": b})
        assert fed is not x and fed.flags.writeable and y.flags.writeable
        np.testing.assert_array_equal(fed, x)
        expected = y.copy()
        y[...] = 0
        fed[...] = 0
        (again,) = session.run(["y"], {"x": x, "w": w, "b": b})
        np.testing.assert_array_equal(again, expected)
        np.testing.assert_array_equal(x, x0)


def test_scalar_fetches_are_numpy_scalars_as_from_tensorflow(runtime):
    with runtime.Session(P.variables()) as session:
        session.run(targets=["init", "init_lr"])
        loss, now = session.run(["loss", "read_v"], {"x": np.eye(2, dtype=np.float32)})
        assert type(loss) is np.float32 and now.shape == (2, 2)


def test_feeds_of_other_types_still_convert_and_plans_follow_the_fetches(runtime):
    rng = np.random.default_rng(6)
    x, w, b = (rng.standard_normal(s).astype(np.float32) for s in ((4, 3), (3, 5), (5,)))
    with runtime.Session(P.dense()) as session:
        (y,) = session.run(["y"], {"x": x, "w": w, "b": b})
        # Lists take TensorFlow's conversion, as before.
        (from_lists,) = session.run(["y"], {"x": x.tolist(), "w": w.tolist(), "b": b.tolist()})
        np.testing.assert_array_equal(from_lists, y)
        whole = session.run(feeds={"x": x, "w": w, "b": b})
        both = session.run(["y:0", "y"], {"x:0": x, "w": w, "b": b})
        np.testing.assert_array_equal(whole[0], y)
        np.testing.assert_array_equal(both[0], y)
        np.testing.assert_array_equal(both[1], y)
        with pytest.raises(runtime.RunError, match="feed 'x': expected shape"):
            session.run(["y"], {"x": x[:2], "w": w, "b": b})
        with pytest.raises(runtime.RunError, match="feed 'q': only the program's inputs"):
            session.run(["y"], {"q": x, "w": w, "b": b})
