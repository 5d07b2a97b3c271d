"""Tiled (split) shardings across the logical cores of a TPU computation, on the host side.

What TF's ``xla_sharding_util`` does for ``tf-tpu-rewrite`` when an operand or a
result of a ``tf_device.cluster_func`` has a tiled ``xla.OpSharding`` (type OTHER
with a tile dimension above 1) and is not already partitioned by
``tf.TPUPartitionedInputV2`` / ``OutputV2``:

* an operand is cut into tiles by a tree of ``tf.Split`` ops, one level per tiled
  dimension in ascending order (row-major tiles), each level padded first with a
  ``tf.Pad`` at the end of the dimension when the dimension does not divide evenly
  (static shapes only); tile ``i`` goes to logical core
  ``tile_assignment_devices[i]`` (each tile repeated for
  ``replicate_on_last_tile_dim``);
* a result comes back from the cores as tiles (each core's ``TPUExecute`` returns
  the tile type: the dimension divided, rounded up) and is merged by a tree of
  ``tf.Concat`` ops, the last tiled dimension first, followed by a ``tf.Slice``
  that cuts the padding off when there was any.

The planning functions only read; :func:`split_operand` and :func:`concat_result`
build the ops.
"""
from mlir import ir

from .tf_builders import OpBuilder, scalar_attr

SPLIT = "tf.Split"
CONCAT = "tf.Concat"
PAD = "tf.Pad"
SLICE = "tf.Slice"


class TileError(ValueError):
    """A tiled sharding the host cannot split or merge (TF's wording)."""


def split_dimensions(sharding):
    """{dimension: number of tiles} of the tiled dimensions (TF's
    ``GetDimensionIndicesAndNumSplitsFromSharding``); TileError when none is tiled."""
    dims = list(sharding.tile_assignment_dimensions)
    if sharding.replicate_on_last_tile_dim:
        dims = dims[:-1]
    found = {d: n for d, n in enumerate(dims) if n > 1}
    if not found:
        raise TileError(f"Arg has unnecessary tiled sharding: {sharding.debug_string()}")
    return found


def repeat_count(sharding):
    """How many cores share each tile (the last tile dimension under
    ``replicate_on_last_tile_dim``, else 1)."""
    dims = list(sharding.tile_assignment_dimensions)
    return dims[-1] if sharding.replicate_on_last_tile_dim and dims else 1


def _static_shape(value_type):
    """The shape of a ranked type whose dimensions are all static (TF's ``IsShapeKnown``: a
    rank-0 type is not known), else None."""
    if not isinstance(value_type, ir.RankedTensorType):
        return None
    shape = list(ir.RankedTensorType(value_type).shape)
    if not shape or any(ir.ShapedType.is_dynamic_size(d) for d in shape):
        return None
    return shape


