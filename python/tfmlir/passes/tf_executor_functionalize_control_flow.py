"""Functionalize TF1 control flow: Switch/Merge/Enter/Exit/NextIteration/LoopCond dataflow in tf_executor graphs becomes tf.While and tf.If with functions

TF1 programs (``tf.while_loop`` / ``tf.cond`` with control flow v2 off) carry
their control flow as executor dataflow. TensorFlow converts it only on its
C++ Graph before import (``upgrade_legacy``); this pass does it on the
``tf_executor.graph`` of every function, so ``tf-executor-to-functional-conversion``
and the clustering bridge accept the result.

Loops first, innermost first (a loop frame is the set of ops between the
``Enter`` ops naming it by ``frame_name`` and its ``Exit`` ops; frames nest by
the frame their ``Enter`` inputs come from). Per frame:

* the loop variables: each non-constant ``Enter`` feeding a ``Merge`` whose
  other input is a ``NextIteration.Source``, the ``Switch`` of that ``Merge``
  on the frame's single ``LoopCond``, its ``Exit`` (on the Switch's false
  output; none when the loop result is unused) and the ``NextIteration.Sink``
  value; loop-invariant ``Enter`` (``is_constant``) inputs are passed through
  unchanged as loop variables too; values the frame uses without an ``Enter``
  (constants and arguments without control inputs) are added as invariant
  variables after them. Variables are ordered as TF's functionalization
  orders them (by the ``Enter`` node name, resources last);
* the condition function ``_functionalize_cond_<n>`` holds the ops the
  ``LoopCond`` input depends on (from the ``Merge`` outputs), the body
  function ``_functionalize_body_<n>`` those the ``NextIteration`` values
  depend on (from the Switch true outputs) plus the frame's side-effecting ops
  no loop value depends on (TF drops them; in a tf_executor graph they run
  every iteration); pure ops neither needs are dropped, as TF drops them; a
  pure op both need is copied into each, a side-effecting one is an error;
* a ``tf.While`` in an island named after the ``LoopCond`` replaces the
  frame: operands the ``Enter`` inputs, results the ``Exit`` values (their
  uses, control uses included, move to it), control inputs those of the
  ``Enter`` ops; ``parallel_iterations`` from the ``Enter`` ops, TF's
  propagated attributes (``_xla_compile_device_type``,
  ``_replication_info``, ``_XlaFrontendAttributes``,
  ``_xla_outside_compilation``, ``_tpu_replicate``) from the ``LoopCond``,
  ``shape_invariant`` when a variable's type differs from its ``Enter``
  input's (the graph's shapes vary across iterations).

Then conditionals, innermost first: every value gets the branch state it is
live under (a set of (Switch predicate, branch) pairs; a ``Switch`` adds its
predicate's pair to each output, a ``Merge`` of the two branches of a
predicate removes it). The ``Merge`` ops that remove the same predicate from
the same outer state form one ``tf.If`` (in an island named
``<first Merge>_if``, attributes propagated from the predicate's op): its
operands the predicate and the inputs of the predicate's Switches (and values
from the outer state a branch uses directly), its branches
``_functionalize_if_then_branch_<n>`` / ``_functionalize_if_else_branch_<n>``
the ops live under each branch, its results (one per Merge, TF's order) each
read by a ``tf.Identity`` island at the Merge's location (TF's replacement,
which keeps the Merge's node name). Control inputs from the outer state
become control inputs of the If island, control uses of the Merges and of
branch ops become uses of the If island's control.

The functions are private, in tf_executor form (functionalized in turn), and
``is_stateless`` of each While/If comes from the side-effect analysis of its
functions (TF always writes ``false``). The graph is put back in topological
order.

Errors (the module is left unchanged), at the op named: a Merge no Switch
decides (its inputs are not the two branches of one predicate), an op whose
inputs are live under opposite branches, a value live under a branch reaching
an op outside it or the fetch without a Merge (deadness escaping its cond), a
frame entered from two frames or an op using values of two frames (deadness
escaping a frame), a loop without (or with several) ``LoopCond``, a loop
``Merge``/``Switch``/``Exit`` shape TF does not produce, a loop body using a
variable before its Switch, the condition using a body value, a Merge's
``value_index`` in use, ``ControlTrigger`` / ``_SwitchN`` inside control flow.
"""
from mlir import ir

from .generated import tf2xla_defs
from .analysis.executor import (FETCH, ISLAND, YIELD, GraphInfo, control_type, is_control, op_key,
                                rebuild_op)
from .names import FUNC, IDENTITY, IF, RETURN, WHILE
from .analysis.side_effects import is_resource_type, may_have_side_effect
from .analysis.symbols import module_body
from .framework import MODULE, Pass, PassFailure, erase_op, register_pass
from .lib.ir_helpers import SymbolNamer, name_from_loc
from . import attributes
from .walk import ADVANCE, PRE_ORDER

ENTER = "tf_executor.Enter"
EXIT = "tf_executor.Exit"
MERGE = "tf_executor.Merge"
SWITCH = "tf_executor.Switch"
SWITCH_N = "tf_executor._SwitchN"
LOOP_COND = "tf_executor.LoopCond"
SOURCE = "tf_executor.NextIteration.Source"
SINK = "tf_executor.NextIteration.Sink"
CONTROL_TRIGGER = "tf_executor.ControlTrigger"
GRAPH = "tf_executor.graph"

V1_OPS = frozenset({ENTER, EXIT, MERGE, SWITCH, SWITCH_N, LOOP_COND, SOURCE, SINK})
_LOOP_OPS = frozenset({ENTER, EXIT, LOOP_COND, SOURCE, SINK})

# TF's kAttrsToPropagate: string attributes functionalization copies from the LoopCond (While)
# or the predicate's node (If) onto the new op.
ATTRS_TO_PROPAGATE = tf2xla_defs.ATTRS_TO_PROPAGATE
OUTSIDE_COMPILATION_ATTR = "_xla_outside_compilation"


@register_pass
class ExecutorFunctionalizeControlFlow(Pass):
    argument = "tf-executor-functionalize-control-flow"
    anchor = MODULE
    dependent_dialects = ("tf", "tf_executor", "func")

    def run_on_operation(self, module):
        with module.context:
            _Functionalizer(module.operation).run()


def has_v1_control_flow(module):
    """True when some tf_executor graph of `module` holds TF1 control-flow ops."""
    found = []

    def visit(op):
        if op.name in V1_OPS:
            found.append(op)
            return ir.WalkResult.INTERRUPT
        return ADVANCE

    module.operation.walk(visit, PRE_ORDER)
    return bool(found)


