"""tfmlir demo: TensorFlow function -> tf_executor MLIR -> upstream MLIR passes.

    python -m tfmlir.demo [--pipeline PIPELINE] [--generic] [--input FILE] [--summary-only]

By default it traces a small built-in tf.function (a dense layer on a
variable, a tf.cond, a tf.while_loop and a variable update) with TensorFlow,
converts it with ``tf.mlir.experimental.convert_function(pass_pipeline='')``
to TensorFlow's tf_executor text, parses that with tfmlir's dialects into the
upstream ``mlir.ir``, verifies it, runs an upstream pass pipeline and prints
the result with a summary: ops per dialect, the functions, and the If/While
branch functions (which survive ``symbol-dce`` because the registered tf ops
expose their function references as symbol uses).

``--input FILE`` uses MLIR text from a file (or ``-`` for stdin) instead of
tracing with TensorFlow. Exit code 0 on success, 1 on any failure.
"""
import argparse
import collections
import os
import sys

DEFAULT_PIPELINE = "builtin.module(canonicalize,cse,symbol-dce)"

# Attributes of tf control-flow ops that name functions.
_FUNC_REF_OPS = ("tf.If", "tf.While", "tf.Case", "tf.PartitionedCall", "tf.StatefulPartitionedCall")


class DemoError(Exception):
    """A failure with a message meant for the user."""


