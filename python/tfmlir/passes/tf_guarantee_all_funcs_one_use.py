"""Guarantee all FuncOp's have only a single use

Clones every function of the module used more than once until each function has
one use (or none), as TensorFlow 2.21's -tf-guarantee-all-funcs-one-use (which
tf-shape-inference relies on to specialize callees):

* A use is a symbol reference in an op's attributes, in the module's own symbol
  scope (ops inside nested modules refer to their own symbols): calls, the
  branches of tf.If / tf.Case / tf.While, func.constant, references in arrays,
  in dictionaries (a function's ``arg_attrs``) and in ``#tf_type.func``;
  ``@f::@x`` uses ``@f``. An op is one user however many references it holds.
  Only the func.func ops directly in the module are cloned (declarations too).
* Sweeps until nothing changes: a sweep takes the users of every function,
  then visits the functions in module order. A function keeps its first user;
  for every other user a copy is appended to the module, made private and
  named as one MLIR SymbolTable renames for the whole run (``f_0``, then
  ``g_1``: one counter for all names, taken names skipped), and the user's
  references (in the user and the ops nested in it) move to the copy. Copies
  are looked at in the next sweep, so callees of callees are cloned in turn.
* Users are in the order of MLIR's symbol-use walk: the module's ops in order;
  inside one, the op itself, then its regions last first, each region's ops in
  order before the regions nested in them (again last first).

Failures, found before anything changes:

* TF's tf_saved_model verifier (TF refuses such a module when it reads it): in
  a module with ``tf_saved_model.semantics``, "exported function cannot be
  internally referenced", at an op referencing an exported function (other
  than the session initializer naming an initializer).
* TF's: a recursive call graph (calls are func.call, tf.PartitionedCall,
  tf.StatefulPartitionedCall, tf.LegacyCall, tf.TPUPartitionedCall,
  tf.RemoteCall and tf_device.cluster_func, nested modules included): "A
  recursive call graph cannot be transformed to one use for all functions.
  Functions in the recursive cycle are: <locations>", at the module, for the
  first cycle LLVM's SCC iterator finds.
* A function used more than once that is part of a cycle of uses TF does not
  see as calls (a tf.While body using the function holding the loop): TF's
  pass clones forever and never returns.
* An op of an unregistered dialect with one region (it may be a symbol table;
  MLIR's symbol-use walk asserts on it).
* An op of a dialect other than builtin, func, tf, tf_executor, tf_device and
  tf_saved_model that references a symbol, or that has a symbol name and a
  region without being a symbol table (whether it is a call or a function
  decides TF's recursion check); an attribute that Python cannot take apart
  and whose text holds an ``@``.

TF sets no limit on the number of copies: a chain of functions each using the
next twice grows exponentially.
"""
from itertools import islice

from mlir import ir

from .. import _tfmlir

from .analysis.executor import op_key
from .names import CALLEE_ATTRS, FUNC, MODULE
from .analysis.symbol_uses import (UnreadableAttribute, flat_references, referenced_roots,
                                   replace_root)
from .analysis.symbols import module_body, symbol_name
from .framework import Pass, PassFailure, register_pass
from .lib.ir_helpers import SymbolNamer

# Dialects whose calls, functions and symbol tables are all known here.
KNOWN_DIALECTS = frozenset({"builtin", "func", "tf", "tf_executor", "tf_device", "tf_saved_model"})

SAVED_MODEL_SEMANTICS = "tf_saved_model.semantics"
EXPORTED_NAMES = "tf_saved_model.exported_names"
SESSION_INITIALIZER = "tf_saved_model.session_initializer"

RECURSION_ERROR = ("A recursive call graph cannot be transformed to one use for all functions. "
                   "Functions in the recursive cycle are: ")

_DONE = float("inf")  # LLVM's scc_iterator marks finished nodes with ~0U


class _Kind:
    """What the pass needs to know of an op name."""
    __slots__ = ("unregistered", "foreign", "table", "callee", "func")

    def __init__(self, unregistered, foreign, table, callee, func):
        self.unregistered = unregistered
        self.foreign = foreign
        self.table = table
        self.callee = callee
        self.func = func


class _Node:
    """A callable (a func.func with a body) of MLIR's call graph."""
    __slots__ = ("path", "op", "parent")

    def __init__(self, path, op, parent):
        self.path = path  # the pre-order position: the order MLIR creates the nodes in
        self.op = op
        self.parent = parent


