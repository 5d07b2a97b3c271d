"""Walks tf_executor::GraphOp and merges individual tf_executor::IslandOps.

This pass performs whole graph analysis for a graph encapsulated into
tf_executor::GraphOp. The analysis identifies all IslandOps within the graph
which could be merged together. The goal is to merge as many islands as
possible. Once analysis is completed, the pass merges all IslandOps in a
single scan.

Behaviour (matches TensorFlow's C++ pass, output structurally identical):

* The fetch's operands are first routed through a new island placed just
  before the fetch (it yields the data fetches and takes the control fetches
  as control inputs; the fetch keeps the data plus at most one control), so
  islands feeding the fetch independently can merge.
* Islands are grouped until a fixpoint; each round first merges every group
  (last to first) into the group of its *nearest consumer* (the earliest
  graph-level user of any of its results, data or control), placing it in
  front, then every group (first to last) into the group of its *nearest
  producer* (the latest graph-level op defining a value it uses, control
  inputs and implicit captures included), placing it at the back. A merge
  happens only when that nearest op is an island; a group's position is that
  of its first island. Merging into the nearest consumer/producer never
  creates a cycle and keeps the relative order of the merged ops.
* Each group of two or more islands becomes one island, inserted before the
  group's first island: its control inputs are the union of the members'
  (in order, without the members' own tokens), its results the members'
  results still used outside the group (unused results are dropped), its
  body the members' ops in group order. Uses inside the group are rewired to
  the inner values; the members' control tokens are replaced by the new one.
"""
from collections import deque

from mlir import ir

from .analysis.executor import (FETCH, ISLAND, GraphInfo, control_type, create_island, outermost_graphs,
                                validated_post_order)
from .framework import FUNC, Pass, erase_op, register_pass


@register_pass
class ExecutorIslandCoarseningPass(Pass):
    argument = "tf-executor-island-coarsening"
    anchor = FUNC
    dependent_dialects = ("tf_executor",)
    # Graphs are validated before anything is mutated.

    def run_on_operation(self, op):
        # Every graph is validated before any is changed, then coarsened
        # innermost first (TF's post-order walk). A graph holding nested
        # graphs is rescanned: coarsening them changed the uses it sees.
        for graph, info in validated_post_order(outermost_graphs(op.operation), self._check):
            if info.nested_graphs:
                info = GraphInfo(graph)
            else:
                info.link()
            _coarsen(info)

    def _check(self, info):
        problem = info.problem()
        if problem is not None:
            self.fail(problem[0], problem[1])


def _insert_fetch_island(info):
    """TF's InsertDummyIslandForFetch, keeping `info` up to date."""
    fi = info.fetch_index
    fetch = info.ops[fi]
    ctl = control_type(fetch.context)
    fetched = info.operands[fi]
    data, controls = [], []
    for value in fetched:
        (controls if value.type == ctl else data).append(value)
    loc = fetch.location
    island, yield_op = create_island([v.type for v in data], controls, loc,
                                     ir.InsertionPoint(fetch), yield_operands=data,
                                     context=fetch.context)
    island_results = list(island.results)
    new_operands = island_results[:len(data)] + ([island_results[-1]] if controls else [])
    if len(new_operands) == len(fetched):
        for k, value in enumerate(new_operands):
            fetch.operands[k] = value
        new_fetch = fetch
    else:
        attributes = dict(fetch.attributes.items())
        new_fetch = ir.Operation.create(FETCH, operands=new_operands, attributes=attributes,
                                        loc=loc, ip=ir.InsertionPoint(fetch))
        erase_op(fetch)

    # Bookkeeping: the island takes index `fi`, the fetch moves to `fi + 1`.
    info.ops[fi:] = [island, new_fetch]
    info.names[fi:] = [ISLAND, FETCH]
    info.operands[fi:] = [controls, new_operands]
    info.results[fi:] = [island_results, []]
    info.body[fi] = []
    info.body_operands[fi] = []
    info.body_names[fi] = []
    info.nested[fi] = []
    info.yield_op[fi] = yield_op
    info.yield_operands[fi] = data
    for value in island_results:
        info.value_def[value] = fi
    # The fetch's former uses now belong to the island (its yield for data).
    is_data = set(data)
    for value in set(fetched):
        uses = info.uses.get(value)
        if uses is not None:
            holder = yield_op if value in is_data else island
            uses[:] = [(j, holder if j == fi else user) for j, user in uses]
    info.producers[fi:] = [info.producers[fi], [fi] * len(new_operands)]
    # Consumers of the fetch's former operands keep index `fi`: now the island.
    info.consumers[fi:] = [[fi + 1] * len(new_operands), []]
    for value in new_operands:
        info.uses[value] = [(fi + 1, new_fetch)]


