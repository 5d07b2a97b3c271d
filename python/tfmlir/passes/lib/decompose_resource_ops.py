"""TF's resource op decompositions as rewrite patterns, and the two ways TF applies them.

Helpers of ``-tf-device-decompose-resource-ops`` (a function pass) and
``-tf-device-decompose-resource-ops-in-cluster`` (a module pass); no pass here.

Each decomposition is one Python function (``_decompose_<op>``) building the
same ops as TF 2.21's pattern for that op (``decompose_resource_ops.td`` and
``DecomposeRngReadAndSkipOp``), in the same order, with the result types TF's
builders give them; see :data:`DECOMPOSITIONS` for the ops and the conditions
under which TF leaves an op alone. The patterns are applied with MLIR's own
greedy driver (``mlir.rewrite``), so folding, dead code removal and constant
handling are upstream's (and the tf dialect's folders):

* :func:`decompose_function` -- TF's ``applyPatternsGreedily`` on a function:
  patterns and folding to a fixpoint, constants deduplicated and hoisted to
  the entry block (to an island's block inside ``tf_executor`` graphs),
  dead ops erased, the region simplified.
* :func:`decompose_cluster` -- TF's local application inside a
  ``tf_device.cluster`` (each op of the cluster simplified in place until
  nothing changes): folding and dead op removal inside the cluster only,
  constants materialized before the op they replace, never deduplicated
  nor hoisted.
* :func:`cluster_reachable_functions` -- the top-level functions a cluster
  references (by any symbol use) and those they reference in turn.

Ops the patterns create are built in Python; the greedy driver sees them on
its next sweep over the region rather than at once (MLIR's Python rewriter
does not announce created ops), which converges to the same IR.
"""
from mlir import ir
from mlir import rewrite

from ... import _tfmlir
from ..names import CLUSTER, FUNC
from ..framework import PassFailure
from .tf_builders import BuildError, OpBuilder, element_type, scalar_attr

NOT_CONVERGED = "Resource ops decomposition did not converge"

# TF's ApplyPatternsLocallyUntilConverged bound for clusters.
CLUSTER_MAX_ITERATIONS = 20


# -- types --------------------------------------------------------------------------------

def _resource_subtypes(resource):
    return list(_tfmlir.ResourceType(ir.ShapedType(resource.type).element_type).subtypes)


def _has_resource_subtype(resource):
    return len(_resource_subtypes(resource)) == 1


def _read_type(resource, like):
    """TF's GetResourceSubtypeOrDefault: the only subtype, else unranked of `like`'s element type."""
    subtypes = _resource_subtypes(resource)
    if len(subtypes) == 1:
        return subtypes[0]
    return ir.UnrankedTensorType.get(element_type(like.type))


class _Builder(OpBuilder):
    """TF's builders, and the resource reads and writes the decompositions create."""

    def read(self, resource, like):
        """TF's CreateTFReadVariableOp: reads `resource` as its subtype or as `like`'s element type."""
        return self.value("tf.ReadVariableOp", [resource], _read_type(resource, like))

    def assign(self, resource, value):
        self.op("tf.AssignVariableOp", [resource, value], [], {"validate_shape": ir.BoolAttr.get(False)})

    def assign_add(self, resource, value):
        self.op("tf.AssignAddVariableOp", [resource, value])

    def assign_sub(self, resource, value):
        self.op("tf.AssignSubVariableOp", [resource, value])


def _bool(op, name, default):
    attributes = op.attributes
    if name in attributes:
        return ir.BoolAttr(attributes[name]).value
    return default


def _attr_or(op, name, default_attr):
    """The attribute as DRR binds it: the op's value, or the ODS default made explicit."""
    attributes = op.attributes
    return attributes[name] if name in attributes else default_attr


# -- the decompositions (one per op; each returns False when TF's pattern does not apply) --

