"""tf-executor-functionalize-control-flow against TensorFlow's own functionalization, structurally.

For every program of :mod:`tf1_control_flow_programs` whose
``<name>.tf-upgraded.mlir`` is not an error (TF's ``convert_saved_model_v1(...,
upgrade_legacy=True)`` of the graph saved as a TF1 SavedModel), the GraphDef is
imported by tfmlir with ``upgrade_legacy=True`` -- with the signature's feeds
and fetches as ``main``'s arguments and results -- then pruned to the fetches
(as TF's SavedModel importer prunes to the signature), made functional and
shape-inferred (:data:`PIPELINE`), and compared with TF's text modulo function
names and op order:

* the number of functions (TF's ``SessionInitializerFunction`` left out) and of
  ``tf.While`` / ``tf.If`` ops;
* tfmlir's ``main`` against TF's ``serving_default``, and from there every
  function reached through a symbol attribute (``body``/``cond``,
  ``then_branch``/``else_branch``, ...): its numbers of arguments and results
  and its multiset of op names. Calls of the same op kind are paired by the
  structure of their callees (equal structures first).

Each difference is a line such as ``main/tf.While#0.body: tf.Identity tf=2
tfmlir=3``. :data:`KNOWN_DIFFERENCES` lists, per program, the differences that
are expected, each with its reason; the test fails on any other difference, and
on a listed one that no longer occurs.
"""
import collections

import pytest

from conftest import require_tensorflow

import tf1_control_flow_programs as programs

pytestmark = [pytest.mark.tf]

TF_ROOT, OUR_ROOT = "serving_default", "main"
TF_ONLY_FUNCTIONS = ("SessionInitializerFunction",)
# What TF's text went through: its SavedModel importer prunes the graph to the signature and makes
# it functional, then tf.mlir.experimental.convert_saved_model_v1 runs tf-standard-pipeline
# (canonicalize, tf-shape-inference, symbol-dce, tf-optimize, cse; tf-optimize's patterns do not apply
# to these programs). Pruning after the import, not in it: the importer's prune_unused_nodes, like
# TF's, runs with the loops' back edges removed and would drop the loop bodies.
PIPELINE = ("builtin.module(func.func(tf-executor-graph-pruning,tf-executor-to-functional-conversion,"
            "canonicalize),tf-shape-inference,symbol-dce,func.func(cse))")

# {program: {difference line: reason}}: differences from TF that are expected (none:
# tfmlir's canonicalize no longer folds tf.Identity(tf.Identity(x)), which TF never did).
KNOWN_DIFFERENCES = {}


class Function:
    """What the comparison sees of a func.func: counts, op names, and its calls."""

    def __init__(self, name, n_args, n_results):
        self.name = name
        self.n_args = n_args
        self.n_results = n_results
        self.ops = collections.Counter()
        self.calls = []  # (op name, {attribute role: callee name})


def functions_of(text):
    """{name: Function} of the module printed as `text` (parsed in a fresh context)."""
    import tfmlir  # noqa: F401
    from mlir import ir

    module = ir.Module.parse(text, ir.Context())
    found = {}
    for top in module.body.operations:
        top = top.operation
        if top.name != "func.func":
            continue
        name = ir.StringAttr(top.attributes["sym_name"]).value
        ftype = ir.FunctionType(ir.TypeAttr(top.attributes["function_type"]).value)
        fn = Function(name, len(ftype.inputs), len(ftype.results))
        for region in top.regions:
            _collect(region, fn, ir)
        found[name] = fn
    return found


def _collect(region, fn, ir):
    for block in region.blocks:
        for op in block.operations:
            op = op.operation
            fn.ops[op.name] += 1
            roles = {}
            for key, attr in op.attributes.items():
                if isinstance(attr, ir.FlatSymbolRefAttr):
                    roles[key] = attr.value
                elif isinstance(attr, ir.ArrayAttr):
                    for k, item in enumerate(attr):
                        if isinstance(item, ir.FlatSymbolRefAttr):
                            roles[f"{key}[{k}]"] = item.value
            if roles:
                fn.calls.append((op.name, roles))
            for inner in op.regions:
                _collect(inner, fn, ir)


