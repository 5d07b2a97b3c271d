"""One long-lived TensorFlow process that serves the runtime's jobs.

TensorFlow runs in a child process (the program is :mod:`.tf_child_main`) so a
crash in TensorFlow cannot take the caller down, and one child serves every job
of a process (TensorFlow is imported once). :data:`CHILD` is that child; the
MLIR route (:mod:`.mlir_route`) and the graph route (:mod:`.graph_route`) send
it their jobs. :func:`prestart` starts it in the background ahead of the first
job; :func:`shutdown` stops it (the next job starts it again).
"""
import json
import os
import subprocess
import sys
import threading

from .errors import TensorFlowChildError

_MAIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf_child_main.py")


class TensorFlowChild:
    """A TensorFlow process serving jobs (a dict with a "kind"), one at a time."""

    def __init__(self):
        self._proc = None
        self._lock = threading.Lock()

    def _start(self):
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL=os.environ.get("TF_CPP_MIN_LOG_LEVEL", "2"))
        self._proc = subprocess.Popen([sys.executable, _MAIN], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                      env=env)
        if self._proc.stdout.readline().strip() != "ready":
            self._proc = None
            raise TensorFlowChildError("TensorFlow could not be started for legalization "
                                       "(is tensorflow==2.21.0 installed?)")

    def prestart(self):
        """Starts the child in the background (TensorFlow's import takes seconds) unless it
        runs already; a request waits for it. A start that fails is retried, and reported, by
        the first request."""
        if self._proc is not None and self._proc.poll() is None:
            return

        def start():
            with self._lock:
                if self._proc is None or self._proc.poll() is not None:
                    try:
                        self._start()
                    except (TensorFlowChildError, OSError):
                        self._proc = None

        threading.Thread(target=start, name="tfmlir-legalization-start", daemon=True).start()

    def request(self, job: dict) -> dict:
        """The child's reply to `job`: {"ok": True, ...} or {"ok": False, "error": ...};
        :class:`TensorFlowChildError` when the child cannot start or dies."""
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                self._start()
            try:
                self._proc.stdin.write(json.dumps(job) + "\n")
                self._proc.stdin.flush()
                line = self._proc.stdout.readline()
            except (BrokenPipeError, OSError):
                line = ""
            if not line:
                code = self._proc.wait()
                self._proc = None
                raise TensorFlowChildError(
                    f"TensorFlow's legalization process died (exit status {code})")
        return json.loads(line)

    def close(self):
        with self._lock:
            if self._proc is not None and self._proc.poll() is None:
                self._proc.stdin.close()
                try:
                    self._proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self._proc.kill()
            self._proc = None


CHILD = TensorFlowChild()


def prestart():
    """Starts the child in the background, so that its start (seconds: TensorFlow's import)
    overlaps whatever the caller does before the first job. ``TFMLIR_LEGALIZE_PRESTART=0``
    turns this off (the child then starts at the first job)."""
    if os.environ.get("TFMLIR_LEGALIZE_PRESTART", "1").strip().lower() in ("0", "off", "false", "no"):
        return
    CHILD.prestart()


def shutdown():
    """Stops the child (it is restarted by the next job)."""
    CHILD.close()
