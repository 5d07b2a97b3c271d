"""Snapshots how TensorFlow 2.21 models the side effects of its ODS ops (needs TensorFlow).

Regeneration command (TensorFlow 2.21 installed; tfmlir need not be built):

    python scripts/dump_tf_effects.py            # writes third_party/tensorflow/tf_op_effects.json

TensorFlow's wheel ships the op classes' traits (``tf_all_ops.h.inc``) but not
the effects each op declares on its operands (those live in compiled code).
So the effects are *observed*: for every op TensorFlow defines in ODS, a valid
instance is built (``tfmlir.testing.op_instances``, repaired from TF's own
verifier messages until TF accepts it) and TensorFlow's own passes are run on
small probe modules through ``tf.mlir.experimental.run_pass_pipeline``:

* ``canonicalize`` on an unused instance: does TF delete it (no effects but
  reads and allocations of its own results) or keep it?
* ``tf-executor-graph-pruning`` on an unreachable island holding it: kept only
  with TF's ``MustExecute`` effect.
* ``tf-executor-break-up-islands`` (TF's side-effect analysis turned into
  control dependencies) on islands that order the op against
  ``tf.AssignVariableOp``/``tf.ReadVariableOp`` of a resource passed as each
  resource operand (the operand is read, written or untouched), against an
  op TF cannot know (unknown effect: "has an effect" and "only
  self-dependent"), against writes of an unrelated resource (the op itself
  has an unknown effect), against a copy of itself (an op-based resource,
  per instance when attributes differ) and against every other op with
  op-based effects (which ops share an op-based resource kind), and reads /
  writes of the resources an op allocates (allocated results of the same
  kind alias).

The op classes' traits (MemoryEffectOpInterface, AlwaysSpeculatable,
ResourceHandleAllocatorInterface, UniqueResourceAllocation,
GetResourceInstanceInterface, ...) come from tf_ods_ops.json, which
scripts/dump_tf_registry.py reads from the wheel's headers. The output records, per op, the instance used,
the observations and the effect model derived from them (see ``_model``);
``scripts/gen_tf_ops.py`` turns the model into ODS effects and the Python
side-effect table.
"""
import argparse
import importlib
import json
import os
import re
import sys
import types

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
THIRD_PARTY = os.path.join(ROOT, "third_party", "tensorflow")
OUT = os.path.join(THIRD_PARTY, "tf_op_effects.json")

RES = "tensor<*x!tf_type.resource>"
UNKNOWN_OP = '"tf.TfmlirProbeUnknownEffect"() : () -> ()'
WRITE_OP = '"tf.AssignVariableOp"({r}, %v) : ({t}, tensor<f32>) -> ()'
READ_OP = '"tf.ReadVariableOp"({r}) : ({t}) -> tensor<f32>'


def _pure_python_modules():
    """tfmlir's pure-Python helpers without loading its native extension."""
    python_root = os.path.join(ROOT, "python", "tfmlir")
    for name, path in (("tfmlir", python_root),
                       ("tfmlir.importers", os.path.join(python_root, "importers")),
                       ("tfmlir.testing", os.path.join(python_root, "testing"))):
        if name not in sys.modules:
            module = types.ModuleType(name)
            module.__path__ = [path]
            sys.modules[name] = module
    return importlib.import_module("tfmlir.testing.op_instances")


class Oracle:
    def __init__(self):
        import tensorflow as tf
        self._run = tf.mlir.experimental.run_pass_pipeline

    def run(self, text, pipeline):
        try:
            return True, self._run(text, pipeline, show_debug_info=False)
        except Exception as exc:  # TF reports parse/verify/pass errors as exceptions
            return False, str(exc)


def _args(types_):
    return [f"%a{i}" for i in range(len(types_))]


def _signature(types_, extra=()):
    items = [f"%a{i}: {t}" for i, t in enumerate(types_)] + list(extra)
    return ", ".join(items)


def _results(inst, tag):
    return [f"%{tag}{i}" for i in range(len(inst.results))] or None


# The function that function-valued attributes of the instances name.
_CALLEE = "func.func private @probe_fn() -> ()\n"


