"""An in-memory TensorFlow graph built the way TensorFlow builds it.

The importer must reproduce TensorFlow's node order and edge order exactly
(they decide the op order and the control-operand order of the imported
function), so this module mirrors the observable behaviour of TensorFlow's
graph construction (GraphConstructor: nodes are added in "ready" order,
smallest GraphDef index first; duplicate control inputs are dropped, the rest
sorted by name; back edges are added last), function instantiation
(``_Arg``/``_Retval`` nodes, ``node:output_arg:index`` input names),
``Graph::ToGraphDef`` and the importer's topological ordering (a DFS post-order
position with name-sorted successors, LIFO ready lists grouped by device).

Errors raise :class:`TFImportError` naming the node.
"""
import heapq

from ..tfcore import opdb
from ..tfcore import protobuf as pb
from ..tfcore.errors import TFImportError
from ..tfcore.tf_types import DTYPE_NAMES as _DTYPE_NAMES, dtype_name
from ..tfcore.tensor_names import CONTROL, parse_tensor_name, tensor_name

# The most inputs or outputs one OpDef argument may stand for (a number attr such as N): no
# real graph comes near, and a corrupt N must not allocate a list of 10**12 types.
MAX_ARG_LENGTH = 1 << 20
_VALID_DTYPES = frozenset(_DTYPE_NAMES)


class NDef:
    """A NodeDef (name, op, inputs as strings, device, attrs, debug info)."""
    __slots__ = ("name", "op", "inputs", "device", "attrs", "debug", "exp_type")

    def __init__(self, name, op, inputs=None, device="", attrs=None, debug=None, exp_type=None):
        self.name = name
        self.op = op
        self.inputs = inputs if inputs is not None else []
        self.device = device
        self.attrs = attrs if attrs is not None else {}
        self.debug = debug
        self.exp_type = exp_type

    @classmethod
    def from_proto(cls, nd):
        v = nd._values
        return cls(v.get("name", ""), v.get("op", ""), list(v.get("input", ())), v.get("device", ""),
                   dict(v.get("attr", {})), v.get("experimental_debug_info"), v.get("experimental_type"))

    def to_proto(self):
        m = pb.Message("NodeDef", name=self.name, op=self.op)
        if self.inputs:
            m.input = list(self.inputs)
        if self.device:
            m.device = self.device
        if self.attrs:
            m.attr = dict(self.attrs)
        if self.debug is not None:
            m.experimental_debug_info = self.debug
        if self.exp_type is not None:
            m.experimental_type = self.exp_type
        return m


class Edge:
    __slots__ = ("src", "src_output", "dst", "dst_input")

    def __init__(self, src, src_output, dst, dst_input):
        self.src = src
        self.src_output = src_output
        self.dst = dst
        self.dst_input = dst_input

    @property
    def is_control(self):
        return self.src_output == CONTROL


# Node classes, as TensorFlow's Node::IsSwitch() etc. decide them.
_CLASS = {
    "Switch": "switch", "RefSwitch": "switch", "_SwitchN": "switch",
    "Merge": "merge", "RefMerge": "merge", "_XlaMerge": "merge",
    "Enter": "enter", "RefEnter": "enter",
    "Exit": "exit", "RefExit": "exit",
    "NextIteration": "next_iteration", "RefNextIteration": "next_iteration",
    "LoopCond": "loop_cond", "ControlTrigger": "control_trigger",
    "_Arg": "arg", "_DeviceArg": "arg", "_Retval": "retval", "_DeviceRetval": "retval",
    "If": "if", "StatelessIf": "if", "While": "while", "StatelessWhile": "while",
    "Case": "case", "StatelessCase": "case",
}


class Node:
    __slots__ = ("id", "name", "op", "device", "attrs", "opdef", "in_edges", "out_edges",
                 "input_types", "output_types", "debug", "cls", "exp_type")

    def __init__(self, id_, ndef, opdef, input_types, output_types):
        self.id = id_
        self.name = ndef.name
        self.op = ndef.op
        self.device = ndef.device
        self.attrs = ndef.attrs
        self.debug = ndef.debug
        self.exp_type = ndef.exp_type
        self.opdef = opdef
        self.in_edges = []
        self.out_edges = []
        self.input_types = input_types
        self.output_types = output_types
        self.cls = _CLASS.get(ndef.op)

    @property
    def num_outputs(self):
        return len(self.output_types)

    @property
    def num_inputs(self):
        return len(self.input_types)

    @property
    def is_op(self):
        return self.id > 1

    def in_nodes(self):
        return [e.src for e in self.in_edges]

    def out_nodes(self):
        return [e.dst for e in self.out_edges]

    def ndef(self, inputs=None):
        return NDef(self.name, self.op, inputs or [], self.device, self.attrs, self.debug, self.exp_type)

    def __repr__(self):
        return f"<Node {self.id} {self.name} ({self.op})>"


