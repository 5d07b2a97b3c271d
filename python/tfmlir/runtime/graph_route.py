"""Device programs to StableHLO through TensorFlow's graph route, for ops the MLIR route leaves.

TensorFlow's MLIR legalization (:data:`.mlir_route.PIPELINE`) leaves some ops
in the tf dialect that ``tf.function(jit_compile=True)`` compiles (e.g.
``tf.Reverse``, ``tf.MaxPoolV2``, the ``Stack*`` ops; see
docs/runtime-coverage.md).
:func:`to_stablehlo` takes that route for a device program (tf-dialect text,
entry ``main``, static shapes):

1. the program is exported as a GraphDef with tfmlir's exporter
   (functional form is fine), ``main``'s arguments and results renamed to
   names of our own;
2. in TensorFlow's child process (:data:`tfmlir.tf_child.CHILD`, a ``"graph"`` job), the
   GraphDef is imported, pruned to a function from those arguments to those
   results (stateful ops are kept as control outputs), wrapped in
   ``tf.function(jit_compile=True)`` and asked for its compiler IR at stage
   ``"stablehlo"``;
3. the text must parse in jaxlib's MLIR context, hold only ops XLA takes,
   and have ``main``'s signature (static results; result shapes the program
   leaves unknown may be known now; quantized types are their storage integers).

Programs with host computations (``tf._XlaHostComputeMlir`` and the other
host transfer ops: tf2xla has no CPU kernels for them), with resource
arguments (a graph function would read and write them, not return them),
string or dynamically shaped arguments are refused with
:class:`GraphRouteRefused` before TensorFlow is asked.
``docs/runtime-coverage.md`` lists which ops need this route.
"""
import base64
import re

from ..tf_child import CHILD, TensorFlowChildError
from .errors import GraphRouteError, GraphRouteRefused
from .mlir_route import leftover_ops

# Ops that exchange data with the host during a device program.
HOST_TRANSFER_OPS = frozenset({
    "tf._XlaHostComputeMlir", "tf.XlaHostCompute", "tf.XlaSendToHost", "tf.XlaRecvFromHost",
    "tf._XlaSendFromHost", "tf._XlaSendFromHostV2", "tf._XlaRecvAtHost", "tf._XlaRecvAtHostV2",
})

# What TensorFlow hands back: the HloModuleProto, converted to StableHLO by
# jaxlib itself, so the text is in jaxlib's MLIR version (TF's own
# stage="stablehlo" text is newer MLIR; both gave the same coverage).
STAGE = "hlo_serialized"
_ARG = "tfmlir_graph_route_arg"
_RESULT = "tfmlir_graph_route_result"


def _parse(device_program):
    import tfmlir
    from mlir import ir

    context = ir.Context()
    try:
        module = tfmlir.parse_module(device_program, context)
    except (ir.MLIRError, ValueError) as err:
        lines = [line.strip() for line in str(err).splitlines() if line.strip()]
        detail = lines[1] if len(lines) > 1 and lines[0].startswith("Unable to parse") else lines[0]
        raise GraphRouteError(f"tfmlir cannot parse the device program: {detail[:300]}") from None
    return context, module


def _main(module):
    from mlir import ir

    for op in module.body.operations:
        if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == "main":
            return op
    raise GraphRouteError("the device program has no function @main")


def _host_transfers(module):
    found = []

    def visit(op):
        if op.name in HOST_TRANSFER_OPS:
            found.append((op.name, str(op.location)))
        from mlir import ir
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return found