def llvm_sccs(entry, children):
    """The strongly connected components reachable from `entry`, as ``llvm::scc_iterator``
    gives them (Tarjan's algorithm: callees before callers, nodes in its stack order).
    `children(node)` lists a node's successors in edge order."""
    numbers = {}
    scc_stack = []
    visits = []  # [node, children, next child, lowest number seen]
    count = 0

    def visit(node):
        nonlocal count
        count += 1
        numbers[node] = count
        scc_stack.append(node)
        visits.append([node, children(node), 0, count])

    visit(entry)
    while visits:
        while True:
            top = visits[-1]
            if top[2] >= len(top[1]):
                break
            child = top[1][top[2]]
            top[2] += 1
            number = numbers.get(child)
            if number is None:
                visit(child)
            elif top[3] > number:
                top[3] = number
        node, _, _, lowest = visits.pop()
        if visits and visits[-1][3] > lowest:
            visits[-1][3] = lowest
        if lowest != numbers[node]:
            continue
        scc = []
        while True:
            member = scc_stack.pop()
            scc.append(member)
            numbers[member] = _DONE
            if member == node:
                break
        yield scc


def _has_cycle(scc, children):
    return len(scc) > 1 or scc[0] in children(scc[0])


@register_pass
class GuaranteeAllFuncsOneUsePass(Pass):
    argument = "tf-guarantee-all-funcs-one-use"
    anchor = MODULE
    dependent_dialects = ("func",)

    def run_on_operation(self, module):
        _OneUse(module.operation).run()