class FunctionLibrary:
    """FunctionDefs by name, plus gradients."""

    def __init__(self, library=None):
        self.functions = {}
        self.gradients = {}
        self._sigs = {}
        if library is not None:
            self.add_library(library)

    def add_library(self, library):
        for fdef in library._values.get("function", ()):
            sig = fdef._values.get("signature")
            name = sig.name if sig is not None else ""
            if not name:
                raise TFImportError("the function library holds a function without a name")
            if name in self.functions and self.functions[name] != fdef:
                raise TFImportError(f"the function library holds two different functions named '{name}'")
            self.functions[name] = fdef
        for g in library._values.get("gradient", ()):
            self.gradients[g.function_name] = g.gradient_func

    def find(self, name):
        return self.functions.get(name)

    def __contains__(self, name):
        return name in self.functions

    def signature(self, name):
        od = self._sigs.get(name)
        if od is None:
            fdef = self.functions.get(name)
            if fdef is None:
                return None
            od = self._sigs[name] = opdb.from_signature(fdef.signature)
        return od

    def lookup(self, op):
        """OpDef for op type `op`: a library function shadows a registered op."""
        od = self.signature(op)
        if od is not None:
            return od
        return opdb.get(op)


def arg_num_types(attrs, arg, node_name=None):
    """The list of DataTypes an OpDef argument stands for, given node attrs."""
    if arg.type_list_attr:
        v = attrs.get(arg.type_list_attr)
        if v is None:
            raise TFImportError(f"missing attr '{arg.type_list_attr}' (type list of argument '{arg.name}')",
                                node=node_name)
        lst = v._values.get("list")
        types = list(lst._values.get("type", ())) if lst is not None else []
        return [t + 100 if arg.is_ref else t for t in types]
    num = 1
    if arg.number_attr:
        v = attrs.get(arg.number_attr)
        if v is None:
            raise TFImportError(f"missing attr '{arg.number_attr}' (length of argument '{arg.name}')",
                                node=node_name)
        num = v._values.get("i", 0)
        if num < 0:
            raise TFImportError(f"attr '{arg.number_attr}' is negative", node=node_name)
        if num > MAX_ARG_LENGTH:
            raise TFImportError(f"attr '{arg.number_attr}' = {num}: more than {MAX_ARG_LENGTH} values for "
                                f"argument '{arg.name}' are not supported", node=node_name)
    if arg.type:
        dtype = arg.type
    elif arg.type_attr:
        v = attrs.get(arg.type_attr)
        if v is None:
            raise TFImportError(f"missing attr '{arg.type_attr}' (type of argument '{arg.name}')",
                                node=node_name)
        dtype = v._values.get("type", 0)
    else:
        dtype = 0
    if arg.is_ref:
        dtype += 100
    return [dtype] * num


def in_out_types(opdef, attrs, node_name):
    ins = []
    for a in opdef.inputs:
        ins.extend(arg_num_types(attrs, a, node_name))
    outs = []
    for a in opdef.outputs:
        outs.extend(arg_num_types(attrs, a, node_name))
    return ins, outs


def output_ranges(opdef, attrs, node_name=None):
    """{output arg name: (start, stop)}."""
    out = {}
    start = 0
    for a in opdef.outputs:
        n = len(arg_num_types(attrs, a, node_name))
        out[a.name] = (start, start + n)
        start += n
    return out


def input_ranges(opdef, attrs, node_name=None):
    out = []
    start = 0
    for a in opdef.inputs:
        n = len(arg_num_types(attrs, a, node_name))
        out.append((a.name, start, start + n))
        start += n
    return out


def add_defaults(opdef, attrs):
    """Adds OpDef default attr values missing from `attrs` (in place)."""
    if opdef is None or opdef.is_function:
        return attrs
    for name, value in opdef.defaults().items():
        if name not in attrs:
            attrs[name] = value
    return attrs


def _types_compatible(dst_in, src_out):
    return dst_in == src_out or (src_out > 100 and src_out - 100 == dst_in)


_ATTR_FIELDS = (("s", "string"), ("i", "int"), ("f", "float"), ("b", "bool"), ("type", "type"),
                ("shape", "shape"), ("tensor", "tensor"), ("func", "func"))


