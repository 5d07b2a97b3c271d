"""tf_oracle on tfmlir.tf_child, with a stand-in child (no TensorFlow needed): results in job
order, crashes raised or recorded, jobs past their time, per-job stderr."""
import pytest

from tfmlir import tf_child
from tfmlir.testing import tf_oracle

from test_tf_child import STAND_IN


@pytest.fixture
def stand_in(monkeypatch):
    monkeypatch.setattr(tf_child, "MAIN", STAND_IN)


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
    assert "about to crash" in results[1]["error"]
    assert results[2]["text"] == "b!"


def test_a_child_that_never_starts_raises(monkeypatch, tmp_path):
    never = tmp_path / "never.py"
    never.write_text("import sys\nsys.exit(3)\n")
    monkeypatch.setattr(tf_child, "MAIN", str(never))
    with pytest.raises(tf_oracle.OracleError, match="could not be started"):
        tf_oracle.run_tf_pipelines([("a", "p")], crashes="record")
    with pytest.raises(tf_oracle.OracleError, match="before job 0"):
        tf_oracle.run_tf_pipelines_isolated([("a", "p")])


def test_isolated_records_crashes_timeouts_and_each_jobs_stderr(stand_in):
    results = tf_oracle.run_tf_pipelines_isolated(
        [("warn", "p"), ("crash", "p"), ("sleep", "p"), ("fail", "p"), ("b", "p")], job_timeout=2)
    warn, crash, sleep, fail, b = results
    assert warn["ok"] and warn["text"] == "warn!" and warn["stderr"] == "a warning from the pass\n"
    assert crash["crashed"] and "died" in crash["error"] and crash["stderr"] == "about to crash\n"
    assert sleep["crashed"] and "exceeded 2 s" in sleep["error"]
    assert not fail["ok"] and not fail.get("crashed") and fail["error"] == "the pass failed"
    assert b["text"] == "b!" and b["stderr"] == ""
    assert all("seconds" in r for r in results)


def test_isolated_marks_what_the_whole_run_had_no_time_for(stand_in):
    results = tf_oracle.run_tf_pipelines_isolated([("sleep", "p"), ("a", "p")], timeout=2, job_timeout=30)
    assert results[0]["crashed"] and "whole run" in results[0]["error"]
    assert results[1]["crashed"] and results[1]["error"].startswith("not run:")
