"""The differential harness: tfmlir's Python passes against TensorFlow's C++ passes.

A :class:`Row` names a pipeline (TF's anchoring: function passes nested in
``func.func``), the pass flags whose lit tests feed it inputs, extra input
sets, and what is known about TF on some inputs. ``test_pass_diff.py`` runs
every row on its inputs in TF (one child process for the whole table,
:mod:`tfmlir.testing.tf_oracle`) and in tfmlir; the results must match:

* both succeed and ``canonical(tf_out) == canonical(ours)`` (generic form, no
  locations), or
* both fail and TF's first error message is ours (without the ``<pass>: ``
  prefix tfmlir's framework adds; TF puts locations that are not
  file:line:col in front of the message).

Inputs of every row: the chunks of its flags' lit tests
(``tests/lit/passes/<flag>*.mlir`` without ``-invalid`` files, directives
stripped), TF 2.21's reference samples, TF's output for
``tests/python/tf_cases.py`` and the models of :mod:`tfmlir.testing.corpus`;
plus the row's extra sets (``tpu``: corpus models with some ops marked for
single-core TPU compilation; the sets of :data:`GENERATED_SETS`: programs a
generator script makes with TensorFlow once per test process). A new
differential test is a new row.
"""
import atexit
import importlib
import json
import shutil
import re
import tempfile
from dataclasses import dataclass, field
from typing import Callable, Dict, Optional, Tuple

import tf_cases
from conftest import REPO_ROOT, SAMPLES_DIR, describe_failure, read_exact, run_python

LIT_DIR = REPO_ROOT / "tests" / "lit" / "passes"
CORPUS_MODELS = ("resnet50", "transformer_encoder", "lstm", "tf1_v1_control_flow")
TPU_MARKED_MODELS = ("resnet50", "transformer_encoder")

# Extra input sets generated with TensorFlow: set name -> generator module beside this
# file. The module lists its programs in PROGRAMS (known without TensorFlow), writes
# them when run as ``python <module>.py OUTDIR`` (OUTDIR/manifest.json: name ->
# {"file": ...}), and ``finish(name, text)`` gives the input a program stands for.
GENERATED_SETS = {"replicate": "replicate_programs"}

_DIRECTIVE = re.compile(r"^\s*// *(RUN|CHECK|PRESERVE|ISLANDS|expected-)")


@dataclass(frozen=True)
class Row:
    """One differential test: `pipeline` (TF's anchoring) run by TF and by tfmlir.

    `flags`: passes whose lit files give inputs (default: the pipeline's passes).
    `extra`: extra input sets ("tpu"). `tf_crashes`: {marker in the input: message tfmlir
    must fail with} -- TF's process dies there, so TF is not run. `tf_cannot_run(text)`:
    why TF cannot run an input (tfmlir must then succeed), or None.
    """
    name: str
    pipeline: str
    flags: Tuple[str, ...] = ()
    extra: Tuple[str, ...] = ()
    tf_crashes: Dict[str, str] = field(default_factory=dict)
    tf_cannot_run: Optional[Callable[[str], Optional[str]]] = None

    def lit_flags(self):
        if self.flags:
            return self.flags
        return tuple(dict.fromkeys(re.findall(r"(tf-[a-z0-9-]+)", self.pipeline)))

    def known_crash(self, text):
        for marker, message in self.tf_crashes.items():
            if marker in text:
                return message
        return None


# -- inputs -------------------------------------------------------------------

def lit_inputs(flags):
    inputs = {}
    for flag in flags:
        for path in sorted(LIT_DIR.glob(f"{flag}*.mlir")):
            if path.name.endswith("-invalid.mlir") or not (path.stem == flag or path.stem.startswith(flag + "-")):
                continue
            for index, chunk in enumerate(read_exact(path).split("// -----")):
                lines = [line for line in chunk.splitlines() if not _DIRECTIVE.match(line)]
                inputs[f"lit:{path.name}#{index}"] = "\n".join(lines) + "\n"
    return inputs


def sample_names():
    return sorted(p.name for p in SAMPLES_DIR.glob("*.mlir")) if SAMPLES_DIR.is_dir() else []


def mark_single_core_tpu(text, every=5):
    """Adds ``_xla_compile_device_type = "TPU"`` to the op of every `every`-th single-op island."""
    count = [0]

    def mark(match):
        count[0] += 1
        if count[0] % every:
            return match.group(0)
        return match.group(1) + '{_xla_compile_device_type = "TPU", '

    return re.sub(r'(tf_executor\.island(?:\([^)]*\))? wraps "[^"]+"\([^)]*\)(?: <\{.*?\}>)? )\{', mark, text)


