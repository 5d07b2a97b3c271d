"""Runs fuzz cases one after another and reports how each ended.

Protocol (driven by ``fuzz.py``): the driver writes a case as one line of JSON
(``{"surface": ..., "data": <base64>, ...}``) to stdin; the worker answers one
line of JSON ``{"outcome": ..., "detail": ...}`` per case on stdout. If the
process dies mid-case (abort, signal, out of memory) the driver counts a crash
for that case and starts a fresh worker. The address space is limited so that
runaway allocations end in a crash here instead of swapping the machine: before
each case the worker may map at most ``TFMLIR_FUZZ_HEADROOM`` bytes more than it
already has (TensorFlow's child runner and XLA's client, loaded on the first TPU
case, map close to 4 GiB of address space by themselves), and never more than
``TFMLIR_FUZZ_MEMORY`` in all.

Outcomes: ``ok`` (accepted end to end), ``error`` (a clean error: a
diagnostic, or an exception of the class the surface documents), ``unexpected``
(any other Python exception: a bug, though not fatal), ``invariant`` (an
accepted input whose export does not re-import, or a pass that failed without
leaving the module unchanged).
"""
import base64
import json
import os
import random
import resource
import sys
import traceback

LIMIT_BYTES = int(os.environ.get("TFMLIR_FUZZ_MEMORY", str(12 << 30)))
HEADROOM_BYTES = int(os.environ.get("TFMLIR_FUZZ_HEADROOM", str(3 << 30)))


def _mapped_bytes():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _limit_memory():
    """Lets the next case map at most HEADROOM_BYTES beyond what is mapped now."""
    soft = min(LIMIT_BYTES, _mapped_bytes() + HEADROOM_BYTES)
    resource.setrlimit(resource.RLIMIT_AS, (soft, LIMIT_BYTES))


resource.setrlimit(resource.RLIMIT_AS, (min(LIMIT_BYTES, 4 << 30), LIMIT_BYTES))
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tfmlir  # noqa: E402
from mlir import ir  # noqa: E402
from tfmlir import exporters, importers, parsing, passes  # noqa: E402
from tfmlir.exporters import TFExportError  # noqa: E402
from tfmlir.importers import TFImportError  # noqa: E402

import api_calls  # noqa: E402  (next to this file)
import framework_calls  # noqa: E402


class Clean(Exception):
    """A surface ended in one of its documented errors."""


def _pipeline(module, pipeline, single_python_pass):
    """Runs `pipeline`; if it is one Python pass and fails, the module must be as it was
    (the framework restores every anchor; upstream passes make no such promise)."""
    before = tfmlir.print_ir(module, generic=True, assume_verified=True) if single_python_pass else None
    try:
        passes.run(module, pipeline)
    except (ir.MLIRError, passes.PipelineError) as err:
        if single_python_pass and tfmlir.print_ir(module, generic=True, assume_verified=True) != before:
            raise AssertionError(f"invariant: '{pipeline}' failed and changed the module") from None
        raise Clean(str(err)[:200]) from None


def _export_reimport(module):
    """Exports; whatever the exporter produces must import again."""
    try:
        data = exporters.export_graph_def(module)
    except TFExportError as err:
        raise Clean(str(err)[:200]) from None
    try:
        importers.import_graph_def(data)
    except TFImportError as err:
        raise AssertionError(f"invariant: exported GraphDef does not re-import: {err}") from None


def _parse_and_run(case, unregistered):
    """Text or bytecode through tfmlir's guarded parse, printing, a pipeline and export."""
    data = base64.b64decode(case["data"])
    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = unregistered
        try:
            module = parsing.parse_module(data, ctx)
            module.operation.verify()
        except (ir.MLIRError, parsing.ParseGuardError) as err:
            raise Clean(str(err)[:200]) from None
        tfmlir.print_ir(module)
        if case.get("pipeline"):
            _pipeline(module, case["pipeline"], bool(case.get("single_python_pass")))
        if case.get("export"):
            _export_reimport(module)


def run_ir(case):
    _parse_and_run(case, bool(case.get("unregistered")))


def run_bytecode(case):
    _parse_and_run(case, True)


def run_graphdef(case):
    data = base64.b64decode(case["data"])
    with ir.Context():
        try:
            module = importers.import_graph_def(data)
        except TFImportError as err:
            raise Clean(str(err)[:200]) from None
        module.operation.verify()
        if case.get("export"):
            _export_reimport(module)


