"""TensorFlow's shape functions of the XLA, TPU and collective ops.

Registered into :data:`~tfmlir.shapes.functions.SHAPE_FNS` when the package
:mod:`tfmlir.shapes` is imported (any of its modules). The semantics are those of the ops' registrations
(``tensorflow/compiler/tf2xla/ops/xla_ops.cc``, ``tensorflow/core/tpu/ops``,
``tensorflow/core/ops/tpu_*_ops.cc``, ``tensorflow/core/ops/collective_ops.cc``).
Where a registered function only keeps the rank (``XlaConv``, ``XlaReduceWindow``,
``XlaSelectAndScatter``) that is all it does here too: TensorFlow's MLIR pass
refines those further with XLA's own shape inference, which this library does not
carry. ``XlaGather`` follows XLA's gather shape rule, which its registered
function calls.
"""
import numpy as np

from . import xla_protos
from .algebra import (ShapeError, concatenate, divide_dim, fully_defined_attr, merge_dim,
                      merge_shape, multiply_dim, replace_dim, subshape, unknown_of_rank_like,
                      with_rank, with_rank_at_least)
from .functions import einsum_shape, shape_fn, unchanged, unknown_shape

DT_RESOURCE = 20


def _unchanged_rank(c):
    c.set_output(0, unknown_of_rank_like(c.inputs[0]))


def _same_as_inputs(c):
    """Output i has input i's shape (no handle data)."""
    for i in range(c.num_outputs):
        c.set_output(i, c.inputs[i])


def _explicit_shape(c):
    """ExplicitShape: the `shape` attribute (partially known)."""
    c.set_output(0, c.attr("shape"))


def _proto(parse, c, name):
    """The parsed proto attribute `name`; None when the adapter cannot give its bytes."""
    data = c.attr_bytes(name)
    if data is None:
        return None
    try:
        return parse(data)
    except xla_protos.ProtoError as exc:
        raise ShapeError(f"failed to parse {name}: {exc}") from None


def _scalar_value(t):
    return int(np.asarray(t).reshape(-1)[0])


# --- XLA ops ---------------------------------------------------------------------------------------

shape_fn("XlaConv", "XlaConvV2", "XlaReduceWindow", "XlaSelectAndScatter")(_unchanged_rank)
shape_fn("XlaDynamicUpdateSlice", "XlaSort", "XlaSharding", "XlaScatter", "XlaReducePrecision")(unchanged)
shape_fn("XlaBroadcastHelper", "XlaSelfAdjointEig", "XlaSvd", "XlaSetBound", "XlaSetDynamicDimensionSize",
         "XlaRemoveDynamicDimensionSize", "XlaIf", "XlaWhile", "XlaDequantize", "XlaSend", "XlaSendToHost",
         "_XlaHostComputeMlir", "_XlaRecvAtHost", "_XlaRecvAtHostV2", "_XlaSendFromHost",
         "_XlaSendFromHostV2")(unknown_shape)
shape_fn("XlaKeyValueSort", "XlaOptimizationBarrier")(_same_as_inputs)


