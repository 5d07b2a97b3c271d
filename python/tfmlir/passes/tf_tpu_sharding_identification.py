"""Identifies the shardings of the inputs and outputs of TPU computations.

As TF 2.21's -tf-tpu-sharding-identification, for every ``tf_device.cluster_func`` of the
module (in post-order), with ``F`` its callee:

1. ``num_cores_per_replica`` (integer) is required; the logical devices are the serialized
   ``xla.OpSharding`` of type MAXIMAL on core ``i`` (XLA's ``AssignDevice(i)``) for each core.
   ``use_spmd_for_xla_partitioning`` (bool, default false) selects SPMD.
2. Each operand/argument pair gets a sharding from, in order:
   * the operand (looked through a ``tf.ReadVariableOp`` to its resource) defined by a
     ``tf.TPUPartitionedInputV2`` with ``_XlaSharding``: that op (its ``_XlaShardingV2``, else
     its ``_XlaSharding``);
   * the uses of ``F``'s argument, breadth-first, level by level: a ``tf.XlaSharding`` user
     gives its sharding (``_XlaShardingV2`` when present -- it must then be equivalent to
     ``_XlaSharding`` -- else ``_XlaSharding``, and none ends the search); a user placed on
     ``TPU_REPLICATED_CORE:n`` gives logical device ``n``; the search goes on through
     ``tf.WhileRegion`` (the matching cond and body arguments), ops with TF's
     SameOperandsAndResultTypeResolveRef / OperandsSameAsResultsTypeOrRef traits (result 0),
     element-wise binary ops (CwiseBinary and SameOperandsAndResultElementTypeResolveRef) whose
     result's shape is partially the same as the value's, ``tf.Cast``, ``tf.XlaAllReduce``,
     ``tf.ReadVariableOp`` (result 0) and calls (the callee's argument).
3. Each result/returned-value pair gets a sharding from, in order:
   * a result with one use, by a ``tf.TPUPartitionedOutputV2`` with ``_XlaSharding``, or by a
     ``tf.AssignVariableOp`` of a resource defined by such a ``tf.TPUPartitionedInputV2``;
   * the definitions of the returned value, depth-first: a ``tf.XlaSharding``; an op with a
     string ``_XlaShardingV2`` or ``_XlaSharding``; an op on ``TPU_REPLICATED_CORE:n``; through
     unary/binary ops of the traits above (all operands), calls (the callee's returned value)
     and ``tf.WhileRegion`` (the body's yielded value).
4. An argument aliased to a result (``tf.aliasing_output``) without a sharding takes the
   result's, and the other way round; different shardings are an error.
5. What has no sharding gets the default: replicated (``""``) with SPMD, logical device 0
   without.
6. With SPMD, a MAXIMAL sharding anywhere, or (with or without SPMD) an OTHER sharding that
   tiles more dimensions than its ranked tensor has (an error diagnostic at the partitioned
   op, which does not fail the pass), falls back: ``use_spmd_for_xla_partitioning = false``
   and steps 2-5 again without looking into ``F`` and with logical device 0 as default.
7. ``F``'s arguments and results get ``mhlo.sharding`` and the cluster_func gets
   ``input_sharding_configuration`` / ``output_sharding_configuration`` (string arrays).

Shardings are strings: serialized ``xla.OpSharding`` protos or XLA's human-readable form
(``{devices=[2,1]0,1}``); strings that are neither are carried along unchecked.

Failures (at the cluster_func, TF's wording): ``requires attribute 'num_cores_per_replica'``;
``_XlaShardingV2 is not equivalent to _XlaSharding: <v2> vs <v1>``; ``arg#i is aliased to
retval#j but their sharding configurations don't match.``. Where TF would read out of bounds
(no callee, a ``TPU_REPLICATED_CORE`` id or logical device 0 beyond ``num_cores_per_replica``)
the pass fails with a diagnostic instead.

Not as TF: the DebugString in the rank diagnostic prints the OpSharding fields tfmlir decodes
(not ``tile_shape`` or ``metadata``); ops of other dialects with MLIR's
SameOperandsAndResultType trait are not looked through.
"""
import functools

from mlir import ir

