"""StridedSlice semantics (TensorFlow's ValidateStridedSliceOp): result shapes and values."""
import numpy as np

from .algebra import ShapeError

_NEW_AXIS = -1
_SHRINK_AXIS = -2


class _Error(Exception):
    pass


def _dense_spec(rank, begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                shrink_axis_mask):
    n = len(strides)
    if ellipsis_mask and (ellipsis_mask & (ellipsis_mask - 1)):
        raise _Error("multiple ellipses in slice spec not allowed")
    ellipsis_seen = False
    num_add_after = 0
    for i in range(n):
        if ellipsis_seen and (1 << i) & new_axis_mask:
            num_add_after += 1
        if (1 << i) & ellipsis_mask:
            ellipsis_seen = True
    dims = n
    if not ellipsis_seen:
        ellipsis_mask |= 1 << dims
        dims += 1
    d_begin = [0] * rank
    d_end = [0] * rank
    d_strides = [1] * rank
    d_bmask = d_emask = d_shrink = 0
    gather = []
    full = 0
    for i in range(dims):
        if (1 << i) & ellipsis_mask:
            nxt = min(rank - (dims - i) + 1 + num_add_after, rank)
            while full < nxt:
                d_begin[full] = d_end[full] = 0
                d_strides[full] = 1
                d_bmask |= 1 << full
                d_emask |= 1 << full
                gather.append(full)
                full += 1
        elif (1 << i) & new_axis_mask:
            gather.append(_NEW_AXIS)
        else:
            if full == rank:
                raise _Error("attempting to slice a scalar input" if rank == 0 else
                             f"index out of range using input dim {full}; input has only {rank} dims")
            if begin is not None:
                d_begin[full] = int(begin[i])
            if end is not None:
                d_end[full] = int(end[i])
            d_strides[full] = int(strides[i])
            if begin_mask & (1 << i):
                d_bmask |= 1 << full
            if end_mask & (1 << i):
                d_emask |= 1 << full
            if shrink_axis_mask & (1 << i):
                gather.append(_SHRINK_AXIS)
                d_shrink |= 1 << full
            else:
                gather.append(full)
            full += 1
    return d_begin, d_end, d_strides, d_bmask, d_emask, d_shrink, gather


def _process(shape, begin, end, strides, masks):
    """Steps 2-4: (processing dims, final dims, canonical begin/end/strides per dense dim)."""
    rank = len(shape)
    begin_valid = begin is not None
    end_valid = end is not None
    if begin is not None and (np.asarray(begin).ndim != 1 or np.asarray(begin).size != len(strides)):
        raise _Error("expected begin, end, and strides to be 1D equal size tensors")
    if end is not None and (np.asarray(end).ndim != 1 or np.asarray(end).size != len(strides)):
        raise _Error("expected begin, end, and strides to be 1D equal size tensors")
    b, e, s, bmask, emask, shrink, gather = _dense_spec(
        rank, None if begin is None else list(np.asarray(begin).reshape(-1)),
        None if end is None else list(np.asarray(end).reshape(-1)), list(np.asarray(strides).reshape(-1)),
        *masks)
    processing = []
    for i in range(rank):
        stride = s[i]
        dim = shape[i]
        if stride == 0:
            raise _Error(f"strides[{i}] must be non-zero")
        shrink_i = bool(shrink & (1 << i))
        if dim == -1:
            processing.append(1 if shrink_i else -1)
            continue
        m = (bmask & (1 << i), emask & (1 << i))
        valid = (0 if stride > 0 else -1, dim if stride > 0 else dim - 1)

        def canonical(x, c):
            if m[c]:
                return valid[c] if stride > 0 else valid[(c + 1) & 1]
            x_fwd = dim + x if x < 0 else x
            return valid[0] if x_fwd < valid[0] else (valid[1] if x_fwd > valid[1] else x_fwd)

        if shrink_i and stride <= 0:
            raise _Error("only stride 1 allowed on non-range indexing")
        both_masked = bool(m[0]) and bool(m[1])
        if begin_valid and end_valid:
            if shrink_i:
                x_fwd = dim + b[i] if b[i] < 0 else b[i]
                b[i] = x_fwd
                e[i] = x_fwd + 1
                if x_fwd < 0 or x_fwd >= dim:
                    raise _Error(f"slice index {x_fwd} of dimension {i} out of bounds")
            else:
                b[i] = canonical(b[i], 0)
                e[i] = canonical(e[i], 1)
        known = False
        length = 0
        if begin_valid and end_valid:
            length = e[i] - b[i]
            known = True
        elif shrink_i:
            length = 1
            known = True
        elif both_masked:
            if dim >= 0:
                length = -dim if stride < 0 else dim
                known = True
        if known:
            if length == 0 or ((length < 0) != (stride < 0)):
                size = 0
            else:
                q = abs(length) // abs(stride)
                r = abs(length) % abs(stride)
                size = q + (1 if r else 0)
            processing.append(size)
        else:
            processing.append(-1)
    final = []
    for g in gather:
        if g >= 0:
            final.append(processing[g])
        elif g == _NEW_AXIS:
            final.append(1)
    return processing, final, b, e, s, shrink, gather


def strided_slice_shape(shape, begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                        shrink_axis_mask):
    try:
        _, final, *_ = _process(list(shape), begin, end, strides,
                                (begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask))
    except _Error as exc:
        raise ShapeError(str(exc)) from None
    return final


def strided_slice_value(x, begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                        shrink_axis_mask):
    shape = list(x.shape)
    try:
        processing, final, b, e, s, shrink, gather = _process(
            shape, begin, end, strides, (begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask))
    except _Error as exc:
        raise ShapeError(str(exc)) from None
    idx = []
    for i in range(len(shape)):
        stride = s[i]
        start, stop = b[i], e[i]
        if stride < 0 and stop == -1:
            stop = None
        idx.append(slice(start, stop, stride))
    out = x[tuple(idx)]
    return out.reshape(final)
