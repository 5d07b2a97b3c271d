"""The ops -tf-mark-ops-for-outside-compilation keeps on the device: the generated table
against TensorFlow 2.21 (scripts/dump_xla_supported_ops.py runs TF's pass in TF's clustering
pipeline on an instance of every ODS op; regenerate and diff)."""
import json
import subprocess
import sys

import pytest

from conftest import REPO_ROOT, have_tensorflow

TABLE = REPO_ROOT / "python" / "tfmlir" / "passes" / "generated" / "xla_supported_ops.py"


def test_table_covers_tf_ods_ops_once():
    from tfmlir.passes.generated import xla_supported_ops as data
    facts = json.load(open(REPO_ROOT / "third_party" / "tensorflow" / "tf_ods_ops.json"))["ops"]
    groups = [data.SUPPORTED, data.UNSUPPORTED, data.STRING_TYPED, data.REWRITTEN_BEFORE,
              frozenset(data.UNOBSERVED)]
    assert sum(len(g) for g in groups) == len(frozenset().union(*groups)), "an op is listed twice"
    assert frozenset().union(*groups) == set(facts)
    assert len(data.SUPPORTED) > 400 and len(data.UNSUPPORTED) > 200


@pytest.mark.tf
@pytest.mark.slow
@pytest.mark.skipif(not have_tensorflow(), reason="tensorflow is not installed")
def test_table_matches_installed_tensorflow(tmp_path):
    out = tmp_path / "_xla_supported_ops.py"
    proc = subprocess.run([sys.executable, str(REPO_ROOT / "scripts" / "dump_xla_supported_ops.py"),
                           "-o", str(out)], capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert out.read_text() == TABLE.read_text(), (
        "python/tfmlir/passes/generated/xla_supported_ops.py is stale: run "
        "scripts/dump_xla_supported_ops.py")