class _Frame:
    __slots__ = ("name", "parent", "tentative", "enters", "exits", "sinks", "members", "first")

    def __init__(self, name, parent, tentative, first):
        self.name = name
        self.parent = parent
        self.tentative = tentative
        self.first = first
        self.enters, self.exits, self.sinks, self.members = [], [], [], []

    def depth(self):
        depth, frame = 0, self
        while frame.parent is not None:
            depth += 1
            frame = frame.parent
        return depth


_ROOT = _Frame("", None, False, None)
_FLOAT = object()    # no inputs at all: usable from any frame (captured)
_PENDING = object()  # a NextIteration.Source before its Sink is seen


def _node_name(op):
    return name_from_loc(op.location)


def _describe(op):
    name = _node_name(op)
    return f"'{op.name}' op '{name}'" if name else f"'{op.name}' op"


class _Graph:
    """Bookkeeping for one tf_executor graph being rewritten: ops by index (new ops appended),
    the graph-level values each op uses, the op defining each value, and value aliases (a
    replaced value -> its replacement)."""

    def __init__(self, graph_op, func_args):
        info = GraphInfo(graph_op, uses=False, links=False)
        problem = info.problem()
        if problem is not None:
            message, op = problem
            raise PassFailure(message, op)
        self.graph = graph_op
        self.ops = list(info.ops)
        self.names = list(info.names)
        self.results = [list(r) for r in info.results]
        vdef = {}
        for j, values in enumerate(self.results):
            for value in values:
                vdef[value] = j
        self.vdef = vdef
        self.func_args = func_args
        inputs = []
        for i, op in enumerate(self.ops):
            values = list(info.operands[i])
            if i in info.body:
                for operands in info.body_operands[i]:
                    values.extend(operands)
                for _op, _name, operands in info.nested[i]:
                    values.extend(operands)
            inputs.append(self._graph_level(values))
        self.inputs = inputs
        self.alive = [True] * len(self.ops)
        self.alias = {}

    def uses_of(self, i):
        """The graph-level values op `i` uses now (values replaced since the scan resolved)."""
        alias = self.alias
        if not alias:
            return self.inputs[i]
        out = []
        for value in self.inputs[i]:
            while value in alias:
                value = alias[value]
            out.append(value)
        return out

    def replace(self, old, new):
        """Replaces every use of `old` by `new`, remembering it for :meth:`uses_of`."""
        old.replace_all_uses_with(new)
        self.alias[old] = new

    def _graph_level(self, values):
        vdef, args = self.vdef, self.func_args
        seen, out = set(), []
        for value in values:
            if (value in vdef or value in args) and value not in seen:
                seen.add(value)
                out.append(value)
        return out

    def add(self, op, inputs):
        index = len(self.ops)
        self.ops.append(op)
        self.names.append(op.name)
        self.results.append(list(op.results))
        for value in op.results:
            self.vdef[value] = index
        self.inputs.append(self._graph_level(inputs))
        self.alive.append(True)
        return index


class _Functionalizer:
    def __init__(self, module):
        self.module = module
        self.body = module_body(module)
        self.namer = SymbolNamer(module)
        self.next_index = {}
        self.created = {}       # function name -> func op (the functions this run creates)
        self.control_flow = []  # (op, [callee names]) of the While / If ops created
        self.worklist = []

    # -- driver ------------------------------------------------------------

    def run(self):
        for op in list(self.body.operations):
            op = op.operation
            if op.name == FUNC and len(op.regions[0].blocks):
                self.worklist.append(op)
        while self.worklist:
            func = self.worklist.pop(0)
            self.functionalize_function(func)
        self.set_statelessness()

    def functionalize_function(self, func):
        graphs = []

        def visit(op):
            if op.name == GRAPH:
                graphs.append(op)
            return ADVANCE

        func.walk(visit, ir.WalkOrder.POST_ORDER)
        if not graphs:
            return
        entry = func.regions[0].blocks[0]
        func_args = set(entry.arguments)
        for graph in graphs:
            if not any(op.operation.name in V1_OPS for op in graph.regions[0].blocks[0].operations):
                continue
            self.functionalize_graph(graph, func_args)

    def functionalize_graph(self, graph_op, func_args):
        g = _Graph(graph_op, func_args)
        if any(name in _LOOP_OPS for name in g.names):
            _Loops(self, g).run()
            _reorder(graph_op)
            g = _Graph(graph_op, func_args)
        if any(name in (SWITCH, MERGE, SWITCH_N) for name in g.names):
            _Conds(self, g).run()
            _reorder(graph_op)
        for op in graph_op.regions[0].blocks[0].operations:
            op = op.operation
            if op.name in V1_OPS:
                raise PassFailure(f"{_describe(op)}: TF1 control flow left after functionalization", op)

    # -- function creation --------------------------------------------------

    def unique_name(self, prefix):
        """TF's ``FunctionLibraryDefinition::UniqueFunctionName``: `prefix` followed by the
        smallest index not taken."""
        names = self.namer.names
        index = self.next_index.get(prefix, 0)
        while f"{prefix}{index}" in names:
            index += 1
        self.next_index[prefix] = index + 1
        name = f"{prefix}{index}"
        names.add(name)
        return name

    def new_function(self, base, arg_types, loc):
        """A private ``func.func`` named from prefix `base` with a block of `arg_types`
        arguments; returns ``(name, func, entry block)``."""
        name = self.unique_name(base)
        context = self.module.context
        ftype = ir.FunctionType.get(list(arg_types), [], context)
        func = ir.Operation.create(FUNC, attributes={
            "sym_name": ir.StringAttr.get(name, context), "function_type": ir.TypeAttr.get(ftype),
            "sym_visibility": ir.StringAttr.get("private", context)},
            regions=1, loc=loc, ip=ir.InsertionPoint(self.body))
        entry = func.regions[0].blocks.append(*arg_types, arg_locs=[loc] * len(arg_types))
        self.created[name] = func
        return name, func, entry

    def finish_function(self, func, entry, ops, mapping, drop, results, loc, clone=()):
        """Moves (or, for ops whose key is in `clone`, copies) the graph-level `ops` (in order)
        into a new tf_executor.graph of `func`, remaps their uses of the values in `mapping`,
        drops their control operands in `drop`, and fetches `results` (values of the old graph,
        mapped); `func` returns them. Queues `func` for functionalization."""
        mapping = dict(mapping)
        result_types = [mapping.get(v, v).type for v in results]
        graph = ir.Operation.create(GRAPH, results=result_types, regions=1, loc=loc,
                                    ip=ir.InsertionPoint(entry))
        block = graph.regions[0].blocks.append()
        at_end = ir.InsertionPoint(block)
        moved = []
        for op in ops:
            if clone and op_key(op) in clone:
                new = op.clone(ip=at_end)
                for old_value, new_value in zip(op.results, new.results):
                    mapping[old_value] = new_value
                moved.append(new)
            else:
                at_end.insert(op.detach_from_parent())
                moved.append(op)
        for op in moved:
            _remap(op, mapping, drop)
        ir.Operation.create(FETCH, operands=[mapping.get(v, v) for v in results], loc=loc, ip=at_end)
        _reorder(graph)
        ir.Operation.create(RETURN, operands=list(graph.results), loc=loc, ip=ir.InsertionPoint(entry))
        arg_types = [a.type for a in entry.arguments]
        func.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(arg_types, result_types))
        self.worklist.append(func)
        return result_types

    # -- statelessness --------------------------------------------------------

    def set_statelessness(self):
        memo = {}
        for op, callees in self.control_flow:
            stateless = all(self._stateless(name, memo) for name in callees)
            op.attributes["is_stateless"] = ir.BoolAttr.get(stateless)

    def _stateless(self, name, memo):
        if name in memo:
            return memo[name]
        memo[name] = False  # recursion guard
        func = self.created.get(name)
        if func is None:
            return False
        pure = [True]
        created = self.created

        def visit(op):
            opname = op.name
            if opname.startswith("tf_executor.") or opname in (FUNC, RETURN):
                return ADVANCE
            if opname in (WHILE, IF):
                names = [_symbol(op, a) for a in ("cond", "body", "then_branch", "else_branch")]
                names = [n for n in names if n]
                if names and all(n in created for n in names):
                    if not all(self._stateless(n, memo) for n in names):
                        pure[0] = False
                        return ir.WalkResult.INTERRUPT
                    return ADVANCE
            if may_have_side_effect(op, opname):
                pure[0] = False
                return ir.WalkResult.INTERRUPT
            return ADVANCE

        func.walk(visit, PRE_ORDER)
        memo[name] = pure[0]
        return pure[0]


