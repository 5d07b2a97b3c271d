"""TensorFlow in a child process: the one runner every part of tfmlir uses.

tfmlir never imports TensorFlow's MLIR into its own process for work: TensorFlow runs in a
child (the program is :mod:`tfmlir.tf_child_main`), so a crash there cannot take the caller
down, and one child serves many jobs (TensorFlow is imported once). The runtime's
legalization (:mod:`tfmlir.runtime.mlir_route`, :mod:`tfmlir.runtime.graph_route`) uses the
shared :data:`CHILD`; the oracle of the differential tests and the TF test-suite yardstick
(:mod:`tfmlir.testing.tf_oracle`) start children of their own.

A :class:`TensorFlowChild` answers :meth:`~TensorFlowChild.request` (one JSON job, one JSON
reply), restarts after its process died, and turns a death, a job over its time or a
failed start into :class:`TensorFlowChildError`.
"""
import json
import os
import select
import subprocess
import sys
import tempfile
import threading
import time

# The child's program, run as a script (it takes its folder, tfmlir's, off sys.path).
MAIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf_child_main.py")


class TensorFlowChildError(RuntimeError):
    """TensorFlow's child process could not start, died serving a job, or was killed.

    ``started``: whether TensorFlow had been imported (False: the start itself failed);
    ``timed_out``: the job ran past its time and the process was killed; ``stderr``: the
    tail of what the process printed (when the child keeps it, see TensorFlowChild).
    """

    def __init__(self, message, *, started=True, timed_out=False, stderr=""):
        super().__init__(message)
        self.started = started
        self.timed_out = timed_out
        self.stderr = stderr


class TensorFlowChild:
    """A TensorFlow process serving jobs (a dict with a "kind"), one at a time.

    ``env``: environment variables set for the child (``TF_CPP_MIN_LOG_LEVEL`` defaults to
    2). ``keep_stderr``: keep what the process prints on stderr (for error messages);
    otherwise it is dropped. ``python``: the interpreter that has TensorFlow (default: this
    one; the child's program imports TensorFlow only, so any Python with TF 2.21 serves).
    """

    def __init__(self, *, env=None, keep_stderr=False, python=None):
        self._python = python or sys.executable
        self._env = dict(env or {})
        self._keep_stderr = keep_stderr
        self._proc = None
        self._stderr = None  # the file the process's stderr goes to (keep_stderr)
        self._buffer = b""
        self._lock = threading.Lock()

    # -- the process ----------------------------------------------------------------------------

    def _alive(self):
        return self._proc is not None and self._proc.poll() is None

    def _start(self, timeout=None):
        env = dict(os.environ)
        env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
        env.update(self._env)
        if self._keep_stderr:
            if self._stderr is not None:
                self._stderr.close()
            self._stderr = tempfile.TemporaryFile()
        self._buffer = b""
        self._proc = subprocess.Popen([self._python, MAIN], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE,
                                      stderr=self._stderr if self._keep_stderr else subprocess.DEVNULL,
                                      env=env)
        line = self._readline(None if timeout is None else time.monotonic() + timeout)
        if not line or line.strip() != b"ready":
            self._kill()
            raise TensorFlowChildError("TensorFlow could not be started in a child process (is "
                                       "tensorflow==2.21.0 installed?)", started=False,
                                       stderr=self.stderr_tail())

    def _readline(self, deadline):
        """The next line of the process's stdout (bytes); b"" if the process closed it (it
        died), None if the deadline passed first."""
        out = self._proc.stdout
        while b"\n" not in self._buffer:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([out], [], [], wait)
            if not ready:
                return None
            chunk = os.read(out.fileno(), 1 << 16)
            if not chunk:
                return b""
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line + b"\n"

    def _kill(self):
        if self._proc is not None:
            if self._proc.poll() is None:
                self._proc.kill()
            self._proc.wait()
            for stream in (self._proc.stdin, self._proc.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
        self._proc = None

    def stderr_tail(self, size=4000):
        """The last `size` characters the current (or last) process printed on stderr ("" unless
        ``keep_stderr``)."""
        if self._stderr is None:
            return ""
        self._stderr.flush()
        self._stderr.seek(0, os.SEEK_END)
        end = self._stderr.tell()
        self._stderr.seek(max(0, end - size))
        return self._stderr.read().decode(errors="replace")

    # -- jobs ---------------------------------------------------------------------------------

    def prestart(self):
        """Starts the child in the background (TensorFlow's import takes seconds) unless it
        runs already; a request waits for it. A start that fails is retried, and reported, by
        the first request."""
        if self._alive():
            return

        def start():
            with self._lock:
                if not self._alive():
                    try:
                        self._start()
                    except (TensorFlowChildError, OSError):
                        self._proc = None

        threading.Thread(target=start, name="tfmlir-tensorflow-child-start", daemon=True).start()

    def request(self, job, timeout=None):
        """The child's reply to `job` (a dict): ``{"ok": True, ...}`` or ``{"ok": False, "error":
        ..., "error_type": ...}``, with ``seconds``. The process is started first if it is not running. A job
        running past `timeout` seconds kills the process; that, a death and a failed start
        raise :class:`TensorFlowChildError` (the next request starts a new process)."""
        with self._lock:
            if not self._alive():
                self._start()
            deadline = None if timeout is None else time.monotonic() + timeout
            try:
                self._proc.stdin.write((json.dumps(job) + "\n").encode())
                self._proc.stdin.flush()
                line = self._readline(deadline)
            except (BrokenPipeError, OSError):
                line = b""
            if not line:
                timed_out = line is None  # still running, past its time (else it died)
                if timed_out:
                    self._proc.kill()
                code = self._proc.wait()
                stderr = self.stderr_tail()
                self._kill()
                message = (f"killed: the job exceeded {timeout:g} s" if timed_out
                           else f"TensorFlow's process died (exit status {code})")
                raise TensorFlowChildError(message, timed_out=timed_out, stderr=stderr)
        return json.loads(line)

    def close(self):
        """Stops the process (a later request starts a new one)."""
        with self._lock:
            if self._alive():
                self._proc.stdin.close()
                try:
                    self._proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    pass
            self._kill()
            if self._stderr is not None:
                self._stderr.close()
                self._stderr = None


# The child the runtime's legalization shares (one per process).
CHILD = TensorFlowChild()


def prestart():
    """Starts :data:`CHILD` in the background, so that its start (seconds: TensorFlow's import)
    overlaps whatever the caller does before the first job. ``TFMLIR_LEGALIZE_PRESTART=0``
    turns this off (the child then starts at the first job)."""
    if os.environ.get("TFMLIR_LEGALIZE_PRESTART", "1").strip().lower() in ("0", "off", "false", "no"):
        return
    CHILD.prestart()


def shutdown():
    """Stops :data:`CHILD` (it is restarted by the next job)."""
    CHILD.close()