from .. import irsafe
from ..shapes import xla_protos
from .analysis.calls import CALLEE_ATTRS, resolve_callee
from .analysis.devices import TPU_REPLICATED_CORE, parse_full_name
from .analysis.executor import op_key
from .names import (ASSIGN_VARIABLE, CAST, CLUSTER_FUNC, MODULE, READ_VARIABLE,
                             WHILE_REGION)
from .analysis.tf_op_traits import (CWISE_BINARY, OPERANDS_SAME_AS_RESULTS_TYPE_OR_REF,
                                    SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE_RESOLVE_REF,
                                    SAME_OPERANDS_AND_RESULT_TYPE_RESOLVE_REF)
from .framework import Pass, PassFailure, register_pass
from .lib.ir_helpers import enclosing_op, ops_named
from . import attributes

SHARDING_ATTR = "mhlo.sharding"
USE_SPMD_ATTR = "use_spmd_for_xla_partitioning"
ALIASING_ATTR = "tf.aliasing_output"
NUM_CORES_PER_REPLICA_ATTR = "num_cores_per_replica"
INPUT_SHARDING_ATTR = "input_sharding_configuration"
OUTPUT_SHARDING_ATTR = "output_sharding_configuration"
XLA_SHARDING = "_XlaSharding"
XLA_SHARDING_V2 = "_XlaShardingV2"
XLA_SHARDING_OP = "tf.XlaSharding"
PARTITIONED_INPUT_V2 = "tf.TPUPartitionedInputV2"
PARTITIONED_OUTPUT_V2 = "tf.TPUPartitionedOutputV2"
XLA_ALL_REDUCE = "tf.XlaAllReduce"
REPLICATED_SHARDING = b""

_UNARY = SAME_OPERANDS_AND_RESULT_TYPE_RESOLVE_REF | OPERANDS_SAME_AS_RESULTS_TYPE_OR_REF
_BINARY = CWISE_BINARY & SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE_RESOLVE_REF
_LOOKED_THROUGH = frozenset({CAST, XLA_ALL_REDUCE, READ_VARIABLE})


class _Op:
    """A sharding given by a partitioned op (TF's ``Operation*`` alternative)."""
    __slots__ = ("op", "key")

    def __init__(self, op):
        self.op = op.operation
        self.key = op_key(op)

    def __eq__(self, other):
        return isinstance(other, _Op) and other.key == self.key




def _sharding_string(sharding):
    """The string of a sharding (bytes), or None (a partitioned op without one)."""
    if isinstance(sharding, _Op):
        v2 = attributes.string_bytes(sharding.op, XLA_SHARDING_V2)
        return v2 if v2 is not None else attributes.string_bytes(sharding.op, XLA_SHARDING)
    return sharding


def _decoded(sharding):
    string = _sharding_string(sharding)
    return None if string is None else _decode(bytes(string))


@functools.lru_cache(maxsize=256)
def _decode(data):
    """xla_protos.decode_sharding, once per distinct string (a program repeats a few shardings
    for all its arguments); the decoded object is only read here."""
    return xla_protos.decode_sharding(data)


def _text(data):
    return data.decode("utf-8", errors="replace")