def _symbol(op, attr):
    attributes = op.attributes
    if attr not in attributes:
        return None
    value = attributes[attr]
    if isinstance(value, ir.FlatSymbolRefAttr):
        return value.value
    return None


def _remap(op, mapping, drop):
    """Rewrites `op`'s uses (nested ones too) of values in `mapping`; removes its own control
    operands listed in `drop` (rebuilding it). Returns the op (new if rebuilt)."""
    op = op.operation

    def visit(nested):
        operands = nested.operands
        for index in range(len(operands)):
            value = operands[index]
            new = mapping.get(value)
            if new is not None:
                operands[index] = new
        return ADVANCE

    op.walk(visit, PRE_ORDER)
    if drop:
        operands = list(op.operands)
        kept = [v for v in operands if v not in drop]
        if len(kept) != len(operands):
            op = rebuild_op(op, kept)
    return op


def _propagated_attrs(source_op):
    attrs = {}
    if source_op is None:
        return attrs
    for name in ATTRS_TO_PROPAGATE:
        if name in source_op.attributes and isinstance(source_op.attributes[name], ir.StringAttr):
            attrs[name] = source_op.attributes[name]
    return attrs


def _wrapped_op(island):
    """The op an island wraps (its first body op), or the op itself for other ops."""
    island = island.operation
    if island.name != ISLAND:
        return island
    ops = island.regions[0].blocks[0].operations
    return ops[0].operation if len(ops) > 1 else island


def _island(result_types, controls, loc, ip):
    context = loc.context
    island = ir.Operation.create(ISLAND, results=list(result_types) + [control_type(context)],
                                 operands=list(controls), regions=1, loc=loc, ip=ip)
    block = island.regions[0].blocks.append()
    return island, block


# ---------------------------------------------------------------------------
# Loops