@shape_fn("XlaDot", "XlaDotV2")
def _xla_dot(c):
    lhs, rhs = c.inputs[0], c.inputs[1]
    if lhs is None or rhs is None:
        unknown_shape(c)
        return
    data = c.attr_bytes("dimension_numbers")
    if data is None:
        unknown_shape(c)
        return
    try:
        lhs_contract, rhs_contract, lhs_batch, rhs_batch = xla_protos.dot_dimension_numbers(data)
    except xla_protos.ProtoError:
        # TensorFlow ignores a failed parse (the numbers stay empty).
        lhs_contract, rhs_contract, lhs_batch, rhs_batch = [], [], [], []

    def dim(s, i):
        if not -len(s) <= i < len(s):
            raise ShapeError(f"dimension {i} out of range for rank {len(s)}")
        return s[i]

    if len(lhs_contract) != len(rhs_contract):
        raise ShapeError("must specify the same number of contracting dimensions for lhs and rhs. Got: "
                         f"{len(lhs_contract)} and {len(rhs_contract)}")
    for i, (a, b) in enumerate(zip(lhs_contract, rhs_contract)):
        try:
            merge_dim(dim(lhs, a), dim(rhs, b))
        except ShapeError as exc:
            raise ShapeError(f"{exc} for contracting dimension {i} which is lhs dimension {a} and rhs "
                             f"dimension {b}") from None
    if len(lhs_batch) != len(rhs_batch):
        raise ShapeError("must specify the same number of batch dimensions for lhs and rhs. Got: "
                         f"{len(lhs_batch)} and {len(rhs_batch)}")
    out = []
    for i, (a, b) in enumerate(zip(lhs_batch, rhs_batch)):
        try:
            out.append(merge_dim(dim(lhs, a), dim(rhs, b)))
        except ShapeError as exc:
            raise ShapeError(f"{exc} for batch dimension {i} which is lhs dimension {a} and rhs "
                             f"dimension {b}") from None
    out += [d for i, d in enumerate(lhs) if i not in lhs_contract and i not in lhs_batch]
    out += [d for i, d in enumerate(rhs) if i not in rhs_contract and i not in rhs_batch]
    c.set_output(0, out)


@shape_fn("XlaDynamicSlice")
def _xla_dynamic_slice(c):
    sizes = c.inputs[2]
    if sizes is None:
        _unchanged_rank(c)
        return
    if len(sizes) != 1:
        raise ShapeError("size_indices must be a 1D tensor")
    out = c.shape_from_shape_tensor(2)
    if out is None:
        _unchanged_rank(c)
        return
    c.set_output(0, out)


@shape_fn("XlaPad")
def _xla_pad(c):
    inp = c.inputs[0]
    if inp is None:
        _unchanged_rank(c)
        return
    rank = len(inp)
    if c.inputs[1] is not None and len(c.inputs[1]) != 0:
        raise ShapeError(f"padding_value input must be scalar, found rank {len(c.inputs[1])}")
    pads = [c.input_tensor(i) for i in (2, 3, 4)]
    if any(t is None for t in pads):
        _unchanged_rank(c)
        return
    pads = [np.asarray(t) for t in pads]
    for t, name in zip(pads, ("padding_low", "padding_high", "padding_interior")):
        if t.ndim != 1 or t.shape[0] != rank:
            raise ShapeError(f"{name} must be a 1D tensor of size {rank}")
    out = []
    for i in range(rank):
        low, high, interior = (int(t[i]) for t in pads)
        if interior < 0:
            raise ShapeError(f"padding_interior must contain only non-negative values, found {interior}")
        d = inp[i]
        if d < 0:
            out.append(-1)
            continue
        new = d + low + high + (interior * (d - 1) if d > 0 else 0)
        if new < 0:
            raise ShapeError(f"resulting padded dimension has negative size {new}")
        out.append(new)
    c.set_output(0, out)


@shape_fn("XlaRecv")
def _xla_recv(c):
    c.set_output(0, fully_defined_attr(c.attr("shape")))


def _reduced_rank(c, rank, op):
    dims = c.attr("dimensions_to_reduce") or []
    if rank < len(dims) or len(set(dims)) != len(dims) or not all(0 <= d < rank for d in dims):
        raise ShapeError(f"invalid dimensions_to_reduce argument to {op}")
    return dims


@shape_fn("XlaReduce")
def _xla_reduce(c):
    inp = c.inputs[0]
    if inp is None:
        c.set_output(0, None)
        return
    dims = _reduced_rank(c, len(inp), c.op)
    c.set_output(0, [-1] * (len(inp) - len(dims)))