def _decompose_assign_add(op, b):
    resource, value = op.operands
    b.assign(resource, b.add(b.read(resource, value), value))


def _decompose_assign_sub(op, b):
    resource, value = op.operands
    b.assign(resource, b.sub(b.read(resource, value), value))


def _decompose_apply_gradient_descent(op, b):
    resource, alpha, delta = op.operands
    read = b.read(resource, alpha)
    b.assign(resource, b.sub(read, b.mul(alpha, delta)))


def _decompose_apply_momentum(op, b):
    var, accum, lr, grad, momentum = op.operands
    accum_new = b.add(b.mul(b.read(accum, grad), momentum), grad)
    b.assign(accum, accum_new)
    if _bool(op, "use_nesterov", False):
        # var -= grad * lr + accum * momentum * lr
        b.assign_sub(var, b.add(b.mul(grad, lr), b.mul(accum_new, b.mul(momentum, lr))))
    else:
        # var -= accum * lr
        b.assign_sub(var, b.mul(accum_new, lr))


def _decompose_apply_keras_momentum(op, b):
    var, accum, lr, grad, momentum = op.operands
    scaled = b.mul(b.read(accum, grad), momentum)
    grad_lr = b.mul(grad, lr)
    accum_new = b.sub(scaled, grad_lr)
    b.assign(accum, accum_new)
    if _bool(op, "use_nesterov", False):
        # var += accum * momentum - lr * grad
        b.assign_add(var, b.sub(b.mul(accum_new, momentum), grad_lr))
    else:
        b.assign_add(var, accum_new)


def _decompose_apply_adagrad_v2(op, b):
    if not _bool(op, "update_slots", True):
        return False
    var, accum, lr, epsilon, grad = op.operands
    # accum <- accum + grad * grad; var <- var - lr * grad / (sqrt(accum) + epsilon)
    new_accum = b.add(b.read(accum, grad), b.mul(grad, grad))
    numerator = b.mul(lr, grad)
    b.assign_sub(var, b.div(numerator, b.add(b.unary("tf.Sqrt", new_accum), epsilon)))
    b.assign(accum, new_accum)


def _decompose_apply_adagrad(op, b):
    # ResourceApplyAdagradV2 with a zero epsilon (decomposed in turn when update_slots).
    var, accum, lr, grad = op.operands
    zero = b.scalar(grad, 0)
    b.op("tf.ResourceApplyAdagradV2", [var, accum, lr, zero, grad], [], {
        "use_locking": _attr_or(op, "use_locking", ir.BoolAttr.get(False)),
        "update_slots": _attr_or(op, "update_slots", ir.BoolAttr.get(True))})


def _decompose_apply_adam(op, b):
    var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad = op.operands
    one = b.scalar(grad, 1)
    # alpha <- lr * sqrt(1 - beta2^t) / (1 - beta1^t)
    root = b.unary("tf.Sqrt", b.sub(one, beta2_power))
    alpha = b.mul(lr, b.div(root, b.sub(one, beta1_power)))
    # m_t <- beta1 * m + (1 - beta1) * g;  v_t <- beta2 * v + (1 - beta2) * g * g
    new_m = b.add(b.mul(beta1, b.read(m, grad)), b.mul(b.sub(one, beta1), grad))
    new_v = b.add(b.mul(beta2, b.read(v, grad)), b.mul(b.sub(one, beta2), b.unary("tf.Square", grad)))
    if _bool(op, "use_nesterov", False):
        step = b.add(b.mul(new_m, beta1), b.mul(b.sub(one, beta1), grad))
        numerator = b.mul(alpha, step)
    else:
        numerator = b.mul(alpha, new_m)
    b.assign_sub(var, b.div(numerator, b.add(b.unary("tf.Sqrt", new_v), epsilon)))
    b.assign(m, new_m)
    b.assign(v, new_v)


