"""Entry points: GraphDef / FunctionDef / SavedModel -> MLIR module (tf_executor form)."""
import os

from . import core
from . import graph as G
from ..tfcore import opdb
from ..tfcore import protobuf as pb
from ..tfcore import tf_types as T
from ..tfcore.errors import TFImportError
from .graph_import import Importer, default_versions, import_graph, versions_of


def _library_from(obj):
    """A FunctionDefLibrary message from bytes/GraphDef/FunctionDefLibrary messages."""
    if obj is None:
        return pb.Message("FunctionDefLibrary")
    if isinstance(obj, pb.Message):
        if obj.schema.name == "FunctionDefLibrary":
            return obj
        if obj.schema.name == "GraphDef":
            return obj.library
    raise TypeError(f"expected a FunctionDefLibrary or GraphDef, got {type(obj).__name__}")


def _library_holding(library, function_name):
    """The FunctionDefLibrary message of `library` (see import_function_def). Serialized bytes
    carry no message type: they are read as a FunctionDefLibrary and as a GraphDef, and the
    reading whose library holds `function_name` wins (a GraphDef often decodes as a
    FunctionDefLibrary without error, and the other way round)."""
    if not isinstance(library, (bytes, bytearray, memoryview)):
        return _library_from(_coerce(library, ("FunctionDefLibrary", "GraphDef")))
    errors = []
    found = None
    for schema in ("FunctionDefLibrary", "GraphDef"):
        try:
            lib = _library_from(pb.decode(schema, library))
        except pb.DecodeError as exc:
            errors.append(f"as {schema}: {exc}")
            continue
        if found is None:
            found = lib
        if any(f.signature.name == function_name for f in lib._values.get("function", ())):
            return lib
    if found is None:
        raise TFImportError(f"cannot decode the function library ({'; '.join(errors)})")
    return found


def import_function_def(library, function_name, *, context=None, locations=True, versions=None):
    """Imports function `function_name` of a function library, like TensorFlow's
    ``ConvertFunctionToMlir`` (``tf.mlir.experimental.convert_function``).

    `library`: a FunctionDefLibrary or GraphDef (decoded message, serialized bytes or a
    TensorFlow proto object), holding the function and every function it calls.
    """
    flib = G.FunctionLibrary(_library_holding(library, function_name))
    if function_name not in flib:
        raise TFImportError(f"function '{function_name}' is not in the function library")
    imp = Importer(flib, context, shape_inference=False, locations=locations,
                    graph_def_version=opdb.graph_def_version()[0])
    body = G.function_body(function_name, flib)
    prepared = imp.prepare(body.graph, function=function_name)
    arg_types = [prepared.types.output_type(n, 0) for n in body.arg_nodes]
    control_outputs = [n.name for n in body.control_ret_nodes]
    entry = core.format_dict([
        ("control_outputs", T.mlir_string(",".join(control_outputs))),
        ("inputs", T.mlir_string(",".join(n.name for n in body.arg_nodes))),
        ("outputs", T.mlir_string(",".join(n.name for n in body.ret_nodes))),
    ])
    attrs = [("allow_soft_placement", "false"), ("tf.entry_function", entry)]
    emitter = core.FunctionEmitter(imp.builder, prepared)
    chunks, patches = emitter.convert(function_name, False, [(n, 0) for n in body.arg_nodes], arg_types,
                                      [(n, 0) for n in body.ret_nodes], body.control_ret_nodes, attrs)
    imp.add_function(function_name, chunks, patches)
    imp.convert_deferred()
    return imp.finish(versions or default_versions())


def import_function(concrete_function, *, context=None, locations=True):
    """Imports a ``tf.function`` ConcreteFunction like ``tf.mlir.experimental.convert_function(...,
    pass_pipeline='')``: the function and the library functions it calls."""
    fdef = concrete_function.function_def
    graph_def = concrete_function.graph.as_graph_def()
    lib = pb.decode("FunctionDefLibrary", graph_def.library.SerializeToString())
    main = pb.decode("FunctionDef", fdef.SerializeToString())
    lib.function = [f for f in lib.function if f.signature.name != main.signature.name] + [main]
    return import_function_def(lib, main.signature.name, context=context, locations=locations)