def attr_value_error(value, attr_type):
    """Why AttrValue message `value` cannot be an attribute of OpDef type `attr_type` ("int",
    "list(shape)", ...), or None (TensorFlow's AttrValueHasType). Used by the importer for
    NodeDefs and by the exporter for the NodeDefs it writes."""
    which = value.which("value")
    is_list_type = attr_type.startswith("list(")
    if which == "placeholder":
        return f"unbound attr placeholder '{value.placeholder}' where '{attr_type}' is expected"
    if which == "list":
        lv = value.list._values
        kinds = [kind for field, kind in _ATTR_FIELDS if lv.get(field)]
        if len(kinds) > 1:
            return f"the list holds values of several types ({', '.join(kinds)})"
        if kinds and attr_type != f"list({kinds[0]})":
            return f"value of type 'list({kinds[0]})' where '{attr_type}' is expected"
        if not kinds and not is_list_type:
            return f"an empty list where '{attr_type}' is expected"
        if attr_type == "list(type)":
            for t in lv.get("type", ()):
                if not _valid_attr_dtype(t):
                    return f"invalid data type {dtype_name(t)} in the list"
        return None
    if which is None:
        return None if is_list_type else f"no value where '{attr_type}' is expected"
    kind = dict(_ATTR_FIELDS).get(which)
    if kind != attr_type:
        return f"value of type '{kind}' where '{attr_type}' is expected"
    if kind == "type" and not _valid_attr_dtype(value._values["type"]):
        return f"invalid data type {dtype_name(value._values['type'])}"
    return None


def _valid_attr_dtype(t):
    # A DataType enum value, not a reference type, not DT_INVALID.
    return 0 < t < 100 and t in _VALID_DTYPES


def _validate_attrs(ndef, opdef):
    if opdef.is_function:
        return
    names = set()
    for name, attr_type, _default in opdef.attrs:
        names.add(name)
        if name not in ndef.attrs:
            raise TFImportError(f"NodeDef missing attr '{name}' of op {ndef.op}", node=ndef.name)
        value = ndef.attrs[name]
        # (A placeholder is an error too: instantiate binds a function's, a graph has none.)
        err = attr_value_error(value, attr_type)
        if err is not None:
            raise TFImportError(f"attr '{name}' of op {ndef.op}: {err}", node=ndef.name)
    for name in ndef.attrs:
        if name not in names and not name.startswith("_"):
            raise TFImportError(f"NodeDef mentions attr '{name}' not in op {ndef.op}", node=ndef.name)


class Graph:
    """Nodes by id (0 = _SOURCE, 1 = _SINK), edges, versions and the function library."""

    def __init__(self, flib, versions=None):
        self.flib = flib
        self.versions = versions
        self.nodes = []
        src = Node(0, NDef("_SOURCE", "NoOp"), None, [], [])
        sink = Node(1, NDef("_SINK", "NoOp"), None, [], [])
        self.nodes = [src, sink]
        self.add_edge(src, CONTROL, sink, CONTROL)

    @property
    def source(self):
        return self.nodes[0]

    @property
    def sink(self):
        return self.nodes[1]

    def op_nodes(self):
        return [n for n in self.nodes[2:] if n is not None]

    def all_nodes(self):
        return [n for n in self.nodes if n is not None]

    def add_node(self, ndef, opdef, input_types, output_types):
        node = Node(len(self.nodes), ndef, opdef, input_types, output_types)
        self.nodes.append(node)
        return node

    def add_edge(self, src, src_output, dst, dst_input):
        e = Edge(src, src_output, dst, dst_input)
        src.out_edges.append(e)
        dst.in_edges.append(e)
        return e

    def remove_edge(self, e):
        e.src.out_edges.remove(e)
        e.dst.in_edges.remove(e)

    def remove_node(self, node):
        for e in list(node.in_edges):
            self.remove_edge(e)
        for e in list(node.out_edges):
            self.remove_edge(e)
        self.nodes[node.id] = None

    def fixup_source_and_sink(self):
        src, sink = self.source, self.sink
        for n in self.all_nodes():
            if n is not src and not n.in_edges:
                self.add_edge(src, CONTROL, n, CONTROL)
            if n is not sink and not n.out_edges:
                self.add_edge(n, CONTROL, sink, CONTROL)

    def by_name(self):
        return {n.name: n for n in self.op_nodes()}

    # --- Graph::ToGraphDef -------------------------------------------------------------------
    def to_node_defs(self):
        """NodeDefs in node-id order; data inputs by input slot, then control inputs
        sorted by source name."""
        out = []
        for n in self.op_nodes():
            data = [None] * n.num_inputs
            controls = []
            for e in n.in_edges:
                if e.src_output == CONTROL:
                    if e.src.is_op:
                        controls.append(e.src.name)
                else:
                    data[e.dst_input] = tensor_name(e.src.name, e.src_output)
            controls.sort()
            inputs = [d for d in data if d is not None] + ["^" + c for c in controls]
            out.append(n.ndef(inputs))
        return out