def _decompose_resource_gather(op, b):
    resource, indices = op.operands
    result = op.results[0]
    read = b.read(resource, result)
    batch_dims = _attr_or(op, "batch_dims", ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 0))
    axis = b.const(ir.DenseElementsAttr.get_splat(
        ir.RankedTensorType.get([], ir.IntegerAttr(batch_dims).type), batch_dims))
    gather = b.op("tf.GatherV2", [read, indices, axis], [result.type], {"batch_dims": batch_dims})
    if "_xla_outside_compilation" in op.attributes:
        gather.attributes["_xla_outside_compilation"] = op.attributes["_xla_outside_compilation"]
    return [gather.result]


def _expand_last(b, indices):
    """``tf.ExpandDims(indices, -1)`` with TF's ExpandDimsOp builder type."""
    minus_one = b.scalar(indices, -1)
    element = element_type(indices.type)
    if isinstance(indices.type, ir.RankedTensorType):
        result = ir.RankedTensorType.get(list(indices.type.shape) + [1], element)
    else:
        result = ir.UnrankedTensorType.get(element)
    return b.value("tf.ExpandDims", [indices, minus_one], result)


def _decompose_scatter(name):
    def decompose(op, b):
        resource, indices, updates = op.operands
        read = b.read(resource, updates)
        expanded = _expand_last(b, indices)
        scattered = b.value(name, [read, expanded, updates], read.type,
                            {"bad_indices_policy": ir.StringAttr.get("")})
        b.assign(resource, scattered)
    return decompose


def _decompose_variable_shape(op, b):
    resource = op.operands[0]
    if not _has_resource_subtype(resource):
        return False
    read = b.value("tf.ReadVariableOp", [resource], _resource_subtypes(resource)[0])
    return [b.value("tf.Shape", [read], op.results[0].type)]


def _decompose_apply_centered_rms_prop(op, b):
    var, mg, ms, mom, lr, rho, momentum, epsilon, grad = op.operands
    one = b.scalar(grad, 1)
    b.read(ms, grad)  # TF's pattern reads once without using the value (then erased as dead)
    # ms <- grad * grad * (1 - rho) + ms * rho
    ms_new = b.add(b.mul(b.mul(grad, grad), b.sub(one, rho)), b.mul(b.read(ms, grad), rho))
    b.assign(ms, ms_new)
    # mg <- grad * (1 - rho) + mg * rho
    mg_new = b.add(b.mul(grad, b.sub(one, rho)), b.mul(b.read(mg, grad), rho))
    b.assign(mg, mg_new)
    # mom <- momentum * mom + lr * grad / sqrt(ms - mg * mg + epsilon)
    scaled = b.mul(momentum, b.read(mom, grad))
    numerator = b.mul(lr, grad)
    variance = b.sub(ms_new, b.unary("tf.Square", mg_new))
    mom_new = b.add(scaled, b.div(numerator, b.unary("tf.Sqrt", b.add(variance, epsilon))))
    b.assign(mom, mom_new)
    b.assign_sub(var, mom_new)


def _decompose_apply_rms_prop(op, b):
    var, ms, mom, lr, rho, momentum, epsilon, grad = op.operands
    one = b.scalar(grad, 1)
    b.read(ms, grad)  # unused read, as TF's pattern makes
    # ms <- ms * rho + grad^2 * (1 - rho)
    ms_new = b.add(b.mul(b.read(ms, grad), rho), b.mul(b.unary("tf.Square", grad), b.sub(one, rho)))
    b.assign(ms, ms_new)
    # mom <- momentum * mom + lr * grad / sqrt(ms + epsilon)
    scaled = b.mul(momentum, b.read(mom, grad))
    numerator = b.mul(lr, grad)
    mom_new = b.add(scaled, b.div(numerator, b.unary("tf.Sqrt", b.add(ms_new, epsilon))))
    b.assign(mom, mom_new)
    b.assign_sub(var, mom_new)