@shape_fn("XlaVariadicReduce")
def _xla_variadic_reduce(c):
    n = c.attr("N", c.num_outputs)
    inputs = list(c.inputs[:n])
    # MergeInput: each input is refined by the others where they are compatible.
    for i in range(n):
        for j in range(n):
            try:
                inputs[i] = merge_shape(inputs[i], inputs[j])
            except ShapeError:
                pass
    if inputs[0] is not None:
        dims = _reduced_rank(c, len(inputs[0]), c.op)
        for i in range(n):
            c.set_output(i, [-1] * (len(inputs[0]) - len(dims)))
    else:
        for i in range(n):
            c.set_output(i, inputs[i])


@shape_fn("XlaVariadicReduceV2")
def _xla_variadic_reduce_v2(c):
    n = c.num_inputs // 2
    inputs, inits = c.inputs[:n], c.inputs[n:]
    if len(inputs) != len(inits):
        raise ShapeError(f"must specify the same number of inputs and init_values. Got {len(inputs)} "
                         f"and {len(inits)}")
    if n == 0:
        raise ShapeError("must specify at least one input")
    shape = inputs[0]
    for i in range(1, n):
        try:
            shape = merge_shape(shape, inputs[i])
        except ShapeError as exc:
            raise ShapeError(f"all inputs must have the same shape. Input {i} (zero-based) has shape "
                             f"{inputs[i]} incompatible with the shape inferred from previous inputs "
                             f"{shape}: {exc}") from None
    out = None
    if shape is not None:
        dims = set(_reduced_rank(c, len(shape), c.op))
        out = [d for i, d in enumerate(shape) if i not in dims]
    for i in range(n):
        c.set_output(i, out)


@shape_fn("XlaRngBitGenerator")
def _xla_rng_bit_generator(c):
    with_rank(c.inputs[0], 0)
    c.set_output(0, with_rank(c.inputs[1], 1))
    c.set_output(1, c.shape_from_shape_tensor(2))


@shape_fn("XlaVariadicSort")
def _xla_variadic_sort(c):
    for i in range(c.num_outputs):
        c.set_output(i, c.inputs[i])


@shape_fn("XlaEinsum")
def _xla_einsum(c):
    eq = c.attr("equation")
    if "," not in eq:
        raise ShapeError(f'expected one "," in equation. Got: {eq}')
    einsum_shape(c)


@shape_fn("XlaSpmdFullToShardShape")
def _xla_spmd_full_to_shard_shape(c):
    inp = c.inputs[0]
    if inp is None:
        unknown_shape(c)
        return
    single_dim = c.attr("dim", -1)
    data = c.attr_bytes("manual_sharding")
    if data is None:
        unknown_shape(c)
        return
    try:
        kind, tiles = xla_protos.op_sharding(data)
    except xla_protos.ProtoError:
        kind, tiles = 0, []  # TensorFlow ignores a failed parse
    if kind != xla_protos.SHARDING_OTHER:
        unchanged(c)
        return
    out = []
    for i, d in enumerate(inp):
        if single_dim < 0 or single_dim == i:
            if i >= len(tiles):
                raise ShapeError(f"manual_sharding has no tile assignment for dimension {i}")
            parts = tiles[i]
            if d >= 0 and parts != 1:
                d = (d + parts - 1) // parts
        out.append(d if d >= 0 else -1)
    c.set_output(0, out)


@shape_fn("XlaSpmdShardToFullShape")
def _xla_spmd_shard_to_full_shape(c):
    c.set_output(0, fully_defined_attr(c.attr("full_shape"), "full_shape"))


@shape_fn("XlaGather")
def _xla_gather(c):
    dn = _proto(xla_protos.GatherDimensionNumbers, c, "dimension_numbers")
    operand, indices, sizes_shape = c.inputs[0], c.inputs[1], c.inputs[2]
    if dn is None or operand is None or any(d < 0 for d in operand) or indices is None or sizes_shape is None:
        unknown_shape(c)
        return
    sizes_t = c.input_tensor(2)
    if sizes_t is None:
        unknown_shape(c)
        return
    slice_sizes = [int(v) for v in np.asarray(sizes_t).reshape(-1)]
    c.set_output(0, gather_shape(operand, indices, dn, slice_sizes))


