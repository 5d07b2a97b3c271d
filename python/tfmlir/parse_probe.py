"""The child of :func:`tfmlir.parsing.probe`: parses stdin with MLIR under resource limits.

Run as a script: ``python parse_probe.py ADDRESS_SPACE_BYTES CPU_SECONDS < data``. Prints
``survived`` when MLIR's reader returned (a parse error is fine: the caller's own parse
reports it); a reader that dies or exceeds its limits is what the caller looks for.
"""
import os
import resource
import sys


def main(argv):
    limit, seconds = int(argv[0]), int(argv[1])
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    # CPU time bounds the child even if nobody is left to kill it (some
    # corruptions send the reader into a loop that outlives its parent).
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 5))
    # Python put this script's folder (tfmlir's) first on sys.path: its modules must not
    # shadow top-level ones.
    here = os.path.dirname(os.path.realpath(__file__))  # the folder, links resolved
    sys.path[:] = [p for p in sys.path if os.path.realpath(p or os.curdir) != here]
    import tfmlir  # noqa: F401  (registers the dialects)
    from mlir import ir

    data = sys.stdin.buffer.read()
    with ir.Context() as context:
        context.allow_unregistered_dialects = True
        try:
            ir.Module.parse(data)
        except Exception:
            pass  # a clean error: the caller's own parse reports it
    print("survived")


if __name__ == "__main__":
    main(sys.argv[1:])
