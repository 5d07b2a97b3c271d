"""Textual pass pipelines: parsing and scheduling.

The syntax is MLIR's: ``builtin.module(func.func(a{opt=1},b),c)``. A pipeline
is a comma-separated list of elements; an element is either a pass
``name{options}`` or an op-anchored nested pipeline ``op.name(...)``.

:func:`parse_pipeline` turns text into a tree of :class:`PassElement` and
:class:`NestedPipeline`; :func:`schedule` flattens it into stages that run on
the top-level module: runs of upstream (C++) passes become textual fragments
for ``mlir.passmanager.PassManager.add``, Python passes become callables that
visit their anchor operations. Function-level passes are independent per
function, so running each stage over all functions in turn gives the result
of MLIR's interleaved nested execution.
"""
import re
from dataclasses import dataclass, field
from typing import List, Tuple, Union


class PipelineError(ValueError):
    """A malformed pipeline, an unknown pass or a bad option (with the position)."""


@dataclass
class PassElement:
    name: str
    options: str = ""  # the raw text between '{' and '}' (without the braces)
    pos: int = 0

    def text(self):
        return self.name + ("{" + self.options + "}" if self.options else "")


@dataclass
class NestedPipeline:
    op_name: str
    elements: List[Union["PassElement", "NestedPipeline"]] = field(default_factory=list)
    pos: int = 0

    def text(self):
        return self.op_name + "(" + ",".join(e.text() for e in self.elements) + ")"


_NAME_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")


class _Parser:
    def __init__(self, text):
        self.text = text
        self.pos = 0

    def error(self, message, pos=None):
        pos = self.pos if pos is None else pos
        return PipelineError(f"{message} at position {pos} in pipeline '{self.text}'")

    def skip_ws(self):
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self):
        self.skip_ws()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def name(self):
        self.skip_ws()
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in _NAME_CHARS:
            self.pos += 1
        if start == self.pos:
            raise self.error("expected a pass or operation name")
        return self.text[start:self.pos], start

    def braced(self):
        # Returns the text inside balanced braces; quotes and nested braces are kept.
        assert self.text[self.pos] == "{"
        depth, i, start = 0, self.pos, self.pos + 1
        quote = None
        while i < len(self.text):
            c = self.text[i]
            if quote:
                if c == "\\":
                    i += 1
                elif c == quote:
                    quote = None
            elif c in "\"'":
                quote = c
            elif c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    self.pos = i + 1
                    return self.text[start:i]
            i += 1
        raise self.error("unbalanced '{' in pass options", start - 1)

    def elements(self, closing):
        items = []
        if self.peek() == closing:
            return items
        while True:
            name, start = self.name()
            c = self.peek()
            if c == "(":
                self.pos += 1
                nested = NestedPipeline(name, self.elements(")"), start)
                if self.peek() != ")":
                    raise self.error("expected ')'")
                self.pos += 1
                items.append(nested)
            elif c == "{":
                items.append(PassElement(name, self.braced().strip(), start))
            else:
                items.append(PassElement(name, "", start))
            c = self.peek()
            if c == ",":
                self.pos += 1
                continue
            if c == closing:
                return items
            raise self.error(f"expected ',' or {closing!r}" if closing else "expected ','")


# Deepest nesting of parentheses and braces accepted in pipeline text. Real
# pipelines nest a few levels; the parsers here and upstream's (which reads
# option pipelines) are recursive.
MAX_PIPELINE_NESTING = 64


def _check_pipeline_nesting(text):
    depth, quote = 0, None
    for pos, c in enumerate(text):
        if quote:
            if c == quote:
                quote = None
        elif c in "\"'":
            quote = c
        elif c in "({":
            depth += 1
            if depth > MAX_PIPELINE_NESTING:
                raise PipelineError(f"pipeline nests deeper than {MAX_PIPELINE_NESTING} levels at "
                                    f"position {pos}")
        elif c in ")}":
            depth -= 1


def parse_pipeline(text):
    """Parses pipeline text into a list of top-level elements.

    ``builtin.module(...)`` is unwrapped; a bare list (``cse,canonicalize``)
    is taken as anchored on ``builtin.module`` like ``mlir-opt``'s flags.
    Text that is not a str, or nests deeper than :data:`MAX_PIPELINE_NESTING`,
    raises PipelineError.
    """
    if not isinstance(text, str):
        raise PipelineError(f"a pipeline is a str, not {type(text).__name__}")
    _check_pipeline_nesting(text)
    parser = _Parser(text.strip())
    items = parser.elements("")
    if parser.peek():
        raise parser.error("unexpected trailing text")
    if len(items) == 1 and isinstance(items[0], NestedPipeline) and items[0].op_name == "builtin.module":
        return items[0].elements
    return items


def split_pipeline(text):
    """The top-level elements of a textual pipeline, each as pipeline text (commas inside
    ``()`` / ``{}`` kept; ``builtin.module(...)`` unwrapped). Malformed text raises
    PipelineError."""
    return [element.text() for element in parse_pipeline(text)]


# --- options ---------------------------------------------------------------