def input_ids(row):
    ids = sorted(lit_inputs(row.lit_flags()))
    ids += [f"sample:{name}" for name in sample_names()]
    ids += [f"tf:{name}" for name in sorted(tf_cases.CASES)]
    ids += [f"corpus:{name}" for name in CORPUS_MODELS]
    if "tpu" in row.extra:
        ids += [f"tpu:{name}" for name in TPU_MARKED_MODELS]
    for extra in row.extra:
        if extra in GENERATED_SETS:
            ids += [f"{extra}:{name}" for name in sorted(_generator(extra).PROGRAMS)]
    return ids


def _generator(kind):
    return importlib.import_module(GENERATED_SETS[kind])


_GENERATED = {}


def generated_programs(kind):
    """{name: text} of a generated set, made by its script in a TensorFlow subprocess once per
    process (like the ``tf_outputs`` fixture)."""
    if kind not in _GENERATED:
        module = _generator(kind)
        out = tempfile.mkdtemp(prefix=f"tfmlir-{kind}-")
        atexit.register(shutil.rmtree, out, True)
        proc = run_python([module.__file__, out])
        if proc.returncode != 0:
            raise RuntimeError(f"generating the '{kind}' inputs failed:\n" + describe_failure(proc))
        with open(f"{out}/manifest.json") as f:
            manifest = json.load(f)
        _GENERATED[kind] = {name: read_exact(f"{out}/{entry['file']}")
                            for name, entry in manifest.items()}
    return _GENERATED[kind]


_LIT_CACHE = {}


def input_text(input_id, tf_outputs=None):
    kind, name = input_id.split(":", 1)
    if kind == "lit":
        if not _LIT_CACHE:
            _LIT_CACHE.update(lit_inputs([p.stem for p in LIT_DIR.glob("*.mlir")]))
        return _LIT_CACHE[input_id]
    if kind == "sample":
        return read_exact(SAMPLES_DIR / name)
    if kind == "tf":
        out, manifest = tf_outputs
        return read_exact(out / manifest[name]["file"])
    from tfmlir.testing import corpus
    if kind == "corpus":
        return corpus.get(name)
    if kind == "tpu":
        return mark_single_core_tpu(corpus.get(name))
    if kind in GENERATED_SETS:
        return _generator(kind).finish(name, generated_programs(kind)[name])
    raise KeyError(input_id)


# -- running and comparing ---------------------------------------------------------

def run_ours(text, pipeline):
    """``{"ok": True, "text": generic form}`` or ``{"ok": False, "errors": [messages]}``."""
    from tfmlir.testing.tf_oracle import run_tfmlir_pipeline

    return run_tfmlir_pipeline(text, pipeline)


def run_tf_table(rows, tf_outputs):
    """TF's result for every (row name, input id) TF can run, all from one child process."""
    from tfmlir.testing.tf_oracle import run_tf_pipelines

    keys, jobs = [], []
    for row in rows:
        for input_id in input_ids(row):
            text = input_text(input_id, tf_outputs)
            if row.known_crash(text) or (row.tf_cannot_run and row.tf_cannot_run(text)):
                continue
            keys.append((row.name, input_id))
            jobs.append((text, row.pipeline))
    return dict(zip(keys, run_tf_pipelines(jobs, timeout=1800)))


def compare(row, input_id, text, theirs, fail, skip):
    """Checks tfmlir against TF's result `theirs` on one input; `fail`/`skip` report."""
    from tfmlir.testing.tf_oracle import canonical, strip_pass_prefix

    ours = run_ours(text, row.pipeline)
    crash = row.known_crash(text)
    if crash is not None:
        assert not ours["ok"], "TF crashes here; tfmlir must fail with a diagnostic"
        assert any(crash in m for m in ours["errors"]), ours["errors"]
        return
    reason = row.tf_cannot_run(text) if row.tf_cannot_run else None
    if reason is not None:
        assert ours["ok"], ours  # still must work in tfmlir
        skip(f"TF not run: {reason}")
        return
    if theirs["ok"] and ours["ok"]:
        expected = canonical(theirs["text"])
        if expected != ours["text"]:
            from conftest import text_diff
            fail(f"{row.name} on {input_id} differs from TF:\n" + text_diff(expected, ours["text"]))
        return
    if not theirs["ok"] and not ours["ok"]:
        tf_errors = re.findall(r"error: (.*)", theirs["error"])
        assert tf_errors, theirs["error"]
        ours_first = strip_pass_prefix(ours["errors"][0], row.lit_flags())
        assert tf_errors[0] == ours_first or tf_errors[0].endswith("): " + ours_first), (
            tf_errors[0], ours_first)
        return
    if theirs["ok"]:
        fail(f"TF succeeds but tfmlir fails: {ours['errors']}")
    else:
        fail(f"tfmlir succeeds but TF fails: {theirs['error'][:2000]}")
