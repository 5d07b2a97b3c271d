"""Device programs to StableHLO through TensorFlow's graph route, for ops the MLIR route leaves.

TensorFlow's MLIR legalization (:data:`.legalize.PIPELINE`) leaves some ops
in the tf dialect that ``tf.function(jit_compile=True)`` compiles (its tf2xla
kernels cover more, e.g. ``tf.Erfinv``, ``tf.Igamma``).
:func:`to_stablehlo` takes that route for a device program (tf-dialect text,
entry ``main``, static shapes):

1. the program is exported as a GraphDef with tfmlir's exporter
   (functional form is fine), ``main``'s arguments and results renamed to
   names of our own;
2. in the TensorFlow child of :mod:`.legalize` (a ``"graph"`` job), the
   GraphDef is imported, pruned to a function from those arguments to those
   results (stateful ops are kept as control outputs), wrapped in
   ``tf.function(jit_compile=True)`` and asked for its compiler IR at stage
   ``"stablehlo"``;
3. the text must parse in jaxlib's MLIR context, hold only ops XLA takes,
   and have ``main``'s signature.

Programs with host computations (``tf._XlaHostComputeMlir`` and the other
host transfer ops: tf2xla has no CPU kernels for them) or with resource
arguments (a graph function would read and write them, not return them) are
refused with :class:`GraphRouteRefused` before TensorFlow is asked.
``docs/runtime-coverage.md`` lists which ops need this route.
"""
import base64

from . import legalize

# Ops that exchange data with the host during a device program.
HOST_TRANSFER_OPS = frozenset({
    "tf._XlaHostComputeMlir", "tf.XlaHostCompute", "tf.XlaSendToHost", "tf.XlaRecvFromHost",
    "tf._XlaSendFromHost", "tf._XlaSendFromHostV2", "tf._XlaRecvAtHost", "tf._XlaRecvAtHostV2",
})

_ARG = "tfmlir_graph_route_arg"
_RESULT = "tfmlir_graph_route_result"


class GraphRouteError(RuntimeError):
    """TensorFlow's graph route could not turn a device program into StableHLO."""


class GraphRouteRefused(GraphRouteError):
    """The program is not one the graph route takes (host computation, resource arguments)."""


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
    resource arguments or dynamically shaped arguments, and
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
    reply = legalize._child.request({"kind": "graph", "graph_def": base64.b64encode(graph_def).decode(),
                                     "inputs": inputs, "outputs": outputs, "stage": "stablehlo"})
    if not reply["ok"]:
        raise GraphRouteError(f"tf.function(jit_compile=True) cannot compile it: {reply['error']}")
    text = reply["text"]
    _check(text, arguments, results)
    return text


def _check(text, arguments, results):
    """The StableHLO parses in jaxlib's context, holds only legal ops and has main's signature."""
    from . import _jaxlib

    try:
        left = legalize.leftover_ops(text)
    except Exception as err:  # jaxlib's MLIRError: TF printed something jaxlib's MLIR cannot read
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise GraphRouteError(f"jaxlib cannot parse TensorFlow's StableHLO: {first}") from None
    if left:
        listed = "; ".join(f"'{name}' at {loc}" for name, loc in left[:5])
        raise GraphRouteError(f"TensorFlow's StableHLO holds ops XLA cannot take: {listed}")
    signature = _jaxlib.main_signature(text)
    if signature != (arguments, results):
        raise GraphRouteError(f"TensorFlow's StableHLO has signature {signature}, the program "
                              f"{(arguments, results)}")
