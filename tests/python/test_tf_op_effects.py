"""Side effects of TF ops: tfmlir (generated ODS in C++, the Python analysis)
against TensorFlow 2.21's own classification.

The facts come from ``third_party/tensorflow/tf_op_effects.json``
(``scripts/dump_tf_effects.py`` observed them with TF's passes); the ODS and
the Python table are generated from it by ``scripts/gen_tf_ops.py``.

* Every probed op, unused, survives upstream ``canonicalize`` exactly when it
  survives TF's (no op TF models as effectful is deleted), and two copies of
  every op with writes or unknown effects survive ``cse``.
* The probe modules of the dump script give the same graphs under tfmlir's
  ``tf-executor-break-up-islands`` / ``tf-executor-graph-pruning`` as under
  TF's (TF run in a subprocess).
* The generated files are up to date with the snapshot, and the snapshot with
  the installed TensorFlow (regenerate and diff).
"""
import importlib.util
import json
import subprocess
import sys

import pytest

import tfmlir  # noqa: F401  (registers the dialects)
from mlir import ir, passmanager

from conftest import REPO_ROOT, have_tensorflow

EFFECTS_JSON = REPO_ROOT / "third_party" / "tensorflow" / "tf_op_effects.json"

def _dump_module():
    spec = importlib.util.spec_from_file_location("dump_tf_effects",
                                                  REPO_ROOT / "scripts" / "dump_tf_effects.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def effects():
    with open(EFFECTS_JSON) as f:
        return json.load(f)["ops"]


@pytest.fixture(scope="module")
def instances(effects):
    from tfmlir.testing.op_instances import OpInstance
    return {name: OpInstance.from_json(name, e["instance"])
            for name, e in sorted(effects.items()) if "instance" in e}


def _surviving(text, pipeline):
    """{function name: set of tf op names} after running `pipeline`."""
    with ir.Context():
        module = ir.Module.parse(text)
        passmanager.PassManager.parse(pipeline).run(module.operation)
        out = {}
        for func in module.body.operations:
            if func.operation.name != "func.func":
                continue
            names = set()

            def visit(op, names=names):
                if op.name.startswith("tf."):
                    names.add(op.name)
                return ir.WalkResult.ADVANCE

            func.operation.walk(visit)
            out[ir.StringAttr(func.attributes["sym_name"]).value] = names
        return out


def test_snapshot_covers_tf_ods_ops(effects):
    facts = json.load(open(REPO_ROOT / "third_party" / "tensorflow" / "tf_ods_ops.json"))["ops"]
    registry = {op["name"]: op for op in json.load(
        open(REPO_ROOT / "third_party" / "tensorflow" / "op_registry.json"))["ops"]}
    assert set(effects) == set(facts)
    probed = [n for n, e in effects.items() if "observed" in e]
    assert len(probed) >= 800
    # What is not probed are region ops and ops calling functions whose
    # signatures the probes cannot satisfy; their effects are those of their
    # regions/callees in TF's analysis too.
    for name, entry in effects.items():
        if "observed" not in entry:
            calls = any("SymbolRefAttr" in t for t in facts[name]["stored"].values()) or any(
                a["type"] in ("func", "list(func)") for a in registry.get(name[3:], {}).get("attrs", []))
            traits = facts[name]["traits"]
            assert traits["regions"] or traits["terminator"] or calls, name


def test_the_issue_ops_are_effectful(effects):
    # Registry-stateless ops that TF's ODS gives effects: never Pure.
    for name in ("tf.Assign", "tf.DebugIdentity", "tf.InitializeTable",
                 "tf.InitializeTableFromTextFile", "tf.LookupTableFind", "tf.LookupTableSize",
                 "tf.TPUCompilationResult", "tf.TPUPartitionedCall", "tf.TPUReplicateMetadata"):
        assert not effects[name]["model"]["pure"], name
    assert effects["tf.TPUCompilationResult"]["model"]["must_execute"]
    assert effects["tf.AssignVariableOp"]["model"]["operands"] == {"0": "write"}
    assert effects["tf.ReadVariableOp"]["model"]["operands"] == {"0": "read"}
    must = [n for n, e in effects.items() if e["model"]["must_execute"]]
    assert len(must) >= 45


def test_allocated_results_follow_no_variadic_result_group(effects):
    # The Python analysis takes an allocated result's index as its ODS group.
    facts = json.load(open(REPO_ROOT / "third_party" / "tensorflow" / "tf_ods_ops.json"))["ops"]
    for name, entry in effects.items():
        for group in entry["model"]["results"]:
            earlier = facts[name]["results"][:int(group)]
            assert not any(r["variadic"] for r in earlier), name


def test_canonicalize_deletes_exactly_what_tf_deletes(instances, effects):
    dump = _dump_module()
    names = list(instances)
    text = dump._island_module(dump.dce_funcs(instances))
    survivors = _surviving(text, "builtin.module(func.func(canonicalize))")
    # Ops whose deletion by TF's canonicalize the effect model does not explain
    # (the dump script reports them): TF rewrites them through a pattern, not
    # because they are free of effects. Today only tf.Variable (unknown effects
    # in TF and in tfmlir).
    rewritten = {n for n, e in effects.items() if "observed" in e
                 and e["model"]["predicted_dce_kept"] != e["observed"]["dce_kept"]}
    assert rewritten == {"tf.Variable"}
    wrong = []
    for k, name in enumerate(names):
        if name in rewritten:
            continue
        kept = name in survivors[f"d{k}"]
        if kept != effects[name]["observed"]["dce_kept"]:
            wrong.append(f"{name}: tfmlir {'keeps' if kept else 'deletes'} it, TF "
                         f"{'keeps' if not kept else 'deletes'} it")
    assert not wrong, "\n".join(wrong)
    # Every op TF keeps is kept: the ones the issue names among them.
    assert any(effects[n]["observed"]["dce_kept"] for n in ("tf.Assign", "tf.TPUReplicateMetadata"))


def test_cse_keeps_copies_of_effectful_ops(instances, effects):
    funcs = []
    names = [n for n in instances
             if effects[n]["model"]["unknown"] or effects[n]["model"]["predicted_dce_kept"]]
    for k, name in enumerate(names):
        inst = instances[name]
        args = [f"%a{i}" for i in range(len(inst.operands))]
        sig = ", ".join(f"%a{i}: {t}" for i, t in enumerate(inst.operands))
        res = [f"%x{i}" for i in range(len(inst.results))] or None
        res2 = [f"%y{i}" for i in range(len(inst.results))] or None
        funcs.append(f"func.func @c{k}({sig}) {{\n  {inst.text(args, res)}\n  "
                     f"{inst.text(args, res2)}\n  return\n}}\n")
    text = "func.func private @probe_fn() -> ()\n" + "".join(funcs)
    with ir.Context():
        module = ir.Module.parse(text)
        passmanager.PassManager.parse("builtin.module(cse,symbol-dce)").run(module.operation)
        counts = {}
        for func in module.body.operations:
            sym = ir.StringAttr(func.attributes["sym_name"]).value
            n = [0]

            def visit(op, n=n):
                if op.name.startswith("tf."):
                    n[0] += 1
                return ir.WalkResult.ADVANCE

            func.operation.walk(visit)
            counts[sym] = n[0]
    short = [name for k, name in enumerate(names) if counts[f"c{k}"] != 2]
    assert not short, f"cse merged copies of effectful ops: {short}"


def test_python_analysis_tables_have_no_hand_written_op_lists():
    from tfmlir.passes.analysis import side_effects
    # Every op list of the analysis comes from the generated table.
    source = (REPO_ROOT / "python" / "tfmlir" / "passes" / "analysis" / "side_effects.py").read_text()
    for name in ("CheckNumerics", "RandomUniform", "_XlaRecvAtHost", "HashTableV2",
                 "TPUExecute", "VarHandleOp", "NcclAllReduce"):
        assert name not in source, name
    assert "tf.TPUCompilationResult" in side_effects.MUST_EXECUTE_OPS
    assert not side_effects.is_pure_op("tf.Assign")
    assert side_effects.is_pure_op("tf.AddV2")


def _functions(text):
    """{symbol: generic text} of the functions of a module."""
    with ir.Context():
        module = ir.Module.parse(text)
        return {ir.StringAttr(f.attributes["sym_name"]).value:
                f.operation.get_asm(print_generic_op_form=True, enable_debug_info=False,
                                    use_local_scope=True)
                for f in module.body.operations}


def _probe_jobs(dump, instances, effects):
    """(label, text, TF pipeline, tfmlir pipeline) of the dump script's
    ordering, operand, op-pair and pruning probes."""
    op_based = [n for n in instances if effects[n]["model"]["op_effect"]]
    module = dump._island_module
    return [
        ("ordering", module(dump.ordering_funcs(instances)), "tf-executor-break-up-islands",
         "tf-executor-break-up-islands"),
        ("operands", module(dump.operand_funcs(instances)[0]), "tf-executor-break-up-islands",
         "tf-executor-break-up-islands"),
        # Pairs of ops with op-based effects: ordered exactly when TF orders them.
        ("kinds", module(dump.pair_funcs(instances, op_based)[0]), "tf-executor-break-up-islands",
         "tf-executor-break-up-islands"),
        ("pruning", module(dump.pruning_funcs(instances)), "func.func(tf-executor-graph-pruning)",
         "func.func(tf-executor-graph-pruning)"),
    ]


@pytest.mark.tf
@pytest.mark.slow
@pytest.mark.skipif(not have_tensorflow(), reason="tensorflow is not installed")
def test_analysis_orders_and_prunes_like_tensorflow(instances, effects):
    from tfmlir.testing.tf_oracle import canonical, run_tf_pipelines, run_tfmlir_pipeline

    dump = _dump_module()
    jobs = _probe_jobs(dump, instances, effects)
    tf_results = run_tf_pipelines([(text, pipeline) for _, text, pipeline, _ in jobs])
    for (label, text, _, ours), theirs in zip(jobs, tf_results):
        assert theirs["ok"], (label, theirs.get("error", "")[:2000])
        mine = run_tfmlir_pipeline(text, ours)
        assert mine["ok"], (label, mine.get("errors"))
        expected = _functions(canonical(theirs["text"]))
        got = _functions(canonical(mine["text"]))
        assert expected.keys() == got.keys(), label
        diff = [name for name in expected if expected[name] != got[name]]
        assert not diff, (f"{label}: {len(diff)} functions differ ({diff[:20]}), first:\nTF:\n"
                          f"{expected[diff[0]]}\ntfmlir:\n{got[diff[0]]}")


def test_generated_files_are_up_to_date(tmp_path):
    """scripts/gen_tf_ops.py run on the committed snapshots reproduces the
    committed ODS, resource kinds, unknown-op effect list and Python table."""
    import shutil
    copy = tmp_path / "repo"
    for sub in ("scripts", "third_party", "td", "python/tfmlir/passes/generated", "cpp/include/tfmlir"):
        shutil.copytree(REPO_ROOT / sub, copy / sub)
    proc = subprocess.run([sys.executable, str(copy / "scripts" / "gen_tf_ops.py")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    for rel in ("td/generated", "python/tfmlir/passes/generated/tf_op_effects.py",
                "cpp/include/tfmlir/TfResourceKinds.h.inc",
                "cpp/include/tfmlir/TfRegistryStateless.h.inc",
                "cpp/include/tfmlir/TfFoldTraits.h.inc"):
        a, b = REPO_ROOT / rel, copy / rel
        files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file()) if a.is_dir() else [None]
        for f in files:
            pa, pb = (a / f, b / f) if f else (a, b)
            assert pa.read_text() == pb.read_text(), f"{pa} is stale: run scripts/gen_tf_ops.py"


@pytest.mark.tf
@pytest.mark.slow
@pytest.mark.skipif(not have_tensorflow(), reason="tensorflow is not installed")
def test_effects_snapshot_matches_installed_tensorflow(tmp_path):
    out = tmp_path / "tf_op_effects.json"
    proc = subprocess.run([sys.executable, str(REPO_ROOT / "scripts" / "dump_tf_effects.py"),
                           "-o", str(out)], capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert json.loads(out.read_text()) == json.loads(EFFECTS_JSON.read_text()), (
        "third_party/tensorflow/tf_op_effects.json is stale: run scripts/dump_tf_effects.py")