def trace_default_function():
    """Traces the built-in tf.function; returns TF's tf_executor MLIR text."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    try:
        import tensorflow as tf
    except ImportError as e:
        raise DemoError(
            f"TensorFlow is needed to trace the demo function ({e}); install tensorflow "
            "or pass --input FILE.mlir"
        ) from e

    w = tf.Variable(tf.fill([4, 3], 0.5), name="dense_w")
    b = tf.Variable(tf.zeros([3]), name="dense_b")
    steps = tf.Variable(0, dtype=tf.int64, name="steps")

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32), tf.TensorSpec([], tf.int32)])
    def demo_model(x, n):
        h = tf.nn.relu(tf.matmul(x, w) + b)  # dense layer
        h = tf.cond(tf.reduce_mean(h) > 1.0, lambda: h / 2.0, lambda: h * 2.0)

        def body(i, acc):
            return i + 1, tf.tanh(acc) + 0.1

        _, out = tf.while_loop(lambda i, acc: i < n, body, [tf.constant(0), h])
        steps.assign_add(1)
        return out, steps.read_value()

    try:
        concrete = demo_model.get_concrete_function()
        text = tf.mlir.experimental.convert_function(concrete, pass_pipeline="")
    except Exception as e:  # TF raises a variety of types here
        raise DemoError(f"TensorFlow failed to trace/convert the demo function: {e}") from e
    return text, f"TensorFlow {tf.__version__}: traced demo_model, convert_function(pass_pipeline='')"


def _read_input(path):
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise DemoError(f"cannot read {path}: {e.strerror or e}") from e


def _walk(module):
    from mlir import ir

    ops = []

    def visit(op):
        ops.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return ops


def _dialect_counts(module):
    counts = collections.Counter()
    for op in _walk(module):
        name = op.name
        counts[name.split(".", 1)[0] if "." in name else "builtin"] += 1
    return counts


def _functions(module):
    """[(name, visibility)] of the func.func ops at module level."""
    from mlir import ir

    funcs = []
    for op in module.body.operations:
        op = op.operation
        if op.name != "func.func":
            continue
        name = ir.StringAttr(op.attributes["sym_name"]).value
        visibility = "public"
        if "sym_visibility" in op.attributes:
            visibility = ir.StringAttr(op.attributes["sym_visibility"]).value
        funcs.append((name, visibility))
    return funcs


def _branch_refs(module):
    """[(op name, attribute name, function name)] for tf.If/tf.While/... function refs."""
    from mlir import ir

    refs = []
    for op in _walk(module):
        if op.name not in _FUNC_REF_OPS:
            continue
        try:
            # Registered ops list their inherent (property) attributes too.
            attrs = list(op.attributes.items())
        except Exception:  # opaque properties (op not registered)
            attrs = []
        found = False
        for attr_name, attr in attrs:
            if isinstance(attr, ir.FlatSymbolRefAttr):
                refs.append((op.name, attr_name, attr.value))
                found = True
        if not found:
            raise DemoError(
                f"{op.name} exposes no function attributes: is the tf dialect registered "
                "(is tfmlir up to date)?"
            )
    return refs


def _format_counts(before, after):
    dialects = sorted(set(before) | set(after))
    width = max((len(d) for d in dialects), default=0)
    lines = []
    for d in dialects:
        lines.append(f"  {d:<{width}}  {before.get(d, 0):5d} -> {after.get(d, 0):5d}")
    lines.append(f"  {'total':<{width}}  {sum(before.values()):5d} -> {sum(after.values()):5d}")
    return "\n".join(lines)


def run(args, out=sys.stdout):
    import tfmlir  # noqa: F401  (registers the dialects; makes TF-in-process safe)
    from mlir import ir
    from mlir.passmanager import PassManager

    if args.input:
        text, origin = _read_input(args.input), f"read {args.input}"
    else:
        text, origin = trace_default_function()

    ctx = ir.Context()
    with ctx:
        try:
            module = tfmlir.parse_module(text)
        except (ir.MLIRError, tfmlir.parsing.ParseGuardError) as e:
            raise DemoError(f"tfmlir could not parse the MLIR text:\n{e}") from e
        if not module.operation.verify():
            raise DemoError("the parsed module does not verify")

        before_counts = _dialect_counts(module)
        before_funcs = _functions(module)
        refs = _branch_refs(module)

        try:
            pm = PassManager.parse(args.pipeline)
        except (ir.MLIRError, ValueError) as e:
            raise DemoError(f"invalid pass pipeline {args.pipeline!r}: {e}") from e
        try:
            pm.run(module.operation)
        except ir.MLIRError as e:
            raise DemoError(f"pass pipeline {args.pipeline!r} failed:\n{e}") from e
        if not module.operation.verify():
            raise DemoError(f"the module does not verify after {args.pipeline!r}")

        after_counts = _dialect_counts(module)
        after_funcs = _functions(module)
        after_names = {name for name, _ in after_funcs}
        refs_after = _branch_refs(module)

        if not args.summary_only:
            print(f"// {origin}; {len(text)} chars of MLIR", file=out)
            print(f"// after {args.pipeline}:", file=out)
            out.write(module.operation.get_asm(print_generic_op_form=args.generic))

    print("== summary ==", file=out)
    print(f"source: {origin}", file=out)
    print(f"pipeline: {args.pipeline}", file=out)
    print("ops per dialect (before -> after the pipeline):", file=out)
    print(_format_counts(before_counts, after_counts), file=out)
    print(f"functions ({len(before_funcs)} -> {len(after_funcs)}):", file=out)
    for name, visibility in before_funcs:
        state = "kept" if name in after_names else "removed"
        print(f"  @{name} ({visibility}) {state}", file=out)

    referenced = sorted({f for _, _, f in refs})
    print("If/While branch functions (referenced by tf control-flow ops):", file=out)
    if not refs:
        print("  none in this module", file=out)
    for op_name, attr, func in sorted(set(refs)):
        state = "kept" if func in after_names else "MISSING"
        print(f"  {op_name} {attr} = @{func}: {state}", file=out)
    missing = [f for f in referenced if f not in after_names]
    dangling = sorted({f for _, _, f in refs_after if f not in after_names})
    if missing or dangling:
        raise DemoError(
            "branch functions referenced by tf.If/tf.While were removed by the pipeline: "
            + ", ".join("@" + f for f in sorted(set(missing) | set(dangling)))
        )
    if refs:
        print(f"all {len(referenced)} branch functions survived the pipeline", file=out)
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m tfmlir.demo",
        description="Convert a TensorFlow function to MLIR, run upstream MLIR passes on it with "
        "tfmlir's dialects, and summarize the result.",
    )
    parser.add_argument("--pipeline", default=DEFAULT_PIPELINE,
                        help=f"upstream textual pass pipeline (default: {DEFAULT_PIPELINE})")
    parser.add_argument("--generic", action="store_true", help="print the result in generic op form")
    parser.add_argument("--input", metavar="FILE",
                        help="MLIR text to use instead of tracing the built-in function ('-': stdin)")
    parser.add_argument("--summary-only", action="store_true", help="print only the summary")
    args = parser.parse_args(argv)
    try:
        return run(args)
    except DemoError as e:
        print(f"tfmlir.demo: error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
