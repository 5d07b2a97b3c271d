"""``tfmlir run``: runs a TensorFlow program with tfmlir.runtime.

    tfmlir run model.pb --feed x=x.npy --fetch out [--target init] [--print-ir-after-bridge]
                        [--device cpu|gpu] [--timing] [--repeat N] [--save out.npz]
    tfmlir run model.mlir --feed x=x.npy --fetch out0 [--target init] [--device cpu|gpu] [--timing]

The program is either

* a TF1 GraphDef (``.pb`` binary or ``.pbtxt`` text; under other names and from
  ``-``, stdin, a binary GraphDef is recognised by its content): tfmlir imports it, bridges it with
  ``tf-tpu-bridge{v1-compat=true}`` and runs it with ``tf.compat.v1.Session``
  semantics (:class:`tfmlir.runtime.graph_session.GraphSession`). The
  ``--target`` nodes (e.g. the variables' initializer) run first, as their own
  run; then the ``--fetch`` tensors (``name`` or ``name:index``, required) are
  fetched with the feeds -- ``--repeat N`` times, variables carrying over.
  ``--print-ir-after-bridge`` prints each bridged module (one per run
  signature) to stdout before the results;
* or MLIR text of an already bridged program (entry ``main``, after
  ``tf-tpu-rewrite``): one run with the feeds, fetches (default: all outputs of
  ``main``) and targets together, ``--repeat N`` times.

Feeds are ``name=file.npy`` or ``name=<Python literal>`` (e.g. ``x=[[1.0, 2.0]]``,
converted to the input's dtype). Fetched values are printed (``--save out.npz``
also writes them). ``--timing`` prints bridge/legalize/compile/execute/callback
times to stderr. Errors are reported as ``tfmlir run: error: ...`` with exit
status 1.
"""
import argparse
import ast
import os
import sys

import numpy as np


class _UsageError(Exception):
    pass


