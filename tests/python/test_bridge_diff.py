"""tfmlir's TPU clustering bridge against TensorFlow's, on TPU programs as users write them.

Programs: :mod:`tpu_bridge_programs` (``tpu.rewrite`` / ``tpu.replicate`` graphs
with variables, 1/2/4 replicas, outside compilation at head/tail/middle/in
cond/in while, several outside-compiled clusters, automatic outside
compilation, a Keras model). Harness: :mod:`bridge_diff`.

* The passes TF does not register one by one are exactly :data:`bridge_diff.TF_UNREGISTERED`
  (TF answers for every pass of both compositions).
* ``hybrid``: TF's registered passes in TF, the others in tfmlir, equals TF's whole
  ``tf-replicated-clustering-bridge-v2``;
* ``tfmlir_v2`` / ``tfmlir_v1``: every pass of the composition in tfmlir equals TF's whole
  named pipeline.
"""
import pytest

import bridge_diff
import tpu_bridge_programs as programs
from ir_diff import first_difference

V2 = "tf-replicated-clustering-bridge-v2"
V1 = "tf-replicated-clustering-bridge-v1"


def _compositions():
    from tfmlir.passes import bridge_pipelines

    return {V2: bridge_pipelines.BRIDGE_V2, V1: bridge_pipelines.BRIDGE_V1}


@pytest.mark.tf
def test_unregistered_passes_are_those_tf_lacks():
    from tfmlir.testing.tf_oracle import run_tf_pipelines

    names = sorted({name for text in _compositions().values()
                    for name, _ in bridge_diff.elements(text)})
    jobs = []
    for name in names:
        element = next(e for text in _compositions().values()
                       for n, e in bridge_diff.elements(text) if n == name)
        jobs.append(("module {}", element))
    unregistered = {name for name, result in zip(names, run_tf_pipelines(jobs))
                    if not result["ok"] and "does not refer to a registered pass" in result["error"]}
    assert unregistered == set(bridge_diff.TF_UNREGISTERED) & set(names)


def _canonical(text):
    from tfmlir.testing.tf_oracle import canonical

    return canonical(text)


def _compare(ours, theirs, name):
    if not theirs["ok"]:
        assert not ours["ok"], f"{name}: TF fails ({theirs['error'][:300]}) but tfmlir succeeds"
        return
    assert ours["ok"], f"{name}: tfmlir fails at {ours['stage']}: {ours['error'][:2000]}"
    mine, tf_text = _canonical(ours["text"]), _canonical(theirs["text"])
    if mine != tf_text:
        pytest.fail(f"{name}: differs from TF\n" + first_difference(tf_text, mine))


@pytest.fixture(scope="module")
def hybrid_v2():
    texts = {name: programs.get(name) for name in programs.PROGRAMS}
    return bridge_diff.run_pipeline(texts, _compositions()[V2])


@pytest.mark.tf
@pytest.mark.parametrize("name", programs.PROGRAMS)
def test_hybrid_v2_equals_tf(name, hybrid_v2):
    theirs = programs.get(f"{name}.tf-v2")
    expected = ({"ok": False, "error": theirs[len("// error: "):]} if theirs.startswith("// error")
                else {"ok": True, "text": theirs})
    _compare(hybrid_v2[name], expected, name)


# -- the v1 front, every pass in tfmlir ------------------------------------------------------

@pytest.fixture(scope="module")
def tfmlir_v1():
    texts = {name: programs.get(name) for name in programs.PROGRAMS}
    return bridge_diff.run_pipeline(texts, _compositions()[V1], everything=True)


@pytest.mark.tf
def test_tfmlir_has_every_v1_pass():
    from tfmlir.passes import bridge_pipelines

    assert bridge_pipelines.missing_passes(_compositions()[V1]) == []


@pytest.mark.tf
@pytest.mark.parametrize("name", programs.PROGRAMS)
def test_tfmlir_v1_equals_tf(name, tfmlir_v1):
    """tfmlir's whole tf-replicated-clustering-bridge-v1 gives TF's output (``<name>.tf-v1``)."""
    theirs = programs.get(f"{name}.tf-v1")
    expected = ({"ok": False, "error": theirs[len("// error: "):]} if theirs.startswith("// error")
                else {"ok": True, "text": theirs})
    _compare(tfmlir_v1[name], expected, name)


# -- the v2 bridge, every pass in tfmlir -----------------------------------------------------

@pytest.fixture(scope="module")
def tfmlir_v2():
    texts = {name: programs.get(name) for name in programs.PROGRAMS}
    return bridge_diff.run_pipeline(texts, _compositions()[V2], everything=True)


@pytest.mark.tf
def test_tfmlir_has_every_v2_pass():
    from tfmlir.passes import bridge_pipelines

    assert bridge_pipelines.missing_passes(_compositions()[V2]) == []


@pytest.mark.tf
@pytest.mark.parametrize("name", programs.PROGRAMS)
def test_tfmlir_v2_equals_tf(name, tfmlir_v2):
    """tfmlir's whole tf-replicated-clustering-bridge-v2 gives TF's output (``<name>.tf-v2``)."""
    theirs = programs.get(f"{name}.tf-v2")
    expected = ({"ok": False, "error": theirs[len("// error: "):]} if theirs.startswith("// error")
                else {"ok": True, "text": theirs})
    _compare(tfmlir_v2[name], expected, name)


_NAMED_OUTPUT_PROGRAM = """
import os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow as tf
g = tf.Graph()
with g.as_default():
    x = tf.compat.v1.placeholder(tf.float32, [4], name="x")
    (y,) = tf.compat.v1.tpu.rewrite(lambda a: a * 2.0, [x])
    tf.identity(y, name="out")
sys.stdout.buffer.write(g.as_graph_def().SerializeToString())
"""


@pytest.mark.tf
def test_identity_of_a_fetched_output_stays_as_in_tf():
    # A TF1 tpu.rewrite program imported with a named output: main returns
    # tf.Identity("out") of the rewrite's output Identity; TF's bridge keeps
    # both Identities, and so must tfmlir's (TF has no Identity-of-Identity
    # canonicalization).
    import subprocess
    import sys

    from tfmlir.importers import api
    from tfmlir.testing.tf_oracle import run_tf_pipelines, run_tfmlir_pipeline

    data = subprocess.run([sys.executable, "-c", _NAMED_OUTPUT_PROGRAM], check=True,
                          capture_output=True, timeout=300).stdout
    text = str(api.import_graph_def(data, input_names=["x"], input_data_types=["DT_FLOAT"],
                                    input_data_shapes=[[4]], output_names=["out"]))
    devices = ("tf.devices = [\"/job:localhost/replica:0/task:0/device:CPU:0\", "
               "\"/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0\", "
               "\"/job:localhost/replica:0/task:0/device:TPU:0\"], ")
    text = text.replace("module attributes {", "module attributes {" + devices, 1)
    ours = run_tfmlir_pipeline(text, V2)
    (theirs,) = run_tf_pipelines([(text, V2)])
    assert ours["ok"] and theirs["ok"], (ours.get("error"), theirs.get("error"))
    assert _canonical(theirs["text"]).count('"tf.Identity"') == 2
    _compare(ours, theirs, "named output")