def validate(oracle, oi, inst):
    """Repairs `inst` until TF verifies it; (instance, None) or (None, error)."""
    error = None
    for _ in range(12):
        body = inst.text(_args(inst.operands), _results(inst, "x"))
        text = (_CALLEE + f"func.func @p({_signature(inst.operands)}) {{\n  {body}\n"
                "  return\n}\n")
        ok, out = oracle.run(text, "")
        if ok:
            return inst, None
        error = out
        fixed = oi.repair(inst, out)
        if fixed is None:
            break
        inst = fixed
    return None, error.strip().splitlines()[0] if error else "unknown"


def _island_module(funcs):
    return _CALLEE + "".join(funcs)


def _island_func(fname, sig, ops):
    """A function with one island holding `ops` (text lines); break-up-islands
    puts each op in its own island, ordered by control dependencies."""
    body = "\n".join("      " + o for o in ops)
    return (f"func.func @{fname}({sig}) {{\n  tf_executor.graph {{\n"
            f"    %ctl = tf_executor.island {{\n{body}\n      tf_executor.yield\n    }}\n"
            "    tf_executor.fetch %ctl : !tf_executor.control\n  }\n  return\n}\n")


_ISLAND_RE = re.compile(r"^\s*((?:%[\w#:]+(?:, )?)+ = )?tf_executor\.island(\(([^)]*)\))? wraps (.*)$")


def parse_islands(text):
    """{function name: [(op line text, [predecessor indices])]} after break-up-islands."""
    out = {}
    current = None
    for line in text.splitlines():
        m = re.match(r"\s*func\.func @(\w+)", line)
        if m:
            current = out.setdefault(m.group(1), [])
            controls = {}
            continue
        m = _ISLAND_RE.match(line)
        if m and current is not None:
            results = m.group(1) or ""
            ctl = results.rstrip("= ").split(",")[-1].strip().split(":")[0] if results else None
            deps = [controls[c.strip()] for c in (m.group(3) or "").split(",") if c.strip() in controls]
            if ctl:
                controls[ctl] = len(current)
            current.append((m.group(4), deps))
    return out


def run_break_up(oracle, funcs, what):
    """TF's break-up-islands on the probe functions: {name: islands} (parse_islands)."""
    ok, out = oracle.run(_island_module(funcs), "tf-executor-break-up-islands")
    if not ok:
        raise RuntimeError(f"{what} probe failed: " + out[:2000])
    return parse_islands(out)


def dce_funcs(instances):
    """Probe 1: one function per op holding an unused instance (@d<k>)."""
    return [f"func.func @d{k}({_signature(inst.operands)}) {{\n  "
            f"{inst.text(_args(inst.operands), _results(inst, 'x'))}\n  return\n}}\n"
            for k, inst in enumerate(instances.values())]


def pruning_funcs(instances):
    """Probe 2: the instance in an island nothing reaches (@g<k>)."""
    funcs = []
    for k, inst in enumerate(instances.values()):
        op = inst.text(_args(inst.operands), _results(inst, "x"))
        funcs.append(f"func.func @g{k}({_signature(inst.operands)}) {{\n  tf_executor.graph {{\n"
                     f"    %c = tf_executor.island {{\n      {op}\n      tf_executor.yield\n    }}\n"
                     "    tf_executor.fetch\n  }\n  return\n}\n")
    return funcs


def ordering_funcs(instances):
    """Probe 3: between unknown effects (@u<k>), after a write of an unrelated
    resource (@w<k>), after a copy of itself on other operands (@s<k>)."""
    funcs = []
    for k, inst in enumerate(instances.values()):
        sig = _signature(inst.operands, ["%r: " + RES, "%v: tensor<f32>"])
        op = inst.text(_args(inst.operands), _results(inst, "x"))
        funcs.append(_island_func(f"u{k}", sig, [UNKNOWN_OP, op, UNKNOWN_OP]))
        funcs.append(_island_func(f"w{k}", sig, [WRITE_OP.format(r="%r", t=RES), op]))
        # A copy on other operands: ordered only through an op-based resource.
        copy = inst.text([f"%b{i}" for i in range(len(inst.operands))], _results(inst, "y"))
        sig2 = sig + "".join(f", %b{i}: {t}" for i, t in enumerate(inst.operands))
        funcs.append(_island_func(f"s{k}", sig2, [op, copy]))
    return funcs


