"""What TF's SparseCore embedding passes (``tf-embedding-pipelining``,
``tf-embedding-sequencing``) read before deciding to rewrite: the ops the
TPU embedding API tags with ``_embedding_pipelining``."""
from mlir import ir

from ... import _tfmlir

EMBEDDING_ATTR = "_embedding_pipelining"
FORWARD = b"forward"
BACKWARD = b"backward"
FORWARD_SEQUENTIAL = b"forward_sequential"
BACKWARD_SEQUENTIAL = b"backward_sequential"
REPLICATION_INFO_ATTR = "_replication_info"


def tagged_ops(module):
    """``[(op, value bytes or None)]`` of the ops under `module` with ``_embedding_pipelining``, in
    post-order (TF's walk); None when the attribute is not a string (TF crashes on it)."""
    found = []
    for op in _tfmlir.ops_with_attributes(module.operation, [EMBEDDING_ATTR]):
        attr = op.attributes[EMBEDDING_ATTR]
        value = ir.StringAttr(attr).value_bytes if isinstance(attr, ir.StringAttr) else None
        found.append((op, value))
    return found


def not_a_string(op):
    return (f"'{op.name}' op attribute '{EMBEDDING_ATTR}' is not a string attribute "
            f"(TF's pass crashes on it)")


def unknown_value(op, value):
    return (f"'{op.name}' op embedding op has unknown {EMBEDDING_ATTR} attribute value "
            f"{value.decode('utf-8', 'backslashreplace')}.")


def _replication_info(op):
    attributes = op.attributes
    if REPLICATION_INFO_ATTR not in attributes:
        return None
    attr = attributes[REPLICATION_INFO_ATTR]
    return attr if isinstance(attr, ir.StringAttr) else None


def _printed(attr):
    return "<<NULL ATTRIBUTE>>" if attr is None else str(attr)


def pass_ops_problem(forward, backward):
    """TF's checks of the ops it is about to rewrite, forward ops first: ``(op, message)`` for
    the first one with no forward op, in another region than the first forward op, or with
    another string ``_replication_info``; None when they pass."""
    if not forward:
        if backward:
            return backward[0], (f"'{backward[0].name}' op embedding backwards pass op with no "
                                 f"forwards pass ops.")
        return None
    region = forward[0].block.region
    replication = _replication_info(forward[0])
    for op in forward + backward:
        if op.block.region != region:
            return op, f"'{op.name}' op embedding ops in two different regions"
        other = _replication_info(op)
        if (other is None) != (replication is None) or (other is not None
                                                         and other != replication):
            return op, (f"'{op.name}' op embedding ops with different replication info "
                        f"{_printed(replication)} vs {_printed(other)}")
    return None


def rewrite_not_supported(op, rewrite):
    return (f"'{op.name}' op is tagged for TF's {rewrite} rewrite of SparseCore embedding "
            f"programs ({EMBEDDING_ATTR}), which is not supported yet")
