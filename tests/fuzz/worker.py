"""Runs fuzz cases one after another and reports how each ended.

Protocol (driven by ``fuzz.py``): the driver writes a case as one line of JSON
(``{"surface": ..., "data": <base64>, ...}``) to stdin; the worker answers one
line of JSON ``{"outcome": ..., "detail": ...}`` per case on stdout. If the
process dies mid-case (abort, signal, out of memory) the driver counts a crash
for that case and starts a fresh worker. The address space is limited so that
runaway allocations end in a crash here instead of swapping the machine.

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

LIMIT_BYTES = int(os.environ.get("TFMLIR_FUZZ_MEMORY", str(4 << 30)))
resource.setrlimit(resource.RLIMIT_AS, (LIMIT_BYTES, LIMIT_BYTES))
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tfmlir  # noqa: E402
from mlir import ir  # noqa: E402
from tfmlir import exporters, importers, parsing, passes  # noqa: E402
from tfmlir.exporters import TFExportError  # noqa: E402
from tfmlir.importers import TFImportError  # noqa: E402

import api_calls  # noqa: E402  (next to this file)


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


SURFACES = {"ir": run_ir, "bytecode": run_bytecode, "graphdef": run_graphdef, "api": run_api}


def main():
    out = sys.stdout
    sys.stdout = sys.stderr  # stray prints must not corrupt the protocol
    for line in sys.stdin:
        case = json.loads(line)
        try:
            SURFACES[case["surface"]](case)
            result = {"outcome": "ok"}
        except Clean as err:
            result = {"outcome": "error", "detail": str(err)}
        except AssertionError as err:
            result = {"outcome": "invariant", "detail": str(err)[:300]}
        except api_calls.ExpectedError as err:
            result = {"outcome": "error", "detail": str(err)[:200]}
        except Exception as err:  # a bug, but the process lives on
            tb = traceback.extract_tb(err.__traceback__)
            where = f"{tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno}" if tb else "?"
            result = {"outcome": "unexpected", "detail": f"{type(err).__name__} at {where}: {str(err)[:200]}"}
        out.write(json.dumps(result) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