def build_parser():
    p = argparse.ArgumentParser(prog="tfmlir run", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("program", help="a GraphDef (.pb / .pbtxt) or the MLIR text of a bridged program "
                                   "('-' for stdin)")
    p.add_argument("--feed", action="append", default=[], metavar="NAME=VALUE",
                   help="an input: NAME=file.npy or NAME=<Python literal> (repeatable)")
    p.add_argument("--fetch", action="append", default=None, metavar="NAME",
                   help="a value to fetch (repeatable; required for GraphDefs; MLIR default: all "
                        "outputs of main)")
    p.add_argument("--target", action="append", default=[], metavar="NAME",
                   help="a node to run for its effects (repeatable; GraphDefs: run first, on its own)")
    p.add_argument("--print-ir-after-bridge", action="store_true",
                   help="GraphDefs: print the bridged module(s) to stdout before the results")
    p.add_argument("--device", choices=("cpu", "gpu"), default="cpu", help="XLA platform of device programs")
    p.add_argument("--timing", action="store_true", help="print bridge/legalize/compile/execute/callback times")
    p.add_argument("--save", metavar="FILE.npz", help="also write the fetched values to an .npz file")
    p.add_argument("--repeat", type=int, default=1, metavar="N",
                   help="run (GraphDefs: fetch) N times (timings cover all runs)")
    p.add_argument("--processes", type=int, default=1, metavar="N",
                   help="run as a job of N local processes on PJRT's distributed runtime (the replicas "
                        "divided between them, each process with TFMLIR_CPU_DEVICES devices; results "
                        "printed by process 0)")
    return p


def _feed(text):
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise _UsageError(f"--feed {text!r}: expected NAME=VALUE")
    if value.endswith(".npy"):
        try:
            return name, np.load(value, allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise _UsageError(f"--feed {name}: cannot read {value}: {exc}") from None
    try:
        return name, np.asarray(ast.literal_eval(value))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError) as exc:
        raise _UsageError(f"--feed {name}: {value!r} is neither a .npy file nor a Python literal ({exc})") \
            from None


def _read_program(path):
    """(program for Session, is it a GraphDef)."""
    from .graph_session import is_graph_def
    if path != "-" and path.endswith((".pb", ".pbtxt")):
        if not os.path.isfile(path):
            raise _UsageError(f"cannot read {path}: no such file")
        return path, True
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as exc:
        raise _UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    if is_graph_def(data):
        return data, True
    try:
        return data.decode("utf-8"), False
    except UnicodeDecodeError:
        raise _UsageError(f"{path} is neither a GraphDef nor MLIR text") from None


def _run_graph_def(program, args, feeds, out):
    from .graph_session import GraphSession

    if not args.fetch:
        raise _UsageError("a GraphDef needs --fetch (the tensors to fetch)")
    current = {"run": ""}

    def print_bridged(text):
        print(f"// tfmlir run: the bridged module of the {current['run']}", file=out)
        out.write(text if text.endswith("\n") else text + "\n")
        out.flush()

    with GraphSession(program, device=args.device, progress=True,
                      print_ir_after_bridge=print_bridged if args.print_ir_after_bridge else None) as session:
        if args.target:
            current["run"] = "targets " + ", ".join(args.target)
            session.run(targets=args.target)
        current["run"] = "fetches " + ", ".join(args.fetch) + (
            " with feeds " + ", ".join(sorted(feeds)) if feeds else "")
        for _ in range(args.repeat):
            values = session.run(list(args.fetch), feeds)
        return list(args.fetch), values, session.timings


def _run_mlir(text, args, feeds):
    from .session import ProgramSession

    if args.print_ir_after_bridge:
        raise _UsageError("--print-ir-after-bridge needs a GraphDef (MLIR programs are run as bridged)")
    with ProgramSession(text, device=args.device, progress=True) as session:
        fetches = args.fetch
        names = fetches if fetches is not None else ([] if args.target else session.output_names)
        for _ in range(args.repeat):
            values = session.run(fetches, feeds, args.target or None)
        return names, values, session.timings


def _launch(argv, args, out):
    """``--processes N``: the same command in N child processes forming one job; process 0's
    output is the command's, each process's timing line is printed with its index."""
    from . import distributed

    if args.processes < 1:
        print(f"tfmlir run: error: --processes {args.processes}: expected at least 1", file=sys.stderr)
        return 1
    command = [sys.executable, "-m", "tfmlir.runtime.cli", *argv]
    try:
        outputs = distributed.launch(command, args.processes, timeout_s=float(
            os.environ.get("TFMLIR_JOB_TIMEOUT", "3600")), capture_stderr=True)
    except distributed.DistributedError as exc:
        print(f"tfmlir run: error: {exc}", file=sys.stderr)
        return 1
    out.write(outputs[0][0])
    if args.timing:
        print(f"timing: {args.processes} processes", file=sys.stderr)
        for k, (_stdout, stderr) in enumerate(outputs):
            for line in stderr.splitlines():
                if line.startswith("timing: "):
                    print(f"timing: process {k}: {line[len('timing: '):]}", file=sys.stderr)
    return 0


def main(argv=None, out=None):
    out = out or sys.stdout
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    from . import distributed
    job = distributed.from_environment()
    if args.processes > 1 and job is None:
        return _launch(argv, args, out)
    from .errors import ProgramError, RunError
    try:
        if args.repeat < 1:
            raise _UsageError(f"--repeat {args.repeat}: expected at least 1")
        if job is not None:
            try:
                distributed.join(job)
            except (TimeoutError, RuntimeError, ValueError) as exc:
                raise _UsageError(f"process {job.process_id} cannot join the job: {exc}") from None
        feeds = dict(_feed(f) for f in args.feed)
        program, graph = _read_program(args.program)
        if graph:
            names, values, timings = _run_graph_def(program, args, feeds, out)
        else:
            names, values, timings = _run_mlir(program, args, feeds)
    except (_UsageError, ProgramError, RunError) as exc:
        print(f"tfmlir run: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        raise
    except Exception as exc:  # never a traceback: what failed, in one message
        print(f"tfmlir run: error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    with np.printoptions(threshold=50):
        for name, value in zip(names, values):
            print(f"{name} = {value!r}", file=out)
    if args.save and (job is None or job.process_id == 0):
        try:
            np.savez(args.save, **{n.replace(":", "_"): v for n, v in zip(names, values)})
        except OSError as exc:
            print(f"tfmlir run: error: cannot write {args.save}: {exc.strerror or exc}", file=sys.stderr)
            return 1
    if args.timing:
        bridge = (f"bridge {timings['bridge'] * 1e3:.1f} ms over {timings['bridges']} signature(s), "
                  if "bridge" in timings else "")
        print(f"timing: {bridge}legalize {timings['legalize'] * 1e3:.1f} ms, "
              f"compile {timings['compile'] * 1e3:.1f} ms, "
              f"execute {timings['execute'] * 1e3:.3f} ms over {timings['executions']} execution(s), "
              f"host callbacks {timings['callback'] * 1e3:.3f} ms over {timings['callbacks']} call(s)",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
