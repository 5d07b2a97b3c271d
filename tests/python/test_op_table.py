"""tfmlir._tfmlir.OpTable: the native structural view Python passes read the IR through.

Every list is checked against what the bindings answer op by op, on a program with
nesting (a graph, islands, a region op inside an island, a nested function), block
arguments, repeated uses and string / non-string attributes.
"""
import pytest
from mlir import ir

import tfmlir  # noqa: F401  (registers the dialects)
from tfmlir import _tfmlir

TEXT = r'''
module {
  func.func @main(%arg0: tensor<i32>, %arg1: tensor<i1>) -> tensor<i32> {
    %0 = tf_executor.graph {
      %a, %ac = tf_executor.island wraps "tf.Identity"(%arg0) {_tpu_replicate = "c", device = ""} : (tensor<i32>) -> tensor<i32>
      %b, %bc = tf_executor.island(%ac) {
        %1 = "tf.AddV2"(%a, %a) {_tpu_replicate = 3 : i64} : (tensor<i32>, tensor<i32>) -> tensor<i32>
        %2 = "tf.IfRegion"(%arg1) ({
          %3 = "tf.Neg"(%1) : (tensor<i32>) -> tensor<i32>
          "tf.Yield"(%3) : (tensor<i32>) -> ()
        }, {
          "tf.Yield"(%a) : (tensor<i32>) -> ()
        }) {is_stateless = true} : (tensor<i1>) -> tensor<i32>
        tf_executor.yield %2 : tensor<i32>
      }
      %d, %dc = tf_executor.island wraps "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
      tf_executor.fetch %b, %bc : tensor<i32>, !tf_executor.control
    }
    func.return %0 : tensor<i32>
  }
}
'''


def _walk(root, order):
    ops = []

    def visit(op):
        ops.append(op.operation)
        return ir.WalkResult.ADVANCE

    root.walk(visit, ir.WalkOrder.POST_ORDER if order == "post" else ir.WalkOrder.PRE_ORDER)
    return ops


@pytest.fixture
def module():
    with ir.Context() as ctx:
        yield ir.Module.parse(TEXT, ctx)


@pytest.mark.parametrize("order", ["post", "pre"])
def test_lists_match_the_bindings(module, order):
    root = module.operation
    ops = _walk(root, order)
    table = _tfmlir.OpTable(root, order)
    assert len(table) == len(ops)
    assert [table.op(i) for i in range(len(ops))] == ops
    assert table.ops(list(range(len(ops)))) == ops
    assert all(table.index(op) == i for i, op in enumerate(ops))
    assert table.names() == [op.name for op in ops]
    index = {}
    for i, op in enumerate(ops):
        index.setdefault(op, i)

    def idx(op):
        return index.get(op.operation, -2) if op is not None else -2

    assert table.parents() == [idx(op.parent) for op in ops]
    assert table.num_results() == [len(op.results) for op in ops]
    assert table.num_operands() == [len(op.operands) for op in ops]
    assert table.num_regions() == [len(op.regions) for op in ops]
    defs = [[idx(v.owner) if isinstance(v.owner, (ir.Operation, ir.OpView)) else -1 for v in op.operands]
            for op in ops]
    assert table.operand_defs() == defs
    users = [[idx(use.owner) for r in op.results for use in r.uses] for op in ops]
    assert table.users() == users
    operand_types, result_types = table.operand_types(), table.result_types()
    types = table.types()
    assert [[types[t] for t in ids] for ids in operand_types] == [[v.type for v in op.operands] for op in ops]
    assert [[types[t] for t in ids] for ids in result_types] == [[r.type for r in op.results] for op in ops]
    assert len(set(map(str, types))) == len(types)  # each type once
    strings = table.strings("_tpu_replicate")
    for op, value in zip(ops, strings):
        if "_tpu_replicate" not in op.attributes:
            assert value is None
        elif isinstance(op.attributes["_tpu_replicate"], ir.StringAttr):
            assert value == b"c"
        else:
            assert value == op.attributes["_tpu_replicate"]  # not a string: the attribute
    attrs = table.attributes("value")
    assert [a is not None for a in attrs] == ["value" in op.attributes for op in ops]
    assert table.named("tf.Yield") == [i for i, op in enumerate(ops) if op.name == "tf.Yield"]
    for i, op in enumerate(ops):
        assert table.children(i) == [idx(c) for r in op.regions for b in r.blocks for c in b.operations]


