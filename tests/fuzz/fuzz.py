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
* ``attrs``: the IR seeds that verify, with attribute values of their (valid)
  ops replaced by hostile ones -- wrong kinds, extreme integers, huge, empty
  and non-UTF-8 strings, nested arrays and dictionaries, dense values of the
  wrong type or size, symbol references to missing functions,
  ``#tf_type.shape`` with overflowing or negative dims -- or such attributes
  added, or attributes dropped; then as ``ir``;
* ``tpu-graphdef``: small TPU GraphDefs (``tpu_seeds.py``: ``tpu.rewrite`` /
  ``replicate``, outside compilation, a variable; built once by TensorFlow and
  cached) with TPUReplicateMetadata's attributes, ``_tpu_replicate`` cluster
  names, ``_xla_outside_compilation``, TPUReplicatedInput/Output counts,
  device strings and op kinds mutated, through the importer and
  ``tf-tpu-bridge{v1-compat=true}`` (as ``runtime.GraphSession`` bridges), some
  into a ``runtime.Session`` (built; a few also run);
* ``tpu-bridged``: those programs after the bridge with ``_TPUCompileMlir``'s
  metadata proto (fields set to extreme values, bytes changed) and
  ``mlir_module`` text, TPUExecute operand counts and device strings
  mutated, into a ``runtime.Session`` (built; a few also run); the first
  TPU case of a worker is preceded by an uncounted warm-up (the runtime's
  TensorFlow child and XLA client start once per worker);
* ``framework``: random misuse of the pass framework (``framework_calls.py``).

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

SHARES = {"ir": 0.42, "graphdef": 0.21, "bytecode": 0.04, "api": 0.13, "attrs": 0.07,
          "tpu-graphdef": 0.04, "tpu-bridged": 0.04, "framework": 0.05}
OUTCOMES = ("ok", "error", "unexpected", "invariant", "hang", "crash")
FAILING = ("hang", "crash")
TPU_SURFACES = ("tpu-graphdef", "tpu-bridged")
WARMUP_TIMEOUT = 300.0
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


def derived_seeds(ir_inputs, valid=None):
    """(bytecode, graphdefs) made from the IR seeds that parse / export; the seeds that
    parse and verify are appended to `valid`."""
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
            if valid is not None:
                valid.append(text)
            if len(bytecodes) < 40:
                out = io.BytesIO()
                module.operation.write_bytecode(out)
                bytecodes.append(out.getvalue())
            try:
                graphdefs.append(exporters.export_graph_def(module))
            except Exception:  # noqa: BLE001 - not every seed exports; that is fine here
                continue
    return bytecodes, graphdefs


def tpu_seeds():
    """[(name, graphdef bytes, {"feeds", "fetches"}, bridged MLIR text or None)]: small TPU
    programs built by TensorFlow (``tpu_seeds.py`` in a child process, cached under
    ``build/`` by the generator's hash) and bridged by tfmlir's ``tf-tpu-bridge{v1-compat=true}``."""
    import hashlib

    generator = HERE / "tpu_seeds.py"
    digest = hashlib.sha1(generator.read_bytes()).hexdigest()[:12]
    out = Path(os.environ.get("TFMLIR_CORPUS_DIR") or REPO / "build") / f"fuzz_tpu_seeds-{digest}"
    if not (out / "done").exists():
        out.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
        proc = subprocess.run([sys.executable, str(generator), str(out)], capture_output=True, text=True,
                              timeout=600, env=env)
        if proc.returncode != 0:
            print(f"fuzz: no TPU seeds (TensorFlow failed): {proc.stderr[-1000:]}", file=sys.stderr)
            return []
        (out / "done").write_text("ok")
    from tfmlir import print_ir
    from tfmlir.runtime import graph_session

    seeds = []
    for pb_path in sorted(out.glob("*.pb")):
        data = pb_path.read_bytes()
        meta = json.loads(pb_path.with_suffix(".json").read_text())
        bridged = None
        try:
            module, context = graph_session.GraphSession(data).bridged_module(
                [tuple(f) for f in meta["feeds"]], meta["fetches"], [])
            with context:
                bridged = print_ir(module).encode()
        except Exception as err:  # noqa: BLE001 - a seed that does not bridge is still a GraphDef seed
            print(f"fuzz: TPU seed {pb_path.stem} does not bridge: {err}", file=sys.stderr)
        seeds.append((pb_path.stem, data, meta, bridged))
    return seeds


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
    from tfmlir.tfcore import protobuf as pb

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