class _Loops:
    def __init__(self, fz, g):
        self.fz = fz
        self.g = g

    def run(self):
        frames = self.assign_frames()
        order = sorted(frames, key=lambda f: (-f.depth(), f.first))
        for frame in order:
            self.functionalize(frame)

    def assign_frames(self):
        g = self.g
        n = len(g.ops)
        frame_of = [None] * n
        out = [None] * n
        frames = {}
        ordered = []
        names, ops, vdef = g.names, g.ops, g.vdef
        for i in range(n):
            name = names[i]
            if name == SOURCE:
                frame_of[i] = out[i] = _PENDING
                continue
            found = _FLOAT
            for value in g.uses_of(i):
                j = vdef.get(value)
                if j is None:
                    continue
                f = out[j]
                if f is _FLOAT or f is _PENDING:
                    continue
                if found is _FLOAT:
                    found = f
                elif f is not found:
                    raise PassFailure(
                        f"{_describe(ops[i])} uses values of two control-flow frames ('{found.name}' and "
                        f"'{f.name}'): a value leaves a while loop without an Exit or enters it without "
                        f"an Enter", ops[i])
            if name == ENTER:
                frame_name = ir.StringAttr(ops[i].attributes["frame_name"]).value
                parent = _ROOT if found is _FLOAT else found
                child = frames.get(frame_name)
                if child is None:
                    child = frames[frame_name] = _Frame(frame_name, parent, found is _FLOAT, i)
                    ordered.append(child)
                elif child.parent is not parent:
                    if child.tentative and found is not _FLOAT:
                        child.parent, child.tentative = parent, False
                    elif found is not _FLOAT:
                        raise PassFailure(
                            f"{_describe(ops[i])}: frame '{frame_name}' is entered from two frames "
                            f"('{child.parent.name}' and '{parent.name}')", ops[i])
                frame_of[i] = parent
                out[i] = child
                child.enters.append(i)
            elif name == EXIT:
                if found is _FLOAT or found is _ROOT:
                    raise PassFailure(f"{_describe(ops[i])} is not inside a while loop frame", ops[i])
                frame_of[i] = found
                out[i] = found.parent
                found.exits.append(i)
            elif name == SINK:
                if found is _FLOAT or found is _ROOT:
                    raise PassFailure(f"{_describe(ops[i])} is not inside a while loop frame", ops[i])
                frame_of[i] = out[i] = found
                token = ops[i].operands[0]
                j = vdef.get(token)
                if j is None or names[j] != SOURCE:
                    raise PassFailure(f"{_describe(ops[i])}: its token does not come from a "
                                      "NextIteration.Source", ops[i])
                if frame_of[j] is not _PENDING and frame_of[j] is not found:
                    raise PassFailure(f"{_describe(ops[i])} is in another frame than its source", ops[i])
                frame_of[j] = out[j] = found
                found.sinks.append(i)
                found.members.append(j)
            else:
                if name in (LOOP_COND,) and (found is _FLOAT or found is _ROOT):
                    raise PassFailure(f"{_describe(ops[i])} is not inside a while loop frame", ops[i])
                frame_of[i] = out[i] = found
                if found is not _FLOAT and found is not _ROOT:
                    found.members.append(i)
        for i in range(n):
            if frame_of[i] is _PENDING:
                raise PassFailure(f"{_describe(ops[i])} has no NextIteration.Sink", ops[i])
        # A NextIteration.Source's output is used in its own frame only (by the loop Merge).
        for frame in ordered:
            for i in frame.members:
                if names[i] == MERGE:
                    for value in g.uses_of(i):
                        j = vdef.get(value)
                        if j is not None and names[j] == SOURCE and frame_of[j] is not frame:
                            raise PassFailure(f"{_describe(ops[i])} merges a NextIteration value of "
                                              "another frame", ops[i])
        self.frame_of, self.out = frame_of, out
        return ordered

    def functionalize(self, frame):
        g, fz = self.g, self.fz
        ops, names, vdef = g.ops, g.names, g.vdef
        members = [i for i in frame.members if g.alive[i]]
        first_enter = ops[frame.enters[0]]
        loop_conds = [i for i in members if names[i] == LOOP_COND]
        if not loop_conds:
            raise PassFailure(f"{_describe(first_enter)}: loop '{frame.name}' has no LoopCond node",
                              first_enter)
        if len(loop_conds) > 1:
            raise PassFailure(f"{_describe(ops[loop_conds[1]])}: loop '{frame.name}' has more than one "
                              "LoopCond node", ops[loop_conds[1]])
        lc = loop_conds[0]
        loop_cond = ops[lc]
        predicate = g.results[lc][0]
        for i in members:
            if names[i] in (CONTROL_TRIGGER, SWITCH_N):
                raise PassFailure(f"{_describe(ops[i])}: {names[i]} inside a while loop is not "
                                  "supported", ops[i])

        uses = self._uses(members + frame.exits + frame.sinks)
        # Loop variables.
        args = []  # dict per variable
        loop_merges, loop_switches = set(), set()
        for e in frame.enters:
            enter = ops[e]
            enter_out = g.results[e][0]
            data = enter.operands[0]
            if attributes.boolean(enter, "is_constant", False):
                args.append({"kind": "invariant", "enter": e, "value": enter_out, "operand": data,
                             "type": enter_out.type})
                continue
            users = uses.get(enter_out, [])
            if not users:
                raise PassFailure(f"{_describe(enter)}: the loop-varying Enter has no successor", enter)
            for m in users:
                if names[m] != MERGE:
                    raise PassFailure(f"{_describe(ops[m])}: successor of the loop-varying Enter "
                                      f"'{_node_name(enter)}' is not a Merge", ops[m])
                merge = ops[m]
                data_inputs = [v for v in merge.operands if not is_control(v.type)]
                if len(data_inputs) != 2:
                    raise PassFailure(f"{_describe(merge)}: a loop Merge needs 2 inputs, got "
                                      f"{len(data_inputs)}", merge)
                other = data_inputs[1] if data_inputs[0] == enter_out else data_inputs[0]
                s = vdef.get(other)
                if s is None or names[s] != SOURCE:
                    raise PassFailure(f"{_describe(merge)}: expected a NextIteration input to the loop "
                                      "Merge", merge)
                merge_out, value_index = g.results[m][0], g.results[m][1]
                if uses.get(value_index):
                    raise PassFailure(f"{_describe(merge)}: the value_index output of a loop Merge is "
                                      "used", merge)
                switches = [u for u in uses.get(merge_out, []) if names[u] == SWITCH
                            and ops[u].operands[1] == predicate and ops[u].operands[0] == merge_out]
                if len(switches) != 1:
                    raise PassFailure(f"{_describe(merge)}: {'missing' if not switches else 'duplicate'}"
                                      " Switch successor on the loop condition", merge)
                sw = switches[0]
                false_out, true_out = g.results[sw][0], g.results[sw][1]
                exits = uses.get(false_out, [])
                if any(names[x] != EXIT for x in exits) or len(exits) > 1:
                    bad = next((x for x in exits if names[x] != EXIT), exits[-1])
                    raise PassFailure(f"{_describe(ops[bad])}: only an Exit may use the false output of "
                                      f"the loop Switch '{_node_name(ops[sw])}'", ops[bad])
                sink = None
                for k in frame.sinks:
                    if ops[k].operands[0] == g.results[s][1]:
                        sink = k
                if sink is None:
                    raise PassFailure(f"{_describe(ops[s])} has no NextIteration.Sink", ops[s])
                loop_merges.add(m)
                loop_switches.add(sw)
                args.append({"kind": "varying", "enter": e, "merge": m, "switch": sw,
                             "exit": exits[0] if exits else None, "source": s, "sink": sink,
                             "value": merge_out, "true": true_out, "operand": data,
                             "next": ops[sink].operands[1], "type": merge_out.type})
        for i in members:
            if names[i] == SOURCE:
                if not any(a["kind"] == "varying" and a["source"] == i for a in args):
                    raise PassFailure(f"{_describe(ops[i])} does not feed a loop Merge", ops[i])
            elif names[i] == SWITCH and i not in loop_switches and ops[i].operands[1] == predicate:
                raise PassFailure(f"{_describe(ops[i])}: a Switch on the loop condition that does not "
                                  "switch a loop variable", ops[i])
            elif names[i] == MERGE and i not in loop_merges:
                for value in ops[i].operands:
                    j = vdef.get(value)
                    if j is not None and names[j] == SOURCE:
                        raise PassFailure(f"{_describe(ops[i])}: a Merge of a NextIteration value "
                                          "without an Enter", ops[i])
        if uses.get(predicate) and any(u not in loop_switches for u in uses[predicate]):
            u = next(u for u in uses[predicate] if u not in loop_switches)
            raise PassFailure(f"{_describe(ops[u])} uses the loop condition '{_node_name(loop_cond)}' "
                              "(only the loop's Switches may)", ops[u])
        positions = {}
        for index, arg in enumerate(args):
            enter = ops[arg["enter"]]
            positions[index] = (is_resource_type(arg["operand"].type), _node_name(enter), index)
        args = [args[k] for k in sorted(range(len(args)), key=positions.__getitem__)]

        structural = set(loop_merges) | loop_switches | {lc} | set(frame.exits) | set(frame.sinks)
        structural |= {a["source"] for a in args if a["kind"] == "varying"}
        drop = set()
        for a in args:
            drop.add(g.results[a["enter"]][-1])
            if a["kind"] == "varying":
                drop.add(g.results[a["merge"]][-1])
                drop.add(g.results[a["switch"]][-1])
        drop.add(g.results[lc][-1])
        cond_stop = {a["value"]: k for k, a in enumerate(args)}
        body_stop = {}
        for k, a in enumerate(args):
            body_stop[a["true"] if a["kind"] == "varying" else a["value"]] = k
        captures = []

        def slice_from(roots, stop, forbidden, what):
            found = set()
            stack = []
            for value in roots:
                stack.append(value)
            while stack:
                value = stack.pop()
                if value in stop or value in drop:
                    continue
                j = vdef.get(value)
                if j is None or self.out[j] is _FLOAT or self.out[j] is not frame:
                    if j is not None and self.out[j] is not _FLOAT and self.out[j] is not frame:
                        raise PassFailure(f"{_describe(ops[j])}: its value reaches loop '{frame.name}' "
                                          "without an Enter", ops[j])
                    if value not in captures:
                        if is_control(value.type):
                            raise PassFailure(f"{what} of loop '{frame.name}' has a control input from "
                                              f"outside the loop ({_describe(ops[j])})", ops[j])
                        captures.append(value)
                    continue
                if j in forbidden:
                    raise PassFailure(forbidden[j], ops[j])
                if j in structural:
                    raise PassFailure(f"{_describe(ops[j])}: the {what} of loop '{frame.name}' uses it",
                                      ops[j])
                if j in found:
                    continue
                found.add(j)
                stack.extend(g.uses_of(j))
            return found

        body_forbidden = {a["merge"]: f"{_describe(ops[a['merge']])}: the loop body uses a loop "
                          f"variable before its Switch" for a in args if a["kind"] == "varying"}
        cond_forbidden = {a["switch"]: f"{_describe(ops[a['switch']])}: the loop condition uses a "
                          "value of the loop body" for a in args if a["kind"] == "varying"}
        cond_ops = slice_from([ops[lc].operands[0]] + _controls(ops[lc]), cond_stop, cond_forbidden,
                              "condition")
        body_roots = [a["next"] for a in args if a["kind"] == "varying"]
        for k in frame.sinks:
            body_roots.extend(_controls(ops[k]))
        for a in args:
            if a["kind"] == "varying":
                body_roots.extend(_controls(ops[a["switch"]]))
        leftovers = [i for i in members if i not in structural and i not in cond_ops]
        body_ops = slice_from(body_roots, body_stop, body_forbidden, "body")
        extra = [i for i in leftovers if i not in body_ops and _has_side_effects(ops[i])]
        if extra:
            body_roots.extend(v for i in extra for v in g.results[i])
            body_ops = slice_from(body_roots, body_stop, body_forbidden, "body")
        shared = cond_ops & body_ops
        for i in shared:
            if _has_side_effects(ops[i]):
                raise PassFailure(f"{_describe(ops[i])} has side effects and is used by both the "
                                  f"condition and the body of loop '{frame.name}'", ops[i])
        dead = [i for i in members if i not in structural and i not in cond_ops and i not in body_ops]

        # Function signatures.
        arg_types = [a["type"] for a in args] + [v.type for v in captures]
        loc = loop_cond.location
        cond_name, cond_func, cond_entry = fz.new_function("_functionalize_cond_", arg_types, loc)
        body_name, body_func, body_entry = fz.new_function("_functionalize_body_", arg_types, loc)
        ncap = len(args)
        cond_map = {v: cond_entry.arguments[k] for v, k in cond_stop.items()}
        body_map = {v: body_entry.arguments[k] for v, k in body_stop.items()}
        for k, v in enumerate(captures):
            cond_map[v] = cond_entry.arguments[ncap + k]
            body_map[v] = body_entry.arguments[ncap + k]
        body_results = []
        for k, a in enumerate(args):
            body_results.append(a["next"] if a["kind"] == "varying" else a["value"])
        body_results += list(captures)
        order_cond = [ops[i] for i in sorted(cond_ops)]
        order_body = [ops[i] for i in sorted(body_ops)]
        clone_keys = {op_key(ops[i]) for i in shared}
        fz.finish_function(cond_func, cond_entry, order_cond, cond_map, drop,
                           [ops[lc].operands[0]], loc, clone=clone_keys)
        for i in cond_ops - shared:
            g.alive[i] = False
        fz.finish_function(body_func, body_entry, order_body, body_map, drop, body_results, loc)
        for i in body_ops:
            g.alive[i] = False

        # The While.
        enter_controls = []
        for a in args:
            for value in _controls(ops[a["enter"]]):
                if value not in enter_controls:
                    enter_controls.append(value)
        result_types = arg_types
        operands = [a["operand"] for a in args] + captures
        ip = ir.InsertionPoint(loop_cond)
        island, block = _island(result_types, enter_controls, loc, ip)
        parallel_iterations = attributes.integer(ops[frame.enters[0]], "parallel_iterations")
        if parallel_iterations is None:
            parallel_iterations = 10  # the Enter's ODS default
        while_attributes = {
            "body": ir.FlatSymbolRefAttr.get(body_name), "cond": ir.FlatSymbolRefAttr.get(cond_name),
            "is_stateless": ir.BoolAttr.get(False),
            "parallel_iterations": ir.IntegerAttr.get(ir.IntegerType.get_signless(64),
                                                      parallel_iterations),
            "device": ir.StringAttr.get(""),
        }
        if any(a["kind"] == "varying" and _ranked(a["type"]) and a["type"] != a["operand"].type
               for a in args):
            while_attributes["shape_invariant"] = ir.UnitAttr.get()
        while_attributes.update(_propagated_attrs(_wrapped_op(loop_cond)))
        while_op = ir.Operation.create(WHILE, results=result_types, operands=operands,
                                       attributes=while_attributes, loc=loc, ip=ir.InsertionPoint(block))
        ir.Operation.create(YIELD, operands=list(while_op.results), loc=loc, ip=ir.InsertionPoint(block))
        fz.control_flow.append((while_op, [cond_name, body_name]))
        control = island.results[len(result_types)]
        for k, a in enumerate(args):
            if a["kind"] == "varying" and a["exit"] is not None:
                x = a["exit"]
                g.replace(g.results[x][0], island.results[k])
                g.replace(g.results[x][1], control)
        # Erase the loop's structure, users first.
        for group in (frame.sinks, frame.exits, sorted(loop_switches), [lc], sorted(loop_merges),
                      [a["source"] for a in args if a["kind"] == "varying"],
                      [i for i in dead], [a["enter"] for a in args]):
            for i in sorted(set(group), reverse=True):
                if g.alive[i]:
                    erase_op(ops[i])
                    g.alive[i] = False
        w = g.add(island, list(operands) + enter_controls)
        self.frame_of.append(frame.parent)
        self.out.append(frame.parent)
        if frame.parent is not _ROOT:
            frame.parent.members.append(w)

    def _uses(self, members):
        """value -> indices of the ops in `members` using it."""
        g = self.g
        uses = {}
        for i in members:
            for value in g.uses_of(i):
                uses.setdefault(value, []).append(i)
        return uses