def operand_funcs(instances):
    """Probe 4: each resource operand between a write and a read of it
    (@o<k>_<i>); returns (functions, [(op name, operand index, function)])."""
    funcs, keys = [], []
    for k, (name, inst) in enumerate(instances.items()):
        for i, t in enumerate(inst.operands):
            if "!tf_type.resource" not in t:
                continue
            sig = _signature(inst.operands, ["%r: " + RES, "%v: tensor<f32>"])
            args = _args(inst.operands)
            args[i] = "%r"
            probe_inst = inst.copy()
            probe_inst.operands[i] = RES
            op = probe_inst.text(args, _results(inst, "x"))
            funcs.append(_island_func(f"o{k}_{i}", sig, [WRITE_OP.format(r="%r", t=RES), op,
                                                         READ_OP.format(r="%r", t=RES)]))
            keys.append((name, i, f"o{k}_{i}"))
    return funcs, keys


def pair_funcs(instances, names):
    """Every pair of the ops `names`, the second after the first (@k<x>_<y>);
    returns (functions, [(a, b, function)])."""
    funcs, pairs = [], []
    for x, a in enumerate(names):
        for y, b in enumerate(names):
            if y <= x:
                continue
            ia, ib = instances[a], instances[b]
            sig = ", ".join([f"%a{i}: {t}" for i, t in enumerate(ia.operands)]
                            + [f"%b{i}: {t}" for i, t in enumerate(ib.operands)])
            ta = ia.text(_args(ia.operands), _results(ia, "x"))
            tb = ib.text([f"%b{i}" for i in range(len(ib.operands))], _results(ib, "y"))
            funcs.append(_island_func(f"k{x}_{y}", sig, [ta, tb]))
            pairs.append((a, b, f"k{x}_{y}"))
    return funcs, pairs


def _pair_independent(oracle, sig, first, second):
    """True when TF's break-up-islands does not order `second` after `first`
    (None when TF rejects the module or splits it otherwise)."""
    ok, out = oracle.run(_island_module([_island_func("pair", sig, [first, second])]),
                         "tf-executor-break-up-islands")
    if not ok:
        return None
    e = parse_islands(out).get("pair", [])
    return None if len(e) < 2 else 0 not in e[1][1]