def _coerce(obj, schema_names):
    """bytes / TF proto object / Message -> Message of one of `schema_names` (first by default)."""
    if isinstance(obj, pb.Message):
        return obj
    if isinstance(obj, (bytes, bytearray, memoryview)):
        try:
            return pb.decode(schema_names[0], obj)
        except pb.DecodeError as exc:
            raise TFImportError(f"cannot decode {schema_names[0]}: {exc}") from None
    if hasattr(obj, "SerializeToString") and hasattr(obj, "DESCRIPTOR"):
        name = obj.DESCRIPTOR.name
        target = name if name in schema_names else schema_names[0]
        return pb.decode(target, obj.SerializeToString())
    if isinstance(obj, (str, os.PathLike)):
        raise TypeError("pass the bytes of the message (or use the CLI / load helpers for files)")
    raise TypeError(f"cannot import a {type(obj).__name__}")


# ---------------------------------------------------------------------------------------------
# GraphDef import.

def _parse_dtype(d):
    if d is None or d == "" or d == 0:
        return 0
    if isinstance(d, int):
        return d
    s = str(d).strip()
    if s in T.DTYPE_BY_NAME:
        return T.DTYPE_BY_NAME[s]
    up = "DT_" + s.upper()
    aliases = {"DT_FLOAT32": "DT_FLOAT", "DT_FLOAT64": "DT_DOUBLE", "DT_FLOAT16": "DT_HALF",
               "DT_COMPLEX": "DT_COMPLEX64", "DT_STR": "DT_STRING"}
    up = aliases.get(up, up)
    if up in T.DTYPE_BY_NAME:
        return T.DTYPE_BY_NAME[up]
    raise TFImportError(f"unknown data type '{d}'")


def _parse_shape(s):
    """None / '*' -> unknown rank; '' -> scalar; '2,?,3' or [2, -1, 3] -> dims."""
    if s is None or s == "*":
        return None
    if isinstance(s, str):
        s = s.strip()
        if not s:
            return []
        dims = []
        for part in s.split(","):
            part = part.strip()
            if part in ("?", "-1"):
                dims.append(-1)
            else:
                try:
                    dims.append(int(part))
                except ValueError:
                    raise TFImportError(f"invalid shape '{s}'") from None
        return dims
    return [int(d) if d is not None and int(d) >= 0 else -1 for d in s]


def _check_versions(vdef):
    err = opdb.versions_error(*versions_of(vdef))
    if err is not None:
        raise TFImportError(err)


