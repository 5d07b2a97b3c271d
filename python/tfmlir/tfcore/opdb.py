"""TensorFlow's op registry and ODS facts, as the importer needs them.

``data/opdb.json.gz`` is generated from TensorFlow by
``scripts/gen_importer_opdb.py``: every OpDef (arguments, attributes with
defaults, statefulness) and, for the ops TensorFlow models in ODS, which
attributes are derived (dropped on import) and which are stored as properties.
No TensorFlow is needed at run time.
"""
import base64
import functools
import gzip
import json
import os

from . import protobuf as pb

_DATA = os.path.join(os.path.dirname(__file__), "data", "opdb.json.gz")


@functools.lru_cache(maxsize=None)
def _load():
    with open(_DATA, "rb") as f:
        return json.loads(gzip.decompress(f.read()))


class ArgDef:
    __slots__ = ("name", "type", "type_attr", "number_attr", "type_list_attr", "is_ref")

    def __init__(self, name, type_, type_attr, number_attr, type_list_attr, is_ref):
        self.name = name
        self.type = type_
        self.type_attr = type_attr
        self.number_attr = number_attr
        self.type_list_attr = type_list_attr
        self.is_ref = is_ref


class OpDef:
    """An op signature: from the registry or from a FunctionDef's signature."""
    __slots__ = ("name", "inputs", "outputs", "attrs", "is_stateful", "_defaults", "is_function")

    def __init__(self, name, inputs, outputs, attrs, is_stateful, is_function=False):
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.attrs = attrs  # list of (name, type, default-or-None); default is AttrValue or b64
        self.is_stateful = is_stateful
        self._defaults = None
        self.is_function = is_function

    def attr_type(self, name):
        for a in self.attrs:
            if a[0] == name:
                return a[1]
        return None

    def defaults(self):
        """{attr name: AttrValue message} for attrs with a default value."""
        if self._defaults is None:
            out = {}
            for name, _type, default in self.attrs:
                if default is None:
                    continue
                if isinstance(default, str):
                    default = pb.decode("AttrValue", base64.b64decode(default))
                out[name] = default
            self._defaults = out
        return self._defaults


@functools.lru_cache(maxsize=None)
def get(name):
    """The OpDef of registered op `name`, or None."""
    entry = _load()["ops"].get(name)
    if entry is None:
        return None
    inputs, outputs, attrs, stateful = entry
    return OpDef(name, [ArgDef(*a) for a in inputs], [ArgDef(*a) for a in outputs],
                 [tuple(a) for a in attrs], stateful)


def from_signature(sig):
    """OpDef for a FunctionDef signature message (function-call nodes)."""
    def arg(a):
        return ArgDef(a.name, a.type, a.type_attr, a.number_attr, a.type_list_attr, a.is_ref)
    attrs = [(a.name, a.type, a.default_value if a.has("default_value") else None) for a in sig.attr]
    return OpDef(sig.name, [arg(a) for a in sig.input_arg], [arg(a) for a in sig.output_arg], attrs,
                 sig.is_stateful, is_function=True)


class OdsInfo:
    __slots__ = ("derived", "stored", "attr_sized_operands", "attr_sized_results", "commutative")

    def __init__(self, derived, stored, seg_operands, seg_results, commutative=False):
        self.derived = frozenset(derived)
        self.stored = frozenset(stored)
        self.attr_sized_operands = seg_operands
        self.attr_sized_results = seg_results
        self.commutative = commutative  # MLIR's Commutative trait: constant operands move right when folded


@functools.lru_cache(maxsize=None)
def ods(name):
    """TensorFlow's ODS facts for op `name` (without the ``tf.`` prefix), or None if TF does
    not model the op in ODS."""
    entry = _load()["ods"].get(name)
    return OdsInfo(*entry) if entry else None


def graph_def_version():
    d = _load()
    return d["graph_def_version"], d["graph_def_version_min_consumer"]


def versions_error(producer, min_consumer, bad_consumers):
    """Why TensorFlow would refuse a GraphDef with these versions (CheckVersions), or None.
    The importer checks the GraphDefs it reads, the exporter those it writes."""
    current = graph_def_version()[0]
    if producer < 0:
        return f"GraphDef producer version {producer} below min producer 0"
    if min_consumer > current:
        return f"GraphDef min consumer version {min_consumer} above current version {current} for TensorFlow"
    if current in bad_consumers:
        return f"GraphDef disallows consumer version {current}"
    return None


def all_op_names():
    return list(_load()["ops"])
