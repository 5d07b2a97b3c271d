"""`tfmlir export`: MLIR (tf_executor or functional form) -> TensorFlow GraphDef.

    tfmlir export model.mlir -o model.pb          # binary GraphDef
    tfmlir export model.mlir -o model.pbtxt       # text format (by extension, or --text)
"""
import argparse
import sys

from ..tfcore.errors import TFExportError


def build_parser():
    p = argparse.ArgumentParser(prog="tfmlir export", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="MLIR file (text or bytecode; '-' for stdin)")
    p.add_argument("-o", "--output", default="-", help="output file (default: stdout, text format)")
    p.add_argument("--text", action="store_true", help="write the text format regardless of the extension")
    p.add_argument("--function", default=None, help="the function to export as the graph (default @main)")
    return p


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    import tfmlir  # noqa: F401
    from mlir import ir
    from . import export_graph_def
    from ..parsing import ParseGuardError, parse_module
    try:
        if args.input == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(args.input, "rb") as f:
                data = f.read()
        ctx = ir.Context()
        try:
            module = parse_module(data, ctx)  # text (any bytes in strings) or bytecode
        except (ir.MLIRError, ParseGuardError) as exc:
            raise TFExportError(f"cannot parse {args.input}: {exc}") from None
        as_text = args.text or args.output == "-" or args.output.endswith((".pbtxt", ".txt"))
        result = export_graph_def(module, function_name=args.function, as_text=as_text)
        if args.output == "-":
            sys.stdout.write(result)
        elif as_text:
            with open(args.output, "w") as f:
                f.write(result)
        else:
            with open(args.output, "wb") as f:
                f.write(result)
    except (TFExportError, OSError, UnicodeDecodeError) as exc:
        print(f"tfmlir export: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