def test_subtrees(module):
    root = module.operation
    post = _tfmlir.OpTable(root, "post")
    ops = _walk(root, "post")
    firsts = post.first_descendants()
    for i, op in enumerate(ops):
        assert ops[firsts[i]:i] == _walk(op, "post")[:-1]  # the op's descendants
    pre = _tfmlir.OpTable(root, "pre")
    ops = _walk(root, "pre")
    ends = pre.subtree_ends()
    for i, op in enumerate(ops):
        assert ops[i + 1:ends[i]] == _walk(op, "pre")[1:]
    with pytest.raises(ValueError, match="pre-order"):
        post.subtree_ends()
    with pytest.raises(ValueError, match="post-order"):
        pre.first_descendants()


def test_child_producers_are_the_def_use_edges_of_a_block_level(module):
    ops = _walk(module.operation, "pre")
    graph = next(op for op in ops if op.name == "tf_executor.graph")
    table = _tfmlir.OpTable(graph, "pre")
    children = table.children(0)
    names = [table.names()[c] for c in children]
    assert names == ["tf_executor.island"] * 3 + ["tf_executor.fetch"]
    # island 1 uses island 0's value and token (and %a again inside the IfRegion);
    # the fetch uses island 1; island 0 uses only a function argument; island 2 nothing.
    producers = table.child_producers(0)
    assert producers[0] == [] and producers[2] == []
    assert sorted(set(producers[1])) == [0] and len(producers[1]) == 4
    assert producers[3] == [1, 1]


def test_bad_arguments_are_python_errors(module):
    with pytest.raises(TypeError):
        _tfmlir.OpTable("not an op")
    with pytest.raises(ValueError, match="'pre' or 'post'"):
        _tfmlir.OpTable(module.operation, "in")
    table = _tfmlir.OpTable(module.operation)
    with pytest.raises(IndexError):
        table.op(len(table))
    with pytest.raises(IndexError):
        table.children(-1)
    assert table.index(ir.Operation.create("tf.NoOp", loc=ir.Location.unknown(module.context))) == -2


@pytest.mark.parametrize("order", ["post", "pre"])
def test_ops_named_matches_a_filtered_walk(module, order):
    ops = _walk(module.operation, order)
    for names in (["tf.Yield"], ["tf_executor.island", "tf.Neg", "builtin.module"], ["tf.Nothing"]):
        assert _tfmlir.ops_named(module.operation, names, order) == [op for op in ops if op.name in names]
    with pytest.raises(ValueError):
        _tfmlir.ops_named(module.operation, ["tf.Neg"], "in")


@pytest.mark.parametrize("order", ["post", "pre"])
def test_ops_with_attributes_matches_a_filtered_walk(module, order):
    ops = _walk(module.operation, order)
    for names, some in ((["sym_name"], True), (["T", "value"], True), (["no_such_attribute"], False)):
        expected = [op for op in ops if any(n in op.attributes for n in names)]
        assert bool(expected) == some
        assert _tfmlir.ops_with_attributes(module.operation, names, order) == expected
    with pytest.raises(ValueError):
        _tfmlir.ops_with_attributes(module.operation, ["T"], "in")