_ATTR_KEY = re.compile(rb'(?:(?<=\{)|(?<=, ))([A-Za-z_][\w.$]*|"[^"\n]*") = ')
_HOSTILE_ATTRS = [
    # wrong kinds
    b'"x"', b'""', b'"\\FF\\FE"', b'"' + b"a" * 70_000 + b'"', b'"\\00"', b"unit", b"true", b"f32",
    b"tensor<*xf32>", b"!tf_type.resource", b"none", b"i1", b"@missing", b"@main", b'@"\\FF"', b"@a::@b",
    # extreme integers
    b"9223372036854775807 : i64", b"-9223372036854775808 : i64", b"-1 : i64", b"0 : i64",
    b"2147483648 : i64", b"-2147483648 : i32", b"4294967295 : ui32", b"1 : i1", b"-1",
    b"0x7FC00000 : f32", b"1.0e308 : f64",
    # arrays where scalars are expected, nested arrays and dictionaries
    b"[]", b"[1, 2, 3]", b"[-1 : i64, 9223372036854775807 : i64]", b"[[[[[1]]]]]", b'["a", @f, [f32]]',
    b'{a = {b = [1, {c = "\\FF"}]}}', b"{}", b"[" * 60 + b"]" * 60,
    b"array<i64: -1, 9223372036854775807>", b"array<i32: 1000000, 0>", b"array<i32>", b"array<i32: -1, 2>",
    # shapes
    b"#tf_type.shape<-5>", b"#tf_type.shape<9223372036854775807x9223372036854775807>",
    b"#tf_type.shape<?x-2>", b"#tf_type.shape<*>", b"#tf_type.shape<>",
    b"#tf_type.shape<4294967296x4294967296x4294967296>", b"#tf_type.shape<0x0x0>",
    b"[#tf_type.shape<-1>, #tf_type.shape<3037000500x3037000500>]",
    # dense values of the wrong type or size
    b"dense<[1, 2]> : tensor<2xi64>", b"dense<1.5> : tensor<f32>", b'dense<"x"> : tensor<!tf_type.string>',
    b"dense<> : tensor<0xf32>", b"dense<1> : tensor<1000000000000xi8>", b"dense<0> : tensor<3037000500x3037000500xi64>",
    b"dense<true> : tensor<i1>", b"dense<(1.0, 2.0)> : tensor<complex<f32>>", b"dense_resource<blob> : tensor<4xf32>",
    b"dense<0> : tensor<2x!tf_type.qint8>", b"sparse<[[0]], [1.0]> : tensor<4xf32>",
    # tf_type attributes
    b"#tf_type.func<@missing, {}>", b'#tf_type.func<@"", {a = 1}>', b'#tf_type<tensor_proto : "0x00FF">',
    b'#tf_type<tensor_proto : "0x">', b'#tf_type.placeholder<"x">', b"#tf_type.shape<1x2> : i32",
    b"affine_map<(d0) -> (d0)>", b"#unknown.attr<1>", b"loc(unknown)", b"distinct[0]<unit>",
]
_ADDED_KEYS = [b"T", b"dtype", b"shape", b"value", b"N", b"device", b"_class", b"f", b"then_branch", b"body",
               b"operandSegmentSizes", b"resultSegmentSizes", b"_tpu_replicate", b"_xla_outside_compilation",
               b"output_shapes", b"Tout", b"sym_name", b"function_type", b"num_replicas", b"n", b"is_stateless"]


