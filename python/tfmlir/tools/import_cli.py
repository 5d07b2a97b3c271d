"""`tfmlir import`: TensorFlow GraphDef / SavedModel -> MLIR text (tf-mlir-translate flag names).

    tfmlir import model.pb -o model.mlir
    tfmlir import graph.pbtxt --tf-input-arrays=x,n --tf-input-data-types=DT_FLOAT,DT_INT32 \\
        --tf-input-shapes=2,2: --tf-output-arrays=out
    tfmlir import saved_model_dir --tf-savedmodel-exported-names=serving_default --tf-savedmodel-tags=serve
    tfmlir import library.pb --tf-function-name=__inference_f_75     # a FunctionDefLibrary's function
"""
import argparse
import os
import sys

from ..tfcore.errors import TFImportError


def _split(s, sep=","):
    return [x for x in s.split(sep)] if s else []


def build_parser():
    p = argparse.ArgumentParser(prog="tfmlir import", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="GraphDef (.pb binary, .pbtxt text), FunctionDefLibrary, or SavedModel directory")
    p.add_argument("-o", "--output", default="-", help="output file (default: stdout)")
    p.add_argument("--tf-input-arrays", default="", help="comma-separated input tensors (feeds)")
    p.add_argument("--tf-input-data-types", default="", help="comma-separated DataTypes (DT_FLOAT,...)")
    p.add_argument("--tf-input-shapes", default="",
                   help="colon-separated shapes, each comma-separated dims ('?' or -1 unknown, '*' unranked, "
                        "empty = scalar)")
    p.add_argument("--tf-output-arrays", default="", help="comma-separated output tensors (fetches)")
    p.add_argument("--tf-control-output-arrays", default="", help="comma-separated control output nodes")
    p.add_argument("--tf-prune-unused-nodes", action="store_true", help="drop nodes the fetches do not need")
    p.add_argument("--tf-enable-shape-inference-on-import", default="true", choices=["true", "false"],
                   help="run TensorFlow's shape inference on import (GraphDefs; default true)")
    p.add_argument("--tf-upgrade-legacy", action="store_true",
                   help="functionalize TF1 control flow (Switch/Merge/Enter/Exit/NextIteration) into "
                        "tf.While / tf.If (tf-executor-functionalize-control-flow)")
    p.add_argument("--tf-graph-func-name", default="main", help="name of the graph's function")
    p.add_argument("--tf-function-name", default="",
                   help="import this function of the input's function library instead of its graph")
    p.add_argument("--tf-savedmodel-exported-names", default="",
                   help="comma-separated signature/function names to export from a SavedModel (default all)")
    p.add_argument("--tf-savedmodel-tags", default="serve", help="comma-separated MetaGraphDef tags")
    p.add_argument("--mlir-print-debuginfo", action="store_true", help="print locations")
    p.add_argument("--mlir-print-op-generic", action="store_true", help="print ops in generic form")
    p.add_argument("--emit-bytecode", action="store_true", help="write MLIR bytecode instead of text")
    return p


def _normalize(argv):
    # tf-mlir-translate spells its flags with one dash too.
    return ["-" + a if a.startswith("-tf-") or a.startswith("-mlir-") else a for a in argv]


def _load_graph_def(path):
    from ..tfcore import protobuf as pb
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith((".pbtxt", ".txt", ".prototxt")):
        try:
            return pb.parse_text("GraphDef", data)
        except pb.DecodeError as exc:
            try:
                return pb.parse_text("FunctionDefLibrary", data)
            except pb.DecodeError:
                raise TFImportError(f"cannot parse {path} as a text GraphDef: {exc}") from None
    return None  # binary: let the importer map the file


def run(args):
    from .. import driver
    from ..importers import api
    from mlir import ir
    import tfmlir  # noqa: F401

    path = args.input
    ctx = ir.Context()
    if os.path.isdir(path):
        tags = _split(args.tf_savedmodel_tags)
        names = _split(args.tf_savedmodel_exported_names) or None
        module = api.import_saved_model(path, exported_names=names, tags=tags, context=ctx)
    elif args.tf_function_name:
        msg = _load_graph_def(path)
        if msg is None:
            with open(path, "rb") as f:
                msg = f.read()  # FunctionDefLibrary or GraphDef bytes: import_function_def tells
        module = api.import_function_def(msg, args.tf_function_name, context=ctx)
    else:
        msg = _load_graph_def(path)
        module = api.import_graph_def(
            msg if msg is not None else path,
            input_names=_split(args.tf_input_arrays), input_data_types=_split(args.tf_input_data_types),
            input_data_shapes=_split(args.tf_input_shapes, ":") if args.tf_input_shapes else None,
            output_names=_split(args.tf_output_arrays), control_output_names=_split(args.tf_control_output_arrays),
            prune_unused_nodes=args.tf_prune_unused_nodes,
            enable_shape_inference=args.tf_enable_shape_inference_on_import == "true",
            graph_func_name=args.tf_graph_func_name, context=ctx)
    if args.tf_upgrade_legacy:
        driver.functionalize(module)  # the stage after the import, as tf-mlir-translate's flag
    out = args.output
    if args.emit_bytecode:
        if out == "-":
            module.operation.write_bytecode(sys.stdout.buffer)
        else:
            with open(out, "wb") as f:
                module.operation.write_bytecode(f)
        return
    stream = sys.stdout if out == "-" else open(out, "w")
    try:
        module.operation.print(file=stream, enable_debug_info=args.mlir_print_debuginfo,
                               print_generic_op_form=args.mlir_print_op_generic)
        stream.write("\n")
    finally:
        if stream is not sys.stdout:
            stream.close()


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(_normalize(argv))
    try:
        run(args)
    except BrokenPipeError:
        return 0
    except (TFImportError, OSError) as exc:
        print(f"tfmlir import: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
