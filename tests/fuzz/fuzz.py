"""tfmlir's fuzz suite: hostile inputs through every surface, crashes counted.

    python tests/fuzz/fuzz.py --cases 6000 --budget 540 --seed 1

Surfaces (the share of cases each gets is fixed, see ``SHARES``):

* ``ir``: TF-printed IR (TF 2.21 samples from ../shared/reference, every
  lit test chunk of this repository) mutated as text -- byte flips, lines
  deleted/duplicated/swapped, numbers replaced by extreme values, tokens
  swapped between inputs, non-UTF-8 escapes in strings and names,
  truncation, splices -- then parsed, verified, printed, run through a random
  pass (every registered Python pass and some upstream ones) and exported to
  a GraphDef that must import again;
* ``graphdef``: GraphDefs exported from those inputs, mutated as bytes and
  structurally (op names, inputs, attribute kinds and values, dtypes,
  shapes, duplicate names), through the importer, then exported and
  re-imported;
* ``bytecode``: the inputs as MLIR bytecode with bytes changed, inserted or
  cut, through tfmlir's guarded bytecode entry point;
* ``api``: random call sequences on the typed op builders and the native
  bindings (``api_calls.py``).

Each case runs in a worker process (``worker.py``); a worker that dies is a
crash of that case (its input is saved under ``--out``) and a fresh worker
takes the next case. A case over ``--case-timeout`` seconds is a hang. The
report counts, per surface, cases tried / accepted / clean errors /
unexpected Python exceptions / invariant violations / hangs / crashes. The
exit status is 1 if any case crashed or hung (or, with ``--strict``, raised
an unexpected exception or broke an invariant).
"""
import argparse
import base64
import collections
import io
import json
import os
import random
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
SHARED_SAMPLES = REPO.parent / "shared" / "reference" / "tf-2.21-samples"

SHARES = {"ir": 0.55, "graphdef": 0.25, "bytecode": 0.04, "api": 0.16}
OUTCOMES = ("ok", "error", "unexpected", "invariant", "hang", "crash")
FAILING = ("hang", "crash")
UPSTREAM_PASSES = ["canonicalize", "cse", "symbol-dce", "inline", "sccp"]
_MAX_SEED_BYTES = 60_000


# --------------------------------------------------------------------------- seeds

def _chunks(text):
    for chunk in re.split(r"^// -----\s*$", text, flags=re.M):
        lines = [ln for ln in chunk.splitlines() if not ln.lstrip().startswith("// RUN")]
        chunk = "\n".join(lines).strip()
        if chunk and len(chunk) < _MAX_SEED_BYTES:
            yield chunk.encode()


def ir_seeds():
    seeds = []
    if SHARED_SAMPLES.is_dir():
        for path in sorted(SHARED_SAMPLES.glob("*.mlir")):
            seeds.extend(_chunks(path.read_text(errors="replace")))
    for path in sorted((REPO / "tests" / "lit").rglob("*.mlir")):
        seeds.extend(_chunks(path.read_text(errors="replace")))
    return seeds


def derived_seeds(ir_inputs):
    """(bytecode, graphdefs) made from the IR seeds that parse / export."""
    import tfmlir  # noqa: F401
    from mlir import ir
    from tfmlir import exporters

    bytecodes, graphdefs = [], []
    for text in ir_inputs:
        with ir.Context() as ctx:
            ctx.allow_unregistered_dialects = True
            try:
                module = ir.Module.parse(text)
                module.operation.verify()
            except ir.MLIRError:
                continue
            if len(bytecodes) < 40:
                out = io.BytesIO()
                module.operation.write_bytecode(out)
                bytecodes.append(out.getvalue())
            try:
                graphdefs.append(exporters.export_graph_def(module))
            except Exception:  # noqa: BLE001 - not every seed exports; that is fine here
                continue
    return bytecodes, graphdefs


# --------------------------------------------------------------------------- mutators

_NUMBER = re.compile(rb"-?\b\d+\b")
_TOKEN = re.compile(rb'%[\w#]+|@[\w]+|"[\w.]+"|\b[a-z_]+\.[A-Za-z_.]+\b|tensor<[^<>]*>|![\w.]+(?:<[^<>]*>)?')
_EXTREMES = [b"0", b"-1", b"1", b"2147483647", b"2147483648", b"4294967296", b"-2147483649",
             b"9223372036854775807", b"18446744073709551616", b"1000000000", b"99999999999999999999"]
_NASTY = [b'"\\FF"', b"\\FE", b"\xff", b"\x00", b"{", b"}", b"(", b")", b"[", b"]", b"<", b">",
          b"^bb0:", b"loc(\"\\FF\":1:2)", b"%0", b"@main", b"tensor<*xf32>", b"!tf_executor.control",
          b"{n = 1000000 : i32}", b"of 3000000", b"#tf_type<tensor_proto : \"0x\">",
          b"dense<1.0> : tensor<1000000000xf32>", b"[" * 50, b"]" * 50]