def _sorted_unique(vals, what):
    if vals != sorted(vals):
        raise ShapeError(f"{what} in gather op must be sorted; got: {vals}")
    if len(set(vals)) != len(vals):
        raise ShapeError(f"repeated dimensions not allowed in {what} in gather op; got: {vals}")


def gather_shape(operand, indices, dn, slice_sizes):
    """XLA's gather shape rule (ShapeInference::InferGatherShape) for a static operand; unknown
    index dimensions stay unknown."""
    rank = len(operand)
    ivd = dn.index_vector_dim
    if not 0 <= ivd <= len(indices):
        raise ShapeError(f"gather index leaf dimension must be within [0, rank(start_indices) + 1). "
                         f"rank(start_indices) is {len(indices)} and gather index leaf dimension is {ivd}.")
    expanded = list(indices) + ([1] if ivd == len(indices) else [])
    _sorted_unique(dn.offset_dims, "offset_dims")
    out_rank = len(dn.offset_dims) + len(expanded) - 1
    for d in dn.offset_dims:
        if not 0 <= d < out_rank:
            raise ShapeError(f"offset dimension {d} in gather op is out of bounds [0, {out_rank})")
    if expanded[ivd] >= 0 and len(dn.start_index_map) != expanded[ivd]:
        raise ShapeError(f"gather op has {len(dn.start_index_map)} elements in start_index_map and the bound "
                         f"of dimension index_vector_dim={ivd} of start_indices is {expanded[ivd]}. These "
                         "two numbers must be equal.")
    for d in dn.start_index_map + dn.collapsed_slice_dims + dn.operand_batching_dims:
        if not 0 <= d < rank:
            raise ShapeError(f"invalid gather dimension numbers: operand dimension {d} not in [0, {rank})")
    if len(set(dn.start_index_map)) != len(dn.start_index_map):
        raise ShapeError(f"repeated dimensions are not allowed in start_index_map; got: {dn.start_index_map}")
    _sorted_unique(dn.collapsed_slice_dims, "collapsed_slice_dims")
    if len(dn.operand_batching_dims) != len(dn.start_indices_batching_dims):
        raise ShapeError("operand_batching_dims and start_indices_batching_dims in gather op must be of the "
                         "same size")
    _sorted_unique(dn.operand_batching_dims, "operand_batching_dims")
    for d in dn.start_indices_batching_dims:
        if not 0 <= d < len(expanded):
            raise ShapeError(f"invalid start_indices_batching_dims; domain is [0, {len(expanded)}), got {d}")
    if len(set(dn.start_indices_batching_dims)) != len(dn.start_indices_batching_dims):
        raise ShapeError("repeated dimensions are not allowed in start_indices_batching_dims")
    if len(slice_sizes) != rank:
        raise ShapeError(f"gather op must have one slice size for every input dimension; got: "
                         f"len(slice_sizes)={len(slice_sizes)}, input_shape.rank={rank}")
    if len(slice_sizes) != len(dn.offset_dims) + len(dn.collapsed_slice_dims) + len(dn.operand_batching_dims):
        raise ShapeError("all components of the offset index in a gather op must either be a offset "
                         "dimension or explicitly collapsed or explicitly batched")
    for i, (s, d) in enumerate(zip(slice_sizes, operand)):
        if s < 0 or s > d:
            raise ShapeError(f"slice size at index {i} in gather op is out of range, must be within "
                             f"[0, {d + 1}), got {s}")
    for d in dn.collapsed_slice_dims + dn.operand_batching_dims:
        if slice_sizes[d] > 1:
            raise ShapeError(f"gather op can only collapse or batch slice dims with bound 1 or 0, but bound "
                             f"is {slice_sizes[d]} for index {d}")
    out = []
    offset_seen = gather_seen = 0
    skipped = set(dn.collapsed_slice_dims) | set(dn.operand_batching_dims)
    offset_dims = set(dn.offset_dims)
    for i in range(out_rank):
        if i in offset_dims:
            while offset_seen in skipped:
                offset_seen += 1
            out.append(slice_sizes[offset_seen])
            offset_seen += 1
        else:
            if gather_seen == ivd:
                gather_seen += 1
            out.append(expanded[gather_seen])
            gather_seen += 1
    return out


