"""Several processes, one XLA job: PJRT's distributed runtime, and a launcher that watches it.

A job is ``num_processes`` processes that each :func:`join` the coordination
service of XLA's distributed runtime (process 0 runs it at the coordinator
address, ``host:port``; the processes' CPU devices then form one device set
and their collectives go through gloo). :func:`launch` starts such a job on
this machine: one child per process, the coordinator on ``127.0.0.1``, each
told who it is through the environment (:data:`ENV_COORDINATOR`,
:data:`ENV_NUM_PROCESSES`, :data:`ENV_PROCESS_ID`; :func:`from_environment`
reads them back).

Failures are bounded and named: a coordinator that does not answer is a
TimeoutError in :func:`join`; a process that ends with an error (or is
killed) makes :func:`launch` stop the others and raise
:class:`DistributedError` naming it with the end of its stderr; a job that
runs past its time limit is stopped the same way. (XLA's coordination service
itself ends every other process of a job whose process stops sending
heartbeats -- that is why the processes run as children of a launcher.)
"""
import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass

from . import _jaxlib

ENV_COORDINATOR = "TFMLIR_COORDINATOR"
ENV_NUM_PROCESSES = "TFMLIR_NUM_PROCESSES"
ENV_PROCESS_ID = "TFMLIR_PROCESS_ID"


class DistributedError(RuntimeError):
    """A process of a job failed, or the job did not finish in time."""


@dataclass(frozen=True)
class Job:
    """Who this process is in a job: the coordinator's ``host:port``, the number of processes
    and this process's id (0 runs the coordination service)."""
    coordinator: str
    num_processes: int
    process_id: int


def from_environment(environ=None):
    """The :class:`Job` the launcher described in the environment, or None outside a job."""
    environ = os.environ if environ is None else environ
    if ENV_COORDINATOR not in environ:
        return None
    try:
        return Job(environ[ENV_COORDINATOR], int(environ[ENV_NUM_PROCESSES]), int(environ[ENV_PROCESS_ID]))
    except (KeyError, ValueError) as exc:
        raise DistributedError(f"the environment describes a distributed job badly ({exc!r}): "
                               f"{ENV_COORDINATOR}, {ENV_NUM_PROCESSES} and {ENV_PROCESS_ID} must all "
                               f"be set, the last two to integers") from None


def join(job, *, timeout_s=60.0, heartbeat_s=10):
    """Joins `job` (a :class:`Job`) before this process uses any device; see
    :func:`tfmlir.runtime._jaxlib.join_distributed`."""
    _jaxlib.join_distributed(job.coordinator, job.num_processes, job.process_id,
                             timeout_s=timeout_s, heartbeat_s=heartbeat_s)


# How long a process waits for another's values before the run fails.
EXCHANGE_TIMEOUT_S = float(os.environ.get("TFMLIR_EXCHANGE_TIMEOUT", "300"))


def exchange(key, mine, count):
    """Every process's values, given this process's: `mine` maps indices of ``range(count)`` (the
    replicas this process ran) to values (lists of arrays); returns the values of every index,
    the others' read from the job's key-value store under `key` (each process publishes its
    own). RunError when a process does not publish within :data:`EXCHANGE_TIMEOUT_S`."""
    import pickle

    from .errors import RunError

    for index, values in mine.items():
        _jaxlib.job_put(f"{key}/{index}", pickle.dumps([_plain(v) for v in values]))
    out = []
    for index in range(count):
        if index in mine:
            out.append(mine[index])
            continue
        try:
            data = _jaxlib.job_get(f"{key}/{index}", EXCHANGE_TIMEOUT_S)
        except TimeoutError:
            raise RunError(f"replica {index}'s values ('{key}') did not come from its process within "
                           f"{EXCHANGE_TIMEOUT_S:g} s") from None
        out.append(pickle.loads(data))
    return out


class JobFeeds:
    """The feeds of a session's runs in a job of several processes: process 0's. Its i-th run
    publishes its feeds under the session's name (`owner`, the same in every process); the
    other processes' i-th runs take them instead of their own. Outside a job, each run's own."""

    def __init__(self, owner, platform="cpu"):
        self.owner, self.platform = owner, platform
        self.runs = 0

    def of_this_run(self, feeds):
        if not _jaxlib.in_job():
            return feeds
        import pickle

        from .errors import RunError

        count = self.runs
        self.runs += 1
        key = f"tfmlir/feeds/{self.owner}/{count}"
        if _jaxlib.process_index(self.platform) == 0:
            _jaxlib.job_put(key, pickle.dumps({name: _plain(v) for name, v in feeds.items()}))
            return feeds
        try:
            return pickle.loads(_jaxlib.job_get(key, EXCHANGE_TIMEOUT_S))
        except TimeoutError:
            raise RunError(f"process 0's feeds of run {count} did not come within "
                           f"{EXCHANGE_TIMEOUT_S:g} s") from None


def _plain(value):
    import numpy as np
    if isinstance(value, np.ndarray):
        return value
    if hasattr(value, "numpy"):
        return value.numpy()
    return np.asarray(value)