def construct(ndefs, flib, versions=None, *, add_default_attrs=True, function=None):
    """Builds a Graph from NodeDefs like TensorFlow's GraphConstructor."""
    g = Graph(flib, versions)
    n_nodes = len(ndefs)
    index = {}
    for i, nd in enumerate(ndefs):
        if not nd.name:
            raise TFImportError("a node has an empty name", function=function)
        if nd.name in index:
            raise TFImportError("node name is not unique", node=nd.name, function=function)
        index[nd.name] = i
        if not nd.op:
            raise TFImportError("node does not specify an operation", node=nd.name, function=function)
        in_control = False
        for s in nd.inputs:
            if s.startswith("^"):
                in_control = True
            elif in_control:
                raise TFImportError("control dependencies must come after regular dependencies",
                                    node=nd.name, function=function)
    parsed_inputs = []
    for nd in ndefs:
        parsed = [parse_tensor_name(s) for s in nd.inputs]
        parsed_inputs.append(parsed)
        for name, _idx in parsed:
            if name not in index:
                raise TFImportError(f"unknown input node '{name}'", node=nd.name, function=function)
    order = _ready_order(ndefs, index, parsed_inputs)
    created = [None] * n_nodes
    back_edges = []
    for o in order:
        nd = ndefs[o]
        inputs = []
        has_back_edge = False
        for name, idx in parsed_inputs[o]:
            src = created[index[name]]
            if src is None:
                has_back_edge = True
            elif idx != CONTROL and idx >= src.num_outputs:
                raise TFImportError(f"input '{tensor_name(name, idx)}' connects to output {idx} of node "
                                    f"'{name}', which has {src.num_outputs} outputs", node=nd.name,
                                    function=function)
            inputs.append((name, src, idx))
        if has_back_edge and _CLASS.get(nd.op) != "merge":
            raise TFImportError("node has a back edge, but only Merge nodes can have back edges",
                                node=nd.name, function=function)
        opdef = flib.lookup(nd.op)
        if opdef is None:
            raise TFImportError(f"op type not registered '{nd.op}' (not a TensorFlow op and not a "
                                f"function in the library)", node=nd.name, function=function)
        attrs = dict(nd.attrs)
        if add_default_attrs:
            add_defaults(opdef, attrs)
        nd2 = NDef(nd.name, nd.op, nd.inputs, nd.device, attrs, nd.debug, nd.exp_type)
        _validate_attrs(nd2, opdef)
        in_types, out_types = in_out_types(opdef, attrs, nd.name)
        n_data = sum(1 for _, _, idx in inputs if idx != CONTROL)
        if n_data != len(in_types):
            raise TFImportError(f"op {nd.op} expects {len(in_types)} inputs, the node has {n_data}",
                                node=nd.name, function=function)
        node = g.add_node(nd2, opdef, in_types, out_types)
        created[o] = node
        # Control inputs: sorted by name, duplicates dropped.
        first_control = next((k for k, inp in enumerate(inputs) if inp[2] == CONTROL), len(inputs))
        controls = sorted(inputs[first_control:], key=lambda t: t[0])
        dedup = []
        for c in controls:
            if not dedup or dedup[-1][0] != c[0]:
                dedup.append(c)
        inputs = inputs[:first_control] + dedup
        for slot, (name, src, idx) in enumerate(inputs):
            if src is None:
                back_edges.append((name, idx, node, slot))
            elif idx == CONTROL:
                g.add_edge(src, CONTROL, node, CONTROL)
            else:
                _make_edge(g, src, idx, node, slot, function)
    if len(order) < n_nodes:
        stuck = [ndefs[i].name for i in range(n_nodes) if created[i] is None]
        cycle = _find_cycle(ndefs, index, parsed_inputs, set(stuck))
        raise TFImportError(_cycle_message(n_nodes - len(order), cycle),
                            node=cycle[0] if cycle else stuck[0], function=function)
    for name, idx, dst, slot in back_edges:
        src = created[index[name]]
        if idx == CONTROL:
            g.add_edge(src, CONTROL, dst, CONTROL)
        else:
            _make_edge(g, src, idx, dst, slot, function)
    g.fixup_source_and_sink()
    return g