def _analyze(info):
    """TF's CoarseningAnalysis: returns [(root island index, [member indices])]."""
    islands = info.island_indices()
    group_of = {}
    groups = []
    roots = []
    for g, i in enumerate(islands):
        group_of[i] = g
        groups.append(deque((i,)))
        roots.append(i)
    consumers = info.consumers
    producers = info.producers

    def merge(old, new, in_front):
        members = groups[old]
        for i in members:
            group_of[i] = new
        if in_front:
            groups[new].extendleft(reversed(members))
        else:
            groups[new].extend(members)
        groups[old] = deque()

    def nearest(g, links, front):
        """The group of the nearest linked op outside group `g` (None: none).

        `front`: the first consumer in block order, else the last producer.
        An op outside every group counts by its own position (it is not an
        island, so nothing is merged, but it may be nearer than any island).
        """
        best = -1
        best_group = None
        for i in groups[g]:
            for j in links[i]:
                h = group_of.get(j)
                if h is None:
                    pos = j
                elif h == g:
                    continue
                else:
                    pos = roots[h]
                if best < 0 or (pos < best if front else pos > best):
                    best = pos
                    best_group = h
        return best_group

    count = len(groups)
    updated = True
    while updated:
        updated = False
        # Merge a group into the group of its nearest consumer (in front).
        for g in range(count - 1, -1, -1):
            if groups[g]:
                target = nearest(g, consumers, True)
                if target is not None:
                    merge(g, target, True)
                    updated = True
        # Merge a group into the group of its nearest producer (at the back).
        for g in range(count):
            if groups[g]:
                target = nearest(g, producers, False)
                if target is not None:
                    merge(g, target, False)
                    updated = True
    return [(roots[g], list(groups[g])) for g in range(count) if len(groups[g]) > 1]


def _coarsen(info):
    _insert_fetch_island(info)
    merges = _analyze(info)
    if not merges:
        return
    context = info.graph.context
    ops, results, get_uses = info.ops, info.results, info.uses.get
    get_def = info.value_def.get
    yield_operands, body = info.yield_operands, info.body
    replaced = {}  # result of an erased island -> the value replacing it

    def current(value):
        # `value` as it is now (results of islands merged earlier were replaced).
        while value in replaced:
            value = replaced[value]
        return value

    for root, members in merges:
        member_set = set(members)

        def resolve(value):
            # Inner value of `value` for uses inside the group: a member's
            # result stands for what the member yields (usually a value of its
            # body, which is not a graph-level value at all).
            d = get_def(value)
            while d is not None:
                if d in member_set:
                    value = yield_operands[d][results[d].index(value)]
                elif value in replaced:
                    value = replaced[value]
                else:
                    break
                d = get_def(value)
            return value

        # Control inputs: ordered union, without the members' own tokens.
        seen = set()
        operands = []
        for i in members:
            for value in info.operands[i]:
                if get_def(value) in member_set:
                    continue
                value = current(value)
                if value not in seen:
                    seen.add(value)
                    operands.append(value)

        # Results still used outside the group; rewiring of inside uses.
        new_inner = []
        kept = []       # (island result, inner value, inside user ops)
        internal = []   # (island result, inner value)
        controls = []   # used control tokens of members
        for i in members:
            island_results = results[i]
            for result, inner in zip(island_results, yield_operands[i]):
                uses = get_uses(result)
                if not uses:
                    continue
                inner = resolve(inner)
                inside = [op for j, op in uses if j in member_set]
                if len(inside) == len(uses):
                    internal.append((result, inner))
                else:
                    new_inner.append(inner)
                    kept.append((result, inner, inside))
            control = island_results[-1]
            if get_uses(control):
                controls.append(control)

        root_op = ops[root]
        island, yield_op = create_island([v.type for v in new_inner], operands,
                                         root_op.location, ir.InsertionPoint(root_op),
                                         yield_operands=new_inner, context=context)
        new_results = list(island.results)
        for result, inner in internal:
            result.replace_all_uses_with(inner)
        for (result, inner, inside), new in zip(kept, new_results):
            result.replace_all_uses_with(new)
            replaced[result] = new
            for user in inside:
                user.replace_uses_of_with(new, inner)
        for i in members:
            for op in body[i]:
                op.move_before(yield_op)
        new_control = new_results[-1]
        for control in controls:
            control.replace_all_uses_with(new_control)
            replaced[control] = new_control
        for i in members:
            erase_op(ops[i])
