"""The `tfmlir` command: subcommands for TensorFlow graphs (import, export) and running them on XLA (run)."""
import argparse
import sys


def main(argv=None):
    parser = argparse.ArgumentParser(prog="tfmlir", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("import", help="GraphDef / SavedModel -> MLIR (tfmlir.importers)", add_help=False)
    sub.add_parser("export", help="MLIR -> GraphDef (tfmlir.exporters)", add_help=False)
    sub.add_parser("run", help="run a GraphDef (bridged by tfmlir) or a bridged MLIR program on XLA "
                   "(tfmlir.runtime)", add_help=False)
    args, rest = parser.parse_known_args(argv)
    try:
        if args.command == "import":
            from tfmlir.tools.import_cli import main as run
        elif args.command == "run":
            from tfmlir.runtime.cli import main as run
        else:
            from tfmlir.exporters.cli import main as run
    except ImportError as exc:
        print(f"tfmlir {args.command}: not available: {exc}", file=sys.stderr)
        return 1
    return run(rest)


if __name__ == "__main__":
    sys.exit(main())