@pytest.mark.parametrize("order", ["post", "pre"])
def test_ops_with_element_types_matches_a_filtered_walk(module, order):
    root = module.operation
    ops = _walk(root, order)
    table = _tfmlir.OpTable(root, order)

    def element(t):
        return t.element_type if isinstance(t, ir.ShapedType) else t

    for wanted in ([ir.IntegerType.get_signless(1)], [ir.IntegerType.get_signless(32)],
                   [ir.IntegerType.get_signless(1), _tfmlir.ControlType.get(module.context)],
                   [ir.RankedTensorType.get([], ir.IntegerType.get_signless(1), loc=ir.Location.unknown())],
                   []):
        expected = [i for i, op in enumerate(ops)
                    if any(t in wanted or element(t) in wanted
                           for t in [v.type for v in op.operands] + [r.type for r in op.results])]
        assert table.ops_with_element_types(wanted) == expected
    assert table.ops_with_element_types([ir.F32Type.get()]) == []
    with pytest.raises(TypeError):
        table.ops_with_element_types(["i1"])


@pytest.mark.parametrize("order", ["post", "pre"])
def test_of_block_walks_the_ops_of_one_block(module, order):
    ops = _walk(module.operation, order)
    graph = next(op for op in ops if op.name == "tf_executor.graph")
    block = graph.regions[0].blocks[0]
    expected = []
    for top in block.operations:
        expected.extend(_walk(top.operation, order))
    table = _tfmlir.OpTable.of_block(block, order)
    assert [table.op(i) for i in range(len(table))] == expected
    assert table.names() == [op.name for op in expected]
    top_level = [i for i, p in enumerate(table.parents()) if p == -2]
    assert [table.op(i) for i in top_level] == [op.operation for op in block.operations]
    assert table.strings("_tpu_replicate")[[op.name for op in expected].index("tf.Identity")] == b"c"
    with pytest.raises(TypeError):
        _tfmlir.OpTable.of_block(graph, order)
    with pytest.raises(ValueError):
        _tfmlir.OpTable.of_block(block, "in")


def _captured_by_bindings(scope_ops, defined_args):
    """The reference: walk with the bindings, collect what is used and not defined."""
    ops = []
    for op in scope_ops:
        ops.extend(_walk(op, "post"))
    defined = set(defined_args)
    for op in ops:
        defined.update(op.results)
        for region in op.regions:
            for block in region.blocks:
                defined.update(block.arguments)
    values, uses = [], []
    for op in ops:
        for index, value in enumerate(op.operands):
            if value in defined:
                continue
            uses.append((op, index, value))
            if value not in values:
                values.append(value)
    return values, uses


def test_captured_uses_match_a_walk_with_the_bindings(module):
    from tfmlir.passes.lib.ir_helpers import captured_values

    func = module.body.operations[0]
    graph = func.regions[0].blocks[0].operations[0]
    islands = list(graph.regions[0].blocks[0].operations)
    body = islands[1].regions[0].blocks[0]
    scopes = [
        (graph.regions[0], [op.operation for op in graph.regions[0].blocks[0].operations],
         list(graph.regions[0].blocks[0].arguments)),
        (body, [op.operation for op in body.operations], list(body.arguments)),
        ([islands[1], islands[0]], [islands[1].operation, islands[0].operation], []),
    ]
    for scope, ops, args in scopes:
        values, uses = captured_values(scope)
        want_values, want_uses = _captured_by_bindings(ops, args)
        assert values == want_values and values
        assert [(u.operation, i, v) for u, i, v in uses] == want_uses
        assert all(isinstance(v, (ir.OpResult, ir.BlockArgument)) for v in values)
    with pytest.raises(TypeError):
        _tfmlir.captured_uses([func], [])


