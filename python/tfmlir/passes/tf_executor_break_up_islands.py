"""Transform from TF control dialect to TF executor dialect.

Splits every island wrapping several ops into one island per op (the form
the GraphDef exporter expects), the inverse of island coarsening. Behaviour
(matches TensorFlow's C++ pass, structurally):

* Every function with a body must consist of a single ``tf_executor.graph``
  (and its return), otherwise the pass fails ("expected function to contain
  only a graph_op").
* An island without ops gets a ``tf.NoOp`` (no results), ``tf.Identity`` (one)
  or ``tf.IdentityN`` (several) forwarding its yielded values; single-op
  islands are left alone.
* Each op of a multi-op island gets its own island, in order. Ordering
  between the ops comes from data dependencies plus control dependencies
  between side-effecting ops, computed by TF's side-effect analysis (see
  :mod:`.analysis.side_effects`: resource ops on the same or possibly aliasing
  resources are ordered, reads of a resource are not ordered among each
  other, ops with unknown effects order everything, pure ops get no control
  dependency). Ops without side-effect predecessors and without operands
  from the island (the island's "sources") inherit the island's control
  inputs, plus the controls of islands whose values it yields (grouped by a
  ``tf.NoOp`` island when there are several); ops nothing in the island
  depends on (the "sinks") are joined by a ``tf.NoOp`` island when there are
  several, whose control replaces the island's. Users of the island's data
  results get a control dependency on that sink.
* Stateful ``tf.If``/``tf.Case``/``tf.While`` keep a control edge to the fetch.

Failures (before anything is changed): a yielded value defined by a
non-island graph op ("fetching non-island as dependency"), or a result used
where no control dependency can be added.
"""
from mlir import ir

from .names import FUNC, NEXT_ITERATION_SOURCE
from .analysis.executor import (GRAPH, ISLAND, YIELD, GraphInfo, control_type,
                                op_key, rebuild_op)
from .analysis.side_effects import (FUNCTIONAL_CONTROL_FLOW as _FUNCTIONAL_CF,
                                    SideEffectAnalysis, is_stateful_functional_control_flow)
from .framework import MODULE, Pass, PassFailure, erase_op, register_pass

_NO_CONTROL_OWNERS = frozenset((GRAPH, YIELD, NEXT_ITERATION_SOURCE))


@register_pass
class BreakUpIslandsPass(Pass):
    argument = "tf-executor-break-up-islands"
    anchor = MODULE
    dependent_dialects = ("tf_executor", "tf")
    # Functions are validated before anything is mutated.

    def run_on_operation(self, op):
        module = op.operation
        functions = []
        problems = []
        for child in module.regions[0].blocks[0].operations:
            child = child.operation
            if child.name != FUNC:
                continue
            blocks = list(child.regions[0].blocks)
            if not blocks:
                continue  # external function
            ops = [o.operation for o in blocks[0].operations]
            if len(ops) != 2 or ops[0].name != GRAPH:
                problems.append(("expected function to contain only a graph_op", child))
                continue
            functions.append(ops[0])
        if problems:
            for message, where in problems[:-1]:
                where.location.emit_error(f"{self.argument}: {message}")
            self.fail(*problems[-1])
        analysis = SideEffectAnalysis(module)
        plans = []
        for graph in functions:
            plans.append(_plan(GraphInfo(graph), analysis))
        for plan in plans:
            _break_up(plan)


class _Plan:
    __slots__ = ("info", "islands", "predecessors", "body_results")


def _plan(info, analysis):
    """Validates a graph and computes what break-up needs, before mutating."""
    problem = info.problem()
    if problem is not None:
        raise PassFailure(*problem)
    names, ops = info.names, info.ops
    plan = _Plan()
    plan.info = info
    plan.islands = []
    plan.predecessors = {}
    plan.body_results = {}
    for i, name in enumerate(names):
        if name != ISLAND:
            continue
        body = info.body[i]
        if not body:
            plan.islands.append((i, "empty"))
            continue
        if len(body) == 1 and info.wraps_single_op(i):
            plan.islands.append((i, "single"))
            continue
        # Yielded values from other graph ops must come from islands.
        for value in info.yield_operands[i]:
            d = info.value_def.get(value)
            if d is not None and names[d] != ISLAND:
                raise PassFailure("fetching non-island as dependency", ops[d])
        plan.islands.append((i, "multi"))
        plan.predecessors[i] = analysis.control_predecessors(body, names=info.body_names[i])
        plan.body_results[i] = [list(op.results) for op in body]
    return plan


def _create_island(result_types, controls, loc, ip, ctl):
    """A new island at `ip` (no body ops yet); returns (island, its block)."""
    result_types.append(ctl)
    island = ir.Operation.create(ISLAND, results=result_types, operands=controls,
                                 regions=1, loc=loc, ip=ip)
    return island, ir.Block.create_at_start(island.regions[0])


def _noop_island(controls, loc, ip, ctl):
    island, block = _create_island([], controls, loc, ip, ctl)
    ip = ir.InsertionPoint(block)
    ir.Operation.create("tf.NoOp", loc=loc, ip=ip)
    ir.Operation.create(YIELD, loc=loc, ip=ip)
    return island


def _populate_empty(info, i):
    island = info.ops[i]
    loc = island.location
    yield_op = info.yield_op[i]
    values = info.yield_operands[i]
    ip = ir.InsertionPoint(yield_op)
    if not values:
        ir.Operation.create("tf.NoOp", loc=loc, ip=ip)
        return
    name = "tf.Identity" if len(values) == 1 else "tf.IdentityN"
    identity = ir.Operation.create(name, results=[v.type for v in values], operands=values,
                                   loc=loc, ip=ip)
    for k, value in enumerate(identity.results):
        yield_op.operands[k] = value