def run_api(case):
    with ir.Context() as ctx, ir.Location.unknown():
        ctx.allow_unregistered_dialects = True
        api_calls.run(random.Random(case["seed"]), case.get("calls", 12))


def run_framework(case):
    with ir.Context() as ctx, ir.Location.unknown():
        ctx.allow_unregistered_dialects = case.get("unregistered", False)
        framework_calls.run(random.Random(case["seed"]), case.get("calls", 6))


def _runtime():
    # Imported on the first TPU case only: the runtime's TensorFlow child (legalization)
    # and XLA's client then serve every later case of this worker.
    from tfmlir import runtime
    from tfmlir.runtime import graph_session, legalize
    return runtime, graph_session, legalize


def _session(runtime, program, case):
    """Builds a runtime session (device programs legalized); runs it for small cases."""
    try:
        session = runtime.Session(program)
    except (runtime.ProgramError, runtime.RunError, ir.MLIRError) as err:
        raise Clean(str(err)[:200]) from None
    try:
        if case.get("execute") and case.get("feeds"):
            import numpy as np
            feeds = {name: np.ones(shape, dtype=dtype) for name, dtype, shape in case["feeds"]}
            try:
                session.run(case["fetches"], feeds)
            except (runtime.ProgramError, runtime.RunError) as err:
                raise Clean(str(err)[:200]) from None
    finally:
        session.close()


def run_tpu_graphdef(case):
    """A mutated TPU GraphDef through the importer and tfmlir's TPU bridge (as the
    runtime's GraphSession does it), then a runtime session of the bridged program."""
    runtime, graph_session, _ = _runtime()
    data = base64.b64decode(case["data"])
    try:
        gs = graph_session.GraphSession(data)
        module, context = gs.bridged_module([tuple(f) for f in case["feeds"]], case["fetches"], [])
    except (runtime.ProgramError, runtime.RunError, TFImportError) as err:
        raise Clean(str(err)[:200]) from None
    with context:
        module.operation.verify()
        text = tfmlir.print_ir(module)
    if case.get("session"):
        _session(runtime, text, case)


def run_tpu_bridged(case):
    """A mutated bridged program (after tf-tpu-bridge) parsed and given to runtime.Session."""
    runtime, _, _ = _runtime()
    data = base64.b64decode(case["data"])
    with ir.Context() as ctx:
        try:
            module = parsing.parse_module(data, ctx)
            module.operation.verify()
        except (ir.MLIRError, parsing.ParseGuardError) as err:
            raise Clean(str(err)[:200]) from None
        text = tfmlir.print_ir(module)
    _session(runtime, text, case)


SURFACES = {"ir": run_ir, "bytecode": run_bytecode, "graphdef": run_graphdef, "api": run_api,
            "attrs": run_ir, "tpu-graphdef": run_tpu_graphdef, "tpu-bridged": run_tpu_bridged,
            "framework": run_framework, "warmup": run_tpu_bridged}


def main():
    out = sys.stdout
    sys.stdout = sys.stderr  # stray prints must not corrupt the protocol
    for line in sys.stdin:
        case = json.loads(line)
        if case["surface"] in _STRICT or case["surface"] == "warmup":
            _runtime()  # its libraries are mapped before the case's limit is set
        _limit_memory()
        try:
            SURFACES[case["surface"]](case)
            result = {"outcome": "ok"}
        except Clean as err:
            result = {"outcome": "error", "detail": str(err)}
        except AssertionError as err:
            result = {"outcome": "invariant", "detail": str(err)[:300]}
        except Exception as err:  # noqa: BLE001
            result = _classify(case, err)
        out.write(json.dumps(result) + "\n")
        out.flush()


# Surfaces whose clean errors are only the classes the surface documents (the TPU
# surfaces: tfmlir's runtime and import errors; anything else, a ValueError or
# RuntimeError from a dependency included, is unexpected).
_STRICT = {"tpu-graphdef", "tpu-bridged"}


def _classify(case, err):
    expected = (api_calls.ExpectedError, framework_calls.ExpectedError)
    if case["surface"] in _STRICT:
        from tfmlir import runtime
        expected = (runtime.ProgramError, runtime.RunError, ir.MLIRError, TFImportError, passes.PipelineError)
    if isinstance(err, expected):
        return {"outcome": "error", "detail": str(err)[:200]}
    tb = traceback.extract_tb(err.__traceback__)
    where = f"{tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno}" if tb else "?"
    return {"outcome": "unexpected", "detail": f"{type(err).__name__} at {where}: {str(err)[:200]}"}


if __name__ == "__main__":
    main()