def _value_end(data, start):
    """End of the attribute value at `start`: the first ',' or '}' outside brackets and strings."""
    depth, i, n = 0, start, len(data)
    while i < n:
        c = data[i]
        if c == 0x22:  # '"'
            i += 1
            while i < n and data[i] != 0x22:
                i += 2 if data[i] == 0x5C else 1
        elif c == 0x2D and i + 1 < n and data[i + 1] == 0x3E:  # '->'
            i += 1
        elif c in b"([{<":
            depth += 1
        elif c in b")]}>":
            if depth == 0:
                return i
            depth -= 1
        elif c in b",\n" and depth == 0:
            return i
        i += 1
    return n


def mutate_attrs(rng, data):
    """Attribute values of valid ops replaced by hostile ones (or hostile attributes added,
    or attributes dropped); everything else of the input is kept."""
    data = bytearray(data)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        found = list(_ATTR_KEY.finditer(data))
        kind = rng.random()
        if found and kind < 0.75:
            m = rng.choice(found)
            end = _value_end(data, m.end())
            data[m.end():end] = rng.choice(_HOSTILE_ATTRS)
        elif found and kind < 0.85:
            m = rng.choice(found)
            end = _value_end(data, m.end())
            if end < len(data) and data[end:end + 2] == b", ":
                end += 2
            del data[m.start():end]
        else:
            opens = [m.end() for m in re.finditer(rb"(?:\) |<)\{", data)]
            if not opens:
                break
            pos = rng.choice(opens)
            data[pos:pos] = rng.choice(_ADDED_KEYS) + b" = " + rng.choice(_HOSTILE_ATTRS) + b", "
    return bytes(data)


def _varint(value):
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _mlir_string_decode(body):
    out, i = bytearray(), 0
    while i < len(body):
        if body[i] == 0x5C and i + 1 < len(body):
            nxt = body[i + 1:i + 3]
            if re.fullmatch(rb"[0-9A-Fa-f]{2}", nxt):
                out.append(int(nxt, 16))
                i += 3
                continue
            out.append({b"n": 10, b"t": 9}.get(body[i + 1:i + 2], body[i + 1]))
            i += 2
            continue
        out.append(body[i])
        i += 1
    return bytes(out)


def _mlir_string_encode(raw):
    return b"".join(bytes([c]) if 0x20 <= c < 0x7F and c not in b'"\\' else b"\\%02X" % c for c in raw)


_STRING_ATTR = rb'(%s = ")((?:[^"\\]|\\.)*)(")'
_DEVICES = [b"", b"x", b"/job:localhost/replica:0/task:0/device:TPU:99999999999", b"/device:TPU:-1",
            b"/job:worker/replica:0/task:0/device:CPU:0", b"\\FF", b"/job:localhost/replica:0/task:0/device:GPU:0",
            b"/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0", b"TPU_REPLICATED_CORE_99"]


