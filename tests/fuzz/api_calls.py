"""Random calls on tfmlir's typed builders and native bindings.

Each call draws its arguments from a pool of plausible and implausible values
(values of every kind of type, attributes, Python scalars, strings with lone
surrogates, huge and negative numbers, None). A call may raise ValueError,
TypeError or MLIRError (a clean refusal); it must never abort the process.
Built ops are verified and printed, and the module is verified, printed and
run through a pipeline at the end.
"""
import inspect

from mlir import ir

import tfmlir
from tfmlir import irsafe, passes
from tfmlir.dialects import tf, tf_device, tf_executor, tf_type

# RuntimeError: upstream's attribute builders (used by the generated op
# classes) report unconvertible values that way.
ExpectedError = (ValueError, TypeError, ir.MLIRError, OverflowError, RuntimeError)

_MODULE = """
func.func @f(%a: tensor<2x3xf32>, %b: tensor<*xi32>, %c: tensor<i1>, %d: tensor<!tf_type.resource<tensor<2xf32>>>,
             %e: tensor<!tf_type.variant>, %g: tensor<?x?xi64>, %h: tensor<!tf_type.string>, %i: i32,
             %j: !tf_executor.control, %k: tensor<0xcomplex<f32>>, %l: tensor<4xbf16>, %m: index,
             %n: tensor<2x2x!tf_type.qint8>, %o: tensor<i32>) {
  func.return
}
"""

_SIMPLE_TYPES = [name for name in dir(tf_type) if name.endswith("Type") and name not in (
    "ResourceType", "VariantType") and hasattr(getattr(tf_type, name), "get")]
_OP_CLASSES = sorted(
    {getattr(mod, n) for mod in (tf, tf_executor, tf_device) for n in dir(mod)
     if n.endswith("Op") and inspect.isclass(getattr(mod, n)) and hasattr(getattr(mod, n), "OPERATION_NAME")},
    key=lambda c: c.OPERATION_NAME)


def _random_type(rng):
    choice = rng.randrange(9)
    elem = rng.choice([ir.F32Type.get(), ir.IntegerType.get_signless(rng.choice([1, 8, 32, 64])),
                       ir.IndexType.get(), tf_type.StringType.get(), tf_type.Qint8Type.get()])
    if choice == 0:
        return elem
    if choice == 1:
        return ir.UnrankedTensorType.get(elem)
    if choice == 2:
        return tf_executor.ControlType.get()
    if choice == 3:
        return tf_type.ResourceType.get([ir.RankedTensorType.get([2], ir.F32Type.get())])
    dims = [rng.choice([0, 1, 2, 3, ir.ShapedType.get_dynamic_size()]) for _ in range(rng.randrange(4))]
    return ir.RankedTensorType.get(dims, elem)


def _random_int(rng):
    return rng.choice([0, 1, -1, 2, 7, 2**31 - 1, 2**31, -2**31 - 1, 2**63 - 1, 2**64, -2**63, 10**30])


def _random_str(rng):
    return rng.choice(["", "x", "f", "tf.Foo", "\u00e9", "\udcff", "a" * 1000, "@x", "\x00", "/job:a/device:CPU:0"])


def _random_attr(rng):
    choice = rng.randrange(8)
    if choice == 0:
        return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), rng.randrange(-5, 5))
    if choice == 1:
        return ir.StringAttr.get(_random_str(rng) if rng.random() < 0.5 else "ok")
    if choice == 2:
        return ir.ArrayAttr.get([ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 1)] * rng.randrange(3))
    if choice == 3:
        return ir.TypeAttr.get(_random_type(rng))
    if choice == 4:
        return ir.BoolAttr.get(rng.random() < 0.5)
    if choice == 5:
        return tf_type.ShapeAttr.get(rng.choice([None, [], [2, -1], [0]]))
    if choice == 6:
        return ir.FlatSymbolRefAttr.get(rng.choice(["f", "missing"]))
    return ir.Attribute.parse(rng.choice(["{}", "unit", "dense<1.0> : tensor<2xf32>", "dense<[1, 2]> : tensor<2xi32>"]))