@shape_fn("XlaReduceScatter")
def _xla_reduce_scatter(c):
    inp = c.inputs[0]
    if inp is None:
        c.set_output(0, None)
        return
    groups = c.inputs[1]
    if groups is None or len(groups) != 2:
        raise ShapeError("ReduceScatter group_assignment should be rank 2")
    t = c.input_tensor(2)
    if t is None:
        c.set_output(0, None)
        return
    scatter_dim = _scalar_value(t)
    c.set_output(0, [divide_dim(d, groups[1], True, divisor_is_dim=True) if i == scatter_dim else d
                     for i, d in enumerate(inp)])


@shape_fn("XlaCustomCall")
def _xla_custom_call(c):
    c.set_output(0, fully_defined_attr(c.attr("shape")))


@shape_fn("XlaCustomCallV2")
def _xla_custom_call_v2(c):
    shapes = c.attr("result_shapes") or []
    if len(shapes) != c.num_outputs:
        raise ShapeError(f"unexpected number of result shapes: {len(shapes)} != {c.num_outputs}")
    for i, s in enumerate(shapes):
        c.set_output(i, fully_defined_attr(s, "result_shapes"))


@shape_fn("XlaCallModule")
def _xla_call_module(c):
    for i, s in enumerate((c.attr("Sout") or [])[:c.num_outputs]):
        c.set_output(i, s)


def _func_name(v):
    """The name of a function attribute as an adapter gives it ('' when absent)."""
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    name = getattr(v, "name", None)
    return name if isinstance(name, str) else str(v)


@shape_fn("XlaHostCompute")
def _xla_host_compute(c):
    if _func_name(c.attr("shape_inference_graph")):
        # The shapes come from a shape inference graph: unknown here.
        unknown_shape(c)
        return
    shapes = c.attr("shapes") or []
    if len(shapes) != c.num_outputs:
        raise ShapeError(f"_XlaHostCompute has {c.num_outputs} outputs but 'shapes' attr has {len(shapes)} "
                         "elements")
    for i, s in enumerate(shapes):
        c.set_output(i, s)


@shape_fn("XlaRecvFromHost")
def _xla_recv_from_host(c):
    if c.attr("shape", NotImplemented) is NotImplemented:
        raise ShapeError('XlaRecvFromHost op does not have valid "Toutput" attr.')
    c.set_output(0, c.attr("shape"))


@shape_fn("XlaClusterOutput")
def _xla_cluster_output(c):
    for i in range(c.num_outputs):
        c.set_output(i, c.inputs[0])


@shape_fn("_XlaMerge")
def _xla_merge(c):
    c.set_output(0, c.inputs[0])


# --- TPU ops -------------------------------------------------------------------------------------

def _handle(c, i):
    """Input i's handle data, None when it has none."""
    h = c.input_handles[i] if c.input_handles else None
    return h or None


def _partitioned_shape(shape, partition_dims):
    """Every dimension multiplied by its number of partitions (unknown rank stays unknown)."""
    if not partition_dims or shape is None:
        return shape
    if len(shape) > len(partition_dims):
        raise ShapeError(f"need at least {len(shape)} partition dimensions")
    return [multiply_dim(d, partition_dims[i]) for i, d in enumerate(shape)]


def _static_resource_shapes(c):
    """The handle shape of the last input with handle data merged with the others' (all fully
    defined), and the handle data of input 0."""
    previous = None
    first = None
    n = c.num_inputs
    for i in range(n - 1, -1, -1):
        first = _handle(c, i)
        if first is not None:
            shape = first[0][1]
            if shape is None or any(d < 0 for d in shape):
                raise ShapeError(f"inputs must have static shape, input[{i}] has unknown dimension.")
            if i != n - 1:
                try:
                    merge_shape(shape, previous)
                except ShapeError:
                    raise ShapeError("inputs must have the same shape.") from None
            else:
                previous = shape
    return previous, first


