"""tfmlir's -tf-tpu-cluster-formation inside TF's clustering bridge, against TF's whole bridge.

TF 2.21's Python build does not register -tf-tpu-cluster-formation, so its
output cannot be asked for directly. It can be observed through TF's whole
``tf-replicated-clustering-bridge-v2``: on TPU programs without outside
compilation (:mod:`tpu_bridge_programs`: variables, 1/2/4 replicas with
``cross_replica_sum``, a Keras model), the passes of the bridge that TF does
not register either are no-ops except -tf-tpu-sharding-identification, which
only adds sharding attributes. So the bridge composition is run with TF's
registered passes in TF (:mod:`bridge_diff`), tfmlir's cluster formation in
between, those other unregistered passes left out, and the result -- sharding
attributes removed on both sides -- must equal TF's whole pipeline.
"""
import re

import pytest

import bridge_diff
import tpu_bridge_programs as programs
from ir_diff import first_difference

# Programs without outside compilation (manual or automatic).
PROGRAMS = ("rewrite_variables", "replicate_1", "replicate_2", "replicate_4", "keras_small")
# Unregistered in TF and, on these programs, no-ops (sharding identification: attributes only).
_LEFT_OUT = bridge_diff.TF_UNREGISTERED - {"tf-tpu-cluster-formation"}


def _without_sharding(text):
    text = re.sub(r", (input|output)_sharding_configuration = \[[^\]]*\]", "", text)
    text = re.sub(r'mhlo\.sharding = "[^"]*"(, )?', "", text)
    text = text.replace(", }", "}")
    return re.sub(r"(arg|res)_attrs = \[\{\}(, \{\})*\], ", "", text)


@pytest.fixture(scope="module")
def bridged():
    from tfmlir.passes import bridge_pipelines

    pipeline = ",".join(text for name, text in bridge_diff.elements(bridge_pipelines.BRIDGE_V2)
                        if name not in _LEFT_OUT)
    texts = {name: programs.get(name) for name in PROGRAMS}
    return bridge_diff.run_pipeline(texts, pipeline)


@pytest.mark.tf
@pytest.mark.parametrize("name", PROGRAMS)
def test_cluster_formation_in_tf_bridge(name, bridged):
    from tfmlir.testing.tf_oracle import canonical

    theirs = programs.get(f"{name}.tf-v2")
    assert not theirs.startswith("// error"), theirs
    ours = bridged[name]
    assert ours["ok"], f"{name}: tfmlir fails at {ours['stage']}: {ours['error'][:2000]}"
    mine = canonical(_without_sharding(ours["text"]))
    tf_text = canonical(_without_sharding(theirs))
    if mine != tf_text:
        pytest.fail(f"{name}: differs from TF\n" + first_difference(tf_text, mine))