class _Identifier:
    def __init__(self):
        self.tables = {}

    # --- helpers --------------------------------------------------------------------------

    def callee(self, call):
        """The function `call` calls (from its closest module), or None (TF's
        ``resolveCallable`` giving no function)."""
        try:
            return resolve_callee(call, enclosing_op(call, MODULE), self.tables)
        except PassFailure:
            return None

    def logical_device(self, op, devices, cluster_func):
        """The logical device of an op placed on ``TPU_REPLICATED_CORE:n``, or None."""
        device = attributes.string_bytes(op, "device")
        if not device:
            return None
        parsed = parse_full_name(device.decode("utf-8", errors="replace"))
        if parsed is None or parsed.type != TPU_REPLICATED_CORE:
            return None
        if not 0 <= parsed.id < len(devices):
            raise PassFailure(f"'{CLUSTER_FUNC}' op logical core {parsed.id} of "
                              f"'{_text(device)}' is not below {NUM_CORES_PER_REPLICA_ATTR} "
                              f"({len(devices)})", cluster_func)
        return devices[parsed.id]

    @staticmethod
    def sharding_op_string(op, cluster_func):
        """TF's ``GetXlaShardingAttrFromShardingOp``."""
        v1 = attributes.string_bytes(op, XLA_SHARDING)
        v2 = attributes.string_bytes(op, XLA_SHARDING_V2)
        if v2 is None:
            return v1
        if v1 is not None:
            a, b = xla_protos.decode_sharding(v2), xla_protos.decode_sharding(v1)
            if a is None or b is None or not xla_protos.same_sharding(a, b):
                raise PassFailure(f"'{CLUSTER_FUNC}' op {XLA_SHARDING_V2} is not equivalent to "
                                  f"{XLA_SHARDING}: {_text(v2)} vs {_text(v1)}", cluster_func)
        return v2

    # --- inputs ---------------------------------------------------------------------------

    @staticmethod
    def from_operand(value):
        if isinstance(value, ir.OpResult) and value.owner.name == READ_VARIABLE:
            value = value.owner.operands[0]
        if isinstance(value, ir.OpResult) and value.owner.name == PARTITIONED_INPUT_V2:
            owner = value.owner.operation
            if XLA_SHARDING in owner.attributes:
                return _Op(owner)
        return None

    def from_arg(self, arg, devices, cluster_func):
        visited = set()
        level = [arg]
        while level:
            next_level = []
            for value in level:
                if value in visited:
                    continue
                visited.add(value)
                for use in value.uses:
                    owner = use.owner.operation
                    name = owner.name
                    if name == XLA_SHARDING_OP:
                        return self.sharding_op_string(owner, cluster_func)
                    device = self.logical_device(owner, devices, cluster_func)
                    if device is not None:
                        return device
                    number = use.operand_number
                    if name == WHILE_REGION:
                        for region in owner.regions:
                            args = region.blocks[0].arguments
                            if number < len(args):
                                next_level.append(args[number])
                        continue
                    if name in _UNARY and len(owner.results):
                        next_level.append(owner.results[0])
                        continue
                    if name in _BINARY and len(owner.results) and _partially_same_shape(
                            value.type, owner.results[0].type):
                        next_level.append(owner.results[0])
                        continue
                    if name in _LOOKED_THROUGH and len(owner.results):
                        next_level.append(owner.results[0])
                        continue
                    if name in CALLEE_ATTRS:
                        func = self.callee(owner)
                        if func is not None:
                            args = func.regions[0].blocks[0].arguments
                            if number < len(args):
                                next_level.append(args[number])
            level = next_level
        return None

    # --- outputs --------------------------------------------------------------------------

    @staticmethod
    def from_result(value):
        uses = list(value.uses)
        if len(uses) != 1:
            return None
        user = uses[0].owner.operation
        if user.name == PARTITIONED_OUTPUT_V2:
            return _Op(user) if XLA_SHARDING in user.attributes else None
        if user.name == ASSIGN_VARIABLE:
            resource = user.operands[0]
            if isinstance(resource, ir.OpResult) and resource.owner.name == PARTITIONED_INPUT_V2:
                owner = resource.owner.operation
                return _Op(owner) if XLA_SHARDING in owner.attributes else None
        return None

    def from_retval(self, value, devices, cluster_func):
        visited = set()
        stack = [value]
        while stack:
            value = stack.pop()
            if value in visited:
                continue
            visited.add(value)
            if not isinstance(value, ir.OpResult):
                continue
            op = value.owner.operation
            name = op.name
            if name == XLA_SHARDING_OP:
                return self.sharding_op_string(op, cluster_func)
            for attr in (XLA_SHARDING_V2, XLA_SHARDING):
                string = attributes.string_bytes(op, attr)
                if string is not None:
                    return string
            device = self.logical_device(op, devices, cluster_func)
            if device is not None:
                return device
            if name in _UNARY or name in _BINARY:
                stack.extend(op.operands)
                continue
            if name in CALLEE_ATTRS:
                func = self.callee(op)
                if func is not None:
                    terminator = func.regions[0].blocks[0].operations[-1]
                    if value.result_number < len(terminator.operands):
                        stack.append(terminator.operands[value.result_number])
                continue
            if name == WHILE_REGION:
                body = op.regions[1].blocks[0]
                yield_op = body.operations[-1]
                if value.result_number < len(yield_op.operands):
                    stack.append(yield_op.operands[value.result_number])
        return None

    # --- one cluster_func -----------------------------------------------------------------

    def shardings(self, cluster_func, func, devices, use_spmd, infer):
        block = func.regions[0].blocks[0]
        inputs = []
        for operand, arg in zip(cluster_func.operands, block.arguments):
            found = self.from_operand(operand)
            if found is None and infer:
                found = self.from_arg(arg, devices, cluster_func)
            inputs.append(found)
        terminator = block.operations[-1]
        outputs = []
        for result, retval in zip(cluster_func.results, terminator.operands):
            found = self.from_result(result)
            if found is None and infer:
                found = self.from_retval(retval, devices, cluster_func)
            outputs.append(found)
        arg_attrs = _attr_dicts(func, "arg_attrs", len(block.arguments))
        for index, attrs in enumerate(arg_attrs):
            if ALIASING_ATTR not in attrs or not isinstance(attrs[ALIASING_ATTR], ir.IntegerAttr):
                continue
            retval = ir.IntegerAttr(attrs[ALIASING_ATTR]).value
            if not (0 <= retval < len(ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value).results)):
                continue
            if index >= len(inputs) or retval >= len(outputs):
                continue
            a, b = inputs[index], outputs[retval]
            if a is not None and b is not None and a != b:
                raise PassFailure(f"'{CLUSTER_FUNC}' op arg#{index} is aliased to retval#{retval} "
                                  f"but their sharding configurations don't match.", cluster_func)
            if a is not None and b is None:
                outputs[retval] = a
            elif a is None and b is not None:
                inputs[index] = b
        for shardings in (inputs, outputs):
            for index, sharding in enumerate(shardings):
                if sharding is None:
                    if use_spmd:
                        shardings[index] = REPLICATED_SHARDING
                    elif devices:
                        shardings[index] = devices[0]
                    else:
                        raise PassFailure(f"'{CLUSTER_FUNC}' op has no logical core for the default "
                                          f"sharding ({NUM_CORES_PER_REPLICA_ATTR} is "
                                          f"{len(devices)})", cluster_func)
        return inputs, outputs

    def identify(self, cluster_func):
        attributes = cluster_func.attributes
        func = self.callee(cluster_func)
        if func is None:
            raise PassFailure(f"'{CLUSTER_FUNC}' op has no function body to identify shardings in",
                              cluster_func)
        use_spmd = False
        if USE_SPMD_ATTR in attributes and isinstance(attributes[USE_SPMD_ATTR], ir.BoolAttr):
            use_spmd = ir.BoolAttr(attributes[USE_SPMD_ATTR]).value
        if (NUM_CORES_PER_REPLICA_ATTR not in attributes
                or not isinstance(attributes[NUM_CORES_PER_REPLICA_ATTR], ir.IntegerAttr)):
            raise PassFailure(f"'{CLUSTER_FUNC}' op requires attribute '{NUM_CORES_PER_REPLICA_ATTR}'",
                              cluster_func)
        cores = ir.IntegerAttr(attributes[NUM_CORES_PER_REPLICA_ATTR]).value
        devices = [xla_protos.assign_device_sharding(core) for core in range(max(cores, 0))]
        inputs, outputs = self.shardings(cluster_func, func, devices, use_spmd, True)

        def maximal(sharding):
            decoded = _decoded(sharding)
            return decoded is not None and decoded.type == xla_protos.SHARDING_MAXIMAL

        fallback = use_spmd and any(maximal(s) for s in inputs + outputs)
        if not fallback:
            fallback = not _verify_shardings(func, inputs, outputs)
        if fallback:
            cluster_func.attributes[USE_SPMD_ATTR] = ir.BoolAttr.get(False, cluster_func.context)
            inputs, outputs = self.shardings(cluster_func, func, devices, False, False)
        _set_function_shardings(func, inputs, outputs)
        context = cluster_func.context
        for name, shardings in ((INPUT_SHARDING_ATTR, inputs), (OUTPUT_SHARDING_ATTR, outputs)):
            strings = [_sharding_string(s) for s in shardings]
            cluster_func.attributes[name] = ir.ArrayAttr.get(
                [ir.StringAttr.get(s, context) for s in strings if s is not None], context)