@shape_fn("TPUPartitionedInput")
def _tpu_partitioned_input(c):
    dtype = c.attr("T")
    pd = c.attr("partition_dim", 0)
    n = c.num_inputs
    if n == 0:
        raise ShapeError("expected at least one input to TPUPartitionedInput.")
    cur = c.inputs[-1]
    rank = None
    if dtype == DT_RESOURCE:
        h = _handle(c, n - 1)
        if h is not None and h[0][1] is not None:
            rank = len(h[0][1])
    elif cur is not None:
        rank = len(cur)
    if (rank is not None and pd >= rank) or pd < -1:
        raise ShapeError(f"cannot partition dim {pd} of rank {rank if rank is not None else -1} tensor.")
    for i in range(n - 2, -1, -1):
        cur = merge_shape(c.inputs[i], cur)
    if pd == -1 or dtype == DT_RESOURCE:
        c.set_output(0, cur)
    else:
        c.set_output(0, replace_dim(cur, pd, multiply_dim(cur[pd], n)) if cur is not None else None)
    if dtype == DT_RESOURCE:
        previous, first = _static_resource_shapes(c)
        if first is not None:
            if pd == -1:
                c.output_handles[0] = first
            else:
                c.output_handles[0] = [(first[0][0], replace_dim(previous, pd, multiply_dim(previous[pd], n)))]


@shape_fn("TPUPartitionedInputV2")
def _tpu_partitioned_input_v2(c):
    dtype = c.attr("T")
    partition_dims = c.attr("partition_dims") or []
    packed = c.attr("is_packed", False)
    num_partitions = 1
    for d in partition_dims:
        num_partitions *= d
    expected = 1 if packed else num_partitions
    if not ((not partition_dims and not packed) or c.num_inputs == expected):
        raise ShapeError(f"expected {expected} inputs, got {c.num_inputs}.")
    if c.num_inputs == 0:
        raise ShapeError("expected at least one input to TPUPartitionedInputV2.")
    if dtype == DT_RESOURCE:
        previous, first = _static_resource_shapes(c)
        if first is not None:
            c.output_handles[0] = [(first[0][0], _partitioned_shape(previous, partition_dims))]
    c.set_output(0, _partitioned_shape(c.inputs[0], partition_dims))


def _split_dim(d, parts):
    try:
        return divide_dim(d, parts, True)
    except ShapeError as exc:
        raise ShapeError(f"number of ways to split should evenly divide the split dimension: {exc}") from None


@shape_fn("TPUPartitionedOutput")
def _tpu_partitioned_output(c):
    pd = c.attr("partition_dim", 0)
    num_splits = c.attr("num_splits")
    if c.attr("T") == DT_RESOURCE:
        raise ShapeError("TPUPartitionedOutput of resources is not implemented.")
    inp = c.inputs[0]
    if (inp is not None and pd >= len(inp)) or pd < -1:
        raise ShapeError(f"cannot partition dim {pd} of rank {len(inp) if inp is not None else -1} tensor.")
    if pd == -1 or inp is None:
        out = inp
    else:
        out = replace_dim(inp, pd, _split_dim(inp[pd], num_splits))
    for i in range(c.num_outputs):
        c.set_output(i, out)


@shape_fn("TPUPartitionedOutputV2")
def _tpu_partitioned_output_v2(c):
    partition_dims = c.attr("partition_dims") or []
    num_splits = c.attr("num_splits")
    if c.attr("T") == DT_RESOURCE:
        raise ShapeError("TPUPartitionedOutputV2 of resources is not implemented.")
    cores = 1
    for d in partition_dims:
        cores *= d
    inp = c.inputs[0]
    if num_splits != cores:
        raise ShapeError(f"expected {cores} splits.")
    if inp is not None and len(inp) > len(partition_dims):
        raise ShapeError(f"expected at least {len(inp)} partition dimensions.")
    out = None if inp is None else [_split_dim(d, partition_dims[i]) for i, d in enumerate(inp)]
    for i in range(c.num_outputs):
        c.set_output(i, out)