def mutate_text(rng, data, pool):
    data = bytearray(data)
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
        if not data:
            data = bytearray(rng.choice(pool))
        # Value and token edits keep most inputs parseable, so they get more weight.
        kind = rng.choice([0, 1, 2, 3, 4, 4, 4, 5, 5, 5, 6, 7, 7, 8, 9])
        if kind == 0:
            pos = rng.randrange(len(data))
            data[pos] = rng.randrange(256)
        elif kind in (1, 2, 3):
            lines = bytes(data).split(b"\n")
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            if kind == 1:
                del lines[i]
            elif kind == 2:
                lines.insert(i, lines[j])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            data = bytearray(b"\n".join(lines))
        elif kind == 4:
            found = list(_NUMBER.finditer(data))
            if found:
                m = rng.choice(found)
                data[m.start():m.end()] = rng.choice(_EXTREMES)
        elif kind == 5:
            found = list(_TOKEN.finditer(data))
            donor = list(_TOKEN.finditer(rng.choice(pool)))
            if found and donor:
                m = rng.choice(found)
                data[m.start():m.end()] = rng.choice(donor).group(0)
        elif kind == 6:
            pos = rng.randrange(len(data) + 1)
            data[pos:pos] = rng.choice(_NASTY)
        elif kind == 7:
            quotes = [m.start() for m in re.finditer(rb'"', data)]
            if quotes:
                pos = rng.choice(quotes) + 1
                data[pos:pos] = rng.choice([b"\\FF", b"\\C3\\28", b"\\80", b"\\ED\\A0\\80"])
        elif kind == 8:
            data = data[:rng.randrange(len(data) + 1)]
        else:
            donor = rng.choice(pool)
            a = rng.randrange(len(donor) + 1)
            b = min(len(donor), a + rng.randrange(400))
            pos = rng.randrange(len(data) + 1)
            data[pos:pos] = donor[a:b]
    return bytes(data)


def mutate_bytes(rng, data):
    data = bytearray(data)
    for _ in range(rng.choice([1, 1, 2, 3])):
        if not data:
            data = bytearray(b"\x00")
        kind = rng.randrange(6)
        pos = rng.randrange(len(data))
        if kind <= 1:
            data[pos] = rng.randrange(256)
        elif kind == 2:
            data[pos] ^= 1 << rng.randrange(8)
        elif kind == 3:
            data[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 10)))
        elif kind == 4:
            del data[pos:pos + rng.randrange(1, 16)]
        else:
            data = data[:pos]
    return bytes(data)


def _random_attr_value(rng, pb):
    kind = rng.randrange(9)
    if kind == 0:
        return pb.Message("AttrValue", s=rng.choice([b"", b"x", b"\xff", b"\n\"", b"loc:@w"]))
    if kind == 1:
        return pb.Message("AttrValue", i=rng.choice([0, -1, 2**31, 2**62, -2**63]))
    if kind == 2:
        return pb.Message("AttrValue", f=rng.choice([0.0, float("nan"), float("inf"), -1e308]))
    if kind == 3:
        return pb.Message("AttrValue", b=True)
    if kind == 4:
        return pb.Message("AttrValue", type=rng.choice([0, 1, 3, 7, 20, 23, 101, 999, -5]))
    if kind == 5:
        dims = [pb.Message("TensorShapeProto.Dim", size=rng.choice([-1, 0, 2, 2**40, -7]))
                for _ in range(rng.randrange(4))]
        return pb.Message("AttrValue", shape=pb.Message("TensorShapeProto", dim=dims,
                                                        unknown_rank=rng.random() < 0.2))
    if kind == 6:
        dims = [pb.Message("TensorShapeProto.Dim", size=rng.choice([0, 3, 10**6, 10**12, -1]))
                for _ in range(rng.randrange(3))]
        tensor = pb.Message("TensorProto", dtype=rng.choice([1, 3, 7, 10, 21, 0, 77]),
                            tensor_shape=pb.Message("TensorShapeProto", dim=dims),
                            tensor_content=bytes(rng.randrange(256) for _ in range(rng.randrange(12))))
        return pb.Message("AttrValue", tensor=tensor)
    if kind == 7:
        return pb.Message("AttrValue", func=pb.Message("NameAttrList", name=rng.choice(["f", "", "missing"])))
    return pb.Message("AttrValue", list=pb.Message("AttrValue.ListValue",
                                                   i=[rng.randrange(-3, 9) for _ in range(rng.randrange(4))]))