def _ready_order(ndefs, index, parsed_inputs):
    """GraphConstructor's order of the nodes (indices): a node once all its inputs are in, a
    Merge with a NextIteration input once its control inputs and one other input are (its
    NextIteration inputs become back edges); the smallest GraphDef index first. Nodes in a cycle
    that no such Merge breaks are left out."""
    n_nodes = len(ndefs)
    merges = {i for i, nd in enumerate(ndefs) if _CLASS.get(nd.op) == "merge"}
    next_iterations = {nd.name for nd in ndefs if _CLASS.get(nd.op) == "next_iteration"}
    pending = [0] * n_nodes
    outputs = [[] for _ in range(n_nodes)]
    ready = []
    for i, parsed in enumerate(parsed_inputs):
        count = len(parsed)
        if i in merges:
            n_control = sum(1 for _, idx in parsed if idx == CONTROL)
            if any(idx != CONTROL and name in next_iterations for name, idx in parsed):
                count = n_control + 1
        for name, _idx in parsed:
            outputs[index[name]].append(i)
        pending[i] = count
        if count == 0:
            ready.append(i)
    heapq.heapify(ready)
    order = []
    while ready:
        o = heapq.heappop(ready)
        order.append(o)
        is_next_iteration = ndefs[o].name in next_iterations
        for out in outputs[o]:
            if is_next_iteration and out in merges:
                continue
            pending[out] -= 1
            if pending[out] == 0:
                heapq.heappush(ready, out)
    return order


def _cycle_message(n, cycle):
    detail = f": {' -> '.join(cycle)}" if cycle else ""
    return (f"{n} nodes are in a cycle that is not a while loop (only NextIteration -> Merge edges may "
            f"close a cycle){detail}")


def cycle_error(ndefs):
    """(node name, message) if TensorFlow's importer would refuse the graph of NDefs `ndefs`
    for its cycles, else None; names, ops and inputs are read, inputs naming no node ignored.
    The importer's checks (construct, then topological_order once the NextIteration -> Merge
    back edges are gone), for the exporter."""
    index = {nd.name: i for i, nd in enumerate(ndefs)}
    parsed_inputs = [[(name, idx) for name, idx in map(parse_tensor_name, nd.inputs) if name in index]
                     for nd in ndefs]
    order = _ready_order(ndefs, index, parsed_inputs)
    done = set(order)
    if len(done) == len(ndefs):
        # Every node can be built; a cycle may still close through a Merge's other input.
        is_ni = [_CLASS.get(nd.op) == "next_iteration" for nd in ndefs]
        kept = [[name for name, _ in parsed
                 if not (is_ni[index[name]] and _CLASS.get(ndefs[i].op) == "merge")]
                for i, parsed in enumerate(parsed_inputs)]
        done = set(_kahn(ndefs, index, kept))
        if len(done) == len(ndefs):
            return None
        parsed_inputs = [[(name, 0) for name in k] for k in kept]
    stuck = {ndefs[i].name for i in range(len(ndefs)) if i not in done}
    cycle = _find_cycle(ndefs, index, parsed_inputs, stuck)
    return (cycle[0] if cycle else min(stuck)), _cycle_message(len(stuck), cycle)


def _kahn(ndefs, index, inputs):
    pending = [len(k) for k in inputs]
    outputs = [[] for _ in ndefs]
    for i, k in enumerate(inputs):
        for name in k:
            outputs[index[name]].append(i)
    ready = [i for i, p in enumerate(pending) if p == 0]
    order = []
    while ready:
        o = ready.pop()
        order.append(o)
        for out in outputs[o]:
            pending[out] -= 1
            if pending[out] == 0:
                ready.append(out)
    return order


def _make_edge(g, src, idx, dst, slot, function):
    if idx >= src.num_outputs:
        raise TFImportError(f"output {idx} of node '{src.name}' does not exist (it has "
                            f"{src.num_outputs} outputs)", node=dst.name, function=function)
    if slot >= dst.num_inputs:
        raise TFImportError(f"input {slot} does not exist (op {dst.op} has {dst.num_inputs} inputs)",
                            node=dst.name, function=function)
    src_t = src.output_types[idx]
    dst_t = dst.input_types[slot]
    if not _types_compatible(dst_t, src_t):
        raise TFImportError(f"input {slot} was passed {dtype_name(src_t)} from {src.name}:{idx}, "
                            f"incompatible with expected {dtype_name(dst_t)}", node=dst.name,
                            function=function)
    g.add_edge(src, idx, dst, slot)


def _find_cycle(ndefs, index, parsed_inputs, stuck):
    """A cycle among the nodes that could not be ordered, as node names."""
    if not stuck:
        return []
    succ = {}
    for i, nd in enumerate(ndefs):
        if nd.name not in stuck:
            continue
        for name, idx in parsed_inputs[i]:
            if name in stuck:
                succ.setdefault(name, []).append(nd.name)
    start = min(stuck)
    path, on_path, visited = [], {}, set()
    stack = [(start, iter(succ.get(start, ())))]
    path.append(start)
    on_path[start] = 0
    while stack:
        node, it = stack[-1]
        nxt = next(it, None)
        if nxt is None:
            stack.pop()
            path.pop()
            on_path.pop(node, None)
            visited.add(node)
            continue
        if nxt in on_path:
            return path[on_path[nxt]:] + [nxt]
        if nxt in visited:
            continue
        on_path[nxt] = len(path)
        path.append(nxt)
        stack.append((nxt, iter(succ.get(nxt, ()))))
    return []