def _shape(funcs, name, depth=0):
    """A canonical string of the function and everything it calls, names left out."""
    fn = funcs.get(name)
    if fn is None or depth > 20:
        return "?"
    children = sorted(f"{op}({','.join(f'{r}={_shape(funcs, c, depth + 1)}' for r, c in sorted(roles.items()))})"
                      for op, roles in fn.calls)
    ops = ",".join(f"{op}*{n}" for op, n in sorted(fn.ops.items()))
    return f"[{fn.n_args}->{fn.n_results}|{ops}|{';'.join(children)}]"


def _distance(funcs_a, roles_a, funcs_b, roles_b):
    total = 0
    for role in set(roles_a) | set(roles_b):
        a, b = funcs_a.get(roles_a.get(role)), funcs_b.get(roles_b.get(role))
        if a is None or b is None:
            total += 1000
            continue
        for op in set(a.ops) | set(b.ops):
            total += abs(a.ops[op] - b.ops[op])
    return total


def _pair(tf_funcs, tf_calls, our_funcs, our_calls):
    """[(tf call, our call)]: equal callee structures first, then the closest; in TF's order."""
    left = list(range(len(tf_calls)))
    right = list(range(len(our_calls)))
    pairs = []

    def shape(funcs, roles):
        return ";".join(f"{r}={_shape(funcs, c)}" for r, c in sorted(roles.items()))

    for i in list(left):
        wanted = shape(tf_funcs, tf_calls[i][1])
        for j in right:
            if shape(our_funcs, our_calls[j][1]) == wanted:
                pairs.append((i, j))
                left.remove(i)
                right.remove(j)
                break
    while left and right:
        i, j = min(((i, j) for i in left for j in right),
                   key=lambda ij: (_distance(tf_funcs, tf_calls[ij[0]][1], our_funcs, our_calls[ij[1]][1]),
                                   ij))
        pairs.append((i, j))
        left.remove(i)
        right.remove(j)
    return [(tf_calls[i], our_calls[j]) for i, j in sorted(pairs)]


def compare(tf_text, our_text):
    """The differences (sorted lines) between TF's module and tfmlir's (see the module doc)."""
    tf_funcs = functions_of(tf_text)
    our_funcs = functions_of(our_text)
    diffs = []
    tf_only = set(TF_ONLY_FUNCTIONS)
    n_tf = len([n for n in tf_funcs if n not in tf_only])
    if n_tf != len(our_funcs):
        diffs.append(f"module: functions tf={n_tf} tfmlir={len(our_funcs)}")
    for op in ("tf.While", "tf.If"):
        a = sum(f.ops[op] for n, f in tf_funcs.items() if n not in tf_only)
        b = sum(f.ops[op] for f in our_funcs.values())
        if a != b:
            diffs.append(f"module: {op} tf={a} tfmlir={b}")
    if TF_ROOT not in tf_funcs or OUR_ROOT not in our_funcs:
        diffs.append(f"module: no @{TF_ROOT} (tf) or no @{OUR_ROOT} (tfmlir)")
        return sorted(diffs)
    seen = set()

    def visit(a, b, path):
        if (a, b) in seen or path.count("/") > 20:
            return
        seen.add((a, b))
        fa, fb = tf_funcs.get(a), our_funcs.get(b)
        if fa is None or fb is None:
            diffs.append(f"{path}: callee missing (tf @{a}: {fa is not None}, tfmlir @{b}: {fb is not None})")
            return
        if fa.n_args != fb.n_args:
            diffs.append(f"{path}: arguments tf={fa.n_args} tfmlir={fb.n_args}")
        if fa.n_results != fb.n_results:
            diffs.append(f"{path}: results tf={fa.n_results} tfmlir={fb.n_results}")
        for op in sorted(set(fa.ops) | set(fb.ops)):
            if fa.ops[op] != fb.ops[op]:
                diffs.append(f"{path}: {op} tf={fa.ops[op]} tfmlir={fb.ops[op]}")
        for kind in sorted({c[0] for c in fa.calls} | {c[0] for c in fb.calls}):
            ca = [c for c in fa.calls if c[0] == kind]
            cb = [c for c in fb.calls if c[0] == kind]
            for k, ((_, ra), (_, rb)) in enumerate(_pair(tf_funcs, ca, our_funcs, cb)):
                for role in sorted(set(ra) | set(rb)):
                    if role not in ra or role not in rb:
                        diffs.append(f"{path}/{kind}#{k}: attribute {role} only in "
                                     f"{'tf' if role in ra else 'tfmlir'}")
                        continue
                    visit(ra[role], rb[role], f"{path}/{kind}#{k}.{role}")

    visit(TF_ROOT, OUR_ROOT, "main")
    return sorted(diffs)