def _decompose_apply_ftrl(op, b):
    # ResourceApplyFtrlV2 with a zero l2_shrinkage.
    var, accum, linear, grad, lr, l1, l2, lr_power = op.operands
    zero = b.scalar(lr_power, 0)
    b.op("tf.ResourceApplyFtrlV2", [var, accum, linear, grad, lr, l1, l2, zero, lr_power], [], {
        "use_locking": _attr_or(op, "use_locking", ir.BoolAttr.get(False)),
        "multiply_linear_by_lr": _attr_or(op, "multiply_linear_by_lr", ir.BoolAttr.get(False))})


def _decompose_apply_ftrl_v2(op, b):
    var, accum, linear, grad, lr, l1, l2, l2_shrinkage, lr_power = op.operands
    by_lr = _bool(op, "multiply_linear_by_lr", False)
    b.scalar(lr, 0)  # made by TF's pattern, unused (erased as dead)
    one = b.scalar(lr, 1)
    two = b.scalar(lr, 2)
    # grad_with_shrinkage = grad + 2 * l2_shrinkage * var
    shrunk = b.add(grad, b.mul(two, b.mul(l2_shrinkage, b.read(var, grad))))
    # accum_new = accum + grad^2
    accum_new = b.add(b.read(accum, grad), b.unary("tf.Square", grad))
    # TF builds both branches of each multiply_linear_by_lr choice; the other one dies.
    with_lr = b.mul(shrunk, lr)
    sub = b.sub(b.binary("tf.Pow", accum_new, b.unary("tf.Neg", lr_power)),
                b.binary("tf.Pow", b.read(accum, grad), b.unary("tf.Neg", lr_power)))
    then_linear = b.sub(with_lr, b.mul(sub, b.read(var, grad)))
    else_linear = b.sub(shrunk, b.mul(b.div(sub, lr), b.read(var, grad)))
    b.assign_add(linear, then_linear if by_lr else else_linear)
    # quadratic = accum_new^(-lr_power) / (by_lr ? 1 : lr) + 2 * l2 * (by_lr ? lr : 1)
    powered = b.binary("tf.Pow", accum_new, b.unary("tf.Neg", lr_power))
    quadratic = b.add(b.div(powered, one if by_lr else lr), b.mul(b.mul(two, l2), lr if by_lr else one))
    # linear_clipped_minus_linear = clamp(-l1 [* lr], linear, l1 [* lr]) - linear
    then_low = b.unary("tf.Neg", b.mul(l1, lr))
    then_read = b.read(linear, l1)
    then_high = b.mul(l1, lr)
    then_clip = b.value("tf.ClipByValue", [then_read, then_low, then_high], then_read.type)
    else_low = b.unary("tf.Neg", l1)
    else_read = b.read(linear, l1)
    else_clip = b.value("tf.ClipByValue", [else_read, else_low, l1], else_read.type)
    clipped = b.sub(then_clip if by_lr else else_clip, b.read(linear, l1))
    b.assign(var, b.div(clipped, quadratic))
    b.assign(accum, accum_new)


def _decompose_apply_proximal_adagrad(op, b):
    var, accum, lr, l1, l2, grad = op.operands
    one = b.scalar(grad, 1)
    zero = b.scalar(grad, 0)
    accum_new = b.add(b.read(accum, grad), b.unary("tf.Square", grad))
    adagrad_lr = b.mul(lr, b.unary("tf.Rsqrt", accum_new))
    prox_var = b.sub(b.read(var, grad), b.mul(grad, adagrad_lr))
    sign = b.unary("tf.Sign", prox_var)
    shrunk = b.binary("tf.Maximum", b.sub(b.unary("tf.Abs", prox_var), b.mul(adagrad_lr, l1)), zero)
    l1_gt_zero = b.mul(sign, shrunk)
    numerator = b.select_v2(b.compare("tf.Greater", l1, zero), l1_gt_zero, prox_var)
    var_new = b.div(numerator, b.binary("tf.Add", one, b.mul(adagrad_lr, l2)))
    b.assign(var, var_new)
    b.assign(accum, accum_new)


