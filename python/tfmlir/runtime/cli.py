"""``tfmlir run``: runs a bridged program (MLIR text, entry ``main``) with tfmlir.runtime.

    tfmlir run model.mlir --feed x=x.npy --fetch out0 [--target init] [--device cpu|gpu] [--timing]

Feeds are ``name=file.npy`` or ``name=<Python literal>`` (e.g. ``x=[[1.0, 2.0]]``,
converted to the input's dtype). Fetched values are printed (``--save out.npz``
also writes them). ``--timing`` prints legalize/compile/execute/callback times.
"""
import argparse
import ast
import sys

import numpy as np


def build_parser():
    p = argparse.ArgumentParser(prog="tfmlir run", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("program", help="MLIR text of a bridged program ('-' for stdin)")
    p.add_argument("--feed", action="append", default=[], metavar="NAME=VALUE",
                   help="an input: NAME=file.npy or NAME=<Python literal> (repeatable)")
    p.add_argument("--fetch", action="append", default=None, metavar="NAME",
                   help="a value to fetch (repeatable; default: all outputs of main)")
    p.add_argument("--target", action="append", default=[], metavar="NAME",
                   help="a node to run for its effects before fetching (repeatable)")
    p.add_argument("--device", choices=("cpu", "gpu"), default="cpu", help="XLA platform of device programs")
    p.add_argument("--timing", action="store_true", help="print legalize/compile/execute/callback times")
    p.add_argument("--save", metavar="FILE.npz", help="also write the fetched values to an .npz file")
    p.add_argument("--repeat", type=int, default=1, metavar="N", help="run N times (timings cover all runs)")
    return p


def _feed(text):
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise ValueError(f"--feed {text!r}: expected NAME=VALUE")
    if value.endswith(".npy"):
        return name, np.load(value, allow_pickle=False)
    try:
        return name, np.asarray(ast.literal_eval(value))
    except (ValueError, SyntaxError) as exc:
        raise ValueError(f"--feed {name}: {value!r} is neither a .npy file nor a Python literal ({exc})") from None


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        feeds = dict(_feed(f) for f in args.feed)
        if args.program == "-":
            text = sys.stdin.read()
        else:
            with open(args.program, "rb") as f:
                text = f.read()
    except (OSError, ValueError) as exc:
        print(f"tfmlir run: {exc}", file=sys.stderr)
        return 2
    from . import ProgramError, RunError, Session
    try:
        with Session(text, device=args.device, progress=True) as session:
            fetches = args.fetch
            names = fetches if fetches is not None else ([] if args.target else session.output_names)
            for _ in range(max(1, args.repeat)):
                values = session.run(fetches, feeds, args.target or None)
            timings = session.timings
    except (ProgramError, RunError) as exc:
        print(f"tfmlir run: error: {exc}", file=sys.stderr)
        return 1
    with np.printoptions(threshold=50):
        for name, value in zip(names, values):
            print(f"{name} = {value!r}")
    if args.save:
        np.savez(args.save, **{n.replace(":", "_"): v for n, v in zip(names, values)})
    if args.timing:
        print(f"timing: legalize {timings['legalize'] * 1e3:.1f} ms, compile {timings['compile'] * 1e3:.1f} ms, "
              f"execute {timings['execute'] * 1e3:.3f} ms over {timings['executions']} execution(s), "
              f"host callbacks {timings['callback'] * 1e3:.3f} ms over {timings['callbacks']} call(s)",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