def split_options(text):
    """Splits ``a=1 b={x,y} c="q r"`` or ``a=1,b=2`` into (key, value) pairs.

    MLIR separates options by spaces; lists use commas. A comma directly
    followed by ``key=`` also starts a new option, as mlir-opt accepts.
    """
    pairs = []
    i, n = 0, len(text)
    while i < n:
        while i < n and (text[i].isspace() or text[i] == ","):
            i += 1
        if i >= n:
            break
        start = i
        while i < n and text[i] not in "= \t\n,":
            i += 1
        key = text[start:i]
        if not key:
            raise PipelineError(f"malformed pass options '{text}'")
        value = None
        if i < n and text[i] == "=":
            i += 1
            vstart, depth, quote = i, 0, None
            while i < n:
                c = text[i]
                if quote:
                    if c == quote:
                        quote = None
                elif c in "\"'":
                    quote = c
                elif c == "{":
                    depth += 1
                elif c == "}":
                    depth -= 1
                elif depth == 0 and c.isspace():
                    break
                elif depth == 0 and c == "," and _next_is_key(text, i + 1):
                    break
                i += 1
            value = text[vstart:i].strip()
        pairs.append((key, value))
    return pairs


def _next_is_key(text, i):
    j = i
    while j < len(text) and (text[j].isalnum() or text[j] in "-_"):
        j += 1
    return j > i and j < len(text) and text[j] == "="


def unquote(value):
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def split_list(value):
    """``{a,b}``, ``a,b`` or ``"a","b"`` -> ['a', 'b'] (empty -> [])."""
    value = value.strip()
    if value.startswith("{") and value.endswith("}"):
        value = value[1:-1]
    if not value:
        return []
    return [unquote(v.strip()) for v in value.split(",") if v.strip()]


# --- scheduling ------------------------------------------------------------

@dataclass
class UpstreamStage:
    """Upstream passes, as text relative to the top-level builtin.module."""
    text: str
    passes: Tuple[str, ...] = ()  # the pass names in `text`
    elements: Tuple[PassElement, ...] = ()  # the parsed passes, with their options


@dataclass
class PythonStage:
    """A registered Python pass with parsed options, nested under `path`."""
    pass_cls: type
    options: dict
    path: Tuple[str, ...]  # op names below builtin.module, e.g. ('func.func',)


def schedule(elements, registry, path=()):
    """Flattens parsed elements into UpstreamStage/PythonStage items, in order."""
    stages = []
    for element in elements:
        if isinstance(element, NestedPipeline):
            stages.extend(schedule(element.elements, registry, path + (element.op_name,)))
            continue
        pass_cls = registry.get(element.name)
        if pass_cls is not None:
            stages.append(PythonStage(pass_cls, pass_cls.parse_options(element.options),
                                      path))
            continue
        _check_no_python_pass_in_options(element, registry)
        text = element.text()
        for op_name in reversed(path):
            text = f"{op_name}({text})"
        if stages and isinstance(stages[-1], UpstreamStage):
            last = stages[-1]
            stages[-1] = UpstreamStage(last.text + "," + text, last.passes + (element.name,),
                                       last.elements + (element,))
        else:
            stages.append(UpstreamStage(text, (element.name,), (element,)))
    return stages


def expand_named_pipelines(elements, pipelines, path=(), expanding=()):
    """`elements` with every element naming a pipeline of `pipelines` replaced by its elements.

    `pipelines` maps a name to ``(text, anchor)``: the pipeline's elements as
    text (or a function from the element's options text to it, for pipelines
    with options) and the op it runs on (``builtin.module``). A named pipeline
    runs where its anchor is: nested under another op it is an error, as is a
    pipeline that names itself.
    """
    expanded = []
    for element in elements:
        if isinstance(element, NestedPipeline):
            expanded.append(NestedPipeline(
                element.op_name,
                expand_named_pipelines(element.elements, pipelines, path + (element.op_name,),
                                       expanding),
                element.pos))
            continue
        named = pipelines.get(element.name)
        if named is None:
            expanded.append(element)
            continue
        text, anchor = named
        where = path[-1] if path else "builtin.module"
        if callable(text):
            text = text(element.options)
        elif element.options:
            raise PipelineError(f"pipeline '{element.name}' (at position {element.pos}) takes no "
                                f"options")
        if where != anchor:
            raise PipelineError(f"pipeline '{element.name}' (at position {element.pos}) runs on "
                                f"'{anchor}', not nested in '{where}'")
        if element.name in expanding:
            raise PipelineError(f"pipeline '{element.name}' contains itself")
        expanded.extend(expand_named_pipelines(parse_pipeline(text), pipelines, path,
                                               expanding + (element.name,)))
    return expanded


_NAME_TOKEN = re.compile(r"[A-Za-z0-9_.-]+")


def _check_no_python_pass_in_options(element, registry):
    """PipelineError if an upstream pass's options name a Python pass.

    Options such as the inliner's ``default-pipeline`` hold pipelines that
    the upstream pass parses and runs itself, in C++, where Python passes do
    not exist (MLIR would report an unknown pass, or run without it).
    """
    if not element.options:
        return
    for token in _NAME_TOKEN.findall(element.options):
        if token in registry:
            raise PipelineError(
                f"Python pass '{token}' cannot be nested in the options of upstream pass "
                f"'{element.name}' (at position {element.pos}): upstream passes run the "
                f"pipelines in their options in C++, where Python passes do not exist; run "
                f"'{token}' as an element of the pipeline itself")