def padding(size, tiles):
    """Elements appended to a dimension of `size` so that it splits into `tiles` equal parts (TF's
    ``GetPadding``; 0 for an unknown or empty dimension)."""
    if size <= 0:
        return 0
    per_tile = -(-size // tiles)
    return per_tile * tiles - size


def tile_count(sharding):
    """How many tiles (operands for the cores) a split gives: the tiles times their repeats."""
    count = 1
    for n in split_dimensions(sharding).values():
        count *= n
    return count * repeat_count(sharding)


def check_split(value_type, sharding):
    """TileError when an operand of `value_type` cannot be split by `sharding` the way
    :func:`split_operand` does (a static tiled dimension that padding cannot make even)."""
    dims = split_dimensions(sharding)
    shape = _static_shape(value_type)
    if not isinstance(value_type, ir.RankedTensorType):
        return
    current = list(ir.RankedTensorType(value_type).shape)
    for dim, n in dims.items():
        if dim >= len(current):
            raise TileError(f"the sharding tiles dimension {dim} of a rank-{len(current)} value")
        pad = padding(shape[dim], n) if shape is not None else 0
        size = current[dim]
        if ir.ShapedType.is_dynamic_size(size):
            continue
        size += pad
        if size % n:
            raise TileError(f"incorrect input sharding configuration received. {dim}-th dimension of "
                            f"the input must be evenly divisible by {n}")
        current[dim] = size // n


def tile_type(value_type, sharding):
    """The type each core returns for a result of `value_type` with a tiled `sharding` (TF's
    ``ValidateAndGetTiledExecuteOutputShape``): the tiled dimensions divided, rounded up, in
    ascending order until one is dynamic."""
    if not isinstance(value_type, ir.RankedTensorType):
        return value_type
    ranked = ir.RankedTensorType(value_type)
    shape = list(ranked.shape)
    for dim, n in split_dimensions(sharding).items():
        if dim >= len(shape):
            raise TileError(f"the sharding tiles dimension {dim} of a rank-{len(shape)} value")
        if ir.ShapedType.is_dynamic_size(shape[dim]):
            break
        shape[dim] = shape[dim] // n + (1 if shape[dim] % n else 0)
    return ir.RankedTensorType.get(shape, ranked.element_type)


def _i32_scalar(b, value):
    return b.const(scalar_attr(ir.IntegerType.get_signless(32), value))


def _i64_const(b, values):
    import numpy as np
    i64 = ir.IntegerType.get_signless(64)
    array = np.asarray(values, dtype=np.int64)
    return b.const(ir.DenseElementsAttr.get(array, type=ir.RankedTensorType.get(list(array.shape), i64)))


def _split(b, value, dim, n, pad):
    """TF's ``CreateSplitOp``: `value` padded by `pad` at the end of `dim`, split `n` ways."""
    value_type = value.type
    if pad > 0:
        ranked = ir.RankedTensorType(value_type)
        shape = list(ranked.shape)
        paddings = _i64_const(b, [[0, pad if d == dim else 0] for d in range(len(shape))])
        shape[dim] += pad
        padded = ir.RankedTensorType.get(shape, ranked.element_type)
        value = b.value(PAD, [value, paddings], padded)
        value_type = padded
    if isinstance(value_type, ir.RankedTensorType):
        ranked = ir.RankedTensorType(value_type)
        shape = list(ranked.shape)
        if not ir.ShapedType.is_dynamic_size(shape[dim]):
            shape[dim] //= n
            value_type = ir.RankedTensorType.get(shape, ranked.element_type)
    split_dim = _i32_scalar(b, dim)
    i32 = ir.IntegerType.get_signless(32)
    return b.op(SPLIT, [split_dim, value], [value_type] * n, {"num_split": ir.IntegerAttr.get(i32, n)})


def split_operand(value, sharding, loc, anchor):
    """Splits `value` into its tiles before `anchor`, at `loc` (TF's
    ``HandleTileShardedInputsUsingTfSplitOps``);
    returns the tile values in ``tile_assignment_devices`` order, each repeated
    :func:`repeat_count` times. Call :func:`check_split` first."""
    b = OpBuilder(anchor, loc)
    shape = _static_shape(value.type)
    level = None
    for dim, n in split_dimensions(sharding).items():
        pad = padding(shape[dim], n) if shape is not None else 0
        if level is None:
            level = [_split(b, value, dim, n, pad)]
            continue
        level = [_split(b, part, dim, n, pad) for split in level for part in split.results]
    repeat = repeat_count(sharding)
    return [part for split in level for part in split.results for _ in range(repeat)]


class _After(OpBuilder):
    """Places ops one after another right after `anchor` (MLIR's insertion point after an op): each
    is created before `anchor` and moved to its place."""

    def __init__(self, anchor, loc):
        super().__init__(anchor, loc)
        self.last = anchor

    def op(self, name, operands, result_types=(), attributes=None):
        created = super().op(name, operands, result_types, attributes)
        created.move_after(self.last)
        self.last = created
        return created


def concat_result(result, tiles, sharding, anchor, loc):
    """Merges `tiles` (the cores' tile values of `result`, in ``tile_assignment_devices`` order, one
    per distinct tile) into `result`'s value right after `anchor` (TF's
    ``HandleTileShardedOutputsUsingTfConcatOps``); `result`'s uses move to the merged value."""
    b = _After(anchor, loc)
    shape = _static_shape(result.type)
    padded = False
    parts = list(tiles)
    for dim, n in reversed(list(split_dimensions(sharding).items())):
        padded |= (padding(shape[dim], n) if shape is not None else 0) > 0
        merged = []
        for start in range(0, len(parts), n):
            group = parts[start:start + n]
            axis = _i32_scalar(b, dim)
            part_type = group[0].type
            if isinstance(part_type, ir.RankedTensorType):
                ranked = ir.RankedTensorType(part_type)
                dims_now = list(ranked.shape)
                if not ir.ShapedType.is_dynamic_size(dims_now[dim]):
                    dims_now[dim] *= len(group)
                    part_type = ir.RankedTensorType.get(dims_now, ranked.element_type)
            merged.append(b.value(CONCAT, [axis] + group, part_type))
        parts = merged
    merged = parts[0]
    if padded:
        begin = _i64_const(b, [0] * len(shape))
        size = _i64_const(b, shape)
        element = ir.RankedTensorType(result.type).element_type
        merged = b.value(SLICE, [merged, begin, size], ir.RankedTensorType.get(shape, element))
    result.replace_all_uses_with(merged)
    return merged