def import_graph_def(graph_def, *, input_names=None, input_data_types=None, input_data_shapes=None,
                     output_names=None, control_output_names=None, prune_unused_nodes=False,
                     context=None, locations=True, graph_func_name="main", enable_shape_inference=True,
                     unconditionally_use_set_output_shapes=False, report=None, _release=None):
    """Imports a GraphDef like TensorFlow's ``import_graphdef`` (``tf.mlir.experimental.convert_graph_def``
    with ``pass_pipeline=''``).

    `graph_def`: serialized bytes, a decoded :class:`protobuf.Message`, a TensorFlow GraphDef object,
    or the path of a binary ``.pb`` file (memory-mapped: constants are copied once, into MLIR).
    Feeds and fetches follow tf-mlir-translate: `input_names` ("x" or "x:1"), `input_data_types`
    ("DT_FLOAT"/"float32"; empty: the node's type), `input_data_shapes` (lists of dims, -1 unknown;
    None: unknown rank; or strings "2,2"), `output_names`, `control_output_names`. With feeds or
    fetches the main function gets those as arguments/results and a ``tf.entry_function`` attribute.
    Returns an ``mlir.ir.Module``; raises :class:`TFImportError` naming the offending node.
    `report`: an optional dict; ``report["unsupported_shape_ops"]`` lists the op types shape
    inference had no shape function for (their results get unknown shapes).
    The import is raw (TF1 control flow stays as it is): :func:`tfmlir.driver.functionalize`
    is the next stage (tf-mlir-translate's ``--tf-upgrade-legacy``).
    """
    if isinstance(graph_def, (str, os.PathLike)):
        with _MappedFile(graph_def) as mapped:
            return import_graph_def(
                mapped.message("GraphDef"), input_names=input_names, input_data_types=input_data_types,
                input_data_shapes=input_data_shapes, output_names=output_names,
                control_output_names=control_output_names, prune_unused_nodes=prune_unused_nodes,
                context=context, locations=locations, graph_func_name=graph_func_name,
                enable_shape_inference=enable_shape_inference,
                unconditionally_use_set_output_shapes=unconditionally_use_set_output_shapes, report=report,
                _release=mapped.release)
    gd = _coerce(graph_def, ("GraphDef",))
    input_names = [s for s in (input_names or []) if s != ""]
    if isinstance(input_names, str):
        input_names = [s for s in input_names.split(",") if s]
    types = list(input_data_types or [])
    shapes = list(input_data_shapes or [])
    if types and len(types) != len(input_names):
        raise TFImportError(f"{len(input_names)} input arrays but {len(types)} input data types")
    if shapes and len(shapes) != len(input_names):
        raise TFImportError(f"{len(input_names)} input arrays but {len(shapes)} input shapes")
    inputs = []
    for i, name in enumerate(input_names):
        dtype = _parse_dtype(types[i]) if types else 0
        shape = _parse_shape(shapes[i]) if shapes else None
        inputs.append((name, dtype, shape))
    outputs = list(output_names or [])
    control_outputs = list(control_output_names or [])
    if len(set(control_outputs)) != len(control_outputs):
        raise TFImportError("control outputs must be unique")

    _check_versions(gd._values.get("versions"))
    flib = G.FunctionLibrary(gd.library)
    versions = versions_of(gd._values.get("versions"))
    imp = Importer(flib, context, shape_inference=enable_shape_inference, locations=locations,
                    graph_def_version=versions[0])
    imp.builder.unconditionally_use_set_output_shapes = unconditionally_use_set_output_shapes
    imp.release = _release
    ndefs = [G.NDef.from_proto(n) for n in gd.node]
    import_graph(imp, ndefs, gd._values.get("versions"), inputs, outputs, control_outputs, graph_func_name,
                  prune_unused_nodes=prune_unused_nodes)
    imp.convert_deferred()
    module = imp.finish(versions)
    if report is not None:
        report["unsupported_shape_ops"] = sorted(imp.builder.unsupported_shape_ops)
    return module


class _MappedFile:
    """A memory-mapped binary proto file; constant buffers are released page by page once
    MLIR holds their copy, so peak memory stays near one copy of the constants."""

    def __init__(self, path):
        self.path = os.fspath(path)

    def __enter__(self):
        import mmap
        self._f = open(self.path, "rb")
        size = os.fstat(self._f.fileno()).st_size
        if size == 0:
            self.mm = b""
        else:
            self.mm = mmap.mmap(self._f.fileno(), 0, access=mmap.ACCESS_READ)
        import numpy as np
        self._base = np.frombuffer(self.mm, dtype=np.uint8).__array_interface__["data"][0] if size else 0
        self._page = mmap.PAGESIZE
        return self

    def message(self, schema):
        try:
            return pb.decode(schema, self.mm)
        except pb.DecodeError as exc:
            raise TFImportError(f"cannot decode {schema} from {self.path}: {exc}") from None

    def release(self, array):
        import mmap
        if not self._base or array is None or not hasattr(self.mm, "madvise"):
            return
        addr = array.__array_interface__["data"][0]
        start = addr - self._base
        if start < 0 or start >= len(self.mm):
            return
        end = start + array.nbytes
        page = self._page
        lo = (start + page - 1) // page * page
        hi = end // page * page
        if hi > lo:
            try:
                self.mm.madvise(mmap.MADV_DONTNEED, lo, hi - lo)
            except (OSError, ValueError):
                pass

    def __exit__(self, *exc):
        import gc
        gc.collect()
        try:
            if hasattr(self.mm, "close"):
                self.mm.close()
        except BufferError:
            pass  # a view is still alive somewhere; the mapping goes away with it
        self._f.close()
        return False


def import_saved_model(path, exported_names=None, tags=("serve",), *, context=None, locations=True,
                       enable_shape_inference=True):
    """Imports a SavedModel directory's signatures into tf_saved_model form
    (see :mod:`tfmlir.importers.saved_model`); raw, as :func:`import_graph_def`."""
    from .saved_model import import_saved_model as run
    return run(path, exported_names=exported_names, tags=tags, context=context, locations=locations,
               enable_shape_inference=enable_shape_inference)
