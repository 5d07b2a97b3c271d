"""A stand-in for TensorFlow's child (tests of tfmlir.tf_child and the oracle, no TensorFlow).

The real program's serve loop (tfmlir.tf_child_main.serve) with a fake ``tf`` whose
``run_pass_pipeline`` answers ``text + "!"``, except for texts that act: "crash" aborts the
process, "sleep" sleeps a minute, "warn" prints a warning on stderr first, "fail" raises.
Started with the argument "never" it exits before saying ready.
"""
import os
import sys
import time
import types


def run_pass_pipeline(text, pipeline, show_debug_info=False):
    if text == "crash":
        sys.stderr.write("about to crash\n")
        sys.stderr.flush()
        os.abort()
    if text == "sleep":
        time.sleep(60)
    if text == "warn":
        sys.stderr.write("a warning from the pass\n")
    if text == "fail":
        raise ValueError("the pass failed")
    return text + "!"


if __name__ == "__main__":
    if sys.argv[1:] == ["never"]:
        sys.exit(3)
    from tfmlir.tf_child_main import serve

    fake = types.SimpleNamespace(mlir=types.SimpleNamespace(
        experimental=types.SimpleNamespace(run_pass_pipeline=run_pass_pipeline)))
    replies = sys.stdout
    sys.stdout = sys.stderr
    serve(sys.stdin, replies, tf=fake)