def _partially_same_shape(type_0, type_1):
    """TF's ``DoTypesHavePartialSameShape``."""
    if not (isinstance(type_0, ir.RankedTensorType) and isinstance(type_1, ir.RankedTensorType)):
        return False
    a, b = ir.RankedTensorType(type_0), ir.RankedTensorType(type_1)
    shape_0, shape_1 = list(a.shape), list(b.shape)
    if a.has_static_shape and b.has_static_shape:
        return shape_0 == shape_1
    i = j = 0
    while i < len(shape_0) and j < len(shape_1):
        dynamic_0, dynamic_1 = a.is_dynamic_dim(i), b.is_dynamic_dim(j)
        if shape_0[i] != shape_1[j] and not dynamic_0 and not dynamic_1:
            return False
        if shape_0[i] == shape_1[j]:
            i += 1
            j += 1
        else:
            if dynamic_0:
                i += 1
            if dynamic_1:
                j += 1
    return i == len(shape_0) and j == len(shape_1)


def _verify_sharding(value_type, sharding):
    """TF's ``VerifySharding``: False when an OTHER sharding tiles more dimensions than the
    ranked tensor has (with an error diagnostic at a partitioned op that gives it)."""
    decoded = _decoded(sharding)
    if decoded is None or decoded.type != 3:
        return True
    if not isinstance(value_type, ir.RankedTensorType):
        return True
    rank = ir.RankedTensorType(value_type).rank
    tiled = (len(decoded.tile_assignment_dimensions) - int(decoded.replicate_on_last_tile_dim)
             - len(decoded.last_tile_dims))
    if rank >= tiled:
        return True
    if isinstance(sharding, _Op):
        sharding.op.location.emit_error(
            f"tensor of type {value_type} (rank={rank}) sharded in {tiled - rank} extra "
            f"dimension(s) by: {decoded.debug_string()}")
    return False