def _controls(op):
    return [v for v in op.operands if is_control(v.type)]


def _ranked(value_type):
    return isinstance(value_type, ir.RankedTensorType)


def _has_side_effects(op):
    op = op.operation
    if op.name != ISLAND:
        return False
    found = []

    def visit(nested):
        if nested.name in (ISLAND, YIELD):
            return ADVANCE
        if may_have_side_effect(nested, nested.name):
            found.append(nested)
            return ir.WalkResult.INTERRUPT
        return ADVANCE

    op.walk(visit, PRE_ORDER)
    return bool(found)


# ---------------------------------------------------------------------------
# Conditionals


_EMPTY = frozenset()


class _Conds:
    def __init__(self, fz, g):
        self.fz = fz
        self.g = g
        self.predicates = {}

    def run(self):
        g = self.g
        ops, names, vdef = g.ops, g.names, g.vdef
        state = {}
        op_state = [None] * len(ops)
        groups = {}
        merge_info = {}
        interned = {}

        def intern(s):
            found = interned.get(s)
            if found is None:
                found = interned[s] = s
            return found

        def union(i):
            st = _EMPTY
            for value in g.uses_of(i):
                s = state.get(value)
                if s:
                    if not st:
                        st = s
                    elif not s <= st:
                        st = st | s
            if st:
                seen = {}
                for p, b in st:
                    if seen.setdefault(p, b) != b:
                        raise PassFailure(
                            f"{_describe(ops[i])}: its inputs are live under opposite branches of the "
                            f"Switch predicate {_value_name(p, g)}", ops[i])
            return st

        # TF's ancestor state: the Merges and Switch predicates an op depends on; Merges are
        # grouped by (predicate, outer state, ancestor state), so two conds on one predicate
        # become one If only when neither depends on the other (no cycle) and their
        # dependencies agree, as in TF.
        ancestors = [_EMPTY] * len(ops)
        marker = [None] * len(ops)
        interned_anc = {}

        def ancestor_state(i):
            found = None
            extra = []
            for value in g.inputs[i]:
                j = vdef.get(value)
                if j is None:
                    continue
                a = ancestors[j]
                if a:
                    if found is None:
                        found = a
                    elif a is not found and not a <= found:
                        found = found | a
                if marker[j] is not None:
                    extra.append(marker[j])
            if found is None:
                found = _EMPTY
            if extra and not all(m in found for m in extra):
                found = found | frozenset(extra)
            return interned_anc.setdefault(found, found)

        for i in range(len(ops)):
            name = names[i]
            op = ops[i]
            ancestors[i] = ancestor_state(i)
            if name == SWITCH:
                marker[i] = ("p", self.predicate(op))
            elif name == MERGE:
                marker[i] = ("m", i)
            if name == SWITCH:
                st = intern(union(i))
                p = self.predicate(op)
                false_out, true_out, control = g.results[i]
                state[false_out] = intern(st | {(p, 0)})
                state[true_out] = intern(st | {(p, 1)})
                if st:
                    state[control] = st
                op_state[i] = st
            elif name == MERGE:
                data = [v for v in op.operands if not is_control(v.type)]
                if len(data) != 2:
                    raise PassFailure(f"{_describe(op)}: a Merge of {len(data)} inputs is not supported "
                                      "(a tf.cond Merge has 2)", op)
                s0, s1 = state.get(data[0], _EMPTY), state.get(data[1], _EMPTY)
                diff = s0 ^ s1
                preds = {p for p, _ in diff}
                if len(diff) != 2 or len(preds) != 1:
                    raise PassFailure(
                        f"{_describe(op)}: no Switch decides between its inputs (they must be live "
                        f"under the two branches of one Switch predicate)", op)
                p = next(iter(preds))
                common = intern(s0 & s1)
                for value in _controls(op):
                    if not state.get(value, _EMPTY) <= common:
                        raise PassFailure(f"{_describe(op)}: a control input is live under a branch",
                                          op)
                branch_of_input = (0, 1) if (p, 0) in s0 else (1, 0)
                merge_info[i] = (p, data, branch_of_input)
                for value in g.results[i]:
                    if common:
                        state[value] = common
                op_state[i] = common
                groups.setdefault((p, common, ancestors[i]), []).append(i)
            elif name == SWITCH_N or name == CONTROL_TRIGGER:
                st = union(i)
                if st or name == SWITCH_N:
                    raise PassFailure(f"{_describe(op)}: {name} in a conditional is not supported", op)
                op_state[i] = st
            elif name == FETCH:
                for value in op.operands:
                    if state.get(value):
                        j = vdef.get(value)
                        raise PassFailure(
                            f"{_describe(ops[j])}: its value is live under a branch of the Switch "
                            f"predicate {_value_name(next(iter(state[value]))[0], g)} and reaches "
                            "the graph's fetch without a Merge", ops[j])
                op_state[i] = _EMPTY
            else:
                st = intern(union(i))
                if st:
                    for value in g.results[i]:
                        state[value] = st
                op_state[i] = st

        self.state, self.op_state, self.merge_info = state, op_state, merge_info
        by_state = {}
        for i, st in enumerate(op_state):
            if st and names[i] not in (MERGE, FETCH):
                by_state.setdefault(st, []).append(i)
        self.by_state = by_state
        # Innermost first: a nested conditional's outer state includes the outer branch.
        order = sorted(groups, key=lambda k: (-len(k[1]), min(groups[k])))
        self.pending = {}
        for key in order:
            self.pending.setdefault((key[0], key[1]), []).append(groups[key])
        for key in order:
            siblings = self.pending[(key[0], key[1])]
            siblings.remove(groups[key])
            self.functionalize(key[0], key[1], groups[key], siblings)
        # Ops live under a branch that no Merge needs: pure ones go (as in TF), users first;
        # an op with side effects would be lost (TF drops it silently): an error.
        changed = True
        while changed:
            changed = False
            for i in range(len(self.op_state) - 1, -1, -1):
                st = self.op_state[i]
                if st and g.alive[i] and names[i] != FETCH and not _has_side_effects(ops[i]) \
                        and not any(len(list(r.uses)) for r in g.results[i]):
                    erase_op(ops[i])
                    g.alive[i] = False
                    changed = True
        for i, st in enumerate(self.op_state):
            if st and g.alive[i] and names[i] != FETCH:
                p = next(iter(st))[0]
                raise PassFailure(
                    f"{_describe(ops[i])} is live under a branch of the Switch predicate "
                    f"{_value_name(p, g)} and no Merge depends on it (its side effects would be "
                    "lost)", ops[i])
        for i in range(len(ops)):
            if g.alive[i] and names[i] == SWITCH:
                if not any(len(list(r.uses)) for r in g.results[i]):
                    erase_op(ops[i])
                    g.alive[i] = False

    def functionalize(self, p, outer, merges, siblings):
        """Replaces the Merges `merges` (one predicate `p`, outer state `outer`, one ancestor
        state) by an If; `siblings` are the Merge groups on the same predicate and outer state
        still to come (ops their branches need too are copied, not moved)."""
        g, fz = self.g, self.fz
        ops, names, vdef = g.ops, g.names, g.vdef
        state, op_state = self.state, self.op_state
        merge_set = set(merges)
        merges = sorted(merges, key=lambda m: (is_resource_type(g.results[m][0].type),
                                               _node_name(ops[m]), m))
        for m in merges:
            if len(list(g.results[m][1].uses)):
                raise PassFailure(f"{_describe(ops[m])}: output of index (1) of a Merge is used "
                                  "(not supported)", ops[m])
        # The branches: the ops live under each branch that the Merges' inputs depend on (as
        # TF extracts them).
        members = {b: sorted(self.branch_slice(merges, p, outer, b)) for b in (0, 1)}
        shared = set()
        for other in siblings:
            for b in (0, 1):
                shared |= self.branch_slice(other, p, outer, b) & set(members[b])
        # Ops of the branch no Merge of these conditionals needs: pure ones go (TF drops them);
        # one with side effects would be lost (TF drops it silently): an error.
        for b in (0, 1):
            branch_state = frozenset(outer | {(p, b)})
            claimed = set(members[b])
            for other in siblings:
                claimed |= self.branch_slice(other, p, outer, b)
            left = [i for i in self.by_state.get(branch_state, ()) if g.alive[i] and i not in claimed
                    and names[i] != MERGE]
            changed = True
            while changed:
                changed = False
                for i in sorted(left, reverse=True):
                    if g.alive[i] and not _has_side_effects(ops[i]) \
                            and not any(len(list(r.uses)) for r in g.results[i]):
                        erase_op(ops[i])
                        g.alive[i] = False
                        changed = True
            for i in left:
                if g.alive[i]:
                    raise PassFailure(
                        f"{_describe(ops[i])} is live under a branch of the Switch predicate "
                        f"{_value_name(p, g)} and no Merge depends on it (its side effects would be "
                        "lost)", ops[i])
        member_sets = {b: set(members[b]) for b in (0, 1)}
        # Inputs of the If: the Switches on `p` in the outer state, and outer values used directly.
        arg_keys = {}
        ext_controls = []
        input_switches = set()
        branch_maps = {0: {}, 1: {}}
        drop = set()

        def classify(value, b, user):
            """Maps `value` (used in branch `b` by op index `user`) to the If's inputs."""
            if value in branch_maps[b] or value in drop:
                return
            j = vdef.get(value)
            if j is not None and j in member_sets[b]:
                return
            if j is not None and names[j] == SWITCH and self.predicate(ops[j]) == p \
                    and op_state[j] == outer:
                false_out, true_out, control = g.results[j]
                if value == control:
                    drop.add(value)
                    input_switches.add(j)
                    return
                taken = 0 if value == false_out else 1
                if taken != b:
                    raise PassFailure(f"{_describe(ops[user])} uses the other branch of Switch "
                                      f"'{_node_name(ops[j])}'", ops[user])
                input_switches.add(j)
                data = ops[j].operands[0]
                key = (is_resource_type(data.type), _node_name(ops[j]), j)
                if data not in arg_keys or key < arg_keys[data]:
                    arg_keys[data] = key
                branch_maps[b][value] = data
                return
            st = state.get(value, _EMPTY)
            if not st <= outer:
                culprit = ops[j] if j is not None else ops[user]
                raise PassFailure(
                    f"{_describe(culprit)}: its value is live under a branch of the Switch predicate "
                    f"{_value_name(p if (p, 0) in st or (p, 1) in st else next(iter(st - outer))[0], g)}"
                    f" and is used by {_describe(ops[user])} without a Merge", culprit)
            if is_control(value.type):
                if value not in ext_controls:
                    ext_controls.append(value)
                drop.add(value)
                return
            source = ops[j] if j is not None else None
            name = (_node_name(source) if source is not None else "") + "_added_switch"
            key = (is_resource_type(value.type), name, -1)
            if value not in arg_keys or key < arg_keys[value]:
                arg_keys[value] = key
            branch_maps[b][value] = value

        for b in (0, 1):
            for i in members[b]:
                for value in g.uses_of(i):
                    classify(value, b, i)
        merge_inputs = {}
        for m in merges:
            _p, data, branch_of_input = self.merge_info[m]
            for value, b in zip(data, branch_of_input):
                merge_inputs[(m, b)] = value
                classify(value, b, m)
        # Branch values used outside the branch (other than by this conditional's Merges).
        outside_control_uses = []
        for b in (0, 1):
            for i in members[b]:
                if i in shared:
                    continue  # copied: the op stays for the sibling conditionals
                for value in g.results[i]:
                    for use in value.uses:
                        user = use.owner
                        if isinstance(user, ir.Block):
                            continue
                        k = self._graph_index(user)
                        if k is None or k in member_sets[b] or k in merge_set:
                            continue
                        if is_control(value.type):
                            outside_control_uses.append((user, use.operand_number))
                            continue
                        raise PassFailure(
                            f"{_describe(ops[i])}: its value is live under a branch of the Switch "
                            f"predicate {_value_name(p, g)} and is used by {_describe(ops[k])} "
                            "without a Merge", ops[i])
        if_inputs = sorted(arg_keys, key=arg_keys.__getitem__)
        arg_types = [v.type for v in if_inputs]
        first = ops[merges[0]]
        loc = ir.Location.name(f"{_node_name(first)}_if", context=first.context) \
            if _node_name(first) else first.location
        funcs = {}
        for b, base in ((1, "_functionalize_if_then_branch_"), (0, "_functionalize_if_else_branch_")):
            funcs[b] = fz.new_function(base, arg_types, loc)
        result_types = [g.results[m][0].type for m in merges]
        for b in (1, 0):
            name, func, entry = funcs[b]
            arg_of = {v: entry.arguments[k] for k, v in enumerate(if_inputs)}
            mapping = {value: arg_of[data] for value, data in branch_maps[b].items()}
            results = [merge_inputs[(m, b)] for m in merges]
            fz.finish_function(func, entry, [ops[i] for i in sorted(members[b])], mapping, drop,
                               results, loc, clone={op_key(ops[i]) for i in shared if i in members[b]})
            for i in members[b]:
                if i not in shared:
                    g.alive[i] = False
        # The If island, then one Identity per Merge.
        predicate_op = _wrapped_op(ops[vdef[p]]) if p in vdef else None
        anchor = ops[min(merges)]
        island, block = _island(result_types, ext_controls, loc, ir.InsertionPoint(anchor))
        attributes = {"then_branch": ir.FlatSymbolRefAttr.get(funcs[1][0]),
                      "else_branch": ir.FlatSymbolRefAttr.get(funcs[0][0]),
                      "is_stateless": ir.BoolAttr.get(False), "device": ir.StringAttr.get("")}
        attributes.update(_propagated_attrs(predicate_op))
        if_op = ir.Operation.create(IF, results=result_types, operands=[p] + if_inputs,
                                    attributes=attributes, loc=loc, ip=ir.InsertionPoint(block))
        ir.Operation.create(YIELD, operands=list(if_op.results), loc=loc, ip=ir.InsertionPoint(block))
        fz.control_flow.append((if_op, [funcs[1][0], funcs[0][0]]))
        control = island.results[len(result_types)]
        for user, number in outside_control_uses:
            user.operands[number] = control
        w = g.add(island, [p] + if_inputs + ext_controls)
        self._register(w, outer)
        identity_attrs = {"device": ir.StringAttr.get("")}
        if OUTSIDE_COMPILATION_ATTR in attributes:
            identity_attrs[OUTSIDE_COMPILATION_ATTR] = attributes[OUTSIDE_COMPILATION_ATTR]
        for k, m in enumerate(merges):
            # TF's replacement keeps the Merge's node name on an Identity of the If's result;
            # the Merge's users read the If directly (as in TF).
            merge = ops[m]
            mloc = merge.location
            ident_island, ident_block = _island([result_types[k]], [], mloc, ir.InsertionPoint(anchor))
            ident = ir.Operation.create(IDENTITY, results=[result_types[k]], operands=[island.results[k]],
                                        attributes=dict(identity_attrs), loc=mloc,
                                        ip=ir.InsertionPoint(ident_block))
            ir.Operation.create(YIELD, operands=[ident.result], loc=mloc, ip=ir.InsertionPoint(ident_block))
            g.replace(g.results[m][0], island.results[k])
            g.replace(g.results[m][2], control)
            wi = g.add(ident_island, [island.results[k]])
            self._register(wi, outer)
        for m in merges:
            erase_op(ops[m])
            g.alive[m] = False
        for j in sorted(input_switches, reverse=True):
            if not g.alive[j]:
                continue
            if any(len(list(r.uses)) for r in g.results[j]):
                continue  # still feeds something else: checked at the end
            erase_op(ops[j])
            g.alive[j] = False

    def branch_slice(self, merges, p, outer, b):
        """Indices of the ops live exactly under branch `b` of `p` (outer state `outer`) that
        the inputs of `merges` from that branch depend on."""
        g, op_state, vdef = self.g, self.op_state, self.g.vdef
        branch_state = outer | {(p, b)}
        found = set()
        stack = []
        for m in merges:
            _p, data, branch_of_input = self.merge_info[m]
            stack.extend(v for v, vb in zip(data, branch_of_input) if vb == b)
        while stack:
            value = stack.pop()
            j = vdef.get(value)
            if j is None or j in found or not g.alive[j] or g.names[j] == MERGE:
                continue
            if op_state[j] != branch_state:
                continue
            found.add(j)
            stack.extend(g.uses_of(j))
        return found

    def predicate(self, switch):
        """The predicate of `switch` as TF's functionalization sees it: its predicate operand,
        looking through islands that only forward a ``tf.Identity``."""
        value = switch.operands[1]
        cache = self.predicates
        found = cache.get(value)
        if found is not None:
            return found
        seen = []
        g = self.g
        while True:
            j = g.vdef.get(value)
            if j is None or g.names[j] != ISLAND:
                break
            source = _identity_input(g.ops[j], value)
            if source is None:
                break
            seen.append(value)
            value = source
        for v in seen:
            cache[v] = value
        cache[switch.operands[1]] = value
        return value

    def _register(self, index, st):
        g = self.g
        self.op_state.append(st)
        if st:
            for value in g.results[index]:
                self.state[value] = st
            self.by_state.setdefault(st, []).append(index)

    def _graph_index(self, user):
        """The index of the graph-level op holding `user` (an op), or None."""
        g = self.g
        op = user.operation if hasattr(user, "operation") else user
        graph = g.graph
        while op is not None:
            parent = op.parent
            if parent is None:
                return None
            if parent == graph:
                for value in op.results:
                    j = g.vdef.get(value)
                    if j is not None:
                        return j
                return None
            op = parent.operation
        return None


