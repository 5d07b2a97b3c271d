"""tfmlir.passes.lib.ir_helpers: the IR building blocks pass authors share."""
import pytest
from mlir import ir

import tfmlir  # noqa: F401  (registers the dialects)
from tfmlir.passes.lib import ir_helpers as H
from tfmlir.passes import registered_passes
from tfmlir.passes.framework import pass_modules

PROGRAM = """
func.func @main(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %c = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %r = "tf_device.cluster"() ({
    %0 = "tf.AddV2"(%b, %c) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %p = "tf.Less"(%0, %c) : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %1 = "tf.IfRegion"(%p) ({
      %2 = "tf.Mul"(%a, %0) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "tf.Yield"(%2) : (tensor<f32>) -> ()
    }, {
      "tf.Yield"(%b) : (tensor<f32>) -> ()
    }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>
    tf_device.return %1 : tensor<f32>
  }) {_tpu_replicate = "cluster", device = "/device:TPU:0", num_cores_per_replica = 1 : i64} : () -> tensor<f32>
  func.return %r : tensor<f32>
}
func.func private @_func(%x: tensor<f32>) -> tensor<f32> {
  func.return %x : tensor<f32>
}
"""


@pytest.fixture
def module():
    with ir.Context() as context, ir.Location.unknown():
        yield ir.Module.parse(PROGRAM, context)


def _main(module):
    return module.body.operations[0]


def _cluster(module):
    return list(_main(module).regions[0].blocks[0].operations)[1]


def test_captured_values_in_first_use_order_of_a_post_order_walk(module):
    cluster = _cluster(module)
    values, uses = H.captured_values(cluster.regions[0])
    main_args = list(_main(module).regions[0].blocks[0].arguments)
    const = list(_main(module).regions[0].blocks[0].operations)[0].results[0]
    # Post order: AddV2 (b, c), then the Mul inside the IfRegion (a), then the else Yield (b again).
    assert values == [main_args[1], const, main_args[0]]
    assert [op.name for op, _, _ in uses] == ["tf.AddV2", "tf.AddV2", "tf.Less", "tf.Mul", "tf.Yield"]


def test_unique_symbol_renames_like_mlir_symbol_table(module):
    assert H.unique_symbol(module, "fresh") == "fresh"
    assert H.unique_symbol(module, "_func") == "_func_0"
    names = {"f", "f_0"}
    assert H.unique_symbol(names, "f") == "f_1" and "f_1" in names


def test_symbol_namer_shares_one_counter_like_a_symbol_table(module):
    # One mlir::SymbolTable renames every clash with the same counter: "_func" is taken, so
    # "_func" -> "_func_0"; then "main" (taken) -> "main_1", not "main_0".
    namer = H.SymbolNamer(module)
    assert [namer.insert(n) for n in ("_func", "main", "_func", "fresh", "fresh")] == [
        "_func_0", "main_1", "_func_2", "fresh", "fresh_3"]
    names = {"a"}
    assert H.SymbolNamer(names).insert("a") == "a_0" and names == {"a", "a_0"}


def test_outline_block_makes_captures_arguments(module):
    cluster = _cluster(module)
    name = H.unique_symbol(module, "_func")
    func, captured, result_types = H.outline_block(cluster.regions[0].blocks[0], name,
                                                   ir.InsertionPoint(module.body))
    assert [str(t) for t in result_types] == ["tensor<f32>"]
    assert len(captured) == 3
    func.verify()  # the function is complete (the cluster is not, until the caller adds the call)
    text = func.get_asm(assume_verified=True)
    assert text.startswith('func.func private @_func_0(%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<f32>)')
    assert '"tf.AddV2"(%arg0, %arg1)' in text and '"tf.Mul"(%arg2, %0)' in text
    assert "return %2" in text
    # The caller completes the rewrite: a call in the cluster's place.
    with ir.InsertionPoint(cluster):
        call = ir.Operation.create("tf_device.cluster_func", results=result_types, operands=captured,
                                   attributes={"func": ir.FlatSymbolRefAttr.get(name)})
    H.copy_attributes(cluster, call)
    cluster.results[0].replace_all_uses_with(call.results[0])
    cluster.erase()
    module.operation.verify()
    assert '_tpu_replicate = "cluster"' in str(call) and 'device = "/device:TPU:0"' in str(call)


def test_replace_uses_only_inside_a_region(module):
    main_block = _main(module).regions[0].blocks[0]
    a, b = main_block.arguments
    cluster = _cluster(module)
    assert H.replace_uses_in(b, a, cluster.regions[0]) == 2
    assert '"tf.AddV2"(%arg0, %cst)' in str(cluster) and '"tf.Yield"(%arg0)' in str(cluster)
    assert len(list(b.uses)) == 0
    module.operation.verify()