# --- Function instantiation --------------------------------------------------------------------

class FunctionBody:
    """The graph of a function: its _Arg, body and _Retval nodes."""

    def __init__(self, name, fdef, graph, arg_nodes, ret_nodes, control_ret_nodes):
        self.name = name
        self.fdef = fdef
        self.graph = graph
        self.arg_nodes = arg_nodes
        self.ret_nodes = ret_nodes
        self.control_ret_nodes = control_ret_nodes


def _attr_type(dtype):
    return pb.Message("AttrValue", type=dtype)


def _attr_int(i):
    return pb.Message("AttrValue", i=i)


def _substitute_placeholders(value, bindings, fname, node_name):
    """Replaces AttrValue placeholders (function attrs) with bound values."""
    which = value.which("value")
    if which == "placeholder":
        bound = bindings.get(value.placeholder)
        if bound is None:
            raise TFImportError(f"attr placeholder '{value.placeholder}' is not bound (the function "
                                f"has attrs; only instantiated functions can be imported)",
                                node=node_name, function=fname)
        return bound
    if which == "func":
        f = value.func
        new_attrs = {k: _substitute_placeholders(v, bindings, fname, node_name) for k, v in f.attr.items()}
        if any(new_attrs[k] is not f.attr[k] for k in new_attrs):
            return pb.Message("AttrValue", func=pb.Message("NameAttrList", name=f.name, attr=new_attrs))
    if which == "list":
        funcs = value.list._values.get("func")
        if funcs:
            new = []
            changed = False
            for f in funcs:
                na = {k: _substitute_placeholders(v, bindings, fname, node_name) for k, v in f.attr.items()}
                changed |= any(na[k] is not f.attr[k] for k in na)
                new.append(pb.Message("NameAttrList", name=f.name, attr=na))
            if changed:
                lst = pb.Message("AttrValue.ListValue", func=new)
                return pb.Message("AttrValue", list=lst)
    return value


