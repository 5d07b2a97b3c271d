"""Shape algebra of TensorFlow's InferenceContext, on plain Python shapes.

A shape is ``None`` (unknown rank) or a list of ints, ``-1`` for an unknown
dimension. Handle data (the subtypes of resource and variant tensors) is a list
of ``(dtype, shape)`` pairs, dtype being TensorFlow's DataType number.
"""
import numpy as np

UNKNOWN = None


class ShapeError(Exception):
    pass


# --- dimension/shape algebra (InferenceContext) ---------------------------------------------------

def merge_dim(a, b):
    if a < 0:
        return b
    if b < 0 or a == b:
        return a
    raise ShapeError(f"dimensions must be equal, but are {a} and {b}")


def with_rank(s, r):
    if s is None:
        return [-1] * r
    if len(s) != r:
        raise ShapeError(f"shape must be rank {r} but is rank {len(s)}")
    return s


def with_rank_at_least(s, r):
    if s is None:
        return None
    if len(s) < r:
        raise ShapeError(f"shape must be at least rank {r} but is rank {len(s)}")
    return s


def with_rank_at_most(s, r):
    if s is None:
        return None
    if len(s) > r:
        raise ShapeError(f"shape must be at most rank {r} but is rank {len(s)}")
    return s


def merge_shape(a, b):
    if a is None:
        return b
    if b is None:
        return a
    if len(a) != len(b):
        raise ShapeError(f"shapes must be equal rank, but are {len(a)} and {len(b)}")
    return [merge_dim(x, y) for x, y in zip(a, b)]


def num_elements(s):
    if s is None:
        return -1
    n = 1
    for d in s:
        if d < 0:
            return -1
        n *= d
    return n


def fully_defined(s):
    return s is not None and all(d >= 0 for d in s)


def _dim_index(s, i):
    return i + len(s) if i < 0 else i


def subshape(s, start, end=None):
    """InferenceContext::Subshape with stride 1: dimensions [start, end) (`end` None = to the
    end); negative indices count from the end, indices past the end are clamped, indices before
    the start or an end before the start are errors. Unknown rank stays unknown."""
    if start == 0 and (end is None or (s is not None and end >= len(s))):
        return s
    if s is None:
        return None
    n = len(s)
    start_in, end_in = start, end
    if end is None or end > n:
        end = n
    start = min(start, n)
    if start < 0:
        start += n
        if start < 0:
            raise ShapeError(f"subshape start out of bounds: {start_in}, for shape with rank {n}")
    if end < 0:
        end += n
        if end < 0:
            raise ShapeError(f"subshape end out of bounds: {end_in}, for shape with rank {n}")
    if start > end:
        raise ShapeError(f"subshape must have computed start <= end, but is {start} and {end} "
                         f"(computed from start {start_in} and end {end_in} over shape with rank {n})")
    return list(s[start:end])


def concatenate(a, b):
    """InferenceContext::Concatenate: unknown when either rank is."""
    if a is None or b is None:
        return None
    return list(a) + list(b)


def replace_dim(s, i, d):
    """InferenceContext::ReplaceDim (negative `i` counts from the end)."""
    if s is None:
        return None
    j = i + len(s) if i < 0 else i
    if not 0 <= j < len(s):
        raise ShapeError(f"out of range dim_index {i} for shape with {len(s)} dimensions")
    out = list(s)
    out[j] = d
    return out


def unknown_of_rank_like(s):
    """UnknownShapeOfRank(Rank(s)), or unknown when `s` has unknown rank."""
    return None if s is None else [-1] * len(s)


def multiply_dim(a, b):
    """InferenceContext::Multiply: a zero wins over an unknown, one is the identity."""
    if a == 0 or b == 0:
        return 0
    if a == 1:
        return b
    if b == 1:
        return a
    if a < 0 or b < 0:
        return -1
    return a * b


def divide_dim(a, divisor, evenly_divisible=True, divisor_is_dim=False):
    """InferenceContext::Divide; `divisor_is_dim`: the divisor is a dimension (-1 = unknown), not
    a constant."""
    if divisor == 1:
        return a
    if a < 0 or (divisor_is_dim and divisor < 0):
        return -1
    if divisor <= 0:
        raise ShapeError(f"divisor must be positive but is {divisor}")
    if evenly_divisible and a % divisor:
        raise ShapeError(f"dimension size must be evenly divisible by {divisor} but is {a}")
    return a // divisor


def with_value(d, v):
    """InferenceContext::WithValue: an unknown dimension becomes `v`, a known one must equal it."""
    if d < 0:
        return v
    if d != v:
        raise ShapeError(f"dimension must be {v} but is {d}")
    return d


def fully_defined_attr(s, what="shape"):
    """A shape attribute read as a TensorShape (GetAttr): every dimension must be known."""
    if s is None or any(d < 0 for d in s):
        raise ShapeError(f"{what} must be fully defined, got {'unknown rank' if s is None else s}")
    return list(s)


# --- the inference context ---------------------------------------------------------------------------

def broadcast_shapes(x, y, incompatible_shape_error=True):
    if x is None or y is None:
        return None
    rx, ry = len(x), len(y)
    r = max(rx, ry)
    out = []
    for i in range(r):
        x_is_pad = i < r - rx
        y_is_pad = i < r - ry
        dx = 1 if x_is_pad else x[i - (r - rx)]
        dy = 1 if y_is_pad else y[i - (r - ry)]
        if dx < 0 or dy < 0:
            if dx > 1:
                if not incompatible_shape_error:
                    return None
                out.append(dx)
            elif dy > 1:
                if not incompatible_shape_error:
                    return None
                out.append(dy)
            elif dx == 1:
                out.append(dy)
            elif dy == 1:
                out.append(dx)
            elif dx < 0 and dy < 0:
                out.append(-1)
            else:
                if not incompatible_shape_error:
                    return None
                out.append(-1)
        elif dx == 1 or dy == 1:
            if dx == 1 and not y_is_pad:
                out.append(dy)
            else:
                out.append(dx)
        else:
            if dx != dy:
                if not incompatible_shape_error:
                    return []
                raise ShapeError(f"dimensions must be equal, but are {dx} and {dy}")
            out.append(dx)
    return out

def shape_from_tensor(t, input_shape, treat_scalar_as_unknown):
    arr = np.asarray(t)
    if arr.ndim == 0:
        if treat_scalar_as_unknown:
            if int(arr) == -1:
                return None
            raise ShapeError("scalar shape tensor must be -1 (unknown shape)")
        raise ShapeError("shape tensor must be a vector")
    if arr.ndim != 1:
        raise ShapeError("shape tensor must be a vector")
    dims = []
    for v in arr.tolist():
        v = int(v)
        if v < -1:
            raise ShapeError(f"invalid value in tensor used for shape: {v}")
        dims.append(v)
    return dims


# What a partial-shape query answers when the value tells nothing beyond its own shape.
NOT_EVALUATED = type("NotEvaluated", (), {"__repr__": lambda self: "NOT_EVALUATED"})()
