"""-tf-tpu-validate-inputs against TensorFlow 2.21.

TF does not register the pass for Python, but it is the first pass of
``tf-replicated-clustering-bridge-v2``, which TF does register: where our
pass fails, TF's pipeline must fail with the same errors (message and
line:column, in order); where it succeeds, TF's pipeline must not fail in its
input check. The inputs are the TPU programs of :mod:`tpu_bridge_programs`,
variants of them broken in the ways the pass checks, and the lit tests' cases
(but those on which TF's process crashes).
"""
import re

import pytest
from mlir import ir

import tfmlir  # noqa: F401  (registers the dialects)
import tpu_bridge_programs
from conftest import REPO_ROOT, require_tensorflow
from tfmlir import irsafe
from tfmlir.passes import framework

PASS = "tf-tpu-validate-inputs"
BRIDGE = "tf-replicated-clustering-bridge-v2"
_CHECK_WORDS = "bridge input check"

# The replicated program's ops, as TF's graph import writes them.
_R2 = "replicate_2"
_META_2 = "num_replicas = 2 : i64"
_REP_IN = '"tf.TPUReplicatedInput"(%outputs_34, %outputs_36) <{index = -1 : i64, ' \
          'is_mirrored_variable = false, is_packed = false}>'
_IN_IDENTITY = '"tf.Identity"(%outputs_38) {_tpu_input_identity = true, _tpu_replicate = "cluster"'
_OUT_IDENTITY = '"tf.Identity"(%outputs_57) {_tpu_output_identity = true, _tpu_replicate = "cluster"'
_AFTER_OUTPUT = '"tf.Identity"(%outputs_63#0) {device = ""}'
_MUL = '"tf.Mul"(%outputs_40, %outputs_23) {_tpu_replicate = "cluster"'
_SUM = '"tf.Sum"(%outputs_55, %outputs_51) <{keep_dims = false}> {_tpu_replicate = "cluster"'


def _sharding(op_text, data):
    return op_text.replace('_tpu_replicate = "cluster"',
                           f'_XlaSharding = "{data}", _tpu_replicate = "cluster"', 1)


# (name, program, [(old, new)]): each `old` must occur in the program.
VARIANTS = [
    ("more_replicas", _R2, [(_META_2, "num_replicas = 3 : i64")]),
    ("packed_input", _R2, [(_REP_IN, _REP_IN.replace("is_packed = false", "is_packed = true"))]),
    ("input_outside_cluster", _R2, [(_IN_IDENTITY, _IN_IDENTITY.replace(
        ', _tpu_replicate = "cluster"', ""))]),
    ("empty_cluster_name", _R2, [(_MUL, _MUL.replace('"cluster"', '""'))]),
    ("output_from_other_cluster", _R2, [
        (_AFTER_OUTPUT, _AFTER_OUTPUT.replace("{", '{_tpu_replicate = "cluster", ')),
        (_OUT_IDENTITY, _OUT_IDENTITY.replace('"cluster"', '"other"'))]),
    ("output_from_unclustered", _R2, [
        (_AFTER_OUTPUT, _AFTER_OUTPUT.replace("{", '{_tpu_replicate = "cluster", ')),
        (_OUT_IDENTITY, _OUT_IDENTITY.replace(', _tpu_replicate = "cluster"', ""))]),
    ("single_core_tpu", _R2, [(_MUL, _MUL.replace("{", '{_xla_compile_device_type = "TPU", '))]),
    # MAXIMAL on device 3 of 1 core; MAXIMAL on no device; a TUPLE of two for one result.
    ("maximal_bad_device", _R2, [(_MUL, _sharding(_MUL, r"\08\01\1A\01\01\22\01\03"))]),
    ("maximal_no_device", _R2, [(_MUL, _sharding(_MUL, r"\08\01"))]),
    ("tuple_arity", _R2, [(_MUL, _sharding(_MUL, r"\08\02\2A\00\2A\00"))]),
    ("tuple_with_bad_maximal", _R2, [(_SUM, _sharding(_SUM, r"\08\02\2A\06\08\01\22\02\07\00"))]),
    ("sharding_not_a_proto", _R2, [(_MUL, _sharding(_MUL, r"\FF"))]),
    ("strings_without_soft_placement", "automatic_strings",
     [("allow_soft_placement = true", "allow_soft_placement = false")]),
    ("strings_on_tpu", "automatic_strings", [
        ('"tf.AsString"(%outputs_13) <{fill = "", precision = -1 : i64, scientific = false, '
         'shortest = false, width = -1 : i64}> {_tpu_replicate = "cluster", device = ""}',
         '"tf.AsString"(%outputs_13) <{fill = "", precision = -1 : i64, scientific = false, '
         'shortest = false, width = -1 : i64}> {_tpu_replicate = "cluster", '
         'device = "/device:TPU:0"}')]),
]