def probe(oracle, instances, facts, traits):
    """Runs the probe modules; observations per op."""
    obs = {name: {} for name in instances}

    # 1. canonicalize: is an unused instance deleted?
    funcs = dce_funcs(instances)
    ok, out = oracle.run(_island_module(funcs), "func.func(canonicalize)")
    if not ok:
        raise RuntimeError("canonicalize probe failed: " + out[:2000])
    kept = {}
    current = None
    for line in out.splitlines():
        m = re.match(r"\s*func\.func @d(\d+)", line)
        if m:
            current = int(m.group(1))
            kept[current] = set()
            continue
        m = re.search(r'"(tf\.\w+)"', line)
        if m and current is not None:
            kept[current].add(m.group(1))
    for k, name in enumerate(instances):
        obs[name]["dce_kept"] = name in kept.get(k, ())

    # 2. graph pruning: MustExecute.
    funcs = pruning_funcs(instances)
    ok, out = oracle.run(_island_module(funcs), "func.func(tf-executor-graph-pruning)")
    if not ok:
        raise RuntimeError("graph pruning probe failed: " + out[:2000])
    current = None
    survivors = {}
    for line in out.splitlines():
        m = re.match(r"\s*func\.func @g(\d+)", line)
        if m:
            current = int(m.group(1))
            survivors[current] = False
            continue
        if current is not None and re.search(r'"tf\.', line):
            survivors[current] = True
    for k, name in enumerate(instances):
        obs[name]["must_execute"] = survivors.get(k, False)

    # 3. ordering against unknown effects and unrelated resource writes.
    funcs = ordering_funcs(instances)
    names = list(instances)
    islands = run_break_up(oracle, funcs, "ordering")
    for k, name in enumerate(names):
        u = islands.get(f"u{k}", [])
        w = islands.get(f"w{k}", [])
        s = islands.get(f"s{k}", [])
        obs[name]["after_unknown"] = len(u) >= 2 and 0 in u[1][1]
        obs[name]["before_unknown"] = len(u) >= 3 and 1 in u[2][1]
        obs[name]["after_unrelated_write"] = len(w) >= 2 and 0 in w[1][1]
        obs[name]["after_itself"] = len(s) >= 2 and 0 in s[1][1]

    # 4. per resource operand: read / write / untouched.
    funcs, keys = operand_funcs(instances)
    if funcs:
        islands = run_break_up(oracle, funcs, "operand")
        for name, i, fname in keys:
            e = islands.get(fname, [])
            touches = len(e) >= 2 and 0 in e[1][1]
            writes = len(e) >= 3 and 1 in e[2][1]
            obs[name].setdefault("operands", {})[str(i)] = (
                "write" if writes else "read" if touches else "none")

    # 5. instance keys of op-based effects (ops with TF's
    #    GetResourceInstanceInterface): does changing one stored attribute of
    #    a copy make the two independent? And with every variadic operand
    #    group empty, does an effect appear that the probe instance's operands
    #    suppressed (e.g. collectives ordered by tokens instead)?
    for k, name in enumerate(names):
        inst = instances[name]
        if not traits.get(name, {}).get("resource_instance"):
            continue
        sig = _signature(inst.operands) + "".join(
            f", %b{i}: {t}" for i, t in enumerate(inst.operands))
        a = inst.text(_args(inst.operands), _results(inst, "x"))
        copy_args = [f"%b{i}" for i in range(len(inst.operands))]
        if obs[name]["after_itself"]:
            for attr, value in sorted(inst.properties.items()):
                changed = _changed_value(value)
                if changed is None:
                    continue
                b = inst.text(copy_args, _results(inst, "y"), overrides={attr: changed})
                if _pair_independent(oracle, sig, a, b):
                    obs[name].setdefault("instance_attrs", []).append(attr)
            # The device an op is placed on (a discardable attribute).
            a_dev = inst.text(_args(inst.operands), _results(inst, "x"), attributes={"device": '"/d:0"'})
            b_dev = inst.text(copy_args, _results(inst, "y"), attributes={"device": '"/d:1"'})
            if _pair_independent(oracle, sig, a_dev, b_dev):
                obs[name].setdefault("instance_attrs", []).append("device")
            continue
        empty = _without_variadic_operands(inst, facts.get(name, {}))
        if empty is None:
            continue
        sig = _signature(empty.operands) + "".join(
            f", %b{i}: {t}" for i, t in enumerate(empty.operands))
        a = empty.text(_args(empty.operands), _results(empty, "x"))
        b = empty.text([f"%b{i}" for i in range(len(empty.operands))], _results(empty, "y"))
        if _pair_independent(oracle, sig, a, b) is False:
            obs[name]["ordered_without_groups"] = [
                g for g, size in enumerate(inst.operand_groups or []) if size
                and (empty.operand_groups or [])[g] == 0]
    return obs


def _without_variadic_operands(inst, facts):
    """`inst` with its variadic operand groups emptied (None if it has none);
    `facts`: the op's TF ODS facts."""
    variadic = [bool(a.get("variadic")) for a in facts.get("operands", [])]
    sizes = inst.operand_groups or []
    if len(variadic) != len(sizes) or not any(v and n for v, n in zip(variadic, sizes)):
        return None
    empty = inst.copy()
    operands, new_sizes, position = [], [], 0
    for is_variadic, size in zip(variadic, sizes):
        group = inst.operands[position:position + size]
        position += size
        if is_variadic:
            group = []
        operands.extend(group)
        new_sizes.append(len(group))
    empty.operands = operands
    empty.operand_groups = new_sizes
    if empty.operand_segments is not None:
        empty.operand_segments = new_sizes
    return empty


def _changed_value(value):
    if value.startswith('"'):
        return json.dumps(json.loads(value) + "_other")
    m = re.fullmatch(r"(-?\d+) : i64", value)
    if m:
        return f"{int(m.group(1)) + 1} : i64"
    return None


