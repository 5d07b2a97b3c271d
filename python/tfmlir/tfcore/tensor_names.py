"""TensorFlow's names of tensors and control inputs in a graph: ``node``, ``node:3``, ``^node``."""

# The output index of a control edge (TensorFlow's Graph::kControlSlot).
CONTROL = -1


def parse_tensor_name(s):
    """'^n' -> (n, CONTROL); 'n:3' -> (n, 3); 'n' -> (n, 0)."""
    if s.startswith("^"):
        return s[1:], CONTROL
    i = s.rfind(":")
    if i > 0:
        tail = s[i + 1:]
        if tail.isdigit():
            return s[:i], int(tail)
    return s, 0


def tensor_name(node_name, index):
    """The name of output `index` of `node_name` (``^node`` for CONTROL, ``node`` for 0)."""
    if index == CONTROL:
        return "^" + node_name
    return node_name if index == 0 else f"{node_name}:{index}"