def mutate_graphdef(rng, data, pool):
    """Structural edits through tfmlir's protobuf codec; byte edits otherwise."""
    from tfmlir.importers import protobuf as pb

    if rng.random() < 0.4:
        return mutate_bytes(rng, data)
    try:
        graph = pb.decode("GraphDef", data)
        nodes = list(graph.node)
        if not nodes:
            return mutate_bytes(rng, data)
        for _ in range(rng.choice([1, 1, 2, 3])):
            node = rng.choice(nodes)
            other = rng.choice(nodes)
            kind = rng.randrange(8)
            if kind == 0:
                node.op = rng.choice([other.op, "NoSuchOp", "", "Merge", "NextIteration", "Switch",
                                      "_Retval", "PartitionedCall", "While", "If"])
            elif kind == 1:
                node.name = rng.choice([other.name, "", "a/b", "x:0", "^c", "\u00e9"])
            elif kind == 2:
                inputs = list(node.input)
                choice = rng.randrange(4)
                if choice == 0 and inputs:
                    inputs.pop(rng.randrange(len(inputs)))
                elif choice == 1:
                    inputs.append(rng.choice([other.name, f"{other.name}:7", f"^{other.name}", "missing",
                                              f"{node.name}", ":1", f"{other.name}:-1"]))
                elif choice == 2:
                    rng.shuffle(inputs)
                else:
                    inputs = [f"^{i}" if not i.startswith("^") else i[1:] for i in inputs]
                node.input = inputs
            elif kind == 3:
                attrs = dict(node.attr)
                if attrs:
                    key = rng.choice(sorted(attrs))
                    attrs[key] = _random_attr_value(rng, pb)
                node.attr = attrs
            elif kind == 4:
                attrs = dict(node.attr)
                if attrs:
                    del attrs[rng.choice(sorted(attrs))]
                node.attr = attrs
            elif kind == 5:
                attrs = dict(node.attr)
                attrs[rng.choice(["T", "dtype", "N", "shape", "value", "_class", "f", "extra"])] = \
                    _random_attr_value(rng, pb)
                node.attr = attrs
            elif kind == 6:
                node.device = rng.choice(["", "x", "loc:@w", "/job:a/replica:0/task:0/device:CPU:0",
                                          "/device:TPU:99999999999", "\u00e9"])
            else:
                nodes.append(pb.decode("NodeDef", pb.encode(other)))
        graph.node = nodes
        return pb.encode(graph)
    except Exception:  # noqa: BLE001 - the mutation itself failed: fall back to bytes
        return mutate_bytes(rng, data)


# --------------------------------------------------------------------------- cases

def make_cases(rng, count, ir_inputs, bytecodes, graphdefs, pass_names):
    surfaces = list(SHARES)
    weights = [SHARES[s] for s in surfaces]
    for index in range(count):
        surface = rng.choices(surfaces, weights)[0]
        if surface == "bytecode" and not bytecodes or surface == "graphdef" and not graphdefs:
            surface = "ir"
        case = {"index": index, "surface": surface}
        if surface == "ir":
            data = mutate_text(rng, rng.choice(ir_inputs), ir_inputs)
            case["unregistered"] = rng.random() < 0.5
            name = rng.choice(pass_names + UPSTREAM_PASSES)
            case["single_python_pass"] = name in pass_names
            if rng.random() < 0.15:
                name = ",".join(rng.sample(pass_names + UPSTREAM_PASSES, 3))
                case["single_python_pass"] = False
            case["pipeline"] = f"builtin.module({name})" if rng.random() < 0.8 else None
            case["export"] = rng.random() < 0.5
        elif surface == "bytecode":
            data = mutate_bytes(rng, rng.choice(bytecodes))
            case["pipeline"] = rng.choice([None, "builtin.module(canonicalize)"])
        elif surface == "graphdef":
            data = mutate_graphdef(rng, rng.choice(graphdefs), graphdefs)
            case["export"] = rng.random() < 0.5
        else:
            data = b""
            case["seed"] = rng.randrange(2**32)
        case["data"] = base64.b64encode(data).decode()
        yield case


# --------------------------------------------------------------------------- driving workers