def instantiate(fname, flib, attr_values=None):
    """NodeDefs of function `fname` (InstantiateFunction) plus its signature facts.

    Returns (ndefs, arg_names, ret_names, control_ret_node_names_set).
    """
    fdef = flib.find(fname)
    if fdef is None:
        raise TFImportError(f"function '{fname}' is not in the function library")
    sig = fdef.signature
    attr_values = dict(attr_values or {})
    for a in sig.attr:
        if a.name not in attr_values:
            if a.has("default_value"):
                attr_values[a.name] = a.default_value
            else:
                raise TFImportError(f"attr '{a.name}' of the function is not bound (only functions "
                                    f"without attrs, or with defaults, can be imported)", function=fname)
    ints_on_device = False
    iod = fdef.attr.get("experimental_ints_on_device")
    if iod is not None and iod._values.get("b"):
        ints_on_device = True
    result = []        # NDefs
    data_inputs = []   # per node: list of (node index, output index)
    control_inputs = []
    index = {}         # name -> (is_func_arg, nid, idx, dtypes)

    def add_item(name, item):
        if name in index:
            raise TFImportError(f"duplicated {'arg' if item[0] else 'ret'} name: {name}", function=fname)
        index[name] = item

    def add_node(ndef):
        result.append(ndef)
        data_inputs.append([])
        control_inputs.append([])
        return len(result) - 1

    arg_attrs_map = fdef.arg_attr
    resource_ids = fdef.resource_arg_unique_id
    for i, arg in enumerate(sig.input_arg):
        argdef = opdb.ArgDef(arg.name, arg.type, arg.type_attr, arg.number_attr, arg.type_list_attr, arg.is_ref)
        dtypes = arg_num_types(attr_values, argdef, None)
        dtypes = [d - 100 if d > 100 else d for d in dtypes]
        if not dtypes:
            raise TFImportError(f"argument '{arg.name}' has no elements", function=fname)
        arg_index = len(result)
        add_item(arg.name, (True, arg_index, 0, dtypes))
        for k, dt in enumerate(dtypes):
            add_item(f"{arg.name}:{k}", (True, arg_index, 0, [dt]))
            name = arg.name if len(dtypes) == 1 else f"{arg.name}_{k}"
            op = "_DeviceArg" if ints_on_device and dt == 3 else "_Arg"
            attrs = {"T": _attr_type(dt + 100 if arg.is_ref else dt), "index": _attr_int(arg_index)}
            rid = resource_ids.get(i)
            if rid is not None:
                attrs["_resource_arg_unique_id"] = _attr_int(rid)
            aa = arg_attrs_map.get(i)
            if aa is not None:
                for k2, v in aa.attr.items():
                    attrs[k2] = v
            add_node(NDef(name, op, [], "", attrs))
            arg_index += 1
    # Attrs of the body nodes, placeholders bound, defaults added.
    body_attrs = []
    for nd in fdef.node_def:
        attrs = {}
        for k, v in nd.attr.items():
            attrs[k] = _substitute_placeholders(v, attr_values, fname, nd.name)
        opdef = flib.lookup(nd.op)
        if opdef is None:
            raise TFImportError(f"op type not registered '{nd.op}' (not a TensorFlow op and not a function "
                                f"in the library)", node=nd.name, function=fname)
        add_defaults(opdef, attrs)
        body_attrs.append((attrs, opdef))
    base = len(result)
    for i, nd in enumerate(fdef.node_def):
        attrs, opdef = body_attrs[i]
        nid = base + i
        if not opdef.outputs:
            add_item(nd.name, (False, nid, 0, []))
            continue
        start = 0
        for out in opdef.outputs:
            dtypes = arg_num_types(attrs, out, nd.name)
            bname = f"{nd.name}:{out.name}"
            add_item(bname, (False, nid, start, dtypes))
            for j, dt in enumerate(dtypes):
                add_item(f"{bname}:{j}", (False, nid, start + j, [dt]))
            start += len(dtypes)
    sorted_keys = None
    for i, nd in enumerate(fdef.node_def):
        attrs, opdef = body_attrs[i]
        gidx = add_node(NDef(nd.name, nd.op, [], nd.device, attrs, nd._values.get("experimental_debug_info"),
                             nd._values.get("experimental_type")))
        inputs = nd.input
        k_in = 0
        for a in opdef.inputs:
            dtypes = arg_num_types(attrs, a, nd.name)
            j = 0
            while j < len(dtypes):
                if k_in >= len(inputs):
                    raise TFImportError(f"expects more inputs for argument '{a.name}'", node=nd.name,
                                        function=fname)
                iname = inputs[k_in]
                k_in += 1
                item = index.get(iname)
                if item is None:
                    raise TFImportError(f"input '{iname}' is not found", node=nd.name, function=fname)
                if len(item[3]) > len(dtypes) - j:
                    raise TFImportError(f"input '{iname}' is too long for argument '{a.name}'",
                                        node=nd.name, function=fname)
                for k, dt in enumerate(item[3]):
                    want = dtypes[j]
                    if dt != want and not (want > 100 and want - 100 == dt) and not (dt > 100 and dt - 100 == want):
                        raise TFImportError(f"input {a.name}[{j}] expects {dtype_name(want)} but "
                                            f"'{iname}' is {dtype_name(dt)}", node=nd.name, function=fname)
                    if item[0]:
                        data_inputs[gidx].append((item[1] + k, 0))
                    else:
                        data_inputs[gidx].append((item[1], item[2] + k))
                    j += 1
        for s in inputs[k_in:]:
            if not s.startswith("^"):
                raise TFImportError(f"expected input '{s}' to be a control input", node=nd.name,
                                    function=fname)
            dep = s[1:]
            if sorted_keys is None:
                sorted_keys = sorted(index)
            nid = _find_dep(index, sorted_keys, dep)
            if nid is None:
                raise TFImportError(f"control input '{s}' is not found", node=nd.name, function=fname)
            control_inputs[gidx].append(nid)
    ret_index = 0
    ret_map = fdef.ret
    ret_names = []
    for ret in sig.output_arg:
        argdef = opdb.ArgDef(ret.name, ret.type, ret.type_attr, ret.number_attr, ret.type_list_attr, ret.is_ref)
        dtypes = arg_num_types(attr_values, argdef, None)
        dtypes = [d - 100 if d > 100 else d for d in dtypes]
        src = ret_map.get(ret.name)
        if src is None:
            raise TFImportError(f"return value '{ret.name}' is missing from the function's ret map",
                                function=fname)
        item = index.get(src)
        if item is None:
            raise TFImportError(f"return value '{ret.name}' -> '{src}' is not found", function=fname)
        if [d - 100 if d > 100 else d for d in item[3]] != dtypes:
            raise TFImportError(f"return value '{ret.name}' has types "
                                f"{[dtype_name(d) for d in item[3]]}, the signature says "
                                f"{[dtype_name(d) for d in dtypes]}", function=fname)
        for i, dt in enumerate(dtypes):
            name = f"{ret.name}_RetVal" if len(dtypes) == 1 else f"{ret.name}_RetVal_{i}"
            op = "_DeviceRetval" if ints_on_device and dt == 3 else "_Retval"
            gidx = add_node(NDef(name, op, [], "", {"T": _attr_type(dt + 100 if ret.is_ref else dt),
                                                    "index": _attr_int(ret_index)}))
            ret_index += 1
            if item[0]:
                data_inputs[gidx].append((item[1] + i, 0))
            else:
                data_inputs[gidx].append((item[1], item[2] + i))
            ret_names.append(name)
    for i, nd in enumerate(result):
        nd.inputs = ([tensor_name(result[n].name, k) for n, k in data_inputs[i]] +
                     ["^" + result[n].name for n in control_inputs[i]])
    control_ret_names = set()
    for _k, v in fdef.control_ret.items():
        control_ret_names.add(v)
    return result, control_ret_names