def test_wrapped_single_op_is_tfs_wraps_single_op(module):
    ops = _walk(module.operation, "pre")
    islands = [op for op in ops if op.name == "tf_executor.island"]
    # wraps "tf.Identity"; a body of three ops; wraps "tf.Const".
    wrapped = [_tfmlir.wrapped_single_op(island) for island in islands]
    assert [w.name if w is not None else None for w in wrapped] == ["tf.Identity", None, "tf.Const"]
    assert _tfmlir.wrapped_single_op(module.operation) is None  # one block, but one op
    with ir.Location.unknown(module.context):
        # Two ops whose terminator does not yield the first's results: not wrapped.
        other = ir.Module.parse(
            'func.func @f(%a: tensor<i32>) -> tensor<i32> {\n'
            '  %0 = tf_executor.graph {\n'
            '    %x, %c = tf_executor.island {\n'
            '      %n = "tf.Neg"(%a) : (tensor<i32>) -> tensor<i32>\n'
            '      tf_executor.yield %a : tensor<i32>\n'
            '    }\n'
            '    tf_executor.fetch %x : tensor<i32>\n'
            '  }\n'
            '  func.return %0 : tensor<i32>\n'
            '}', module.context)
        island = _tfmlir.ops_named(other.operation, ["tf_executor.island"])[0]
        assert _tfmlir.wrapped_single_op(island) is None


def test_symbol_references_are_mlirs_symbol_uses():
    with ir.Context() as ctx:
        module = ir.Module.parse('''
func.func @g(%a: tensor<f32>) -> tensor<f32> { func.return %a : tensor<f32> }
func.func @f(%a: tensor<f32>) -> tensor<f32> {
  %0 = "tf.PartitionedCall"(%a) {config = "", config_proto = "", executor_type = "", f = @g} : (tensor<f32>) -> tensor<f32>
  %1 = "tf.Foo"(%a) {x = #tf_type.func<@g, {}>} : (tensor<f32>) -> tensor<f32>
  %2 = "tf.Foo"(%a) {x = [1, {y = @g::@h}]} : (tensor<f32>) -> tensor<f32>
  %3 = "tf.Foo"(%a) {x = "@g", t = tensor<2xf32, @g>} : (tensor<f32>) -> tensor<f32>
  %4 = "tf.Foo"(%a) {x = "@g"} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}''', ctx)
        table = _tfmlir.OpTable(module.operation, "pre")
        flags = dict(zip(range(len(table)), table.symbol_references()))
        names = table.names()
        # Inherent (properties) and discardable attributes, nested in arrays, dictionaries,
        # tf_type.func and a type's encoding; a string holding '@' is not a reference.
        assert [flags[i] for i, n in enumerate(names) if n.startswith("tf.")] == [True, True, True, True, False]
        assert not any(flags[i] for i, n in enumerate(names) if not n.startswith("tf."))


GROUPS = r'''
func.func @f(%arg0: tensor<i32>, %p: tensor<i1>) -> (tensor<i32>, tensor<i32>) {
  %a = "tf.Neg"(%arg0) {device = "/device:CPU:0", _tpu_replicate = "c"} : (tensor<i32>) -> tensor<i32>
  %b = "tf.Abs"(%a) {device = "/device:TPU_REPLICATED_CORE:0"} : (tensor<i32>) -> tensor<i32>
  %c = "tf.IfRegion"(%p) ({
    %d = "tf.Neg"(%b) {device = "/device:CPU:0"} : (tensor<i32>) -> tensor<i32>
    "tf.Yield"(%d) : (tensor<i32>) -> ()
  }, {
    "tf.Yield"(%a) : (tensor<i32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<i32>
  %e = "tf.Sign"(%a) : (tensor<i32>) -> tensor<i32>
  func.return %c, %e : tensor<i32>, tensor<i32>
}
'''


@pytest.fixture
def groups():
    with ir.Context() as ctx, ir.Location.unknown():
        module = ir.Module.parse(GROUPS, ctx)
        func = module.body.operations[0]
        yield module, list(func.regions[0].blocks[0].operations)


def test_escaping_results_are_the_results_used_outside_the_group(groups):
    module, (a, b, c, e, ret) = groups
    # a: used by b and c (inside) and e (outside); b: only inside c; c: by the return.
    assert _tfmlir.escaping_results([a.operation, b.operation, c.operation]) == [a.result, c.result]
    assert _tfmlir.escaping_results([a.operation, b.operation, c.operation, e.operation]) == \
        [c.result, e.result]
    assert _tfmlir.escaping_results([b.operation]) == [b.result]  # used in c's region: outside b
    assert _tfmlir.escaping_results([]) == []