def probe_kinds(oracle, instances, obs):
    """Which op-based effects share a resource kind, and which allocated
    results alias (same allocation kind)."""
    op_based = [n for n in instances
                if obs[n]["after_unknown"] or obs[n]["after_itself"]]
    op_based = [n for n in op_based if not any(
        v != "none" for v in obs[n].get("operands", {}).values()) and not obs[n]["after_unrelated_write"]]
    funcs, pairs = pair_funcs(instances, op_based)
    if funcs:
        islands = run_break_up(oracle, funcs, "kind")
        for a, b, fname in pairs:
            e = islands.get(fname, [])
            if len(e) >= 2 and 0 in e[1][1]:
                obs[a].setdefault("ordered_with", []).append(b)
                obs[b].setdefault("ordered_with", []).append(a)

    # Allocated resource results: unknown id, or one id per allocation kind.
    allocating = [n for n in instances
                  if any("!tf_type.resource" in t for t in instances[n].results)]
    funcs = []
    keys = []
    for x, a in enumerate(allocating):
        ia = instances[a]
        index = next(i for i, t in enumerate(ia.results) if "!tf_type.resource" in t)
        res = _results(ia, "x")
        sig = _signature(ia.operands, ["%r: " + RES, "%v: tensor<f32>"])
        ta = ia.text(_args(ia.operands), res)
        funcs.append(_island_func(f"a{x}", sig, [ta, WRITE_OP.format(r=res[index], t=ia.results[index]),
                                                 READ_OP.format(r="%r", t=RES)]))
        keys.append((a, f"a{x}"))
        for y, b in enumerate(allocating):
            if y <= x:
                continue
            ib = instances[b]
            jb = next(i for i, t in enumerate(ib.results) if "!tf_type.resource" in t)
            rb = _results(ib, "y")
            sig = ", ".join([f"%a{i}: {t}" for i, t in enumerate(ia.operands)]
                            + [f"%b{i}: {t}" for i, t in enumerate(ib.operands)] + ["%v: tensor<f32>"])
            tb = ib.text([f"%b{i}" for i in range(len(ib.operands))], rb)
            funcs.append(_island_func(f"p{x}_{y}", sig, [ta, tb, WRITE_OP.format(r=res[index], t=ia.results[index]),
                                                         READ_OP.format(r=rb[jb], t=ib.results[jb])]))
            keys.append((a, b, f"p{x}_{y}"))
    if funcs:
        islands = run_break_up(oracle, funcs, "allocation")
        for key in keys:
            if len(key) == 2:
                a, fname = key
                e = islands.get(fname, [])
                # The read of an unrelated argument depends on the write to
                # the result only when the result's id is unknown.
                obs[a]["result_id_unknown"] = len(e) >= 3 and 1 in e[2][1]
            else:
                a, b, fname = key
                e = islands.get(fname, [])
                if len(e) >= 4 and 2 in e[3][1]:
                    obs[a].setdefault("aliases_with", []).append(b)
                    obs[b].setdefault("aliases_with", []).append(a)


def resource_kind_names():
    """The op-based resource kinds TF declares (``tf_side_effects.h`` of the wheel)."""
    import tensorflow as tf
    path = os.path.join(os.path.dirname(tf.__file__), "include", "tensorflow", "compiler", "mlir",
                        "tensorflow", "ir", "tf_side_effects.h")
    text = open(path).read()
    names = re.findall(r'StringRef getName\(\) final \{ return "(\w+)"; \}', text)
    return names


def _classes(members, edges):
    """Connected components of `members` under symmetric `edges` (name -> [names])."""
    parent = {m: m for m in members}

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a in members:
        for b in edges.get(a, ()):
            if b in parent:
                parent[find(a)] = find(b)
    groups = {}
    for m in members:
        groups.setdefault(find(m), []).append(m)
    return [sorted(g) for g in groups.values()]


def _class_name(group, kind_names, taken):
    """A name for a class of ops sharing a resource: TF's kind name that the
    most members contain, else the shortest member name."""
    best = None
    for kind in kind_names:
        count = sum(1 for op in group if kind.lower() in op[3:].lower())
        if count and (best is None or count > best[0]):
            best = (count, kind)
    name = best[1] if best else min((op[3:] for op in group), key=lambda n: (len(n), n))
    base, k = name, 2
    while name in taken:
        name = f"{base}{k}"
        k += 1
    taken.add(name)
    return name


def _group_of(flat, sizes):
    """The ODS group (as a string key) of flat operand/result `flat`, given the
    group sizes of the probe instance."""
    total = 0
    for g, size in enumerate(sizes or []):
        if flat < total + size:
            return str(g)
        total += size
    return None