_LIT = [REPO_ROOT / "tests" / "lit" / "passes" / f"{PASS}{suffix}.mlir"
        for suffix in ("", "-invalid")]
_TF_CRASHES = "TF's process crashes"


def _lit_chunks():
    chunks = {}
    for path in _LIT:
        for k, chunk in enumerate(path.read_text().split("// -----")):
            if _TF_CRASHES not in chunk:
                chunks[f"{path.stem}#{k}"] = chunk
    return chunks


def _inputs():
    inputs = dict(_lit_chunks())
    inputs.update({name: tpu_bridge_programs.get(name) for name in tpu_bridge_programs.PROGRAMS})
    for name, program, edits in VARIANTS:
        text = tpu_bridge_programs.get(program)
        for old, new in edits:
            assert old in text, (name, old)
            text = text.replace(old, new)
        inputs[name] = text
    return inputs


_DIAGNOSTIC = re.compile(r"^-:(\d+):(\d+): (error|note|warning): ", re.M)


# Protobuf's DebugString starts with a line naming one of several links, followed by a random
# number of spaces (so that nobody parses it).
_DEBUG_MARKER = re.compile(r"goo\.gle/\w+ *\n")


def _tf_errors(message):
    """[(line, column, message)] of the errors in TF's exception text."""
    found = []
    matches = list(_DIAGNOSTIC.finditer(message))
    for k, match in enumerate(matches):
        end = matches[k + 1].start() if k + 1 < len(matches) else len(message)
        if match.group(3) == "error":
            found.append((int(match.group(1)), int(match.group(2)),
                          _DEBUG_MARKER.sub("<debug>\n", message[match.end():end].rstrip())))
    return found


def _ours(text):
    """(errors, warnings) of our pass, each [(line, column, message)]."""
    context = ir.Context()
    diagnostics = []

    def keep(diagnostic, severity=None):
        location = str(diagnostic.location)
        match = re.search(r":(\d+):(\d+)\)$", location)
        line, column = (int(match.group(1)), int(match.group(2))) if match else (0, 0)
        message = diagnostic.message
        if message.startswith(PASS + ": "):
            message = message[len(PASS) + 2:]
        message = _DEBUG_MARKER.sub("<debug>\n", message.rstrip())
        diagnostics.append((severity or diagnostic.severity, line, column, message))
        return True

    module = ir.Module.parse(text, context)
    before = str(module)
    with irsafe.DiagnosticHandler(context, keep):
        try:
            framework.run(module, f"builtin.module({PASS})")
        except ir.MLIRError as err:
            # Errors are collected by the pass manager's run; warnings reach the handler.
            for diagnostic in err.error_diagnostics:
                keep(diagnostic, ir.DiagnosticSeverity.ERROR)
    assert str(module) == before  # the pass never changes the IR
    errors = [d[1:] for d in diagnostics if d[0] == ir.DiagnosticSeverity.ERROR]
    warnings = [d[1:] for d in diagnostics if d[0] == ir.DiagnosticSeverity.WARNING]
    return errors, warnings


@pytest.fixture(scope="module")
def tf_results():
    require_tensorflow()
    from tfmlir.testing.tf_oracle import run_tf_pipelines

    inputs = _inputs()
    names = sorted(inputs)
    results = run_tf_pipelines([(inputs[name], BRIDGE) for name in names])
    return inputs, dict(zip(names, results))


@pytest.mark.parametrize("name", sorted(list(tpu_bridge_programs.PROGRAMS)
                                        + [v[0] for v in VARIANTS] + list(_lit_chunks())))
def test_matches_tf(tf_results, name):
    inputs, results = tf_results
    ours, _ = _ours(inputs[name])
    result = results[name]
    theirs = [] if result["ok"] else _tf_errors(result["error"])
    if not any(_CHECK_WORDS in message for _, _, message in theirs):
        theirs = []  # TF failed later in the pipeline, not in its input check
    assert ours == theirs


def test_variants_fail():
    # Every variant but the ones TF accepts is broken on purpose.
    accepted = {"sharding_not_a_proto"}
    for name, _, _ in VARIANTS:
        errors, _ = _ours(_inputs()[name])
        assert bool(errors) == (name not in accepted), name