_COLLECTIVE_REDUCE_V2_ATTRS = ("merge_op", "final_op", "communication_hint", "timeout_seconds",
                               "is_stateless", "max_subdivs_per_device")


def _decompose_collective_reduce_v2(op, b):
    # Drops a single ordering token (the op is rebuilt without it).
    if len(op.operands) != 5:
        return False
    attributes = op.attributes
    defaults = {"communication_hint": ir.StringAttr.get("auto"),
                "timeout_seconds": ir.FloatAttr.get(ir.F32Type.get(), 0.0),
                "is_stateless": ir.BoolAttr.get(False),
                "max_subdivs_per_device": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), -1)}
    kept = {}
    for name in _COLLECTIVE_REDUCE_V2_ATTRS:
        if name in attributes:
            kept[name] = attributes[name]
        elif name in defaults:
            kept[name] = defaults[name]
    rebuilt = b.op("tf.CollectiveReduceV2", list(op.operands)[:4], [op.results[0].type], kept)
    return [rebuilt.result]


# TF's tensorflow/core/framework/rng_alg.h.
_RNG_ALG_PHILOX, _RNG_ALG_THREEFRY, _RNG_ALG_AUTO_SELECT = 1, 2, 3
_RNG_MAX_COUNTER_SIZE, _RNG_KEY_SIZE = 2, 1
_COUNTER_SIZE = {_RNG_ALG_PHILOX: 2, _RNG_ALG_THREEFRY: 1}


def _constant_ints(value):
    """The integers of a constant operand (what ``m_Constant`` binds), or None."""
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.name != "tf.Const":
        return None
    attr = owner.attributes["value"]
    if not isinstance(attr, ir.DenseIntElementsAttr):
        return None
    return [int(x) for x in attr]


def _decompose_rng_read_and_skip(op, b):
    resource, alg, delta = op.operands
    alg_values = _constant_ints(alg)
    if alg_values is None or len(alg_values) != 1:
        return False
    alg_value = alg_values[0] & 0xFFFFFFFFFFFFFFFF  # TF reads it zero-extended
    if alg_value == _RNG_ALG_AUTO_SELECT:
        alg_value = _RNG_ALG_PHILOX  # managed as Philox's counter
    if alg_value not in _COUNTER_SIZE:
        return False
    i64 = ir.IntegerType.get_signless(64)
    op_type = ir.RankedTensorType.get([_RNG_MAX_COUNTER_SIZE + _RNG_KEY_SIZE], i64)
    if op.results[0].type != op_type or not _has_resource_subtype(resource):
        return False
    counter_size = _COUNTER_SIZE[alg_value]
    state_size = counter_size + _RNG_KEY_SIZE
    state_type = ir.RankedTensorType.get([state_size], i64)
    if _resource_subtypes(resource)[0] != state_type:
        return False
    state = b.value("tf.ReadVariableOp", [resource], state_type)
    word = ir.RankedTensorType.get([], i64)
    unpacked = b.op("tf.Unpack", [state], [word] * state_size,
                    {"axis": ir.IntegerAttr.get(i64, 0)}).results
    key = unpacked[counter_size]
    u64 = ir.IntegerType.get_unsigned(64)
    u64_scalar = ir.RankedTensorType.get([], u64)
    step = b.const(scalar_attr(u64, 256))
    increment = b.value("tf.Mul", [step, delta], u64_scalar)
    zero = b.const(scalar_attr(u64, 0))
    one = b.const(scalar_attr(u64, 1))
    truncate = {"Truncate": ir.BoolAttr.get(False)}
    words = []
    for i in range(counter_size):
        word_u64 = b.value("tf.Cast", [unpacked[i]], u64_scalar, truncate)
        new_word_u64 = b.add(word_u64, increment)
        words.append(b.value("tf.Cast", [new_word_u64], word, truncate))
        overflow = b.compare("tf.Less", new_word_u64, word_u64)
        increment = b.select_v2(overflow, one, zero)
    new_state = b.value("tf.Pack", words + [key], state_type, {"axis": ir.IntegerAttr.get(i64, 0)})
    b.op("tf.AssignVariableOp", [resource, new_state], [],
         {"validate_shape": ir.BoolAttr.get(False)})
    pad = _RNG_MAX_COUNTER_SIZE - counter_size
    paddings = b.const(ir.Attribute.parse(f"dense<[[0, {pad}]]> : tensor<1x2xi64>"))
    return [b.value("tf.Pad", [state, paddings], op_type)]