def _verify_shardings(func, inputs, outputs):
    block = func.regions[0].blocks[0]
    for sharding, arg in zip(inputs, block.arguments):
        if not _verify_sharding(arg.type, sharding):
            return False
    for sharding, value in zip(outputs, block.operations[-1].operands):
        if not _verify_sharding(value.type, sharding):
            return False
    return True


def _attr_dicts(func, name, count):
    attributes = func.attributes
    if name in attributes and isinstance(attributes[name], ir.ArrayAttr):
        found = [ir.DictAttr(a) for a in ir.ArrayAttr(attributes[name])]
        if len(found) == count:
            return found
    return [ir.DictAttr.get({}, func.context) for _ in range(count)]


def _with_sharding(attrs, string, context):
    entries = irsafe.attribute_dict(attrs)
    entries[SHARDING_ATTR] = ir.StringAttr.get(string, context)
    return ir.DictAttr.get(entries, context)


def _set_function_shardings(func, inputs, outputs):
    context = func.context
    block = func.regions[0].blocks[0]
    function_type = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
    for name, shardings, count in (("arg_attrs", inputs, len(block.arguments)),
                                   ("res_attrs", outputs, len(function_type.results))):
        dicts = _attr_dicts(func, name, count)
        changed = False
        for index, sharding in enumerate(shardings[:count]):
            string = _sharding_string(sharding)
            if string is not None:
                dicts[index] = _with_sharding(dicts[index], string, context)
                changed = True
        if changed:
            func.attributes[name] = ir.ArrayAttr.get(list(dicts), context)


@register_pass
class TPUShardingIdentificationPass(Pass):
    argument = "tf-tpu-sharding-identification"
    anchor = MODULE
    dependent_dialects = ("tf", "tf_device")

    def run_on_operation(self, module):
        identifier = _Identifier()
        for cluster_func in ops_named(module.operation, CLUSTER_FUNC):
            identifier.identify(cluster_func)
