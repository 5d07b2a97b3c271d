"""Several processes, one XLA job (tfmlir.runtime.distributed): PJRT's distributed runtime with
gloo collectives across processes, and failures that are named in bounded time."""
import json
import sys
import time
from pathlib import Path

import pytest

from conftest import run_python

WORKER = Path(__file__).with_name("distributed_worker.py")

pytestmark = pytest.mark.slow


def test_a_cross_replica_sum_spans_the_processes():
    from tfmlir.runtime import distributed

    outputs = distributed.launch([sys.executable, str(WORKER), "allreduce"], 2, timeout_s=240)
    reports = [json.loads(text.strip().splitlines()[-1]) for text in outputs]
    assert [r["process"] for r in reports] == [0, 1]
    assert all(r["devices"] == 4 for r in reports)
    # Each process ran its own two replicas; every replica got the sum over all four (1+2+3+4).
    assert sorted(rep for r in reports for rep in r["replicas"]) == [0, 1, 2, 3]
    assert all(result == [10.0, 10.0, 10.0] for r in reports for result in r["results"])


def test_a_process_that_dies_is_named_and_the_others_are_stopped():
    from tfmlir.runtime import distributed

    start = time.monotonic()
    with pytest.raises(distributed.DistributedError, match=r"process 1 of 2 failed \(exit status 3\); "
                                                           r"the others were stopped"):
        distributed.launch([sys.executable, str(WORKER), "die"], 2, timeout_s=240)
    assert time.monotonic() - start < 120


def test_a_job_past_its_time_limit_is_stopped():
    from tfmlir.runtime import distributed

    with pytest.raises(distributed.DistributedError, match=r"did not finish within 2 s \(still running: "
                                                           r"processes \[0, 1\]\)"):
        distributed.launch([sys.executable, "-c", "import time; time.sleep(60)"], 2, timeout_s=2)


def test_an_unreachable_coordinator_is_a_timeout_not_a_crash():
    from tfmlir.runtime import distributed

    code = f"""
import sys
from tfmlir.runtime import distributed
job = distributed.Job("127.0.0.1:{distributed.free_port()}", 2, 1)
try:
    distributed.join(job, timeout_s=2)
except TimeoutError as exc:
    print("timeout:", exc)
    sys.exit(0)
sys.exit(5)
"""
    proc = run_python([], code=code, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "did not answer within 2 s" in proc.stdout


def test_the_environment_describes_the_job():
    from tfmlir.runtime import distributed

    assert distributed.from_environment({}) is None
    job = distributed.from_environment({distributed.ENV_COORDINATOR: "127.0.0.1:1234",
                                        distributed.ENV_NUM_PROCESSES: "3", distributed.ENV_PROCESS_ID: "2"})
    assert job == distributed.Job("127.0.0.1:1234", 3, 2)
    with pytest.raises(distributed.DistributedError, match="must all be set"):
        distributed.from_environment({distributed.ENV_COORDINATOR: "127.0.0.1:1234"})