# Root op -> its decomposition. A decomposition returns the values replacing the root's
# results (ops without results: None), or False where TF's pattern does not match
# (ResourceApplyAdagradV2 without update_slots, VariableShape of a resource without one
# subtype, CollectiveReduceV2 without exactly one ordering token, RngReadAndSkip whose
# algorithm is not a known constant or whose types are not Philox's/Threefry's state).
DECOMPOSITIONS = {
    "tf.AssignAddVariableOp": _decompose_assign_add,
    "tf.AssignSubVariableOp": _decompose_assign_sub,
    "tf.ResourceApplyGradientDescent": _decompose_apply_gradient_descent,
    "tf.ResourceApplyMomentum": _decompose_apply_momentum,
    "tf.ResourceApplyKerasMomentum": _decompose_apply_keras_momentum,
    "tf.ResourceApplyAdagradV2": _decompose_apply_adagrad_v2,
    "tf.ResourceApplyAdagrad": _decompose_apply_adagrad,
    "tf.ResourceApplyAdam": _decompose_apply_adam,
    "tf.ResourceGather": _decompose_resource_gather,
    "tf.ResourceScatterAdd": _decompose_scatter("tf.TensorScatterAdd"),
    "tf.ResourceScatterUpdate": _decompose_scatter("tf.TensorScatterUpdate"),
    "tf.VariableShape": _decompose_variable_shape,
    "tf.ResourceApplyCenteredRMSProp": _decompose_apply_centered_rms_prop,
    "tf.ResourceApplyFtrl": _decompose_apply_ftrl,
    "tf.ResourceApplyFtrlV2": _decompose_apply_ftrl_v2,
    "tf.ResourceApplyRMSProp": _decompose_apply_rms_prop,
    "tf.ResourceApplyProximalAdagrad": _decompose_apply_proximal_adagrad,
    "tf.CollectiveReduceV2": _decompose_collective_reduce_v2,
    "tf.RngReadAndSkip": _decompose_rng_read_and_skip,
}


# -- applying them ------------------------------------------------------------------------

def _pattern(decompose, failures):
    def apply(op, rewriter):
        op = op.operation
        try:
            replacements = decompose(op, _Builder(op))
        except BuildError as exc:
            # TF's C++ has no answer here (it crashes or builds invalid IR).
            failures.append((op, f"'{op.name}' cannot be decomposed: {exc}"))
            raise
        if replacements is False:
            return True  # no match
        if replacements is None:
            rewriter.erase_op(op)
        else:
            rewriter.replace_op(op, replacements)
        return None
    return apply


class Patterns:
    """The frozen pattern set of every decomposition (build one per pass run)."""

    def __init__(self):
        self.failures = []
        patterns = rewrite.RewritePatternSet()
        for name, decompose in DECOMPOSITIONS.items():
            patterns.add(name, _pattern(decompose, self.failures))
        self.frozen = patterns.freeze()

    def run(self, op, config=None):
        """Runs the greedy driver on `op`'s regions; False if it did not converge."""
        try:
            rewrite.apply_patterns_and_fold_greedily(op, self.frozen, config)
        except BuildError:
            at, message = self.failures[-1]
            raise PassFailure(message, at)
        except RuntimeError as exc:
            if "failed to converge" in str(exc):
                return False
            raise
        return True