def to_stablehlo(device_program: str) -> str:
    """StableHLO text of `device_program` compiled by TensorFlow's graph route.

    Raises :class:`GraphRouteRefused` for programs with host transfers,
    resource, string or dynamically shaped arguments, and
    :class:`GraphRouteError` when export, TensorFlow or the checks fail.
    """
    from mlir import ir

    from .. import exporters

    context, module = _parse(device_program)
    with context, ir.Location.unknown():
        host = _host_transfers(module)
        if host:
            name, loc = host[0]
            raise GraphRouteRefused(f"the program has host computation ('{name}' at {loc}); "
                                    "tf2xla cannot compile host transfers on CPU")
        main = _main(module)
        ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
        arguments, results = [str(t) for t in ftype.inputs], [str(t) for t in ftype.results]
        for i, t in enumerate(arguments):
            if "!tf_type.resource" in t:
                raise GraphRouteRefused(f"argument {i} is a resource ({t}); the graph route takes "
                                        "value arguments only")
            if "!tf_type.string" in t:
                raise GraphRouteRefused(f"argument {i} is a string tensor ({t}); XLA has no strings")
            if not (isinstance(ftype.inputs[i], ir.RankedTensorType) and ftype.inputs[i].has_static_shape):
                raise GraphRouteRefused(f"argument {i} has type {t}; the graph route needs static shapes")
        inputs = [f"{_ARG}{i}" for i in range(len(arguments))]
        outputs = [f"{_RESULT}{i}" for i in range(len(results))]
        main.attributes["tf.entry_function"] = ir.DictAttr.get({
            "inputs": ir.StringAttr.get(",".join(inputs)),
            "outputs": ir.StringAttr.get(",".join(outputs))})
        try:
            graph_def = exporters.export_graph_def(module)
        except exporters.TFExportError as err:
            raise GraphRouteError(f"tfmlir cannot export the program as a GraphDef: {err}") from None
    try:
        reply = CHILD.request({"kind": "graph", "graph_def": base64.b64encode(graph_def).decode(),
                               "inputs": inputs, "outputs": outputs, "stage": STAGE})
    except TensorFlowChildError as err:
        raise GraphRouteError(str(err)) from None
    if not reply["ok"]:
        # TF's first line says what failed; the rest is where TF built its graph.
        error = f"{reply['error_type']}: {reply['error']}".strip()
        raise GraphRouteError(f"tf.function(jit_compile=True) cannot compile it: "
                              f"{error.splitlines()[0]}")
    if "data" in reply:
        from . import _jaxlib
        try:
            text = _jaxlib.hlo_to_stablehlo(base64.b64decode(reply["data"]))
        except Exception as err:
            raise GraphRouteError(f"jaxlib cannot convert TensorFlow's HLO: {str(err).splitlines()[0]}") from None
    else:
        text = reply["text"]
    _check(text, arguments, results)
    return text


def _check(text, arguments, results):
    """The StableHLO parses in jaxlib's context, holds only legal ops and has main's signature."""
    from . import _jaxlib

    try:
        left = leftover_ops(text)
    except Exception as err:  # jaxlib's MLIRError: TF printed something jaxlib's MLIR cannot read
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise GraphRouteError(f"jaxlib cannot parse TensorFlow's StableHLO: {first}") from None
    if left:
        listed = "; ".join(f"'{name}' at {loc}" for name, loc in left[:5])
        raise GraphRouteError(f"TensorFlow's StableHLO holds ops XLA cannot take: {listed}")
    got_arguments, got_results = _jaxlib.main_signature(text)
    for t in got_results:
        if "?" in t:
            raise GraphRouteError(f"TensorFlow's XLA program has a dynamically shaped result ({t}); "
                                  "device programs need static shapes")
    if len(got_arguments) != len(arguments) or len(got_results) != len(results) or \
            not all(_refines(got, want) for got, want in zip(got_arguments + got_results, arguments + results)):
        raise GraphRouteError(f"TensorFlow's StableHLO main is ({', '.join(got_arguments)}) -> "
                              f"({', '.join(got_results)}), the program's ({', '.join(arguments)}) -> "
                              f"({', '.join(results)})")


_TENSOR = re.compile(r"tensor<(\*x|(?:(?:\d+|\?)x)*)(.+)>")
# TF's quantized element types and the integers XLA computes them in.
_STORAGE = {"!tf_type.qint8": "i8", "!tf_type.quint8": "ui8", "!tf_type.qint16": "i16",
            "!tf_type.quint16": "ui16", "!tf_type.qint32": "i32"}


def _refines(static, declared):
    """Whether type `static` (StableHLO) is `declared` (tf dialect) with unknown dimensions
    (``?``, ``*``) made known, quantized elements being their storage integers."""
    a, b = _TENSOR.fullmatch(static), _TENSOR.fullmatch(declared)
    if not a or not b or "?" in a.group(1) or "*" in a.group(1):
        return static == declared
    if a.group(2) != _STORAGE.get(b.group(2), b.group(2)):
        return False
    if b.group(1) == "*x":
        return True
    dims, want = a.group(1).split("x")[:-1], b.group(1).split("x")[:-1]
    return len(dims) == len(want) and all(w in ("?", d) for d, w in zip(dims, want))