def test_replace_uses_outside_keeps_the_uses_inside_the_op(groups):
    module, (a, b, c, e, ret) = groups
    _tfmlir.replace_uses_outside([a.result], [module.body.operations[0].regions[0].blocks[0].arguments[0]], c)
    # b and e moved to the argument; the else branch of c (inside) still yields a.
    assert b.operands[0] != a.result and e.operands[0] != a.result
    assert c.regions[1].blocks[0].operations[0].operands[0] == a.result
    with pytest.raises(ValueError):
        _tfmlir.replace_uses_outside([a.result], [], c)
    with pytest.raises(ValueError):  # a value of another type
        f32 = ir.Operation.create("tf.Const", results=[ir.RankedTensorType.get([], ir.F32Type.get())],
                                  attributes={"value": ir.DenseElementsAttr.get_splat(
                                      ir.RankedTensorType.get([], ir.F32Type.get()), ir.FloatAttr.get_f32(1.0))},
                                  ip=ir.InsertionPoint(b))
        _tfmlir.replace_uses_outside([a.result], [f32.result], c)
    arg0 = module.body.operations[0].regions[0].blocks[0].arguments[0]
    with pytest.raises(ValueError):  # checked before anything changes: e's use stays
        _tfmlir.replace_uses_outside([e.result, a.result], [arg0, f32.result], c)
    assert ret.operands[1] == e.result
    assert module.operation.verify()


def test_move_ops_to_block_splices_in_order(groups):
    module, (a, b, c, e, ret) = groups
    then_block = c.regions[0].blocks[0]
    with pytest.raises(ValueError):  # into its own region
        _tfmlir.move_ops_to_block([c.operation], then_block)
    holder = ir.Operation.create("tf_device.cluster", results=[], regions=1, ip=ir.InsertionPoint(ret))
    block = holder.regions[0].blocks.append()
    _tfmlir.move_ops_to_block([e.operation, a.operation], block)
    assert [op.name for op in block.operations] == ["tf.Sign", "tf.Neg"]
    assert [op.name for op in module.body.operations[0].regions[0].blocks[0].operations] == \
        ["tf.Abs", "tf.IfRegion", "tf_device.cluster", "func.return"]


def test_drop_attribute(groups):
    module, (a, b, c, e, ret) = groups
    table = _tfmlir.OpTable(module.operation, "post")
    devices = table.strings("device")
    with_cpu = [i for i, d in enumerate(devices) if d == b"/device:CPU:0"]
    assert len(with_cpu) == 2
    assert table.drop_attribute("device", with_cpu) == 2
    assert table.strings("device").count(b"/device:CPU:0") == 0
    assert table.strings("device").count(b"/device:TPU_REPLICATED_CORE:0") == 1
    assert table.drop_attribute("_tpu_replicate") == 1 and table.drop_attribute("_tpu_replicate") == 0
    assert "_tpu_replicate" not in a.attributes
    with pytest.raises(IndexError):
        table.drop_attribute("device", [len(table)])


def test_move_ops_before_splices_in_order(groups):
    module, (a, b, c, e, ret) = groups
    _tfmlir.move_ops_before([e.operation, b.operation], a.operation)
    body = module.body.operations[0].regions[0].blocks[0]
    assert [op.name for op in body.operations] == ["tf.Sign", "tf.Abs", "tf.Neg", "tf.IfRegion", "func.return"]
    with pytest.raises(ValueError):  # before itself
        _tfmlir.move_ops_before([a.operation], a.operation)
    with pytest.raises(ValueError):  # into its own region
        _tfmlir.move_ops_before([c.operation], c.regions[0].blocks[0].operations[0].operation)