class _Pool:
    def __init__(self, rng, block):
        self.rng = rng
        self.values = list(block.arguments)

    def value(self):
        return self.rng.choice(self.values)

    def arg(self):
        """Anything a builder might be handed."""
        rng = self.rng
        choice = rng.randrange(10)
        if choice < 4:
            return self.value()
        if choice == 4:
            return [self.value() for _ in range(rng.randrange(4))]
        if choice == 5:
            return _random_attr(rng)
        if choice == 6:
            return _random_int(rng)
        if choice == 7:
            return _random_str(rng)
        if choice == 8:
            return _random_type(rng)
        return rng.choice([None, True, 1.5, [], [1, 2], {"a": 1}])


def _build_op(rng, pool):
    cls = rng.choice(_OP_CLASSES)
    try:
        params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    except (TypeError, ValueError):
        params = []
    args, kwargs = [], {}
    for p in params:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or p.name in ("loc", "ip"):
            continue
        if p.default is not p.empty and rng.random() < 0.5:
            continue
        if p.kind == p.KEYWORD_ONLY:
            kwargs[p.name] = pool.arg()
        else:
            args.append(pool.arg())
    op = cls(*args, **kwargs)
    operation = op.operation
    for result in operation.results:
        pool.values.append(result)
    irsafe.op_name(operation)
    try:
        operation.verify()
    finally:
        tfmlir.print_ir(operation, assume_verified=rng.random() < 0.5)


def _call_binding(rng):
    choice = rng.randrange(8)
    if choice == 0:
        getattr(tf_type, rng.choice(_SIMPLE_TYPES)).get()
    elif choice == 1:
        cls = rng.choice([tf_type.ResourceType, tf_type.VariantType])
        cls.get([_random_type(rng) for _ in range(rng.randrange(3))])
    elif choice == 2:
        dims = rng.choice([None, [], [_random_int(rng) for _ in range(rng.randrange(4))], [None, 3]])
        attr = tf_type.ShapeAttr.get(dims)
        attr.rank, attr.dims
    elif choice == 3:
        attrs = rng.choice([None, _random_attr(rng)])
        attr = tf_type.FuncAttr.get(_random_str(rng), attrs)
        attr.name, attr.attrs
    elif choice == 4:
        tf_type.PlaceholderAttr.get(_random_str(rng)).value
    elif choice == 5:
        blob = bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
        attr = tf_type.TensorProtoAttr.get(_random_type(rng), rng.choice([blob, b"tftensor$" + blob]))
        attr.value, attr.hex
        str(attr)
    elif choice == 6:
        tfmlir.print_ir(ir.Module.parse(_MODULE), large_elements_limit=rng.choice([None, 0, -1, 2**40]))
    else:
        t = _random_type(rng)
        for cls in (tf_type.ResourceType, tf_type.VariantType, tf_executor.ControlType):
            if cls.isinstance(t):
                cls(t)


def run(rng, calls):
    module = ir.Module.parse(_MODULE)
    func_op = module.body.operations[0]
    block = func_op.regions[0].blocks[0]
    pool = _Pool(rng, block)
    errors = 0
    with ir.InsertionPoint.at_block_terminator(block):
        for _ in range(calls):
            try:
                if rng.random() < 0.6:
                    _build_op(rng, pool)
                else:
                    _call_binding(rng)
            except ExpectedError:
                errors += 1
    try:
        module.operation.verify()
    except ir.MLIRError:
        return
    tfmlir.print_ir(module)
    try:
        passes.run(module, rng.choice(["builtin.module(canonicalize,cse)",
                                       "builtin.module(func.func(tf-executor-graph-pruning))",
                                       "builtin.module(tf-functional-to-executor-conversion)"]))
    except (ir.MLIRError, passes.PipelineError):
        pass