def _find_dep(index, sorted_keys, dep):
    import bisect
    lo = bisect.bisect_left(sorted_keys, dep)
    bound = dep + ";"
    colon = dep + ":"
    while lo < len(sorted_keys) and sorted_keys[lo] <= bound:
        key = sorted_keys[lo]
        if key == dep or key.startswith(colon):
            return index[key][1]
        lo += 1
    return None


def function_body(fname, flib):
    """FunctionDefToBodyHelper: instantiate and build the body graph."""
    ndefs, control_ret_names = instantiate(fname, flib)
    g = construct(ndefs, flib, None, function=fname)
    args, rets, control_rets = [], [], []
    for n in g.op_nodes():
        if n.cls == "arg":
            args.append(n)
        elif n.cls == "retval":
            rets.append(n)
        if n.name in control_ret_names:
            control_rets.append(n)
    args.sort(key=lambda n: n.attrs["index"].i)
    rets.sort(key=lambda n: n.attrs["index"].i)
    return FunctionBody(fname, flib.find(fname), g, args, rets, control_rets)


# --- Importer preparation ------------------------------------------------------------------------

def remove_back_edges(g):
    """Removes NextIteration -> Merge edges; returns them as (src, src_output, dst, dst_input)."""
    removed = []
    for n in g.op_nodes():
        if n.cls == "merge":
            for e in list(n.in_edges):
                if e.src.cls == "next_iteration":
                    removed.append((e.src, e.src_output, e.dst, e.dst_input))
                    g.remove_edge(e)
    return removed


def topological_order(g):
    """The importer's node order (TopologicalOrdering with GroupByDevice)."""
    # DFS from the source with successors sorted by name; positions in post order.
    position = {}
    group_of = {}
    group_ids = {}
    ready = []
    remaining = {}
    visited = set()
    stack = [(g.source, False)]
    pos = 0
    while stack:
        n, leave = stack.pop()
        if leave:
            position[n] = pos
            pos += 1
            key = n.device
            gid = group_ids.get(key)
            if gid is None:
                gid = group_ids[key] = len(group_ids)
                ready.append([])
            group_of[n] = gid
            count = len(n.in_edges)
            remaining[n] = count
            if count == 0:
                ready[gid].append(n)
            continue
        if n in visited:
            continue
        visited.add(n)
        stack.append((n, True))
        succ = sorted((e.dst for e in n.out_edges), key=lambda m: m.name)
        for m in succ:
            if m not in visited:
                stack.append((m, False))
    groups_ready = {gid for gid, lst in enumerate(ready) if lst}
    order = []
    current = 0
    for _ in range(len(remaining)):
        if current not in groups_ready:
            if not groups_ready:
                # A cycle closed by an edge other than NextIteration -> Merge (construct let a Merge
                # in after one of its inputs; the others closed the cycle).
                stuck = sorted((n for n, c in remaining.items() if c > 0 and n.is_op), key=lambda n: n.name)
                names = [n.name for n in stuck]
                raise TFImportError(f"{len(names)} nodes are in a cycle that is not a while loop (only "
                                    f"NextIteration -> Merge edges may close a cycle): "
                                    f"{', '.join(names[:10])}{' ...' if len(names) > 10 else ''}",
                                    node=names[0])
            current = min(groups_ready)
        lst = ready[current]
        node = lst.pop()
        if not lst:
            groups_ready.discard(current)
        order.append(node)
        outs = sorted((e.dst for e in node.out_edges), key=lambda m: position[m])
        for out in outs:
            remaining[out] -= 1
            if remaining[out] == 0:
                gid = group_of[out]
                if not ready[gid]:
                    groups_ready.add(gid)
                ready[gid].append(out)
    return order