def _identity_input(island, value):
    """The operand of the ``tf.Identity`` an island only wraps, when `value` is its result."""
    island = island.operation
    operations = island.regions[0].blocks[0].operations
    if len(operations) != 2:
        return None
    inner, terminator = operations[0].operation, operations[1].operation
    if inner.name != IDENTITY or len(island.results) != 2 or island.results[0] != value:
        return None
    if len(terminator.operands) != 1 or terminator.operands[0] != inner.results[0]:
        return None
    return inner.operands[0]


def _value_name(value, g):
    j = g.vdef.get(value)
    if j is None:
        return "(an argument)"
    name = _node_name(g.ops[j])
    return f"'{name}'" if name else f"of '{g.names[j]}'"


# ---------------------------------------------------------------------------
# Topological order


def _reorder(graph_op):
    """Puts the graph's ops back in an order where every op follows the ops it uses."""
    info = GraphInfo(graph_op, uses=False)
    producers = info.producers
    n = len(info.ops)
    ok = all(all(p < i for p in producers[i]) for i in range(n))
    if ok:
        return
    placed = [False] * n
    on_stack = [False] * n
    order = []
    for root in range(n):
        if placed[root]:
            continue
        stack = [(root, iter(producers[root]))]
        on_stack[root] = True
        while stack:
            node, it = stack[-1]
            advanced = False
            for p in it:
                if placed[p]:
                    continue
                if on_stack[p]:
                    raise PassFailure(f"{_describe(info.ops[p])} feeds into itself after "
                                      "functionalization (a cycle)", info.ops[p])
                on_stack[p] = True
                stack.append((p, iter(producers[p])))
                advanced = True
                break
            if not advanced:
                stack.pop()
                on_stack[node] = False
                placed[node] = True
                order.append(node)
    fetch = info.ops[n - 1]
    for i in order:
        if i != n - 1:
            info.ops[i].move_before(fetch)
