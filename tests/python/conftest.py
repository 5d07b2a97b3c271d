"""Shared helpers for the Python tests.

* Locating the shared reference material (``<repo>/../shared``).
* Running TensorFlow in a subprocess: TensorFlow stays out of the pytest
  process (it is slow to import and brings its own LLVM/MLIR), and tests that
  need it are skipped when it is not installed.
"""
import difflib
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = TESTS_DIR.parent.parent
SHARED_DIR = REPO_ROOT.parent / "shared"
REFERENCE_DIR = SHARED_DIR / "reference"
SAMPLES_DIR = REFERENCE_DIR / "tf-2.21-samples"
TF_CASES_SCRIPT = TESTS_DIR / "tf_cases.py"

# The runtime's on-disk cache (legalized programs, executables): one fresh folder per test
# run, so that every run legalizes and compiles for real once (and its subprocesses share it).
if "TFMLIR_CACHE_DIR" not in os.environ:
    import atexit
    import shutil
    import tempfile

    _CACHE_DIR = tempfile.mkdtemp(prefix="tfmlir-test-cache-")
    os.environ["TFMLIR_CACHE_DIR"] = _CACHE_DIR
    atexit.register(shutil.rmtree, _CACHE_DIR, True)

# Generous per-subprocess limit; a TF import plus a few conversions takes ~5 s.
SUBPROCESS_TIMEOUT_S = 240


def have_tensorflow():
    return importlib.util.find_spec("tensorflow") is not None


def require_tensorflow():
    """Skips the calling test when TensorFlow is not installed.

    Only looks the package up; TensorFlow itself is imported in subprocesses.
    """
    if not have_tensorflow():
        pytest.skip("tensorflow is not installed (needed in the subprocess that generates TF output)")


def subprocess_env(**extra):
    env = dict(os.environ)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    env["PYTHONUNBUFFERED"] = "1"
    # Keep the child's thread pools small: the test machines have few cores.
    env.setdefault("OMP_NUM_THREADS", "1")
    env.setdefault("TF_NUM_INTEROP_THREADS", "1")
    env.setdefault("TF_NUM_INTRAOP_THREADS", "1")
    env.update(extra)
    return env


def run_python(args, *, code=None, timeout=SUBPROCESS_TIMEOUT_S, cwd=None, env=None):
    """Runs ``sys.executable`` with `args` (or ``-c code``); returns CompletedProcess.

    stdout/stderr are captured as text; the caller checks the return code.
    """
    cmd = [sys.executable]
    if code is not None:
        cmd += ["-c", code]
    cmd += [str(a) for a in args]
    return subprocess.run(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        timeout=timeout,
        cwd=str(cwd) if cwd else None,
        env=env if env is not None else subprocess_env(),
    )


def describe_failure(proc, limit=6000):
    return (
        f"exit code {proc.returncode}\n--- stdout (tail) ---\n{proc.stdout[-limit:]}"
        f"\n--- stderr (tail) ---\n{proc.stderr[-limit:]}"
    )


def text_diff(expected, actual, expected_name="tensorflow", actual_name="tfmlir", limit=80):
    """A unified diff of two texts (first `limit` lines), for assertion messages."""
    lines = list(
        difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            expected_name,
            actual_name,
        )
    )
    if not lines and expected != actual:
        return f"texts differ only in line endings: {expected[-20:]!r} vs {actual[-20:]!r}"
    more = f"\n... ({len(lines) - limit} more diff lines)" if len(lines) > limit else ""
    return "".join(lines[:limit]) + more


def assert_same_text(expected, actual, expected_name="tensorflow", actual_name="tfmlir", what=""):
    """Fails with a unified diff unless the two texts are byte-identical."""
    if expected != actual:
        head = f"{what}: " if what else ""
        pytest.fail(
            f"{head}{actual_name} output differs from {expected_name}:\n"
            + text_diff(expected, actual, expected_name, actual_name),
            pytrace=False,
        )


def read_exact(path):
    """File text exactly as stored (no newline translation)."""
    with open(path, "r", encoding="utf-8", newline="") as f:
        return f.read()


@pytest.fixture(scope="session")
def tf_outputs(tmp_path_factory):
    """Generates every case of tf_cases.py in ONE TensorFlow subprocess.

    Returns ``(directory, manifest)``; manifest maps case name to its entry.
    """
    require_tensorflow()
    out = tmp_path_factory.mktemp("tf_cases")
    proc = run_python([TF_CASES_SCRIPT, out])
    if proc.returncode != 0:
        pytest.fail("generating TensorFlow output failed:\n" + describe_failure(proc))
    with open(out / "manifest.json") as f:
        manifest = json.load(f)
    return out, manifest


@pytest.fixture(scope="module")
def tf():
    """TensorFlow (the test is skipped without it); the runtime's legalization child stops
    after the module's tests."""
    require_tensorflow()
    import tensorflow

    yield tensorflow
    from tfmlir import tf_child
    tf_child.shutdown()


@pytest.fixture(scope="module")
def runtime(tf):
    """``tfmlir.runtime``, with TensorFlow (see :func:`tf`)."""
    from tfmlir import runtime as rt
    return rt


@pytest.fixture
def runtime_cache(tmp_path):
    """tfmlir.runtime.cache pointed at an empty folder of its own for one test (then back to
    the environment's)."""
    from tfmlir.runtime import cache

    cache.configure(directory=str(tmp_path / "runtime-cache"))
    yield cache
    cache.reset()


@pytest.fixture
def legalization_jobs(monkeypatch):
    """The kinds of the jobs the runtime's TensorFlow legalization child gets, in order."""
    from tfmlir import tf_child

    kinds = []
    request = tf_child.CHILD.request

    def spy(job):
        kinds.append(job["kind"])
        return request(job)

    monkeypatch.setattr(tf_child.CHILD, "request", spy)
    return kinds