def mutate_bridged(rng, data, pool):
    """Structure-aware edits of a bridged program: _TPUCompileMlir's metadata proto
    (num_replicas / num_cores_per_replica / args / retvals fields set to extreme values,
    bytes flipped or cut), its mlir_module text (mutated as the IR surface mutates text),
    TPUExecute operands dropped or duplicated, device strings, plus plain text edits."""
    data = bytearray(data)
    kind = rng.randrange(7)
    if kind <= 1:
        m = re.search(_STRING_ATTR % rb"metadata", data)
        if m:
            raw = bytearray(_mlir_string_decode(m.group(2)))
            if kind == 0:
                # Protobuf's last occurrence wins: append fields with hostile values.
                for _ in range(rng.choice([1, 1, 2])):
                    field = rng.choice([3, 4, 1, 2, 5, 6, 8, 9, 15, 16, 21])  # num_replicas=3, cores=4, ...
                    value = rng.choice([0, 1, 2, 3, 8, 2**31, 2**32 + 1, 2**63 - 1, -1, -2**63, 10**6])
                    raw += _varint(field << 3) + _varint(value)
            else:
                raw = bytearray(mutate_bytes(rng, bytes(raw)))
            data[m.start(2):m.end(2)] = _mlir_string_encode(bytes(raw))
    elif kind == 2:
        m = re.search(_STRING_ATTR % rb"mlir_module", data)
        if m:
            inner = _mlir_string_decode(m.group(2))
            inner = mutate_attrs(rng, inner) if rng.random() < 0.5 else mutate_text(rng, inner, [inner])
            data[m.start(2):m.end(2)] = _mlir_string_encode(inner)
    elif kind == 3:
        found = list(re.finditer(rb'"tf\.TPUExecute(?:AndUpdateVariables)?"\(([^)]*)\)( \{[^\n]*\})? : \(([^)]*)\)', data))
        if found:
            m = rng.choice(found)
            operands = [o.strip() for o in m.group(1).split(b",") if o.strip()]
            types = [t.strip() for t in re.split(rb", (?=tensor|!)", m.group(3)) if t.strip()]
            if operands and len(operands) == len(types):
                i = rng.randrange(len(operands))
                if rng.random() < 0.5:
                    del operands[i], types[i]
                else:
                    operands.insert(i, operands[i])
                    types.insert(i, types[i])
                data[m.start(3):m.end(3)] = b", ".join(types)
                data[m.start(1):m.end(1)] = b", ".join(operands)
    elif kind == 4:
        found = list(re.finditer(_STRING_ATTR % rb"device", data))
        if found:
            m = rng.choice(found)
            data[m.start(2):m.end(2)] = rng.choice(_DEVICES)
    elif kind == 5:
        return mutate_attrs(rng, bytes(data))
    else:
        return mutate_text(rng, bytes(data), pool)
    return bytes(data)


def mutate_tpu_graphdef(rng, data, pool):
    """Structural edits of a TPU GraphDef: TPUReplicateMetadata's attributes, the
    _tpu_replicate cluster names, _xla_outside_compilation, TPUReplicatedInput/Output
    counts, device strings; byte edits and the generic GraphDef edits sometimes."""
    from tfmlir.tfcore import protobuf as pb

    if rng.random() < 0.1:
        return mutate_bytes(rng, data)
    if rng.random() < 0.15:
        return mutate_graphdef(rng, data, pool)
    try:
        graph = pb.decode("GraphDef", data)
        nodes = list(graph.node)

        def attr_i(v):
            return pb.Message("AttrValue", i=v)

        def attr_s(v):
            return pb.Message("AttrValue", s=v)

        for _ in range(rng.choice([1, 1, 2, 3])):
            kind = rng.randrange(7)
            if kind == 0:
                metas = [n for n in nodes if n.op == "TPUReplicateMetadata"]
                if metas:
                    node = rng.choice(metas)
                    attrs = dict(node.attr)
                    key = rng.choice(["num_replicas", "num_cores_per_replica", "topology", "device_assignment",
                                      "computation_shape", "use_tpu", "padding_map", "step_marker_location",
                                      "allow_soft_placement", "use_spmd_for_xla_partitioning"])
                    if key in ("num_replicas", "num_cores_per_replica"):
                        value = attr_i(rng.choice([0, -1, 2, 3, 8, 2**31, 2**62, -2**63]))
                    elif key == "topology":
                        value = attr_s(rng.choice([b"", b"\xff\xfe", b"\x08\x02" * 10, bytes(range(40))]))
                    elif key in ("device_assignment", "computation_shape"):
                        value = pb.Message("AttrValue", list=pb.Message(
                            "AttrValue.ListValue", i=[rng.choice([-1, 0, 1, 2**40]) for _ in range(rng.randrange(6))]))
                    else:
                        value = _random_attr_value(rng, pb)
                    if rng.random() < 0.15:
                        attrs.pop(key, None)
                    else:
                        attrs[key] = value
                    node.attr = attrs
            elif kind == 1:
                tagged = [n for n in nodes if "_tpu_replicate" in dict(n.attr)]
                if tagged:
                    node = rng.choice(tagged)
                    attrs = dict(node.attr)
                    if rng.random() < 0.25:
                        del attrs["_tpu_replicate"]
                    else:
                        attrs["_tpu_replicate"] = rng.choice([
                            attr_s(b"other_cluster"), attr_s(b""), attr_s(b"\xff\xfe"), attr_i(3),
                            attr_s(b"cluster" * 200)])
                    node.attr = attrs
            elif kind == 2:
                node = rng.choice(nodes)
                attrs = dict(node.attr)
                attrs["_xla_outside_compilation"] = rng.choice([attr_s(b"0"), attr_s(b""), attr_s(b"\xff"), attr_i(1)])
                if rng.random() < 0.5:
                    attrs["_tpu_replicate"] = attr_s(b"cluster")
                node.attr = attrs
            elif kind == 3:
                reps = [n for n in nodes if n.op in ("TPUReplicatedInput", "TPUReplicatedOutput")]
                if reps:
                    node = rng.choice(reps)
                    attrs = dict(node.attr)
                    if rng.random() < 0.5:
                        key = "N" if node.op == "TPUReplicatedInput" else "num_replicas"
                        attrs[key] = attr_i(rng.choice([0, 1, 3, -1, 2**31, 1000000]))
                    else:
                        inputs = list(node.input)
                        if inputs and rng.random() < 0.5:
                            inputs.pop(rng.randrange(len(inputs)))
                        elif inputs:
                            inputs.append(rng.choice(inputs))
                        node.input = inputs
                    node.attr = attrs
            elif kind == 4:
                node = rng.choice(nodes)
                node.device = rng.choice([d.decode("utf-8", "replace") for d in _DEVICES])
            elif kind == 5:
                node = rng.choice(nodes)
                other = rng.choice(nodes)
                node.op = rng.choice(["TPUReplicateMetadata", "TPUCompilationResult", "TPUReplicatedInput",
                                      "TPUReplicatedOutput", "TPUPartitionedCall", "TPUExecute",
                                      "_TPUCompileMlir", "TPUCompile", other.op])
            else:
                # a second metadata node for the cluster, or a copied node
                src = rng.choice([n for n in nodes if n.op == "TPUReplicateMetadata"] or nodes)
                copy = pb.decode("NodeDef", pb.encode(src))
                copy.name = copy.name + rng.choice(["_dup", ""])
                nodes.append(copy)
        graph.node = nodes
        return pb.encode(graph)
    except Exception:  # noqa: BLE001 - the mutation itself failed: fall back to bytes
        return mutate_bytes(rng, data)