def test_move_ops_before_and_to_the_end_of_a_block(module):
    main_block = _main(module).regions[0].blocks[0]
    const = list(main_block.operations)[0]
    cluster = _cluster(module)
    body = cluster.regions[0].blocks[0]
    H.move_ops_before([const], list(body.operations)[0])  # constant sinking
    assert list(body.operations)[0].name == "tf.Const"
    module.operation.verify()
    H.move_ops_to_end([list(body.operations)[0]], main_block)
    assert [op.name for op in main_block.operations][-2:] == ["tf.Const", "func.return"]


def test_copy_attributes_only_and_skip(module):
    cluster = _cluster(module)
    main = _main(module)
    with ir.InsertionPoint.at_block_begin(main.regions[0].blocks[0]):
        op = ir.Operation.create("tf.NoOp")
    assert H.copy_attributes(cluster, op, only={"device"}) == ["device"]
    assert sorted(H.copy_attributes(cluster, op, skip={"device"})) == ["_tpu_replicate", "num_cores_per_replica"]



def test_copy_device_and_underscored_attributes(module):
    cluster = _cluster(module)
    with ir.InsertionPoint.at_block_begin(_main(module).regions[0].blocks[0]):
        op = ir.Operation.create("tf.NoOp")
    assert sorted(H.copy_device_and_underscored_attributes(cluster, op)) == ["_tpu_replicate", "device"]
    assert "num_cores_per_replica" not in op.attributes


def test_symbol_namer_shares_one_counter_per_table(module):
    namer = H.SymbolNamer(module)
    assert namer.insert("fresh") == "fresh"
    assert namer.insert("fresh") == "fresh_0"
    assert namer.insert("_func") == "_func_1"  # MLIR's SymbolTable: the counter goes on
    assert namer.insert("main") == "main_2"


def test_outline_block_with_given_captures_and_results(module):
    # A While-like outlining: block arguments first, then the given values (one the block does
    # not use), the first result only, then the extra arguments returned.
    cluster = _cluster(module)
    main_block = _main(module).regions[0].blocks[0]
    a, b = main_block.arguments
    const = list(main_block.operations)[0].results[0]
    block = cluster.regions[0].blocks[0]
    with pytest.raises(ValueError):
        H.outline_block(block, "bad", ir.InsertionPoint(module.body), captured=[a])
    func, captured, result_types = H.outline_block(
        block, "f", ir.InsertionPoint(module.body), captured=[const, b, a],
        result_count=0, return_captured=True)
    assert captured == [const, b, a]
    text = func.get_asm(assume_verified=True)
    assert text.startswith("func.func private @f(%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<f32>) "
                           "-> (tensor<f32>, tensor<f32>, tensor<f32>)")
    assert '"tf.AddV2"(%arg1, %arg0)' in text and "return %arg0, %arg1, %arg2" in text


def test_name_from_loc_and_loc_name_mapper():
    with ir.Context() as context:
        modules = []

        def loc(text):
            modules.append(ir.Module.parse(f"func.func @f() {{ return {text} }}", context))
            return modules[-1].body.operations[0].regions[0].blocks[0].operations[0].location

        assert H.name_from_loc(loc('loc("a@b"("x.py":1:2))')) == "a"
        assert H.name_from_loc(loc('loc(callsite("c" at "d":1:1))')) == "c"
        assert H.name_from_loc(loc('loc(fused["x.py":1:2, "n", "Op:"])')) == ";n"
        assert H.name_from_loc(loc('loc("x.py":1:2)')) == ""
        assert H.name_from_loc(loc('loc("T:")')) == ""
    mapper = H.LocNameMapper()
    assert [mapper.unique(p) for p in ("a", "a", "a1", "a", "b")] == ["a", "a1", "a11", "a2", "b"]


def test_helper_modules_beside_passes_are_not_passes():
    modules = pass_modules()
    assert "ir_helpers" not in modules and "framework" not in modules and "pipeline" not in modules
    # Every pass module is named after its flag.
    for module_name, argument in modules.items():
        assert module_name == argument.replace("-", "_"), (module_name, argument)
    assert set(modules.values()) <= set(registered_passes())


def test_remove_arg_attr_drops_arg_attrs_once_all_are_empty():
    with ir.Context() as context, ir.Location.unknown():
        module = ir.Module.parse("""
func.func private @f(tensor<f32> {tf.a = 1 : i64}, tensor<f32> {tf.a = 2 : i64, tf.b})
""", context)
        func = module.body.operations[0]
        assert H.remove_arg_attr(func, 0, "tf.missing") is None
        assert ir.IntegerAttr(H.remove_arg_attr(func, 1, "tf.a")).value == 2
        assert str(func.attributes["arg_attrs"]) == "[{tf.a = 1 : i64}, {tf.b}]"
        H.remove_arg_attr(func, 0, "tf.a")
        H.remove_arg_attr(func, 1, "tf.b")
        assert "arg_attrs" not in func.attributes
