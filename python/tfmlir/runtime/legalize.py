"""Device programs (tf dialect) to StableHLO with TensorFlow's own legalization passes.

TensorFlow's ``xla-legalize-tf`` and friends run in a child process (through
``tf.mlir.experimental.run_pass_pipeline``, text in and out), so a crash in
TensorFlow cannot take the caller down, and one child serves every program of
a process (TensorFlow is imported once). The pipeline is the one
``ARCHITECTURE.md`` records: resource ops decomposed and promoted to
arguments, functional control flow to regions, ``xla-legalize-tf`` for
XLA_CPU_JIT, host communication to ``mhlo.send``/``mhlo.recv``, then MHLO to
StableHLO.

``xla-legalize-tf`` never fails on an op it cannot lower; :func:`legalize`
therefore scans the result and raises :class:`LegalizationError` naming every
op left over, with its location (TF node name where the program carries one),
before anything runs.
"""
import json
import os
import subprocess
import sys
import threading

from . import _jaxlib

PIPELINE = ("func.func(tf-device-decompose-resource-ops),tf-promote-resources-to-args,"
            "tf-functional-control-flow-to-regions,"
            "xla-legalize-tf{device-type=XLA_CPU_JIT legalize-chlo=true},"
            "xla-legalize-tf-communication,hlo-legalize-to-stablehlo,canonicalize")

# Dialects a legalized program may hold.
_LEGAL_DIALECTS = frozenset({"builtin", "func", "stablehlo", "chlo", "sdy"})
# mhlo ops that stay until host transfers are rewritten (runtime/host_transfer); constant
# shapes of dynamic broadcasts with static results (BiasAdd ...), which XLA folds; the
# element count tf.Mean divides by (an arith.constant), which XLA compiles.
_LEGAL_OPS = frozenset({"mhlo.send", "mhlo.recv", "mhlo.create_token", "mhlo.after_all", "shape.const_shape",
                        "arith.constant"})

_CHILD = r'''
import json, sys
import tensorflow as tf
out = sys.stdout
sys.stdout = sys.stderr
out.write("ready\n"); out.flush()
for line in sys.stdin:
    job = json.loads(line)
    try:
        text = tf.mlir.experimental.run_pass_pipeline(job["text"], job["pipeline"], show_debug_info=True)
        reply = {"ok": True, "text": text}
    except Exception as exc:
        reply = {"ok": False, "error": str(exc)}
    out.write(json.dumps(reply) + "\n"); out.flush()
'''


class LegalizationError(RuntimeError):
    """A device program did not become StableHLO; `ops` lists (op name, location) left over."""

    def __init__(self, message, ops=()):
        super().__init__(message)
        self.ops = list(ops)


class _TensorFlowChild:
    """One long-lived TensorFlow process running pass pipelines, one job at a time."""

    def __init__(self):
        self._proc = None
        self._lock = threading.Lock()

    def _start(self):
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL=os.environ.get("TF_CPP_MIN_LOG_LEVEL", "2"))
        self._proc = subprocess.Popen([sys.executable, "-c", _CHILD], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                      env=env)
        if self._proc.stdout.readline().strip() != "ready":
            self._proc = None
            raise LegalizationError("TensorFlow could not be started for legalization "
                                    "(is tensorflow==2.21.0 installed?)")

    def run(self, text: str, pipeline: str) -> str:
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                self._start()
            try:
                self._proc.stdin.write(json.dumps({"text": text, "pipeline": pipeline}) + "\n")
                self._proc.stdin.flush()
                line = self._proc.stdout.readline()
            except (BrokenPipeError, OSError):
                line = ""
            if not line:
                code = self._proc.wait()
                self._proc = None
                raise LegalizationError(f"TensorFlow's legalization process died (exit status {code})")
        reply = json.loads(line)
        if not reply["ok"]:
            raise LegalizationError(f"TensorFlow's legalization failed: {reply['error']}")
        return reply["text"]

    def close(self):
        with self._lock:
            if self._proc is not None and self._proc.poll() is None:
                self._proc.stdin.close()
                try:
                    self._proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self._proc.kill()
            self._proc = None


_child = _TensorFlowChild()


def leftover_ops(stablehlo_text: str):
    """(op name, location) of every op in `stablehlo_text` that XLA cannot take."""
    s = _jaxlib._load()
    jax_ir = s["jax_ir"]
    found = []
    with s["jax_mlir"].make_ir_context() as context:
        context.allow_unregistered_dialects = True
        module = jax_ir.Module.parse(stablehlo_text)

        def visit(op):
            name = op.name
            if name.split(".", 1)[0] not in _LEGAL_DIALECTS and name not in _LEGAL_OPS:
                found.append((name, str(op.location)))
            return jax_ir.WalkResult.ADVANCE

        module.operation.walk(visit)
    return found


def legalize(device_program: str) -> str:
    """StableHLO text of a device program (an MLIR module in the tf dialect, entry ``main``).

    Raises :class:`LegalizationError` if TensorFlow fails or any op stays unlowered.
    """
    text = _child.run(device_program, PIPELINE)
    left = leftover_ops(text)
    if left:
        listed = "; ".join(f"'{name}' at {loc}" for name, loc in left[:20])
        more = f" (and {len(left) - 20} more)" if len(left) > 20 else ""
        raise LegalizationError(f"{len(left)} op(s) cannot be lowered to XLA: {listed}{more}", left)
    return text


def shutdown():
    """Stops the TensorFlow child (it is restarted on the next legalization)."""
    _child.close()