def derive_models(result, traits, kind_names):
    """The effect model of every op from its traits and observations.

    model = {"unknown": bool, "pure": bool, "operands": {index: "read"|"write"},
             "results": {index: kind}, "op_effect": None | {"kinds", "access",
             "self_dependent_only", "instance": "shared"|"per_op"|"attrs",
             "instance_attrs"}, "must_execute": bool}
    plus "predicted_dce_kept" (what upstream DCE does with the model), which
    must equal the observation.
    """
    observed = {n: e["observed"] for n, e in result.items() if "observed" in e}
    # Op-based effects: ordered after an unknown effect or after a copy of
    # itself on other operands, beyond what its resource operands explain.
    op_based = {}
    for name, o in observed.items():
        t = traits[name]
        if not t.get("memory_interface") or o["after_unrelated_write"]:
            continue
        operand_effect = any(v != "none" for v in o.get("operands", {}).values())
        if o["after_itself"]:
            op_based[name] = "write"
        elif o["after_unknown"] and not operand_effect:
            op_based[name] = "write" if o["dce_kept"] and not o["must_execute"] else "read"
    # Kinds: TF orders two ops with op-based effects iff they share a kind
    # (and one of them writes it); an op may have several kinds (e.g.
    # XlaHostCompute: Send, Recv and its own). A greedy clique cover of the
    # "ordered with" relation gives kinds with exactly TF's ordering; reads of
    # a kind need not be ordered among themselves.
    ordered = {n: set(observed[n].get("ordered_with", [])) & set(op_based) for n in op_based}
    self_dep = {n: bool(observed[n]["after_itself"] and not observed[n]["after_unknown"])
                for n in op_based}

    def compatible(a, b):
        if self_dep[a] != self_dep[b]:
            return b in ordered[a] and (self_dep[a] or self_dep[b])
        return b in ordered[a] or (op_based[a] == "read" and op_based[b] == "read")

    taken = set()
    kinds_of = {n: [] for n in op_based}
    self_dependent_kinds = set()
    covered = set()
    names_sorted = sorted(op_based)
    for a in names_sorted:
        for b in sorted(ordered[a]):
            if (a, b) in covered:
                continue
            clique = [a, b]
            for c in names_sorted:
                if c not in clique and all(compatible(c, m) and compatible(m, c) for m in clique) \
                        and any(c in ordered[m] for m in clique):
                    clique.append(c)
            for x in clique:
                for y in clique:
                    if y in ordered[x]:
                        covered.add((x, y))
            kind = _class_name(sorted(clique), kind_names, taken)
            if any(self_dep[m] for m in clique):
                self_dependent_kinds.add(kind)
            for m in clique:
                kinds_of[m].append(kind)
    for n in names_sorted:
        # Its own kind: ops ordered with a copy of themselves but with no
        # shared kind, and ops that are not only self-dependent while all
        # their shared kinds are.
        if not kinds_of[n] or (not self_dep[n] and all(k in self_dependent_kinds for k in kinds_of[n])):
            own = _class_name([n], [], taken)
            kinds_of[n].append(own)
            if self_dep[n]:
                self_dependent_kinds.add(own)
    allocating = [n for n, o in observed.items()
                  if "result_id_unknown" in o and not o["result_id_unknown"]
                  and not traits[n].get("allocator")]
    alloc_edges = {n: observed[n].get("aliases_with", []) for n in allocating}
    alloc_kind = {}
    for group in sorted(_classes(sorted(allocating), alloc_edges)):
        kind = _class_name(group, kind_names, taken)
        for member in group:
            alloc_kind[member] = kind
    for name, entry in result.items():
        t = traits[name]
        o = observed.get(name)
        if o is None:
            # Not probed (region ops, functional control flow): TF's analysis
            # looks into their regions/callees; the traits say the rest.
            entry["model"] = {"unknown": not t.get("memory_interface"),
                              "pure": bool(t.get("memory_interface") and t.get("speculatable")),
                              "operands": {}, "results": {}, "op_effect": None,
                              "must_execute": False}
            continue
        unknown = not t.get("memory_interface") or o["after_unrelated_write"]
        operands = {k: v for k, v in sorted(o.get("operands", {}).items(), key=lambda kv: int(kv[0]))
                    if v != "none"}
        results = {}
        instance = entry["instance"]
        for k, ty in enumerate(instance["results"]):
            if "!tf_type.resource" not in ty:
                continue
            if t.get("allocator"):
                results[str(k)] = "handle"
            elif name in alloc_kind:
                results[str(k)] = alloc_kind[name]
        op_effect = None
        if "ordered_without_groups" in o and not unknown and name not in op_based:
            # Ordered with itself only when these (variadic) operand groups
            # are empty: a kind of its own, ignored otherwise.
            op_effect = {"kinds": [_class_name([name], [], taken)], "access": "write",
                         "self_dependent_only": False, "instance": "when_groups_empty",
                         "instance_attrs": [], "groups": o["ordered_without_groups"]}
        if name in op_based and not unknown:
            per_op = t.get("resource_instance") and not o["after_itself"] and o["dce_kept"]
            attrs = o.get("instance_attrs", [])
            op_effect = {
                "kinds": sorted(kinds_of[name]),
                "access": "write" if per_op else op_based[name],
                "self_dependent_only": bool(o["after_itself"] and not o["after_unknown"]),
                "instance": "per_op" if per_op else "attrs" if attrs else "shared",
                "instance_attrs": attrs,
            }
        # Effects by ODS operand/result group.
        operands = {_group_of(int(k), instance.get("operand_groups")): v for k, v in operands.items()}
        results = {_group_of(int(k), instance.get("result_groups")): v for k, v in results.items()}
        model = {
            "unknown": unknown,
            "pure": bool(t.get("memory_interface") and t.get("speculatable") and not unknown
                         and not operands and not op_effect and not o["must_execute"]),
            "operands": operands,
            "results": results,
            "op_effect": op_effect,
            "must_execute": o["must_execute"],
        }
        writes = (unknown or o["must_execute"] or "write" in operands.values()
                  or (op_effect is not None and op_effect["access"] == "write"))
        if o["dce_kept"] and not writes and not unknown:
            # An effect TF's analysis does not see through (e.g. an op that
            # calls functions: the analysis looks at them instead) but that
            # keeps the op alive: an op-based write of its own kind.
            op_effect = model["op_effect"] = {
                "kinds": [_class_name([name], [], taken)], "access": "write",
                "self_dependent_only": False, "instance": "shared", "instance_attrs": []}
            model["pure"] = False
            writes = True
        model["predicted_dce_kept"] = bool(writes)
        entry["model"] = model
    return sorted(self_dependent_kinds)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", default=OUT)
    args = parser.parse_args()
    import tensorflow as tf

    oi = _pure_python_modules()
    registry = {op["name"]: op for op in json.load(open(os.path.join(THIRD_PARTY, "op_registry.json")))["ops"]}
    facts = json.load(open(os.path.join(THIRD_PARTY, "tf_ods_ops.json")))["ops"]
    traits = {name: f["traits"] for name, f in facts.items()}
    oracle = Oracle()
    result = {}
    instances = {}
    for name in sorted(facts):
        entry = {}
        result[name] = entry
        if traits[name]["regions"] or traits[name]["terminator"]:
            entry["unprobed"] = "region op: effects are those of its regions"
            continue
        inst = oi.build_instance(name, registry.get(name[3:]), facts[name])
        inst, error = validate(oracle, oi, inst)
        if inst is None:
            entry["unprobed"] = "no instance TensorFlow verifies: " + error
            continue
        entry["instance"] = inst.to_json()
        instances[name] = inst
    obs = probe(oracle, instances, facts, traits)
    probe_kinds(oracle, instances, obs)
    for name, o in obs.items():
        for key in ("ordered_with", "aliases_with", "instance_attrs"):
            if key in o:
                o[key] = sorted(set(o[key]))
        result[name]["observed"] = o
    self_dependent_kinds = derive_models(result, traits, resource_kind_names())
    mismatches = [n for n, e in result.items() if "observed" in e
                  and e["model"]["predicted_dce_kept"] != e["observed"]["dce_kept"]]
    for n in mismatches:
        print(f"  model does not explain DCE of {n}: {result[n]}", file=sys.stderr)
    with open(args.output, "w") as f:
        json.dump({"tensorflow_version": tf.__version__, "ops": result,
                   "self_dependent_kinds": self_dependent_kinds}, f, indent=1, sort_keys=True)
        f.write("\n")
    unprobed = [n for n, e in result.items() if "unprobed" in e]
    print(f"{len(instances)} ops probed, {len(unprobed)} not probed", file=sys.stderr)
    for n in unprobed:
        print(f"  {n}: {result[n]['unprobed']}", file=sys.stderr)


if __name__ == "__main__":
    main()