class Worker:
    def __init__(self):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [str(HERE)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
        env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        # A session of its own, so that killing a worker also kills what it
        # started (the bytecode probe's child).
        self.proc = subprocess.Popen([sys.executable, str(HERE / "worker.py")], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                                     start_new_session=True)
        self.stderr_tail = b""

    def run(self, case, timeout):
        """(outcome, detail) of one case."""
        try:
            self.proc.stdin.write((json.dumps(case) + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return "crash", self._death()
        deadline = time.monotonic() + timeout
        line = b""
        while not line.endswith(b"\n"):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.kill()
                return "hang", f"no answer within {timeout} s"
            ready, _, _ = select.select([self.proc.stdout, self.proc.stderr], [], [], remaining)
            if self.proc.stderr in ready:
                chunk = os.read(self.proc.stderr.fileno(), 65536)
                self.stderr_tail = (self.stderr_tail + chunk)[-4000:]
            if self.proc.stdout in ready:
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                if not chunk:
                    return "crash", self._death()
                line += chunk
        result = json.loads(line.decode())
        return result["outcome"], result.get("detail", "")

    def _death(self):
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()
        rest = self.proc.stderr.read() or b""
        tail = (self.stderr_tail + rest).decode("utf-8", "replace").strip().splitlines()
        return f"exit status {self.proc.returncode}: " + " | ".join(tail[-3:])

    def kill(self):
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.kill()
            self.proc.wait(timeout=10)
        except Exception:  # noqa: BLE001
            pass

    def alive(self):
        return self.proc.poll() is None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=6000)
    parser.add_argument("--budget", type=float, default=540.0, help="seconds; stop generating cases after it")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--case-timeout", type=float, default=60.0)
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--out", default=str(REPO / "build" / "fuzz"), help="where crashing inputs are saved")
    parser.add_argument("--json", help="write the report as JSON here")
    parser.add_argument("--strict", action="store_true",
                        help="also fail on unexpected exceptions and invariant violations")
    args = parser.parse_args(argv)

    start = time.monotonic()
    rng = random.Random(args.seed)
    sys.path.insert(0, str(HERE))
    from tfmlir import passes

    pass_names = sorted(passes.registered_passes())
    ir_inputs = ir_seeds()
    bytecodes, graphdefs = derived_seeds(ir_inputs)
    cases = make_cases(rng, args.cases, ir_inputs, bytecodes, graphdefs, pass_names)

    counts = collections.defaultdict(collections.Counter)
    examples = collections.defaultdict(list)
    out_dir = Path(args.out)
    workers = [Worker() for _ in range(max(1, args.jobs))]
    pending = {}  # worker index -> case
    exhausted = False

    def record(case, outcome, detail):
        counts[case["surface"]][outcome] += 1
        if outcome in FAILING or outcome in ("unexpected", "invariant"):
            key = f"{case['surface']}/{outcome}"
            if len(examples[key]) < 12:
                examples[key].append({"index": case["index"], "detail": detail})
            if outcome in FAILING:
                out_dir.mkdir(parents=True, exist_ok=True)
                (out_dir / f"case{case['index']}_{case['surface']}_{outcome}.json").write_text(json.dumps(case))

    # One case per worker at a time; workers run in parallel through select.
    import threading

    lock = threading.Lock()

    def drive(slot):
        nonlocal exhausted
        while True:
            with lock:
                if exhausted or time.monotonic() - start > args.budget:
                    return
                try:
                    case = next(cases)
                except StopIteration:
                    exhausted = True
                    return
            if not workers[slot].alive():
                workers[slot] = Worker()
            outcome, detail = workers[slot].run(case, args.case_timeout)
            if outcome in FAILING:
                workers[slot].kill()
                workers[slot] = Worker()
            with lock:
                record(case, outcome, detail)

    threads = [threading.Thread(target=drive, args=(i,)) for i in range(len(workers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for w in workers:
        w.kill()

    elapsed = time.monotonic() - start
    total = collections.Counter()
    for c in counts.values():
        total.update(c)
    report = {"seed": args.seed, "seconds": round(elapsed, 1), "seeds": {"ir": len(ir_inputs),
              "bytecode": len(bytecodes), "graphdef": len(graphdefs)},
              "tried": sum(total.values()),
              "per_surface": {s: {o: counts[s][o] for o in OUTCOMES} | {"tried": sum(counts[s].values())}
                              for s in sorted(counts)},
              "total": {o: total[o] for o in OUTCOMES}, "examples": examples}
    print(f"fuzz: seed {args.seed}, {report['tried']} cases in {elapsed:.0f} s "
          f"({len(ir_inputs)} IR seeds, {len(graphdefs)} GraphDefs, {len(bytecodes)} bytecode files)")
    print(f"  {'surface':10s}" + "".join(f"{o:>11s}" for o in ("tried",) + OUTCOMES))
    for s in sorted(counts):
        row = report["per_surface"][s]
        print(f"  {s:10s}" + "".join(f"{row[o]:>11d}" for o in ("tried",) + OUTCOMES))
    print(f"  {'all':10s}{report['tried']:>11d}" + "".join(f"{total[o]:>11d}" for o in OUTCOMES))
    for key, items in sorted(examples.items()):
        for item in items[:5]:
            print(f"  {key} case {item['index']}: {item['detail'][:300]}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    failing = FAILING + (("unexpected", "invariant") if args.strict else ())
    return 1 if any(total[o] for o in failing) else 0


if __name__ == "__main__":
    sys.exit(main())
