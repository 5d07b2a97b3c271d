"""tfmlir.tf_child: TensorFlow's child process runner, with a stand-in child (no TensorFlow).

The stand-in (tf_child_stand_in.py) runs the real program's serve loop with a fake
TensorFlow: replies, failures, crashes, jobs past their time and per-job stderr go
through the same code as with TensorFlow.
"""
import os

import pytest

from tfmlir import tf_child

STAND_IN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf_child_stand_in.py")


@pytest.fixture
def stand_in(monkeypatch):
    monkeypatch.setattr(tf_child, "MAIN", STAND_IN)
    child = tf_child.TensorFlowChild(keep_stderr=True)
    yield child
    child.close()


def _job(text):
    return {"kind": "pipeline", "text": text, "pipeline": "p"}


def test_replies_in_order_and_failures_are_replies(stand_in):
    assert stand_in.request(_job("a"))["text"] == "a!"
    failed = stand_in.request(_job("fail"))
    assert not failed["ok"] and failed["error"] == "the pass failed" and failed["error_type"] == "ValueError"
    unknown = stand_in.request({"kind": "no such kind"})
    assert not unknown["ok"] and unknown["error_type"] == "KeyError"
    assert stand_in.request(_job("b"))["text"] == "b!"  # the same process goes on
    assert all("seconds" in r for r in (failed, unknown))


def test_a_crash_is_an_error_and_the_next_job_gets_a_new_process(stand_in):
    assert stand_in.request(_job("a"))["ok"]
    with pytest.raises(tf_child.TensorFlowChildError, match=r"died \(exit status -6\)") as info:
        stand_in.request(_job("crash"))
    assert info.value.started and not info.value.timed_out
    assert "about to crash" in info.value.stderr
    assert stand_in.request(_job("b"))["text"] == "b!"


def test_a_job_past_its_time_is_killed(stand_in):
    with pytest.raises(tf_child.TensorFlowChildError, match="exceeded 1 s") as info:
        stand_in.request(_job("sleep"), timeout=1)
    assert info.value.timed_out
    assert stand_in.request(_job("c"))["text"] == "c!"


def test_each_jobs_stderr_goes_to_its_file(stand_in, tmp_path):
    log = tmp_path / "job.log"
    reply = stand_in.request(dict(_job("warn"), stderr_path=str(log)))
    assert reply["text"] == "warn!" and log.read_text() == "a warning from the pass\n"
    stand_in.request(_job("warn"))  # without a path: the process's own stderr
    assert "a warning from the pass" in stand_in.stderr_tail()


def test_a_child_that_never_starts(monkeypatch, tmp_path):
    never = tmp_path / "never.py"
    never.write_text("import sys\nsys.stderr.write('no tensorflow here')\nsys.exit(3)\n")
    monkeypatch.setattr(tf_child, "MAIN", str(never))
    child = tf_child.TensorFlowChild(keep_stderr=True)
    with pytest.raises(tf_child.TensorFlowChildError, match="could not be started") as info:
        child.request(_job("a"))
    assert not info.value.started and "no tensorflow here" in info.value.stderr
    child.close()


def test_prestart_then_request(stand_in):
    stand_in.prestart()
    assert stand_in.request(_job("a"))["text"] == "a!"
    stand_in.close()
    assert stand_in.request(_job("b"))["text"] == "b!"  # restarted after close


def test_the_childs_program_takes_its_own_folder_off_the_path(monkeypatch):
    """Run as a script, tf_child_main.py has tfmlir's folder first on sys.path (symlinks
    resolved): its modules (config, parsing, ...) must not shadow TensorFlow's imports."""
    from tfmlir import tf_child_main

    here = os.path.dirname(os.path.realpath(tf_child_main.__file__))
    monkeypatch.setattr("sys.path", [here, "/elsewhere", here + "/"])
    tf_child_main.drop_own_folder()
    import sys
    assert sys.path == ["/elsewhere"]
