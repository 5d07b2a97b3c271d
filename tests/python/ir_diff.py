"""Where two printed modules first differ: a short report for assertion messages.

:func:`first_difference` compares two texts line by line (meant for the
generic, location-free form of :func:`tfmlir.testing.tf_oracle.canonical`,
where every op starts on its own line) and describes the first line that
differs: the op it belongs to (a ``})`` line closing regions belongs to the op
that opened them), the function around it, a few lines of context from both
sides, the column where the lines part, and how many lines differ in all.

Where both texts have the same ops in the same places the count is exact;
otherwise the texts are aligned with SSA value numbers masked, so one op more
on one side counts as about one line, not as every later line whose ``%N``
moved.
"""
import difflib
import re

_OP_NAME = re.compile(r'"([A-Za-z_][\w$.]*)"\(')
_SYM_NAME = re.compile(r'sym_name = "([^"]*)"')
_VALUE = re.compile(r"%[\w$.-]+(#\d+)?|\^bb\d+")


def _clip(line, column, width):
    """(`line` cut to about `width` characters around `column`, where `column` is in the cut)."""
    if len(line) <= width:
        return line, column
    start = max(0, column - width // 3)
    if start + width // 3 >= len(line):  # a context line shorter than the window's start
        start = max(0, len(line) - width)
    end = start + width
    head = "..." if start else ""
    return head + line[start:end] + ("..." if end < len(line) else ""), len(head) + column - start


def _owner(lines, index):
    """(op name, function name) of line `index`: the op it starts, or closes, or sits in."""
    stack = []  # (op name, function name or None) of ops whose regions are open
    for k in range(index + 1):
        line = lines[k].strip()
        if line.startswith("})") or line.startswith("}]"):
            closed = stack.pop() if stack else ("?", None)
            if k == index:
                return closed[0], _function(stack + [closed])
            continue
        if k == index:
            break
        if line.endswith("({") or line.endswith("{") and _OP_NAME.search(line):
            match = _OP_NAME.search(line)
            name = match.group(1) if match else "?"
            sym = _SYM_NAME.search(line) if name == "func.func" else None
            stack.append((name, sym.group(1) if sym else None))
    line = lines[index].strip()
    match = _OP_NAME.search(line)
    if match:
        name = match.group(1)
        sym = _SYM_NAME.search(line) if name == "func.func" else None
        return name, _function(stack + [(name, sym.group(1) if sym else None)])
    return (stack[-1][0] if stack else "?"), _function(stack)


def _function(stack):
    for name, sym in reversed(stack):
        if sym is not None:
            return sym
    return None


def _skeleton(line):
    """What a line is, without values, types or attributes: indentation and op name."""
    match = _OP_NAME.search(line)
    stripped = line.lstrip()
    return len(line) - len(stripped), match.group(1) if match else stripped[:2]


def differing_lines(expected_lines, actual_lines):
    """(lines of `expected_lines`, lines of `actual_lines`, exact) outside the common parts.

    Texts with the same ops in the same places (the usual case: only types differ) are
    compared line by line (exact). Otherwise they are aligned with SSA value numbers masked by
    difflib's quick matcher, whose count may be a little high (exact is False).
    """
    if len(expected_lines) == len(actual_lines) and all(
            _skeleton(x) == _skeleton(y) for x, y in zip(expected_lines, actual_lines)):
        count = sum(1 for x, y in zip(expected_lines, actual_lines) if x != y)
        return count, count, True
    masked_a = [_VALUE.sub("%", line) for line in expected_lines]
    masked_b = [_VALUE.sub("%", line) for line in actual_lines]
    only_a = only_b = 0
    for tag, a0, a1, b0, b1 in difflib.SequenceMatcher(None, masked_a, masked_b).get_opcodes():
        if tag != "equal":
            only_a += a1 - a0
            only_b += b1 - b0
    return only_a, only_b, False


def first_difference(expected, actual, expected_name="tensorflow", actual_name="tfmlir", context=3, after=2,
                     width=240):
    """None if the texts are equal, else a report of where they first differ (see the module)."""
    if expected == actual:
        return None
    a, b = expected.splitlines(), actual.splitlines()
    index = 0
    while index < len(a) and index < len(b) and a[index] == b[index]:
        index += 1
    if index == len(a) == len(b):
        return f"the texts differ only in line endings: {expected[-20:]!r} vs {actual[-20:]!r}"
    only_a, only_b, exact = differing_lines(a, b)
    out = []
    if index < len(a) and index < len(b):
        column = 0
        while column < min(len(a[index]), len(b[index])) and a[index][column] == b[index][column]:
            column += 1
        op, func = _owner(a, index)
        theirs = _owner(b, index)[0]
        if theirs != op:
            op = f"{op} ({expected_name}) / {theirs} ({actual_name})"
        where = f"first difference at line {index + 1}, column {column + 1}: op {op}"
    else:
        column = 0
        longer, name = (a, expected_name) if index < len(a) else (b, actual_name)
        op, func = _owner(longer, index)
        where = f"first difference at line {index + 1}: only {name} goes on, with op {op}"
    if func:
        where += f" in @{func}"
    out.append(where)
    about = "" if exact else " (about: ops differ, aligned ignoring value numbers)"
    out.append(f"differing lines: {only_a} of {len(a)} ({expected_name}), {only_b} of {len(b)} "
               f"({actual_name}){about}")
    for name, lines in ((expected_name, a), (actual_name, b)):
        out.append(f"--- {name}:")
        for k in range(max(0, index - context), min(len(lines), index + 1 + after)):
            mark = ">" if k == index else " "
            text, at = _clip(lines[k], column, width)
            out.append(f"{mark}{k + 1:6d}| {text}")
            if k == index and column:
                out.append(" " * (9 + at) + "^")
        if index >= len(lines):
            out.append(f">{index + 1:6d}| <end of text>")
    return "\n".join(out)