def _ours(name):
    """tfmlir's functionalized, functional, shape-inferred module of `name`, printed."""
    import tfmlir
    from mlir import ir
    from tfmlir import driver
    from tfmlir.importers.api import import_graph_def
    from tfmlir.passes import framework

    spec = programs.spec(name)
    feeds = list(spec["feeds"])
    module = import_graph_def(
        programs.path(name), context=ir.Context(),
        input_names=[f.split(":")[0] for f in feeds],
        input_data_shapes=[spec["feeds"][f]["shape"] for f in feeds],
        output_names=[f.split(":")[0] for f in spec["fetches"]])
    driver.functionalize(module)
    framework.run(module, PIPELINE)
    return tfmlir.print_ir(module, debug_info=False)


# Programs TF's own functionalization fails on (its error). A TF1 graph records no shape
# invariants: a loop variable that grows (``shape_invariants``) gets a While that claims the
# Enter's static shape once shapes are inferred from static feeds -- TF's verifier rejects the
# While it built, and tfmlir's module, shape-inferred with the same static feeds, is rejected
# the same way (the functionalization itself succeeds and runs: test_functionalize_numerics).
TF_FAILS = {"while_shape_invariant": "is incompatible with"}


def _tf_text(name):
    require_tensorflow()  # the generator runs TensorFlow
    return programs.tf_upgraded(name)


@pytest.mark.parametrize("name", sorted(TF_FAILS))
def test_shape_varying_loop_fails_shape_inference_as_in_tf(name):
    from mlir import ir

    text = _tf_text(name)
    assert text.startswith("// error:") and TF_FAILS[name] in text, text[:400]
    with pytest.raises(ir.MLIRError, match=TF_FAILS[name]):
        _ours(name)


@pytest.mark.parametrize("name", [n for n in programs.PROGRAMS if n not in TF_FAILS])
def test_structure_matches_tf(name):
    tf_text = _tf_text(name)
    diffs = compare(tf_text, _ours(name))
    known = KNOWN_DIFFERENCES.get(name, {})
    unlisted = [d for d in diffs if d not in known]
    stale = [d for d in known if d not in diffs]
    message = []
    if unlisted:
        message.append("differences from TF's functionalization:\n  " + "\n  ".join(unlisted))
    if stale:
        message.append("listed differences that no longer occur:\n  " + "\n  ".join(stale))
    assert not message, "\n".join(message)


def test_known_differences_name_programs_and_reasons():
    assert set(KNOWN_DIFFERENCES) <= set(programs.PROGRAMS)
    for name, entries in KNOWN_DIFFERENCES.items():
        for line, reason in entries.items():
            assert reason.strip(), f"{name}: {line!r} has no reason"


@pytest.mark.parametrize("name", [n for n in programs.PROGRAMS if n not in TF_FAILS])
def test_comparison_sees_tf_text_equal_to_itself_renamed(name):
    """The comparison itself: TF's text against itself with other function names (no TF run)."""
    tf_text = _tf_text(name)
    renamed = tf_text.replace("@serving_default(", "@main(").replace("_functionalize_", "_renamed_x")
    n = len(functions_of(tf_text))
    # The renamed text keeps its SessionInitializerFunction: one function more.
    assert compare(tf_text, renamed) == [f"module: functions tf={n - 1} tfmlir={n}"]