def _parent_island(op):
    parent = op.parent
    while parent is not None:
        parent = parent.operation  # (an OpView's `name` may be an attribute)
        if parent.name == ISLAND:
            return parent
        parent = parent.parent
    return None


def _break_up(plan):
    info = plan.info
    ops, results = info.ops, info.results
    ctl = control_type(info.graph.context)
    new_controls = {}   # op_key -> (op, control values to add as operands)
    # Islands holding a stateful If/Case/While alone: (order key, island op).
    stateful_cf = []

    for position in range(len(plan.islands) - 1, -1, -1):
        i, kind = plan.islands[position]
        if kind == "empty":
            _populate_empty(info, i)
            continue
        if kind == "single":
            if info.body_names[i][0] in _FUNCTIONAL_CF and \
                    is_stateful_functional_control_flow(info.body[i][0]):
                stateful_cf.append(((i, 0), ops[i]))
            continue
        island = ops[i]
        body = info.body[i]
        predecessors = plan.predecessors[i]
        body_results = plan.body_results[i]

        controls = list(info.operands[i])
        for value in info.yield_operands[i]:
            d = info.value_def.get(value)
            if d is not None:
                controls.append(results[d][-1])
        loc = island.location
        ip = ir.InsertionPoint(island)  # new islands go before it, in order
        if len(controls) > 1:
            controls = [_noop_island(controls, loc, ip, ctl).results[-1]]

        # Sources and sinks (TF's FindSourcesAndSinksInIsland).
        defined_at = {}
        for k, values in enumerate(body_results):
            for value in values:
                defined_at[value] = k
        stateful = [name in _FUNCTIONAL_CF and is_stateful_functional_control_flow(op)
                    for name, op in zip(info.body_names[i], body)]
        sinks = []
        sources = []
        is_sink = [False] * len(body)
        for k, operands in enumerate(info.body_operands[i]):
            is_sink[k] = True
            for p in predecessors[k]:
                is_sink[p] = False
            in_island = False
            for value in operands:
                d = defined_at.get(value)
                if d is not None:
                    in_island = True
                    if not stateful[d]:
                        is_sink[d] = False
            sources.append(not predecessors[k] and (not in_island or stateful[k]))

        new_control = [None] * len(body)
        for k, op in enumerate(body):
            if sources[k]:
                inputs = controls
            else:
                inputs = [new_control[p] for p in predecessors[k]]
            values = body_results[k]
            op_loc = op.location
            new_island, block = _create_island([v.type for v in values], inputs, op_loc, ip,
                                               ctl)
            new_results = list(new_island.results)
            for old, new in zip(values, new_results):
                old.replace_all_uses_with(new)
            new_yield = ir.Operation.create(YIELD, operands=values, loc=op_loc,
                                            ip=ir.InsertionPoint(block))
            op.move_before(new_yield)
            new_control[k] = new_results[-1]
            if stateful[k]:
                stateful_cf.append(((i, k + 1), new_island))
        for k in range(len(body)):
            if is_sink[k]:
                sinks.append(new_control[k])
        if len(sinks) > 1:
            sinks = [_noop_island(sinks, loc, ip, ctl).results[-1]]
        sink = sinks[0]
        island_results = results[i]
        island_results[-1].replace_all_uses_with(sink)
        for out in island_results[:-1]:
            for use in list(out.uses):
                owner = use.owner.operation
                if owner.name.startswith("tf_executor.") and owner.name not in _NO_CONTROL_OWNERS:
                    target = owner
                else:
                    target = _parent_island(owner)
                    if target is None:
                        raise RuntimeError("adding control dependency not supported")
                key = op_key(target)
                if key not in new_controls:
                    new_controls[key] = (target, [])
                new_controls[key][1].append(sink)
        old_yield = info.yield_op[i]
        current_yield = list(old_yield.operands)
        for out, value in zip(island_results[:-1], current_yield):
            out.replace_all_uses_with(value)
        erase_op(island)

    fetch = ops[-1]
    fetch_key = op_key(fetch)
    holders = {op_key(holder): n for n, (_, holder) in enumerate(stateful_cf)}
    for key, (op, extra) in new_controls.items():
        new = _add_controls(op, extra)
        if key == fetch_key:
            fetch = new
        n = holders.get(key)
        if n is not None:
            stateful_cf[n] = (stateful_cf[n][0], new)

    # Stateful functional control flow keeps a control edge to the fetch.
    if stateful_cf:
        fetched = list(fetch.operands)
        present = set(fetched)
        extra = []
        for _, holder in sorted(stateful_cf, key=lambda item: item[0]):
            control = holder.results[-1]
            if control not in present:
                present.add(control)
                extra.append(control)
        if extra:
            rebuild_op(fetch, fetched + extra)


def _add_controls(op, controls):
    """TF's re-creation of `op` with extra control operands (deduplicated by
    defining op, taken in reverse order)."""
    operands = list(op.operands)
    defining = set()
    for value in operands:
        defining.add(op_key(value.owner) if isinstance(value, ir.OpResult) else None)
    for value in reversed(controls):
        owner = op_key(value.owner)
        if owner not in defining:
            defining.add(owner)
            operands.append(value)
    return rebuild_op(op, operands)