@shape_fn("TPUCopyWithDynamicShape")
def _tpu_copy_with_dynamic_shape(c):
    n = c.attr("N", 0)
    for i in range(c.num_inputs - n):
        c.set_output(i, c.inputs[i])


@shape_fn("TPUAnnotateTensorsWithDynamicShape")
def _tpu_annotate_tensors_with_dynamic_shape(c):
    for i in range(c.num_inputs):
        c.set_output(i, c.inputs[i])


@shape_fn("TPUDummyInput")
def _tpu_dummy_input(c):
    c.set_output(0, fully_defined_attr(c.attr("shape")))


@shape_fn("TPUEmbeddingActivations")
def _tpu_embedding_activations(c):
    c.set_output(0, c.inputs[1])


@shape_fn("AllToAll")
def _all_to_all(c):
    inp = c.inputs[0]
    groups = c.inputs[1]
    if inp is None:
        c.set_output(0, None)
        return
    rank = len(inp)
    split_count = c.attr("split_count")
    if split_count < 1:
        raise ShapeError(f"split_count {split_count} must at least be one.")
    if groups is not None and len(groups) != 2:
        raise ShapeError("group_assignment must have rank 2.")
    per_group = groups[1] if groups is not None else -1
    if per_group >= 0 and per_group != split_count:
        raise ShapeError(f"split_count {split_count} must equal the size of the second dimension of "
                         f"group_assignment {per_group}")
    concat_dim = c.attr("concat_dimension")
    if not 0 <= concat_dim < rank:
        raise ShapeError(f"concat_dimension {concat_dim} is out of range of input rank {rank}")
    split_dim = c.attr("split_dimension")
    if not 0 <= split_dim < rank:
        raise ShapeError(f"split_dimension {split_dim} is out of range of input rank {rank}")
    if inp[concat_dim] < 0 or inp[split_dim] < 0:
        c.set_output(0, None)
        return
    out = list(inp)
    for i in range(rank):
        if i == concat_dim:
            out[i] = out[i] * split_count
        if i == split_dim:
            if out[i] % split_count:
                raise ShapeError(f"input dimension {out[i]} not divisible by split_count {split_count}")
            out[i] = out[i] // split_count
    c.set_output(0, out)


# --- collectives ---------------------------------------------------------------------------------

shape_fn("CollectiveReduce", "CollectiveReduceV2", "CollectiveReduceV3", "CollectiveBcastSendV2",
         "CollectiveAllToAllV2", "CollectiveAllToAllV3")(unchanged)
shape_fn("CollectiveBcastSend", "CollectiveBcastRecv")(_explicit_shape)


@shape_fn("CollectiveGather")
def _collective_gather(c):
    inp = with_rank_at_least(c.inputs[0], 1)
    rest = subshape(inp, 1)
    first = inp[0] if inp is not None else -1
    c.set_output(0, concatenate([first * c.attr("group_size") if first >= 0 else -1], rest))


@shape_fn("CollectiveReduceScatterV2", "CollectiveGatherV2")
def _collective_unknown_first_dim(c):
    # The group size is an input: the first dimension is unknown.
    inp = with_rank_at_least(c.inputs[0], 1)
    c.set_output(0, replace_dim(inp, 0, -1))


@shape_fn("CollectiveBcastRecvV2")
def _collective_bcast_recv_v2(c):
    c.set_output(0, c.shape_from_shape_tensor(3))


@shape_fn("CollectiveAssignGroupV2")
def _collective_assign_group_v2(c):
    c.set_output(0, [])
    c.set_output(1, [])


@shape_fn("CollectiveInitializeCommunicator")
def _collective_initialize_communicator(c):
    c.set_output(0, [])