def decompose_function(func, patterns):
    """TF's ``applyPatternsGreedily(func, patterns)``; fails with TF's message at `func`."""
    if not patterns.run(func.operation):
        raise PassFailure(NOT_CONVERGED, func)


def decompose_cluster(cluster, patterns):
    """TF's ``ApplyPatternsLocallyUntilConverged`` on `cluster`; fails with TF's message there.

    The cluster is not isolated from above, so the greedy driver cannot take its region: its
    ops are moved into a scratch function for the run and moved back. They keep their uses of
    values defined outside (folding still sees constants there); constant CSE (which would
    hoist) and region simplification are off, as in TF's per-op application.
    """
    cluster = cluster.operation
    block = cluster.regions[0].blocks[0]
    scratch = _scratch_function(cluster.context)
    scratch_block = scratch.regions[0].blocks[0]
    _tfmlir.move_block_ops(block, scratch_block)
    config = rewrite.GreedyRewriteConfig()
    config.enable_constant_cse = False
    config.region_simplification_level = rewrite.GreedySimplifyRegionLevel.DISABLED
    config.max_iterations = CLUSTER_MAX_ITERATIONS
    try:
        converged = patterns.run(scratch, config)
    finally:
        _tfmlir.move_block_ops(scratch_block, block)
        scratch.erase()
    if not converged:
        raise PassFailure(NOT_CONVERGED, cluster)


def _scratch_function(context):
    with context, ir.Location.unknown():
        function = ir.Operation.create(FUNC, attributes={
            "sym_name": ir.StringAttr.get("scratch"),
            "function_type": ir.TypeAttr.get(ir.FunctionType.get([], []))}, regions=1)
        function.regions[0].blocks.append()
    return function


def _ancestor(op, name, stop=None):
    """The closest proper ancestor of `op` named `name`, or None."""
    parent = op.parent
    while parent is not None:
        parent = parent.operation
        if parent.name == name:
            return parent
        if stop is not None and parent.name == stop:
            return None
        parent = parent.parent
    return None


def cluster_reachable_functions(module):
    """Names of TF's cluster-reachable functions (``PopulateClusterReachableFunctions``).

    A top-level function is reachable if an op inside a ``tf_device.cluster`` uses its symbol,
    or if an op of a reachable function does. Symbol uses are read as MLIR's SymbolUserMap
    does for the module's own symbol table (ops of nested symbol tables resolve there).
    """
    body = module.regions[0].blocks[0]
    functions = {}
    for op in body.operations:
        op = op.operation
        if op.name == FUNC and "sym_name" in op.attributes:
            functions.setdefault(ir.StringAttr(op.attributes["sym_name"]).value, op)
    callees = {}  # caller name -> callee names
    seeds = []
    module_op = module.operation
    # One native walk finds the ops holding symbol references (nested modules resolve their
    # own references and are not entered).
    for op, roots in _tfmlir.symbol_reference_roots(module_op):
        if op == module_op:
            continue
        names = [n for n in roots if n in functions]
        if not names:
            continue
        caller = _ancestor(op, FUNC)
        in_cluster = _ancestor(op, CLUSTER) is not None
        for name in names:
            if caller is not None and "sym_name" in caller.attributes:
                callees.setdefault(ir.StringAttr(caller.attributes["sym_name"]).value, []).append(name)
            if in_cluster:
                seeds.append(name)
    reachable = {}
    worklist = []
    for name in seeds:
        if name not in reachable:
            reachable[name] = functions[name]
            worklist.append(name)
    while worklist:
        for callee in callees.get(worklist.pop(), ()):
            if callee not in reachable:
                reachable[callee] = functions[callee]
                worklist.append(callee)
    return reachable
