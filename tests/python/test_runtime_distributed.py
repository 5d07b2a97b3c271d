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


@pytest.mark.parametrize("mode, ending", [("die", "exit status 3"), ("kill", "signal 9")])
def test_a_process_that_dies_mid_run_ends_every_other_with_a_clear_error(mode, ending):
    """Process 1 exits (or is killed) while process 0 waits for it in a collective: XLA's
    coordination service ends process 0 with its message within the heartbeat timeout (5 s in
    the worker), and the launcher names both."""
    from tfmlir.runtime import distributed

    start = time.monotonic()
    with pytest.raises(distributed.DistributedError) as caught:
        distributed.launch([sys.executable, str(WORKER), mode], 2, timeout_s=240, grace_s=90)
    message = str(caught.value)
    assert f"process 1 of 2 failed ({ending})" in message, message
    assert "The other processes:" in message
    assert "process 0: " in message and "still running, stopped" not in message, message
    assert "Terminating process because the JAX distributed service detected fatal errors" in message, message
    assert time.monotonic() - start < 90


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


# -- TPU programs over several processes, through `tfmlir run --processes` -------------------------

def _run_cli(args, env_extra):
    import os
    import subprocess

    env = dict(os.environ, **env_extra)
    return subprocess.run([sys.executable, "-m", "tfmlir.runtime.cli", *map(str, args)], capture_output=True,
                          text=True, timeout=600, env=env)


@pytest.mark.tf
@pytest.mark.parametrize("name, processes, devices", [
    ("replicate_2", 2, 1),      # one replica per process
    ("replicate_4", 2, 2),      # two replicas per process, a cross-replica sum over both processes
    ("outside_replicated", 2, 1),  # host computations in the process of their replica
    ("variables_steps", 2, 1),  # one replica: process 0 runs it, the other takes its results
    ("replicate_4", 4, 1),      # four processes of one replica each
])
def test_a_tpu_program_over_several_processes_gives_plain_tf_numbers(tmp_path, name, processes, devices):
    import numpy as np

    import tpu_e2e_programs as programs

    spec = programs.spec(name)
    feeds = []
    for k, (tensor, value) in enumerate(spec["feeds"].items()):
        path = tmp_path / f"feed{k}.npy"
        np.save(path, value)
        feeds += ["--feed", f"{tensor}={path}"]
    fetches = [arg for f in spec["fetches"] for arg in ("--fetch", f)]
    targets = [arg for t in spec["targets"] for arg in ("--target", t.split(":")[0])]
    expected = spec["expected"]
    saved = tmp_path / "out.npz"
    proc = _run_cli([programs.path(name), *targets, *feeds, *fetches, "--repeat", len(expected),
                     "--processes", processes, "--timing", "--save", saved],
                    {"TFMLIR_CPU_DEVICES": str(devices), "TFMLIR_JOB_TIMEOUT": "300"})
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert f"timing: {processes} processes" in proc.stderr
    assert all(f"timing: process {k}:" in proc.stderr for k in range(processes))
    got = np.load(saved)
    # --repeat N fetches N times; the values saved are the last step's.
    for fetch, want in zip(spec["fetches"], expected[-1]):
        value = got[fetch.replace(":", "_")]
        np.testing.assert_allclose(value.astype(np.float64), np.asarray(want, np.float64), rtol=1e-6,
                                   atol=1e-6 * float(np.max(np.abs(want)) or 1.0), err_msg=f"{name}: {fetch}")


@pytest.mark.tf
def test_sessions_of_a_job_take_process_0s_feeds(tmp_path):
    import numpy as np

    import tpu_e2e_programs as programs
    from tfmlir.runtime import distributed

    spec = programs.spec("replicate_4")
    feed = tmp_path / "x.npy"
    np.save(feed, spec["feeds"]["x:0"])
    outputs = distributed.launch([sys.executable, str(WORKER), "session", programs.path("replicate_4"), feed,
                                  spec["targets"][0].split(":")[0], *spec["fetches"]], 2, timeout_s=300,
                                 env={"TFMLIR_CPU_DEVICES": "2"})
    reports = [json.loads(text.strip().splitlines()[-1]) for text in outputs]
    for report in reports:
        np.testing.assert_allclose(np.asarray(report["values"], np.float64),
                                   np.asarray(spec["expected"][0], np.float64), rtol=1e-6, atol=1e-7)