def free_port():
    """A TCP port of 127.0.0.1 nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def launch(argv, num_processes, *, timeout_s=600.0, env=None, cwd=None, capture_stderr=False,
           grace_s=60.0):
    """Runs `argv` (a command line: the same program for every process) as the `num_processes`
    processes of one job on this machine and returns their stdout texts (process 0 first;
    with `capture_stderr`, (stdout, stderr) pairs).

    Each child gets the job in its environment (:func:`from_environment`); `env` adds to the
    environment. When a process exits with an error, the others are given `grace_s` seconds to
    end by themselves (XLA's coordination service ends every process of a job one of whose
    processes died, after the heartbeat timeout of :func:`join`), then stopped; the
    :class:`DistributedError` names the process (its exit status and the end of its stderr) and
    how each other one ended. A job running past `timeout_s` seconds is stopped the same way.
    """
    if num_processes < 1:
        raise ValueError(f"a job needs at least one process, not {num_processes}")
    coordinator = f"127.0.0.1:{free_port()}"
    children = []
    logs = []
    # A launcher stopped by SIGTERM stops its job too (its children would otherwise run on).
    previous = _on_sigterm()
    try:
        for process_id in range(num_processes):
            child_env = dict(os.environ)
            child_env.update(env or {})
            child_env.update({ENV_COORDINATOR: coordinator, ENV_NUM_PROCESSES: str(num_processes),
                              ENV_PROCESS_ID: str(process_id)})
            out = _TempText()
            err = _TempText()
            logs.append((out, err))
            children.append(subprocess.Popen(list(argv), stdout=out.file, stderr=err.file, env=child_env,
                                             cwd=cwd))
        deadline = time.monotonic() + timeout_s
        while True:
            codes = [child.poll() for child in children]
            failed = [(i, code) for i, code in enumerate(codes) if code not in (None, 0)]
            if failed:
                process_id, code = failed[0]
                # The others end by themselves (XLA's coordination service ends every process of
                # a job one of whose processes died); those that do not within `grace_s` are
                # stopped.
                ends = _wait_for_the_others(children, grace_s)
                lines = []
                for k, end in enumerate(ends):
                    if k == process_id:
                        continue
                    last = _reason(logs[k][1].read()) if end not in ("stopped", 0) else ""
                    lines.append(f"  process {k}: {_ending(end)}" + (f": {last}" if last else ""))
                raise DistributedError(f"process {process_id} of {num_processes} failed ({_ending(code)}). "
                                       f"Its stderr ends with:\n{_tail(logs[process_id][1].read())}\n"
                                       f"The other processes:\n" + "\n".join(lines))
            if all(code == 0 for code in codes):
                if capture_stderr:
                    return [(out.read(), err.read()) for out, err in logs]
                return [out.read() for out, _ in logs]
            if time.monotonic() >= deadline:
                running = [i for i, code in enumerate(codes) if code is None]
                _stop(children)
                raise DistributedError(f"the job of {num_processes} processes did not finish within "
                                       f"{timeout_s:g} s (still running: processes {running}); they were "
                                       f"stopped")
            time.sleep(0.05)
    except _Terminated:
        raise DistributedError(f"the launcher was terminated; the job of {num_processes} processes was "
                               f"stopped") from None
    finally:
        _stop(children)
        for out, err in logs:
            out.close()
            err.close()
        if previous is not None:
            import signal
            signal.signal(signal.SIGTERM, previous)


class _Terminated(BaseException):
    """The launcher got SIGTERM."""


def _on_sigterm():
    """Makes SIGTERM unwind the launcher (so that its job is stopped); returns the handler it
    replaced (None off the main thread, where signals cannot be handled)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None

    def handler(signum, frame):
        raise _Terminated()

    return signal.signal(signal.SIGTERM, handler)


def _wait_for_the_others(children, grace_s):
    """Each child's end once the others have ended by themselves or `grace_s` passed: its exit
    code, or "stopped" when the launcher had to stop it."""
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline and any(child.poll() is None for child in children):
        time.sleep(0.05)
    running = [k for k, child in enumerate(children) if child.poll() is None]
    _stop(children)
    return ["stopped" if k in running else child.returncode for k, child in enumerate(children)]


def _ending(end):
    if end == "stopped":
        return "still running, stopped"
    if end == 0:
        return "finished"
    return f"exit status {end}" if end > 0 else f"signal {-end}"


def _stop(children):
    for child in children:
        if child.poll() is None:
            child.terminate()
    for child in children:
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def _reason(text):
    """The line of a process's stderr that says why it ended: XLA's fatal message when there is
    one (a stack trace follows it), else the last line that is not part of a stack trace."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in lines:
        if "Terminating process because" in line:
            return line[line.index("Terminating process because"):]
    for line in reversed(lines):
        if not line.startswith(("@ ", "*** ", "File ", "Traceback", "^")):
            return line
    return "(nothing on stderr)"


def _tail(text, lines=20):
    kept = [line for line in text.splitlines() if line.strip()]
    return "\n".join(kept[-lines:]) or "(nothing)"


class _TempText:
    """A temporary file a child writes and the launcher reads (no pipe to fill up)."""

    def __init__(self):
        import tempfile
        self.file = tempfile.TemporaryFile("w+b")

    def read(self):
        self.file.seek(0)
        return self.file.read().decode("utf-8", "replace")

    def close(self):
        self.file.close()


def python_argv(module, *args):
    """The command line running `module` (``python -m``) with this interpreter."""
    return [sys.executable, "-m", module, *map(str, args)]