# --------------------------------------------------------------------------- cases

def make_cases(rng, count, ir_inputs, bytecodes, graphdefs, pass_names, valid_ir=(), tpu=(), only=None):
    surfaces = [s for s in SHARES if not only or s in only]
    weights = [SHARES[s] for s in surfaces]
    bridged = [seed for seed in tpu if seed[3] is not None]
    for index in range(count):
        surface = rng.choices(surfaces, weights)[0]
        if (surface == "bytecode" and not bytecodes or surface == "graphdef" and not graphdefs
                or surface == "attrs" and not valid_ir or surface == "tpu-graphdef" and not tpu
                or surface == "tpu-bridged" and not bridged):
            surface = "ir"
        case = {"index": index, "surface": surface}
        if surface in ("ir", "attrs"):
            if surface == "ir":
                data = mutate_text(rng, rng.choice(ir_inputs), ir_inputs)
            else:
                data = mutate_attrs(rng, rng.choice(valid_ir))
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
        elif surface == "tpu-graphdef":
            _, graph, meta, _ = rng.choice(tpu)
            data = mutate_tpu_graphdef(rng, graph, [seed[1] for seed in tpu])
            case.update(feeds=meta["feeds"], fetches=meta["fetches"], session=rng.random() < 0.3)
            case["execute"] = case["session"] and rng.random() < 0.25
        elif surface == "tpu-bridged":
            _, _, meta, text = rng.choice(bridged)
            data = mutate_bridged(rng, text, [seed[3] for seed in bridged])
            case.update(feeds=meta["feeds"], fetches=meta["fetches"], execute=rng.random() < 0.1)
        elif surface == "framework":
            data = b""
            case["seed"] = rng.randrange(2**32)
            case["unregistered"] = rng.random() < 0.3
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
        self.warm = False  # has started the runtime (TensorFlow child, XLA client)

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
    parser.add_argument("--only", help="comma-separated surfaces to run (default: all, in SHARES' shares)")
    parser.add_argument("--strict", action="store_true",
                        help="also fail on unexpected exceptions and invariant violations")
    args = parser.parse_args(argv)

    start = time.monotonic()
    rng = random.Random(args.seed)
    sys.path.insert(0, str(HERE))
    from tfmlir import passes

    pass_names = sorted(passes.registered_passes())
    ir_inputs = ir_seeds()
    valid_ir = []
    bytecodes, graphdefs = derived_seeds(ir_inputs, valid_ir)
    # The attribute strategy edits code, not the lit tests' CHECK comments.
    valid_ir = [b"\n".join(ln for ln in text.split(b"\n") if not ln.lstrip().startswith(b"//")) for text in valid_ir]
    only = set(args.only.split(",")) if args.only else None
    tpu = tpu_seeds() if not only or only & {"tpu-graphdef", "tpu-bridged"} else []
    cases = make_cases(rng, args.cases, ir_inputs, bytecodes, graphdefs, pass_names, valid_ir, tpu, only)
    warmup = next(({"surface": "warmup", "data": base64.b64encode(seed[3]).decode(), "feeds": seed[2]["feeds"],
                    "fetches": seed[2]["fetches"], "execute": True} for seed in tpu if seed[3] is not None), None)

    counts = collections.defaultdict(collections.Counter)
    seconds = collections.Counter()  # worker seconds per surface
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
            if case["surface"] in TPU_SURFACES and not workers[slot].warm and warmup is not None:
                # The runtime's start (TensorFlow in the legalization child, XLA's client) takes
                # seconds to a minute on a loaded machine: once per worker, not in a case's time.
                outcome, detail = workers[slot].run(warmup, WARMUP_TIMEOUT)
                workers[slot].warm = outcome in ("ok", "error")
                if not workers[slot].warm:
                    print(f"fuzz: runtime warm-up: {outcome}: {detail[:300]}", file=sys.stderr)
                    workers[slot].kill()
                    workers[slot] = Worker()
            t0 = time.monotonic()
            outcome, detail = workers[slot].run(case, args.case_timeout)
            with lock:
                seconds[case["surface"]] += time.monotonic() - t0
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
              "bytecode": len(bytecodes), "graphdef": len(graphdefs), "valid_ir": len(valid_ir),
              "tpu": len(tpu)},
              "tried": sum(total.values()),
              "per_surface": {s: {o: counts[s][o] for o in OUTCOMES} | {"tried": sum(counts[s].values()),
                                  "worker_seconds": round(seconds[s], 1)} for s in sorted(counts)},
              "total": {o: total[o] for o in OUTCOMES}, "examples": examples}
    print(f"fuzz: seed {args.seed}, {report['tried']} cases in {elapsed:.0f} s "
          f"({len(ir_inputs)} IR seeds, {len(graphdefs)} GraphDefs, {len(bytecodes)} bytecode files, "
          f"{len(tpu)} TPU programs)")
    print(f"  {'surface':13s}" + "".join(f"{o:>11s}" for o in ("tried",) + OUTCOMES) + "  worker s")
    for s in sorted(counts):
        row = report["per_surface"][s]
        print(f"  {s:13s}" + "".join(f"{row[o]:>11d}" for o in ("tried",) + OUTCOMES)
              + f"{row['worker_seconds']:>10.0f}")
    print(f"  {'all':13s}{report['tried']:>11d}" + "".join(f"{total[o]:>11d}" for o in OUTCOMES))
    for key, items in sorted(examples.items()):
        for item in items[:5]:
            print(f"  {key} case {item['index']}: {item['detail'][:300]}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    failing = FAILING + (("unexpected", "invariant") if args.strict else ())
    return 1 if any(total[o] for o in failing) else 0


if __name__ == "__main__":
    sys.exit(main())