class _OneUse:
    def __init__(self, module):
        self.module = module
        self.context = module.context
        self.kinds = {}
        self.attr_cache = {}
        self.tables = {}
        self.unknown_table = None
        # Call graph (only while scanning the input).
        self.nodes = []
        self.calls = []
        # Top-level functions: name -> op, position, users {op key: op} in walk order.
        self.func_ops = {}
        self.position = {}
        self.users = {}
        self.multi = set()
        self.refs = None  # (OpTable of the input, its symbol_references()) while scanning it

    # -- scanning -----------------------------------------------------------------

    def kind(self, op):
        name = op.name
        kind = self.kinds.get(name)
        if kind is not None:
            return kind
        if not self.context.is_registered_operation(name):
            kind = _Kind(True, False, False, None, False)
        else:
            dialect = name.split(".", 1)[0]
            if dialect in KNOWN_DIALECTS:
                kind = _Kind(False, False, name == MODULE, CALLEE_ATTRS.get(name), name == FUNC)
            else:
                table = False
                if len(op.regions):
                    try:
                        ir.SymbolTable(op)
                        table = True
                    except (TypeError, ValueError, RuntimeError):
                        table = False
                kind = _Kind(False, True, table, None, False)
        self.kinds[name] = kind
        return kind

    def may_reference(self, op):
        """False only for an op of the input the native walk found no symbol reference in."""
        if self.refs is None:
            return True
        table, refs = self.refs
        index = table.index(op)
        return index < 0 or refs[index]

    def scan_top(self, top, index, graph):
        """``[(op key, op, root names)]``: the ops of `top` (a top-level op, itself included) using
        symbols of the module, in MLIR's symbol-use walk order. With `graph`, also records the
        call graph's callables and calls (with their pre-order paths)."""
        found = []
        stack = []
        self._visit(top, (index,) if graph else None, True, self.module, None, graph, found, stack)
        while stack:
            region, path, in_top, scope, node = stack.pop()
            position = 0
            for block in region.blocks:
                for op in block.operations:
                    self._visit(op.operation, path + (position,) if graph else None, in_top, scope,
                                node, graph, found, stack)
                    position += 1
        return found

    def _visit(self, op, path, in_top, scope, node, graph, found, stack):
        kind = self.kind(op)
        regions = op.regions
        count = len(regions)
        if kind.unregistered and count == 1 and self.unknown_table is None:
            self.unknown_table = op
        try:
            roots = referenced_roots(op, self.attr_cache) if self.may_reference(op) else []
        except UnreadableAttribute as err:
            if not in_top and not kind.foreign:
                roots = []  # uses of a nested module's own symbols: no function of the module
            else:
                raise PassFailure(f"'{op.name}' op: {err}: its uses of symbols are unknown", op)
        if kind.foreign:
            if roots:
                raise PassFailure(
                    f"'{op.name}' op references @{roots[0]}: the pass cannot tell whether it is a "
                    f"call (TensorFlow's recursion check follows calls only)", op)
            if count and not kind.table and "sym_name" in op.attributes:
                raise PassFailure(
                    f"'{op.name}' op is a symbol with a region: the pass cannot tell whether it is "
                    f"a function of the call graph", op)
        if roots and in_top:
            found.append((op_key(op), op, roots))
        if graph:
            if kind.callee is not None:
                self.calls.append((path, op, kind.callee, scope, node))
            elif kind.func and count and len(regions[0].blocks):
                node = _Node(path, op, node)
                self.nodes.append(node)
        if count:
            child_scope = op if kind.table else (None if kind.unregistered and count == 1 else scope)
            child_in_top = in_top and not kind.table
            for index in range(count):
                stack.append((regions[index], path + (index,) if graph else None, child_in_top,
                              child_scope, node))

    def table(self, op):
        """``{name: op}`` of the symbols directly in symbol table `op` (the first of a name)."""
        key = op_key(op)
        found = self.tables.get(key)
        if found is None:
            found = {}
            region = op.regions[0]
            if len(region.blocks):
                for child in region.blocks[0].operations:
                    name = symbol_name(child.operation)
                    if name is not None and name not in found:
                        found[name] = child.operation
            self.tables[key] = found
        return found

    def resolve(self, call, attribute, scope):
        """The op `call` calls (MLIR's lookupNearestSymbolFrom of its callee), or None."""
        if scope is None or attribute not in call.attributes:
            return None
        callee = call.attributes[attribute]
        if isinstance(callee, ir.FlatSymbolRefAttr):
            path = [callee.value]
        elif isinstance(callee, ir.SymbolRefAttr):
            path = callee.value
        else:
            return None
        target = self.table(scope).get(path[0])
        for name in path[1:]:
            if target is None or not self.kind(target).table:
                return None
            target = self.table(target).get(name)
        return target

    # -- checks -------------------------------------------------------------------

    def check_no_recursion(self):
        """TF's CheckNoRecursion on MLIR's call graph of the whole module."""
        nodes = sorted(self.nodes, key=lambda n: n.path)  # creation order: pre-order
        ids = {id(n): k for k, n in enumerate(nodes)}
        by_op = {op_key(n.op): k for k, n in enumerate(nodes)}
        external, unknown = len(nodes), len(nodes) + 1
        edges = [[] for _ in range(len(nodes) + 2)]
        for k, n in enumerate(nodes):
            parent = external if n.parent is None else ids[id(n.parent)]
            edges[parent].append(k)  # an abstract or a child edge
        call_edges = [set() for _ in nodes]
        for path, op, attribute, scope, node in sorted(self.calls, key=lambda c: c[0]):
            if node is None:
                continue
            target = self.resolve(op, attribute, scope)
            target = by_op.get(op_key(target), unknown) if target is not None else unknown
            caller = ids[id(node)]
            if target not in call_edges[caller]:
                call_edges[caller].add(target)
                edges[caller].append(target)
        children = edges.__getitem__
        for scc in llvm_sccs(external, children):
            if _has_cycle(scc, children):
                locations = ", ".join(str(nodes[k].op.location) for k in scc)
                raise PassFailure(RECURSION_ERROR + locations, self.module)
        self.nodes, self.calls = [], []

    def check_exported_uses(self, tops, entries):
        """TF's tf_saved_model verifier: an exported function is used only by the session
        initializer (if it is an initializer). TF refuses other uses when it reads the module;
        a copy of an exported function would be a private function with exported names."""
        exported = {name for name, op in self.func_ops.items()
                    if EXPORTED_NAMES in op.attributes
                    and isinstance(op.attributes[EXPORTED_NAMES], ir.ArrayAttr)
                    and len(op.attributes[EXPORTED_NAMES])}
        if not exported:
            return
        initializers = set()
        for top in tops:
            if top.name == SESSION_INITIALIZER:
                initializers = set(flat_references(top))
                break
        for _, op, roots in entries:
            if not exported.intersection(roots):
                continue
            for name in flat_references(op):
                if name not in exported:
                    continue
                if name in initializers and op.name == SESSION_INITIALIZER:
                    continue
                raise PassFailure("exported function cannot be internally referenced", op)

    def check_termination(self, edges):
        """Fails where TF's pass would clone forever: a function with more than one user in a
        cycle of uses (TF's recursion check only sees calls)."""
        names = list(self.func_ops)
        targets = {name: {} for name in names}
        for owner, target in edges:
            targets[owner][target] = None
        successors = {name: list(found) for name, found in targets.items()}
        successors[None] = names
        children = successors.__getitem__
        worst = None
        for scc in llvm_sccs(None, children):
            if scc[0] is None or not _has_cycle(scc, children):
                continue
            members = sorted(scc, key=self.position.__getitem__)
            for name in members:
                if len(self.users[name]) > 1 and (worst is None or
                                                  self.position[name] < self.position[worst[0]]):
                    worst = (name, members)
        if worst is None:
            return
        name, members = worst
        cycle = ", ".join(f"@{m}" for m in members)
        raise PassFailure(
            f"'@{name}' has {len(self.users[name])} uses and is in a cycle of symbol uses that are "
            f"not all calls ({cycle}): cloning functions until each has one use would never end "
            f"(TensorFlow's pass does not terminate)", self.func_ops[name])

    # -- the pass -----------------------------------------------------------------

    def add_user(self, name, key, op):
        users = self.users[name]
        users[key] = op
        if len(users) == 2:
            self.multi.add(name)

    def remove_user(self, name, key):
        users = self.users[name]
        users.pop(key, None)
        if len(users) < 2:
            self.multi.discard(name)

    def run(self):
        module = self.module
        body = module_body(module)
        tops = [op.operation for op in body.operations]
        for index, top in enumerate(tops):
            if top.name == FUNC:
                name = symbol_name(top)
                self.func_ops[name] = top
                self.position[name] = index
                self.users[name] = {}
        owned = []  # (owner function, used function)
        entries = []
        # Which ops reference symbols at all, from one native walk (MLIR's definition of a
        # symbol use); valid for the scans of the input only (nothing changed yet).
        table = _tfmlir.OpTable(module, "pre")
        self.refs = (table, table.symbol_references())
        for index, top in enumerate(tops):
            owner = symbol_name(top) if top.name == FUNC else None
            found = self.scan_top(top, index, True)
            entries += found
            for key, op, roots in found:
                for root in roots:
                    if root in self.users:
                        self.add_user(root, key, op)
                        if owner is not None:
                            owned.append((owner, root))
        self.refs = None
        del table
        if SAVED_MODEL_SEMANTICS in module.attributes:
            self.check_exported_uses(tops, entries)
        self.check_no_recursion()
        if self.unknown_table is not None:
            op = self.unknown_table
            raise PassFailure(
                f"'{op.name}' op has a region and its dialect is not registered: it may be a symbol "
                f"table, so the uses of symbols inside it are unknown", op)
        self.check_termination(owned)
        if not self.multi:
            return

        namer = SymbolNamer(module)
        at_end = ir.InsertionPoint(body)
        private = ir.StringAttr.get("private")
        next_position = len(tops)
        while self.multi:
            sweep = sorted(self.multi, key=self.position.__getitem__)
            counts = {name: len(self.users[name]) for name in sweep}
            for name in sweep:
                func = self.func_ops[name]
                for user in list(islice(self.users[name].values(), counts[name]))[1:]:
                    clone = func.clone(ip=at_end).operation
                    new_name = namer.insert(name)
                    clone.attributes["sym_name"] = ir.StringAttr.get(new_name)
                    clone.attributes["sym_visibility"] = private
                    self.func_ops[new_name] = clone
                    self.position[new_name] = next_position
                    next_position += 1
                    self.users[new_name] = {}
                    for key, op, roots in self.scan_top(clone, None, False):
                        for root in roots:
                            if root in self.users:
                                self.add_user(root, key, op)
                    for key, op in self.replace_in(user, name, new_name):
                        self.remove_user(name, key)
                        self.add_user(new_name, key, op)

    def replace_in(self, user, old, new):
        """MLIR's replaceAllSymbolUses(old -> new) from `user`: in `user` and the ops nested in
        it (not inside nested symbol tables), in walk order. Returns ``[(op key, op)]`` of the
        ops changed."""
        changed = []
        if replace_root(user, old, new):
            changed.append((op_key(user), user))
        if self.kind(user).table:
            return changed
        stack = list(user.regions)
        while stack:
            region = stack.pop()
            for block in region.blocks:
                for op in block.operations:
                    op = op.operation
                    if replace_root(op, old, new):
                        changed.append((op_key(op), op))
                    if len(op.regions) and not self.kind(op).table:
                        stack.extend(op.regions)
        return changed
