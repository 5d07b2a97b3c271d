"""tf_oracle's child handling, with a stand-in child (no TensorFlow needed)."""
import pytest

from tfmlir.testing import tf_oracle

# Answers every job with its text; dies like a crash on a job whose text is "crash".
_STAND_IN = r'''
import json, os, sys
jobs = json.load(open(sys.argv[1]))
with open(sys.argv[2], "w") as out:
    for job in jobs:
        if job["text"] == "crash":
            out.write('{"ok": true, "text": "half a li')
            out.flush()
            os.abort()
        out.write(json.dumps({"ok": True, "text": job["text"] + "!", "seconds": 0.0}) + "\n")
        out.flush()
'''


@pytest.fixture
def stand_in(monkeypatch):
    monkeypatch.setattr(tf_oracle, "_CHILD", _STAND_IN)


def test_results_in_job_order(stand_in):
    results = tf_oracle.run_tf_pipelines([("a", "p"), ("b", "p")])
    assert [r["text"] for r in results] == ["a!", "b!"]


def test_a_crash_raises_by_default(stand_in):
    with pytest.raises(tf_oracle.OracleError, match="child failed"):
        tf_oracle.run_tf_pipelines([("a", "p"), ("crash", "p"), ("b", "p")])


def test_a_crash_is_recorded_and_the_rest_still_run(stand_in):
    results = tf_oracle.run_tf_pipelines([("a", "p"), ("crash", "p"), ("b", "p"), ("crash", "p")],
                                         crashes="record")
    assert [r["ok"] for r in results] == [True, False, True, False]
    assert results[1]["crashed"] and results[3]["crashed"]
    assert results[2]["text"] == "b!"


def test_a_child_that_never_starts_raises(monkeypatch):
    monkeypatch.setattr(tf_oracle, "_CHILD", "import sys; sys.exit(3)")
    with pytest.raises(tf_oracle.OracleError, match="exit 3"):
        tf_oracle.run_tf_pipelines([("a", "p")], crashes="record")
