"""``tfmlir.runtime.run_function``: a TF2 function traced with ``tpu.rewrite`` inside, bridged by
tfmlir and run on XLA, equals the same function without the TPU wrapper run by TensorFlow --
outputs and the captured variables it updates, over successive calls."""
import subprocess
import sys
import textwrap

import pytest

pytestmark = [pytest.mark.tf, pytest.mark.slow]

_CHILD = textwrap.dedent('''
    import numpy as np
    import tfmlir
    import tensorflow as tf
    from tfmlir import runtime

    w = tf.Variable(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4), name="w")
    b = tf.Variable(np.zeros(4, np.float32), name="b")

    def host(v):
        return tf.strings.to_number(tf.strings.as_string(v, precision=6))

    def step(x, outside):
        y = tf.nn.relu(tf.matmul(x, w) + b)
        h = outside(host, y)
        b.assign_add(0.5 * tf.reduce_mean(h, axis=0))
        return [h * 2.0, tf.reduce_sum(y)]

    @tf.function
    def tpu_step(x):
        return tf.compat.v1.tpu.rewrite(lambda x: step(x, tf.compat.v1.tpu.outside_compilation), [x])

    @tf.function
    def plain_step(x):
        return step(x, lambda f, v: f(v))

    x = np.random.default_rng(0).uniform(-1, 1, (2, 3)).astype(np.float32)
    cf = tpu_step.get_concrete_function(tf.TensorSpec([2, 3], tf.float32))
    got = [runtime.run_function(cf, x) for _ in range(3)]
    b_tfmlir = b.numpy().copy()
    b.assign(np.zeros(4, np.float32))
    want = [[t.numpy() for t in plain_step(x)] for _ in range(3)]
    for g, e in zip(got, want):
        assert len(g) == len(e) == 2
        for gv, ev in zip(g, e):
            np.testing.assert_allclose(gv, ev, rtol=1e-6, atol=1e-6 * float(np.max(np.abs(ev))))
    np.testing.assert_allclose(b_tfmlir, b.numpy(), rtol=1e-6)
    assert np.any(b_tfmlir != 0)  # the variable did change across the calls
    try:
        runtime.run_function(cf)
    except runtime.RunError as exc:
        assert "takes 1 argument(s), got 0" in str(exc)
    else:
        raise AssertionError("a missing argument was accepted")
    print("OK")
''')


def test_run_function_matches_tf_with_variable_updates():
    proc = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert proc.stdout.strip().endswith("OK")
