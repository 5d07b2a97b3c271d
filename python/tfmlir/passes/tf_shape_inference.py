"""Refine result types with TensorFlow's shape functions, across the whole module.

TensorFlow's ``tf-shape-inference``: every function is visited (``main``
first), and in each function every op (post-order, nested regions first) until
nothing changes (``max-iterations`` rounds at most per region; not converging is
an error):

* ``tf`` ops get their result types from TensorFlow's shape function for the op
  (:mod:`tfmlir.shapes`: the same library the GraphDef importer uses), fed with
  the operand shapes, resource/variant handle shapes (subtypes), attributes,
  the constant values of operands and partially known shape tensors (``Pack``,
  ``ConcatV2``, ``Shape``, ``StridedSlice`` chains); the ops TensorFlow's dialect
  infers itself (``InferTypeOpInterface``: unary elementwise ops, ``Conv2D``,
  ``Const`` ...) use that interface. New types are merged with the old ones
  (only unknown dimensions, ranks and subtypes are filled in).
* Control flow: ``If``/``Case`` results take the branches' common result types,
  ``While`` results follow operands or (``shape_invariant``) the body; operand
  types flow into the branch, cond and body functions (when the op is their only
  user) and into ``WhileRegion`` blocks; calls take their callee's result types
  and pass argument types and constant arguments into callees all of whose
  callers agree.
* ``tf_executor.graph``/``island``, ``NextIteration``, ``tf_device.cluster``/
  ``launch`` results follow their terminators; ``func.return`` operands become
  the function's result types (a shape-only ``tf.Cast`` before the return is
  folded away) and callers are revisited.
* Special cases as in TensorFlow: ``VarHandleOp`` takes the resource subtype from
  the values assigned/read, TensorList creators take the element shape all
  writes agree on, ``TensorListPopBack``, ``Cast``, ``_XlaHostComputeMlir``
  (the host function's result types), the XLA ops' reducer/comparator functions
  get scalar arguments.
* Constants are computed, not folded into the IR: ``Shape``/``Rank``/``Size`` of
  known shapes and arithmetic on constants feed shape functions and refine result
  types; results whose value is known get the value's type.

Where a refined result feeds an op that does not accept a more precise type (an
op of another dialect), a ``tf.Cast`` back to the old type is inserted for that
use, as TensorFlow does. Modules without ``tf.versions`` are left alone (TF
needs the producer version). Unknown ops (no shape function) keep their types.
Operand shapes no op could accept are an error at the op naming the op and the
operand types; the module is then left unchanged.

Options: ``max-iterations`` (default 10) and ``input-arg-shapes`` (shapes for
``main``'s arguments, ``1,2:3`` is ``[1,2]`` and ``[3]``, empty for a scalar).
"""
import numpy as np
from mlir import ir

from ..dialects import tf_type
from ..tfcore import opdb
from ..tfcore import tf_types as T
from ..shapes import xla_protos
from ..shapes.algebra import NOT_EVALUATED, ShapeError
from ..shapes.functions import SHAPE_FNS, Context
from ..shapes.values import EVALUABLE_OPS, NUMPY_DTYPES, ValueEvaluator, can_evaluate
from .names import (CALLEE_ATTRS, CAST, CLUSTER, CONST, FUNC, GRAPH, ISLAND, LAUNCH, MODULE, TPU_PARTITIONED_CALL,
                             NEXT_ITERATION_SINK, RETURN)
from .analysis.symbols import flat_symbol_refs, module_body, symbol_name
from .framework import Option, Pass, PassFailure, register_pass
from .lib.ir_helpers import enclosing_op, post_order

_DYN = ir.ShapedType.get_dynamic_size()

# Ops of other dialects whose operands may take a refined type without a cast
# back (TF's IsSupportedNonTFOp).
_SUPPORTED_NON_TF = frozenset({
    "tf_device.return", CLUSTER, LAUNCH, "tf_executor.Enter", "tf_executor.Exit", "tf_executor.fetch",
    GRAPH, ISLAND, "tf_executor.LoopCond", "tf_executor.Merge", NEXT_ITERATION_SINK,
    "tf_executor.SwitchN", "tf_executor.Switch", "tf_executor.yield"})
_PASS_THROUGH = frozenset({"tf.Identity", "tf.IdentityN", "tf.StopGradient", "tf.ZerosLike",
                           "tf.XlaSharding"})
# tf call ops (CallOpInterface): callee attribute, number of trailing non-argument operands.
_TF_CALLS = {name: (attr, 1 if name == TPU_PARTITIONED_CALL else 0)
             for name, attr in CALLEE_ATTRS.items() if name.startswith("tf.")}
_OTHER_CALLS = {name: attr for name, attr in CALLEE_ATTRS.items() if not name.startswith("tf.")}
_TENSOR_LIST_INIT = {"tf.TensorListReserve": 0, "tf.EmptyTensorList": 0, "tf.TensorListFromTensor": 1}
# Functions attached to XLA ops, which TF gives scalar arguments.
_XLA_REDUCERS = {"tf.XlaReduceWindow": ("computation",), "tf.XlaSelectAndScatter": ("select", "scatter"),
                 "tf.XlaVariadicReduceV2": ("reducer",), "tf.XlaVariadicSort": ("comparator",)}
# Constant ops (ConstantLike) whose values TF's special cases read through m_Constant.
_CONSTANT_OPS = frozenset({CONST, "arith.constant"})
_NO_INFERENCE = frozenset({
    # TensorFlow infers these with tf.data's own machinery, which this pass does not run:
    # their result types stay as they are.
    "tf.MapDataset", "tf.TakeWhileDataset", "tf.ReduceDataset"})


# --- XLA windows ------------------------------------------------------------------------------------

def _window_output_shape(base_shape, sizes, strides=(), paddings=(), base_dilations=(),
                         window_dilations=()):
    """XLA's ``InferWindowFromDimensions`` + ``InferWindowOutputShape`` (TF's shape inference
    uses them for XlaConvV2, XlaReduceWindow, XlaSelectAndScatter): the output dims of a window
    over `base_shape` (dynamic dims stay dynamic), or None where XLA refuses the window (a list
    neither empty nor one entry per window dimension; a non-positive size or stride; a dilation
    below 1; a window of another rank than the base)."""
    count = len(sizes)
    for given in (strides, paddings, base_dilations, window_dilations):
        if len(given) not in (0, count):
            return None
    if count != len(base_shape):
        return None
    output = []
    for i in range(count):
        size = sizes[i]
        stride = strides[i] if strides else 1
        low, high = paddings[i] if paddings else (0, 0)
        base_dilation = base_dilations[i] if base_dilations else 1
        window_dilation = window_dilations[i] if window_dilations else 1
        if size <= 0 or stride <= 0 or base_dilation < 1 or window_dilation < 1:
            return None
        base = base_shape[i]
        if base == _DYN:
            output.append(_DYN)
            continue
        dilated_base = 0 if base == 0 else (base - 1) * base_dilation + 1
        padded = low + dilated_base + high
        dilated_window = (size - 1) * window_dilation + 1
        output.append(0 if dilated_window > padded else (padded - dilated_window) // stride + 1)
    return output


# --- types ------------------------------------------------------------------------------------------

def _bit_width(element):
    """MLIR's getIntOrFloatBitWidth (0 for other element types)."""
    if isinstance(element, ir.IntegerType):
        return element.width
    if isinstance(element, ir.FloatType):
        return element.width
    return 0


class _TypeInfo:
    """A tensor type taken apart once: shape (None = unranked), element type, dtype number,
    subtypes (resource/variant) and whether shape inference could refine it."""
    __slots__ = ("type", "shape", "elem", "dtype", "subtypes", "handle_kind", "refinable", "handles")


class _Types:
    def __init__(self, context):
        self.context = context
        self._info = {}
        self._meet = {}
        self._elem_types = {}

    def info(self, t):
        found = self._info.get(t)
        if found is not None:
            return found
        if type(t) is ir.Type:
            t = t.maybe_downcast()
        i = _TypeInfo()
        i.type = t
        i.shape = None
        i.elem = None
        i.dtype = None
        i.subtypes = None
        i.handle_kind = None
        i.handles = None
        if isinstance(t, ir.RankedTensorType):
            rt = ir.RankedTensorType(t)
            i.shape = [-1 if d == _DYN else d for d in rt.shape]
            i.elem = rt.element_type
        elif isinstance(t, ir.UnrankedTensorType):
            i.elem = ir.UnrankedTensorType(t).element_type
        if i.elem is not None:
            e = i.elem
            if tf_type.ResourceType.isinstance(e):
                i.handle_kind = "resource"
                i.subtypes = list(tf_type.ResourceType(e).subtypes)
            elif tf_type.VariantType.isinstance(e):
                i.handle_kind = "variant"
                i.subtypes = list(tf_type.VariantType(e).subtypes)
            text = str(e)
            if i.handle_kind is not None:
                text = text.split("<", 1)[0]
            i.dtype = T.MLIR_TO_DTYPE.get(text)
            if i.subtypes:
                handles = []
                for s in i.subtypes:
                    si = self.info(s)
                    if si.shape is None:
                        handles = None
                        break
                    handles.append((si.dtype, si.shape))
                i.handles = handles
        i.refinable = self._refinable(i)
        self._info[t] = i
        return i

    def _refinable(self, i):
        if i.elem is None:
            return False
        if i.handle_kind is not None and (not i.subtypes or any(self.info(s).refinable for s in i.subtypes)):
            return True
        return i.shape is None or -1 in i.shape

    def tensor(self, shape, elem):
        if shape is None:
            return ir.UnrankedTensorType.get(elem)
        return ir.RankedTensorType.get([_DYN if d < 0 else d for d in shape], elem)

    def with_subtypes(self, kind, subtypes):
        if kind == "resource":
            return tf_type.ResourceType.get(subtypes, self.context)
        return tf_type.VariantType.get(subtypes, self.context)

    def element_type(self, dtype):
        found = self._elem_types.get(dtype)
        if found is None:
            found = T.element_type(dtype)
            found = ir.Type.parse(found, self.context) if isinstance(found, str) else found
            self._elem_types[dtype] = found
        return found

    def meet(self, lhs, rhs):
        """TF's TypeMeet: `lhs` with the unknown parts `rhs` knows filled in (subtypes too);
        `lhs` when the ranks disagree."""
        if lhs == rhs:
            return lhs
        key = (lhs, rhs)
        found = self._meet.get(key)
        if found is None:
            found = self._meet[key] = self._compute_meet(lhs, rhs)
        return found

    def _compute_meet(self, lhs, rhs):
        li, ri = self.info(lhs), self.info(rhs)
        if ri.elem is None or li.elem is None:
            return lhs
        if li.shape is not None and ri.shape is not None and len(li.shape) != len(ri.shape):
            return lhs
        refined = False
        shape = li.shape
        if li.shape is None:
            if ri.shape is not None:
                shape, refined = ri.shape, True
        elif ri.shape is not None:
            shape = []
            for a, b in zip(li.shape, ri.shape):
                if a < 0 <= b:
                    shape.append(b)
                    refined = True
                else:
                    shape.append(a)
        elem = li.elem
        if ri.handle_kind is not None and ri.subtypes and len(ri.subtypes) == 1 and \
                li.handle_kind is not None and li.subtypes is not None and len(li.subtypes) <= 1:
            sub = None
            if not li.subtypes:
                sub = ri.subtypes[0]
            else:
                m = self.meet(li.subtypes[0], ri.subtypes[0])
                if m != li.subtypes[0]:
                    sub = m
            if sub is not None:
                elem = self.with_subtypes(li.handle_kind, [sub])
        if refined or elem != li.elem:
            return self.tensor(shape, elem)
        return lhs

    def cast_compatible(self, a, b):
        """The most precise type both `a` and `b` can be cast to (TF's GetCastCompatibleType),
        None when their element types or shapes contradict."""
        ai, bi = self.info(a), self.info(b)
        if ai.elem is None or bi.elem is None:
            return None
        if ai.elem != bi.elem:
            if ai.handle_kind is None or ai.handle_kind != bi.handle_kind:
                return None
            elem = ai.elem if ai.subtypes else bi.elem
        else:
            elem = ai.elem
        if ai.shape is None:
            shape = bi.shape
        elif bi.shape is None:
            shape = ai.shape
        else:
            if len(ai.shape) != len(bi.shape):
                return None
            shape = []
            for x, y in zip(ai.shape, bi.shape):
                if x >= 0 and y >= 0 and x != y:
                    return None
                shape.append(x if x >= 0 else y)
        return self.tensor(shape, elem)


# --- attributes as the shape library reads them ------------------------------------------------------

def _convert_attr(attr, types):
    if isinstance(attr, ir.BoolAttr):
        return bool(attr.value)
    if isinstance(attr, ir.IntegerAttr):
        return int(attr.value)
    if isinstance(attr, ir.FloatAttr):
        return float(attr.value)
    if isinstance(attr, ir.StringAttr):
        return attr.value
    if isinstance(attr, ir.TypeAttr):
        return types.info(types.tensor(None, attr.value)).dtype
    if isinstance(attr, ir.ArrayAttr):
        return [_convert_attr(a, types) for a in attr]
    if isinstance(attr, ir.FlatSymbolRefAttr):
        return attr.value
    if tf_type.ShapeAttr.isinstance(attr):
        s = tf_type.ShapeAttr(attr)
        return None if s.rank is None else [-1 if d is None or d < 0 else d for d in s.dims]
    return attr


def _segments(values, args, seg_attr):
    """Splits `values` (operands or results) over the registry's `args`."""
    n = len(args)
    if seg_attr is not None:
        sizes = list(seg_attr)
    else:
        variadic = [i for i, a in enumerate(args) if a.number_attr or a.type_list_attr]
        sizes = [1] * n
        if len(variadic) == 1:
            sizes[variadic[0]] = len(values) - (n - 1)
        elif variadic:
            return None
    out, start = {}, 0
    for a, size in zip(args, sizes):
        out[a.name] = values[start:start + size]
        start += size
    return out


class _OpContext(Context):
    """A ``tf`` op as the shape library sees it."""
    __slots__ = ("pass_", "mlir_op", "operand_values")

    def __init__(self, pass_, op, op_type, inputs, handles, operand_values):
        super().__init__(op_type, pass_.producer, inputs, handles, len(op.results))
        self.pass_ = pass_
        self.mlir_op = op
        self.operand_values = operand_values

    def attr(self, name, default=None):
        attrs = self.mlir_op.attributes
        if name in attrs:
            return _convert_attr(attrs[name], self.pass_.types)
        value = self.pass_.derived_attr(self.mlir_op, self.op, name)
        return default if value is None else value

    def attr_bytes(self, name):
        attrs = self.mlir_op.attributes
        if name not in attrs:
            return b""
        attr = attrs[name]
        return attr.value_bytes if isinstance(attr, ir.StringAttr) else None

    def input_tensor(self, i):
        return self.pass_.evaluator.constant_value(self.operand_values[i])

    def input_partial_shape(self, i):
        v = self.operand_values[i]
        if isinstance(v, ir.BlockArgument):
            return NOT_EVALUATED
        s = self.inputs[i]
        if s is None or len(s) != 1 or s[0] < 0:
            return NOT_EVALUATED
        try:
            partial = self.pass_.evaluator.constant_partial_shape(v)
        except ShapeError:
            return NOT_EVALUATED
        if partial is None or partial is NOT_EVALUATED:
            return [-1] * s[0]
        return partial

    def const_shape(self):
        return self.pass_.types.info(self.mlir_op.attributes["value"].type).shape


class _Evaluator(ValueEvaluator):
    """Constant values of ``mlir`` values (what TF's pass computes by folding)."""

    def __init__(self, pass_):
        super().__init__()
        self.pass_ = pass_
        self.known = {}  # values whose constant TF records across calls (callee args, call results)
        self.never = set()  # values no later refinement can make constant (producer not evaluable)

    def forget_unknown(self):
        self.consts = {k: v for k, v in self.consts.items() if v is not None}

    def constant_value(self, v):
        found = self.known.get(v)
        if found is not None:
            return found
        if v in self.never:
            return None
        resolved = _through_executor(v)
        if resolved is not v:
            found = self.known.get(resolved)
            if found is not None:
                return found
        if isinstance(resolved, ir.BlockArgument):
            return None  # an argument's value is only ever known through `known`
        owner = resolved.owner
        op_type = _tf_op_type(owner.name)
        if op_type is None or not (op_type in _ALWAYS_EVALUATED or can_evaluate(op_type)):
            self.never.add(v)
            return None
        value = super().constant_value(resolved)
        if value is None and op_type not in _ALWAYS_EVALUATED:
            # Computed from a value that can never be constant: neither can this one.
            never = self.never
            for operand in owner.operands:
                if operand in never:
                    never.add(v)
                    break
        return value

    def constant_partial_shape(self, v):
        return super().constant_partial_shape(_through_executor(v))

    def _v_op(self, v):
        if isinstance(v, ir.BlockArgument):
            return None
        name = v.owner.name
        return name[3:] if name.startswith("tf.") else None

    def _v_index(self, v):
        return v.result_number

    def _v_attr(self, v, name, default=None):
        op = v.owner
        attrs = op.attributes
        if name in attrs:
            return _convert_attr(attrs[name], self.pass_.types)
        value = self.pass_.derived_attr(op, op.name[3:], name)
        return default if value is None else value

    def _v_num_operands(self, v):
        return len(v.owner.operands)

    def _v_operand(self, v, i):
        return _through_executor(v.owner.operands[i])

    def _v_input_shape(self, v, i):
        return self.pass_.types.info(v.owner.operands[i].type).shape

    def _v_input_handle(self, v, i):
        return self.pass_.types.info(v.owner.operands[i].type).handles

    def _v_shape(self, v):
        return self.pass_.types.info(v.type).shape

    def _v_const(self, v):
        attr = v.owner.attributes["value"]
        if not isinstance(attr, ir.DenseElementsAttr):
            return None
        info = self.pass_.types.info(attr.type)
        dt = NUMPY_DTYPES.get(info.dtype)
        if dt is None or info.shape is None or -1 in info.shape:
            return None
        size = int(np.prod(info.shape)) if info.shape else 1
        if size > (1 << 20):
            return None
        if attr.is_splat:
            value = _splat_value(attr.get_splat_value(), self.pass_.types)
            if value is None:
                return None
            return np.full(info.shape, value, dtype=dt)
        if dt is np.bool_:
            return np.array([bool(x) for x in ir.DenseIntElementsAttr(attr)], dtype=dt).reshape(info.shape) \
                if isinstance(attr, ir.DenseIntElementsAttr) else None
        try:
            return np.array(attr, copy=True).astype(dt).reshape(info.shape)
        except (TypeError, ValueError, RuntimeError):
            return None

    def _v_foldable(self, v):
        op = v.owner
        if not op.operands:
            return False
        return self.pass_.is_stateless(op.name)


def _splat_value(attr, types):
    value = _convert_attr(attr, types)
    return value if isinstance(value, (bool, int, float)) else None


def _parse_arg_shapes(text):
    """TF's ParseNodeShapes: ``1,2:3`` -> [[1, 2], [3]]; an empty shape is a scalar."""
    shapes = []
    for part in text.split(":"):
        part = part.strip()
        if part == "*":
            raise ValueError("Missing input argument shapes")
        shapes.append([int(d) for d in part.split(",")] if part else [])
    return shapes


# --- the pass ---------------------------------------------------------------------------------------

@register_pass
class TFShapeInference(Pass):
    argument = "tf-shape-inference"
    anchor = MODULE
    options = (Option("max-iterations", int, 10, "Maximum shape inference iterations"),
               Option("input-arg-shapes", str, "",
                      "Input tensor shapes of main, ':' between tensors, ',' between dimensions"))

    def run_on_operation(self, module):
        producer = _producer_version(module.operation)
        if producer is None:
            return  # TF infers nothing without the graph's producer version
        shapes = None
        if self.input_arg_shapes:
            try:
                shapes = _parse_arg_shapes(self.input_arg_shapes)
            except ValueError as exc:
                self.fail(str(exc) if "Missing" in str(exc) else
                          f"invalid input-arg-shapes '{self.input_arg_shapes}': {exc}")
        funcs = [op.operation for op in module_body(module).operations if op.operation.name == FUNC]
        by_name = {symbol_name(f): f for f in funcs}
        main = by_name.get("main")
        if main is None and shapes is not None:
            self.fail("Input shapes provided but no `main` function found.")
        state = _ShapeInference(module.operation, producer, by_name, self.max_iterations, self)
        if main is not None and shapes is not None:
            arg_state = _ShapeInference(module.operation, producer, by_name, self.max_iterations, self,
                                        propagate_caller_callee_constants=True)
            if not arg_state.refine_main(main, shapes):
                self.fail(f"shape inference pass did not reach convergence after {self.max_iterations}")
        if main is not None:
            state.enqueue(main)
        for f in funcs:
            state.enqueue(f)
        budget = len(state.queue) * 4
        while state.queue:
            func = state.queue[0]
            if not state.infer_function(func, self.max_iterations):
                self.fail(f"shape inference pass did not reach convergence after {self.max_iterations}")
            state.queue.pop(0)
            state.queued.discard(func)
            budget -= 1
            if budget == 0:
                self.fail(f"shape inference did not reach stable state after {budget} iterations")


def _producer_version(module_op):
    attrs = module_op.attributes
    if "tf.versions" not in attrs:
        return None
    text = str(attrs["tf.versions"])
    marker = "producer = "
    at = text.find(marker)
    if at < 0:
        return None
    digits = ""
    for ch in text[at + len(marker):]:
        if ch.isdigit() or (ch == "-" and not digits):
            digits += ch
        else:
            break
    return int(digits) if digits else None


class _ShapeInference:
    """TF's ShapeInference context: per-module state of one run."""

    def __init__(self, module_op, producer, funcs, max_iterations, pass_,
                 propagate_caller_callee_constants=False):
        self.module_op = module_op
        self.producer = producer
        self.funcs = funcs
        self.max_iterations = max_iterations
        self.pass_ = pass_
        self.propagate_constants = propagate_caller_callee_constants
        self.types = _Types(module_op.context)
        self.evaluator = _Evaluator(self)
        self.queue = []
        self.queued = set()
        self._callers = None
        self._stateless = {}
        self._infers = {}
        self._derived = {}
        self._needs_cast = {}
        self._symbol_ops = None
        self._commutative = {}
        # Revisiting only what can change: every value whose type (or known value) changes gets a
        # stamp from a clock; an op visited since all its operands' last stamps gives the same
        # answer again and is skipped (TF recomputes it; the result is identical).
        self.clock = 0
        self.stamps = {}
        self._terminators = {}
        self.visited_at = {}
        self._skippable = {}

    # --- op facts --------------------------------------------------------------------------------
    def is_stateless(self, name):
        found = self._stateless.get(name)
        if found is None:
            d = opdb.get(name[3:]) if name.startswith("tf.") else None
            found = self._stateless[name] = d is not None and not d.is_stateful
        return found

    def derived_attr(self, op, op_type, name):
        """An attribute TF derives from types (T, dtype, N, out_type ...), as a Python value."""
        key = (op_type, name)
        how = self._derived.get(key)
        if how is None:
            how = self._derived[key] = self._derivation(op_type, name)
        if not how:
            return self._subtype_dtype(op) if name == "element_dtype" else None
        kind, side, arg_name, arg_index = how
        values = op.operands if side == "in" else op.results
        d = opdb.get(op_type)
        args = d.inputs if side == "in" else d.outputs
        seg_name = "operandSegmentSizes" if side == "in" else "resultSegmentSizes"
        seg = op.attributes[seg_name] if seg_name in op.attributes else None
        split = _segments(list(values), args, seg)
        if split is None:
            return None
        group = split.get(arg_name, [])
        if kind == "number":
            return len(group)
        dtypes = [self.types.info(v.type).dtype for v in group]
        if kind == "type":
            return dtypes[0] if dtypes else None
        return dtypes

    def _subtype_dtype(self, op):
        """A TensorList op's element_dtype that no argument carries: TF's dialect derives it from
        the list's variant subtype (results first, then operands)."""
        for values in (op.results, op.operands):
            for v in values:
                info = self.types.info(v.type)
                if info.handle_kind == "variant" and info.subtypes:
                    return self.types.info(info.subtypes[0]).dtype
        return None

    def _derivation(self, op_type, name):
        d = opdb.get(op_type)
        if d is None:
            return ()
        for side, args in (("in", d.inputs), ("out", d.outputs)):
            for index, a in enumerate(args):
                if a.type_attr == name:
                    return ("type", side, a.name, index)
                if a.number_attr == name:
                    return ("number", side, a.name, index)
                if a.type_list_attr == name:
                    return ("list", side, a.name, index)
        return ()

    def needs_cast_back(self, owner_name, owner):
        found = self._needs_cast.get(owner_name)
        if found is None:
            if owner_name.startswith("tf.") or owner_name in _SUPPORTED_NON_TF:
                found = False
            else:
                found = not _implements_infer_type(owner)
            self._needs_cast[owner_name] = found
        return found

    def terminator_of(self, op):
        """The terminator of `op`'s single-block region (cached: this pass never replaces one)."""
        term = self._terminators.get(op)
        if term is None:
            term = self._terminators[op] = _terminator(op.regions[0])
        return term

    def touch(self, value):
        self.clock += 1
        self.stamps[value] = self.clock

    def _can_skip(self, op, key):
        last = self.visited_at.get(key) if key is not None else None
        if last is None:
            return False
        name = op.name
        skippable = self._skippable.get(name)
        if skippable is None:
            skippable = self._skippable[name] = not (
                len(op.regions) or name in _VISIT_ALWAYS or name in _TF_CALLS or name in _OTHER_CALLS
                or name in _XLA_REDUCERS or name in _TENSOR_LIST_INIT)
        if not skippable:
            return False
        stamps = self.stamps
        for v in op.operands:
            if stamps.get(v, 0) > last:
                return False
        return True

    # --- the work queue ---------------------------------------------------------------------------
    def enqueue(self, func):
        if func not in self.queued:
            self.queued.add(func)
            self.queue.append(func)

    def callers(self, name):
        if self._callers is None:
            self._callers = {}
            for op in post_order(module_body(self.module_op)):
                if op.name == FUNC:
                    continue
                if not len(op.attributes):
                    continue
                for ref in flat_symbol_refs(op):
                    if ref in self.funcs:
                        lst = self._callers.setdefault(ref, [])
                        if not lst or lst[-1] != op:
                            lst.append(op)
        return self._callers.get(name, [])

    def enqueue_callers(self, func):
        for caller in self.callers(symbol_name(func)):
            parent = enclosing_op(caller, FUNC)
            if parent is not None:
                self.enqueue(parent)

    # --- type updates -------------------------------------------------------------------------------
    def update_type(self, new_type, result):
        """TF's UpdateTypeAndInsertIncompatibleUseCasts."""
        old = result.type
        if new_type == old:
            return False
        cast_result = None
        enqueue_callers = False
        uses = [(u.owner, u.operand_number) for u in result.uses]
        for owner, index in uses:
            name = owner.name
            if name == RETURN:
                enqueue_callers = True
            elif self.needs_cast_back(name, owner):
                if cast_result is None:
                    producer = result.owner.operation
                    cast_result = self._insert_cast(old, result, producer.location,
                                                    ir.InsertionPoint.after(producer))
                    if cast_result is None:
                        return False
                owner.operands[index] = cast_result
        result.set_type(new_type)
        self.touch(result)
        if enqueue_callers:
            func = enclosing_op(result.owner, FUNC)
            if func is not None:
                self.enqueue_callers(func)
        return True

    def _insert_cast(self, dst_type, value, loc, ip):
        """TF's InsertCast: tensor.cast for index elements, tf.Cast for builtin ones, None for
        TensorFlow's own element types (no cast exists; the refinement is dropped)."""
        elem = self.types.info(dst_type).elem
        if elem is None:
            return None
        if isinstance(elem, ir.IndexType):
            name, attrs = "tensor.cast", {}
        elif _is_builtin_element(elem):
            name, attrs = CAST, {"Truncate": ir.BoolAttr.get(False)}
        else:
            return None
        cast = ir.Operation.create(name, results=[dst_type], operands=[value], attributes=attrs, loc=loc, ip=ip)
        self.touch(cast.results[0])
        return cast.results[0]

    def refine(self, result, potential):
        if result.type == self.types.meet(result.type, potential):
            return False
        return self.update_type(potential, result)

    def refine_pass_through(self, operands, results):
        changed = False
        for operand, result in zip(operands, results):
            new = self.types.meet(result.type, operand.type)
            if new != result.type and self.update_type(new, result):
                changed = True
        return changed

    def force_pass_through(self, operands, results):
        changed = False
        for operand, result in zip(operands, results):
            if operand.type != result.type and self.update_type(operand.type, result):
                changed = True
        return changed

    # --- regions and functions ----------------------------------------------------------------------
    def infer_function(self, func, max_iterations):
        converged = self.until_fix_point(func.regions[0], max_iterations)
        if not converged:
            return False
        self.infer_return_type(func)
        return True

    def refine_main(self, main, shapes):
        ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
        inputs = list(ftype.inputs)
        if len(shapes) != len(inputs):
            self.pass_.fail(f"input-arg-shapes gives {len(shapes)} shapes, main has {len(inputs)} arguments",
                            main)
        block = main.regions[0].blocks[0]
        new_inputs, needs = [], False
        for i, (t, shape) in enumerate(zip(inputs, shapes)):
            info = self.types.info(t)
            if info.elem is None:
                self.pass_.fail(f"argument {i} of main is not a tensor: {t}", main)
            if info.shape is not None and len(info.shape) != len(shape):
                self.pass_.fail(f"input-arg-shapes: argument {i} of main has type {t}, the shape given has "
                                f"rank {len(shape)}", main)
            new = self.types.tensor(shape, info.elem)
            if new != t:
                block.arguments[i].set_type(new)
                self.touch(block.arguments[i])
                needs = True
            new_inputs.append(new)
        if not needs:
            return True
        if not self.until_fix_point(main.regions[0], 10):
            return False
        self.infer_return_type(main)
        results = list(ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value).results)
        main.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(new_inputs, results))
        return True

    def infer_return_type(self, func):
        block = func.regions[0].blocks[0]
        ret = block.operations[len(block.operations) - 1] if len(block.operations) else None
        if ret is None or ret.operation.name != RETURN:
            return
        ret = ret.operation
        changed = False
        for index, operand in enumerate(list(ret.operands)):
            if isinstance(operand, ir.BlockArgument):
                continue
            cast = operand.owner
            if cast.name not in (CAST, "tensor.cast"):
                continue
            src = cast.operands[0]
            meet = self.types.meet(operand.type, src.type)
            if meet == operand.type:
                continue
            if meet == src.type and _compatible_elements(self.types, src.type, operand.type):
                ret.operands[index] = src
            else:
                new = self._insert_cast(meet, src, ret.location, ir.InsertionPoint(ret))
                if new is None:
                    continue
                ret.operands[index] = new
            if not list(operand.uses):
                cast.erase()
            changed = True
        ftype = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
        new = ir.FunctionType.get(list(ftype.inputs), [v.type for v in ret.operands])
        if new != ftype:
            func.attributes["function_type"] = ir.TypeAttr.get(new)
        if changed:
            self.enqueue_callers(func)

    def until_fix_point(self, region, max_iterations):
        changed = True
        iteration = 0
        while iteration < max_iterations and changed:
            changed = False
            self.evaluator.forget_unknown()
            for op in post_order(region):
                if op.name in _TERMINATORS:
                    continue  # terminators infer nothing; their parents read them
                # An op is known by its first result (Python's Operation objects are not stable
                # dictionary keys across walks); ops without results are always visited.
                results = op.results
                key = results[0] if len(results) else None
                if self._can_skip(op, key):
                    continue
                last = self.visited_at.get(key) if key is not None else None
                self.clock += 1
                if key is not None:
                    self.visited_at[key] = self.clock
                if self.infer_op(op, max_iterations):
                    changed = True
                name = op.name
                if name in _VALUE_PRODUCERS:
                    # Its value (not its type) may have become known: consumers look again.
                    for r in op.results:
                        self.touch(r)
                elif name == ISLAND or name == GRAPH:
                    # What it forwards may have changed inside (values seen through islands).
                    stamps = self.stamps
                    if last is None or any(stamps.get(v, 0) > last for v in self.terminator_of(op).operands):
                        for r in op.results:
                            self.touch(r)
            iteration += 1
        return not changed

    def propagate_to_functions(self, input_types, funcs, max_iterations):
        converged = True
        for func in funcs:
            if func is None:
                continue
            callers = self.callers(symbol_name(func))
            if len(callers) != 1:
                first = [v.type for v in callers[0].operands] if callers else []
                if not all(_is_call(c) and [v.type for v in c.operands] == first for c in callers[1:]):
                    continue
            ftype = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
            new = ir.FunctionType.get(list(input_types), list(ftype.results))
            if new != ftype:
                func.attributes["function_type"] = ir.TypeAttr.get(new)
            block = func.regions[0].blocks[0]
            if len(block.arguments) != len(input_types):
                continue
            for arg, t in zip(block.arguments, input_types):
                if arg.type != t:
                    arg.set_type(t)
                    self.touch(arg)
            if not self.until_fix_point(func.regions[0], max_iterations):
                converged = False
            self.infer_return_type(func)
        return converged

    def propagate_to_regions(self, input_types, regions, max_iterations):
        converged = True
        for region in regions:
            block = region.blocks[0]
            for arg, t in zip(block.arguments, input_types):
                if arg.type != t:
                    arg.set_type(t)
                    self.touch(arg)
            if not self.until_fix_point(region, max_iterations):
                converged = False
        return converged

    def func_named(self, attr):
        if attr is None:
            return None
        name = attr.value if isinstance(attr, ir.FlatSymbolRefAttr) else _convert_attr(attr, self.types)
        return self.funcs.get(name) if isinstance(name, str) else None

    def _func_attr(self, op, name):
        attrs = op.attributes
        return self.func_named(attrs[name]) if name in attrs else None

    def propagate_into_attached_functions(self, op, name, max_iterations):
        if name == "tf.If":
            return self.propagate_to_functions(
                [v.type for v in list(op.operands)[1:]],
                [self._func_attr(op, "then_branch"), self._func_attr(op, "else_branch")], max_iterations)
        if name == "tf.Case":
            branches = [self.func_named(b) for b in op.attributes["branches"]]
            return self.propagate_to_functions([v.type for v in list(op.operands)[1:]], branches,
                                               max_iterations)
        if name == "tf.While":
            body = self._func_attr(op, "body")
            types = [v.type for v in op.operands]
            if _shape_invariant(op) and body is not None:
                body_inputs = ir.FunctionType(ir.TypeAttr(body.attributes["function_type"]).value).inputs
                types = self.while_compatible_types(types, [r.type for r in op.results], list(body_inputs))
            return self.propagate_to_functions(types, [self._func_attr(op, "cond"), body], max_iterations)
        call = _TF_CALLS.get(name)
        if call is not None:
            func = self._func_attr(op, call[0])
            if func is None:
                return True
            args = list(op.operands)
            if call[1]:
                args = args[:-call[1]]
            self.propagate_constant_to_callee(args, func)
            converged = self.propagate_to_functions([v.type for v in args], [func], max_iterations)
            self.propagate_constant_from_callee(op, func)
            return converged
        reducers = _XLA_REDUCERS.get(name)
        if reducers is not None:
            converged = True
            for attr in reducers:
                func = self._func_attr(op, attr)
                if func is None:
                    continue
                inputs = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value).inputs
                types = [self.types.tensor([], self.types.info(t).elem) for t in inputs]
                converged = self.propagate_to_functions(types, [func], max_iterations) and converged
            return converged
        return True

    def propagate_constant_to_callee(self, args, func):
        if len(self.callers(symbol_name(func))) != 1:
            return
        block = func.regions[0].blocks[0]
        for arg in block.arguments:
            if arg.arg_number >= len(args):
                continue
            operand = args[arg.arg_number]
            if self.propagate_constants:
                if not isinstance(operand, ir.BlockArgument) and operand.owner.name == "tf.Const":
                    first = block.operations[0]
                    clone = operand.owner.clone(ir.InsertionPoint(first))
                    arg.replace_all_uses_with(clone.results[0])
                    self.touch(clone.results[0])
                continue
            value = self.evaluator.constant_value(operand)
            if value is not None and arg not in self.evaluator.known:
                self.evaluator.known[arg] = value
                self.touch(arg)

    def propagate_constant_from_callee(self, op, func):
        block = func.regions[0].blocks[0]
        ret = block.operations[len(block.operations) - 1].operation
        for index, value in enumerate(ret.operands):
            if index >= len(op.results):
                break
            if self.propagate_constants:
                if not isinstance(value, ir.BlockArgument) and value.owner.name == "tf.Const":
                    clone = value.owner.clone(ir.InsertionPoint.after(op))
                    op.results[index].replace_all_uses_with(clone.results[0])
                    self.touch(clone.results[0])
                continue
            known = self.evaluator.constant_value(value)
            result = op.results[index]
            if known is not None and result not in self.evaluator.known:
                self.evaluator.known[result] = known
                self.touch(result)

    def while_compatible_types(self, operand_types, result_types, region_types):
        out = []
        for o, r, g in zip(operand_types, result_types, region_types):
            oi, ri = self.types.info(o), self.types.info(r)
            if o == r:
                out.append(o)
            elif oi.shape is not None and ri.shape is not None and len(oi.shape) == len(ri.shape):
                dims = [a if a == b else -1 for a, b in zip(oi.shape, ri.shape)]
                out.append(self.types.tensor(dims, _element_from_operand(self.types, o, r)))
            else:
                gi = self.types.info(g)
                out.append(self.types.tensor(gi.shape, _element_from_operand(self.types, o, g)))
        return out

    # --- one op -------------------------------------------------------------------------------------
    def infer_op(self, op, max_iterations):
        name = op.name
        infers = self._infers.get(name)
        if infers is None:
            infers = self._infers[name] = _implements_infer_type(op)
        if infers:
            return self.refine_with_interface(op)
        if not name.startswith("tf."):
            return self.infer_non_tf(op, name)
        if self.try_to_fold(op, name) and not any(self.types.info(r.type).refinable for r in op.results):
            return False
        # Best effort, as TF: attached functions/regions that do not converge do not stop the op.
        self.propagate_into_attached_functions(op, name, max_iterations)
        if name == "tf.WhileRegion":
            types = [v.type for v in op.operands]
            if _shape_invariant(op):
                types = self.while_compatible_types(types, [r.type for r in op.results],
                                                    [a.type for a in op.regions[1].blocks[0].arguments])
            self.propagate_to_regions(types, [op.regions[0], op.regions[1]], max_iterations)
        return self.infer_single(op, name)

    def refine_with_interface(self, op):
        if not any(self.types.info(r.type).refinable for r in op.results):
            return False
        attrs = op.attributes
        dictionary = ir.DictAttr.get({n: attrs[n] for n in attrs})
        try:
            with op.location:
                inferred = ir.InferTypeOpInterface(op).inferReturnTypes(
                    operands=list(op.operands), attributes=dictionary, regions=list(op.regions))
        except ValueError:
            self.pass_.fail(f"'{op.name}' op failed to refine type as inference failed", op)
        changed = False
        zeros_like = op.name == "tf.ZerosLike"
        for result, inferred_type in zip(op.results, inferred):
            current = result.type
            new = inferred_type if zeros_like else self.types.meet(inferred_type, current)
            if new != current and self.update_type(new, result):
                changed = True
        return changed

    def infer_non_tf(self, op, name):
        if name == GRAPH or name == ISLAND:
            return self.force_pass_through(list(self.terminator_of(op).operands), list(op.results))
        if name == NEXT_ITERATION_SINK:
            source = op.operands[0].owner
            return self.refine_pass_through(list(op.operands)[1:2], list(source.results))
        if name in (LAUNCH, CLUSTER):
            term = _terminator(op.regions[0])
            return self.refine_pass_through(list(term.operands), list(op.results))
        attr = _OTHER_CALLS.get(name)
        if attr is not None:
            return self.infer_call(op, attr)
        if name == "tensor.cast":
            return self.infer_cast(op)
        return False

    def try_to_fold(self, op, name):
        """TF's TryToFold: the values of the results when they are known constants; results
        whose value is known take the value's type. True when a value is known."""
        if not op.results:
            return False
        op_type = name[3:]
        self._move_constants_right(op, op_type)
        if op_type not in ("Const", "Shape", "Size", "Rank") and not can_evaluate(op_type):
            return False
        folded = False
        for result in op.results:
            value = self.evaluator.constant_value(result)
            if value is None:
                continue
            folded = True
            info = self.types.info(result.type)
            if info.elem is None:
                continue
            new = self.types.tensor(list(np.shape(value)), info.elem)
            if new != result.type:
                self.update_type(new, result)
        return folded

    def _move_constants_right(self, op, op_type):
        """MLIR folds a commutative op by first moving its constant operands after the others
        (IsCommutative's foldTrait, given the constant operand values the folder is called with);
        TF's pass folds every op it visits, so it does too."""
        commutative = self._commutative.get(op_type)
        if commutative is None:
            info = opdb.ods(op_type)
            commutative = self._commutative[op_type] = bool(info is not None and info.commutative)
        if not commutative:
            return
        operands = list(op.operands)
        if len(operands) < 2:
            return
        # "Constant" as the fold hook sees it: operands whose value TF's pass knows (constants,
        # values computed from them, seen through islands), not only tf.Const results.
        const = [self.evaluator.constant_value(v) is not None for v in operands]
        if not any(c and not d for c, d in zip(const, const[1:])):
            return
        order = [v for v, c in zip(operands, const) if not c] + [v for v, c in zip(operands, const) if c]
        for i, v in enumerate(order):
            op.operands[i] = v

    def infer_call(self, op, attr):
        func = self._func_attr(op, attr)
        if func is None:
            return False
        results = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value).results
        changed = False
        for result, t in zip(op.results, results):
            if self.refine(result, t):
                changed = True
        return changed

    def infer_cast(self, op):
        result = op.results[0]
        if not self.types.info(result.type).refinable:
            return False
        uses = list(result.uses)
        if uses and all(self.needs_cast_back(u.owner.name, u.owner) for u in uses):
            return False
        operand_type = op.operands[0].type
        new = self.types.cast_compatible(operand_type, result.type)
        if new is None:
            oi, ri = self.types.info(operand_type), self.types.info(result.type)
            if oi.shape is None:
                return False
            if ri.shape is not None and ri.shape == oi.shape:
                return False
            if ri.elem is None:
                return False
            new = self.types.tensor(oi.shape, ri.elem)
        return self.update_type(new, result)

    def infer_single(self, op, name):
        if name in _PASS_THROUGH:
            return self.refine_pass_through(list(op.operands), list(op.results))
        if name in _NO_INFERENCE:
            return False
        results = op.results
        if not any(self.types.info(r.type).refinable for r in results):
            return False
        call = _TF_CALLS.get(name)
        if call is not None:
            return self.infer_call(op, call[0])
        if name == CAST:
            return self.infer_cast(op)
        if name in ("tf.If", "tf.Case"):
            if name == "tf.If":
                funcs = [self._func_attr(op, "then_branch"), self._func_attr(op, "else_branch")]
            else:
                funcs = [self.func_named(b) for b in op.attributes["branches"]]
            if any(f is None for f in funcs):
                return False
            lists = [list(ir.FunctionType(ir.TypeAttr(f.attributes["function_type"]).value).results)
                     for f in funcs]
            return self._refine_from_branches(results, lists)
        if name in ("tf.IfRegion", "tf.CaseRegion"):
            lists = [list(v.type for v in _terminator(r).operands) for r in op.regions]
            return self._refine_from_branches(results, lists)
        if name == "tf.While":
            body = self._func_attr(op, "body")
            if body is None:
                return False
            body_results = list(ir.FunctionType(ir.TypeAttr(body.attributes["function_type"]).value).results)
            return self.infer_while(op, body_results)
        if name == "tf.WhileRegion":
            return self.infer_while(op, [v.type for v in _terminator(op.regions[1]).operands])
        if name == "tf._XlaHostComputeMlir":
            return self.infer_host_compute_mlir(op)
        if name == "tf.XlaConvV2":
            return self.infer_xla_conv_v2(op)
        if name == "tf.XlaReduceWindow":
            return self.infer_xla_reduce_window(op)
        if name == "tf.XlaSelectAndScatter":
            return self.infer_xla_select_and_scatter(op)
        if name in _TENSOR_LIST_INIT and self.infer_tensor_list_init(op, name):
            return True
        if name == "tf.TensorListPopBack":
            return self.infer_pop_back(op)
        if name == "tf.VarHandleOp":
            return self.infer_var_handle(op)
        return self.infer_with_shape_function(op, name)

    def infer_xla_conv_v2(self, op):
        """TF's InferShapeForXlaConvV2Op: XLA's convolution output shape from static operand
        shapes, the dimension numbers and constant strides, padding and dilations (the checks
        of TF's PrecheckForXlaConvV2Op fail the pass with TF's messages)."""
        operands = list(op.operands)
        lhs, rhs = operands[0], operands[1]
        if not all(isinstance(v.type, ir.RankedTensorType) and v.type.has_static_shape
                   for v in operands[:7]):
            return False
        lhs_shape, rhs_shape = list(lhs.type.shape), list(rhs.type.shape)

        def fail(message):
            raise PassFailure(f"'tf.XlaConvV2' op {message}", op)

        if len(lhs_shape) <= 2:
            fail(f"input tensor argument is {len(lhs_shape)} which is invalid, since input tensor "
                 f"argument must has a rank greater than 2.\n")
        if len(rhs_shape) <= 2:
            fail(f"kernel tensor argument is {len(rhs_shape)} which is invalid, since kernel tensor "
                 f"argument must has a rank greater than 2.\n")
        if len(lhs_shape) != len(rhs_shape):
            fail("both input tensor and kernel tensor must have same number of dimensions.\n")
        attrs = op.attributes
        try:
            dnums = xla_protos.ConvolutionDimensionNumbers(ir.StringAttr(attrs["dimension_numbers"]).value_bytes)
        except xla_protos.ProtoError:
            return False
        if len(dnums.input_spatial) != len(dnums.kernel_spatial):
            fail("Both arguments to convolution must have same number of dimensions.\n")
        if len(dnums.input_spatial) != len(dnums.output_spatial):
            fail("Both input and output of convolution must have same number of dimensions.\n")
        rank = len(lhs_shape)
        indices = ([dnums.input_batch, dnums.input_feature] + dnums.input_spatial,
                   [dnums.kernel_input_feature, dnums.kernel_output_feature] + dnums.kernel_spatial,
                   [dnums.output_batch, dnums.output_feature] + dnums.output_spatial)
        if any(not 0 <= i < rank for group in indices for i in group):
            return False  # TF reads out of bounds there
        batch_groups = ir.IntegerAttr(attrs["batch_group_count"]).value if "batch_group_count" in attrs else 1
        feature_groups = self._matched_constant(operands[6])
        if feature_groups is not None:
            feature_groups = int(np.asarray(feature_groups).reshape(-1)[0])
            input_features, input_batch = lhs_shape[dnums.input_feature], lhs_shape[dnums.input_batch]
            kernel_input, kernel_output = rhs_shape[dnums.kernel_input_feature], rhs_shape[dnums.kernel_output_feature]
            if feature_groups <= 0:
                fail(f"feature_group_count must be a positive number, got {feature_groups}")
            if batch_groups <= 0:
                fail(f"batch_group_count must be a positive number, got {batch_groups}")
            if batch_groups > 1 and feature_groups > 1:
                fail(f"both batch_group_count {batch_groups}and feature_group_count {feature_groups} "
                     f"cannot be greater than 1")
            if kernel_output % batch_groups != 0:
                fail(f"Expected output feature dimension size (value {kernel_output}) to be a multiple "
                     f"of batch group count {batch_groups}")
            if input_features % feature_groups != 0 or input_features // feature_groups != kernel_input:
                fail(f"Expected the size of kernel_input_features (value {kernel_input}) in rhs times "
                     f"feature_group_count (value {feature_groups}) in lhs should equal the size of the "
                     f"z dimension (value {input_features}) in lhs.\n")
            if kernel_output % feature_groups > 0:
                fail(f"Expected output feature dimension (value {kernel_output}) to be divisible by "
                     f"feature_group_count (value {feature_groups}).\n")
            if input_batch % batch_groups != 0:
                fail(f"Expected input batch dimension (value {input_batch} ) to be divisible by "
                     f"batch_group_count (value {batch_groups}); ")
        values = [self._matched_constant(v) for v in operands[2:6]]
        if any(v is None for v in values):
            return False
        strides, padding, lhs_dilation, rhs_dilation = (
            [int(x) for x in np.asarray(v).reshape(-1)] for v in values)
        spatial = len(dnums.input_spatial)
        padding = [(padding[2 * i], padding[2 * i + 1]) for i in range(len(padding) // 2)]
        window = _window_output_shape([lhs_shape[d] for d in dnums.input_spatial],
                                      [rhs_shape[d] for d in dnums.kernel_spatial], strides, padding,
                                      lhs_dilation, rhs_dilation)
        if window is None:
            return False  # XLA refuses the window (TF's pass crashes there)
        output = [0] * rank
        output[dnums.output_batch] = lhs_shape[dnums.input_batch] // batch_groups
        output[dnums.output_feature] = rhs_shape[dnums.kernel_output_feature]
        for i in range(spatial):
            output[dnums.output_spatial[i]] = window[i]
        lhs_element = lhs.type.element_type
        result_type = op.results[0].type
        result_element = result_type.element_type if isinstance(result_type, ir.ShapedType) else lhs_element
        element = lhs_element if _bit_width(lhs_element) >= _bit_width(result_element) else result_element
        return self.refine(op.results[0], ir.RankedTensorType.get(output, element))

    def _matched_ints(self, value):
        """The integers of a constant operand (:meth:`_matched_constant`), or None."""
        found = self._matched_constant(value)
        return None if found is None else [int(x) for x in np.asarray(found).reshape(-1)]

    def infer_xla_reduce_window(self, op):
        """TF's InferShapeForXlaReduceWindowOp: the window's output shape over a statically
        shaped input, from constant window sizes, strides, dilations and padding, with the
        init value's element type."""
        operands = list(op.operands)
        input_type = operands[0].type
        if not (isinstance(input_type, ir.RankedTensorType) and input_type.has_static_shape):
            return False
        values = [self._matched_ints(v) for v in operands[2:7]]
        if any(v is None for v in values):
            return False
        sizes, strides, base_dilations, window_dilations, padding = values
        paddings = [(padding[2 * i], padding[2 * i + 1]) for i in range(len(padding) // 2)]
        output = _window_output_shape(list(input_type.shape), sizes, strides, paddings,
                                      base_dilations, window_dilations)
        if output is None:
            raise PassFailure("'tf.XlaReduceWindow' op failed to infer output shape", op)
        element = ir.ShapedType(operands[1].type).element_type
        return self.refine(op.results[0], ir.RankedTensorType.get(output, element))

    def infer_xla_select_and_scatter(self, op):
        """TF's InferShapeForXlaSelectAndScatterOp: the operand's type; with constant window
        sizes, strides and padding, the source must have the window-reduced operand's shape."""
        operands = list(op.operands)
        operand_type, source_type = operands[0].type, operands[4].type
        if isinstance(operand_type, ir.RankedTensorType) and isinstance(source_type, ir.RankedTensorType):
            values = [self._matched_ints(v) for v in operands[1:4]]
            if all(v is not None for v in values):
                sizes, strides, padding = values
                paddings = [(padding[2 * i], padding[2 * i + 1]) for i in range(len(padding) // 2)]
                output = _window_output_shape(list(operand_type.shape), sizes, strides, paddings)
                if output is None:
                    raise PassFailure("'tf.XlaSelectAndScatter' op failed to infer window result "
                                      "shape", op)
                reduced = ir.RankedTensorType.get(output, operand_type.element_type)
                if reduced != source_type:
                    raise PassFailure("'tf.XlaSelectAndScatter' op Source shape does not match the "
                                      "shape of window-reduced operand.", op)
        return self.refine(op.results[0], operand_type)

    def _matched_constant(self, value):
        """MLIR's ``m_Constant``: the value of a constant op's result (not through islands or
        other ops, as TF's pass reads XlaConvV2's operands), else None."""
        owner = value.owner
        if isinstance(owner, ir.Block) or owner.operation.name not in _CONSTANT_OPS:
            return None
        return self.evaluator.constant_value(value)

    def _refine_from_branches(self, results, lists):
        changed = False
        for i, result in enumerate(results):
            types = {lst[i] for lst in lists if i < len(lst)}
            if len(types) == 1 and self.refine(result, next(iter(types))):
                changed = True
        return changed

    def infer_while(self, op, body_results):
        results = list(op.results)
        operands = list(op.operands)
        if not _shape_invariant(op):
            return self.refine_pass_through(operands, results)
        changed = False
        for operand, result, body_type in zip(operands, results, body_results):
            ri, bi = self.types.info(result.type), self.types.info(body_type)
            if _while_refinable_with(ri, bi):
                potential = self.types.tensor(bi.shape, _element_from_operand(self.types, body_type, result.type))
            else:
                potential = self.types.tensor(ri.shape, _element_from_operand(self.types, operand.type,
                                                                              result.type))
            if self.refine(result, potential):
                changed = True
        return changed

    def infer_with_shape_function(self, op, name):
        op_type = name[3:]
        fn = SHAPE_FNS.get(op_type)
        if fn is None:
            return False
        operands = list(op.operands)
        inputs, handles = [], []
        for v in operands:
            info = self.types.info(v.type)
            shape = info.shape
            if shape is None and isinstance(v, ir.BlockArgument):
                shape = self._arg_output_shape(v)
            inputs.append(shape)
            handles.append(info.handles)
        c = _OpContext(self, op, op_type, inputs, handles, operands)
        try:
            fn(c)
        except ShapeError as exc:
            types = ", ".join(str(v.type) for v in operands)
            self.pass_.fail(f"'{name}' op has operand shapes no {op_type} accepts: {exc} "
                            f"(operand types: {types})", op)
        changed = False
        for i, result in enumerate(op.results):
            info = self.types.info(result.type)
            if not info.refinable:
                continue
            elem = info.elem
            handle = c.output_handles[i]
            if handle is not None and info.handle_kind is not None and \
                    all(dt is not None for dt, _ in handle):
                subs = [self.types.tensor(s, self.types.element_type(dt)) for dt, s in handle]
                elem = self.types.with_subtypes(info.handle_kind, subs)
            inferred = self.types.tensor(c.outputs[i], elem)
            new = self.types.meet(result.type, inferred)
            if new != result.type and self.update_type(new, result):
                changed = True
        return changed

    def _arg_output_shape(self, arg):
        owner = arg.owner.owner
        if owner is None or owner.name != FUNC or "arg_attrs" not in owner.attributes:
            return None
        arg_attrs = owner.attributes["arg_attrs"]
        if arg.arg_number >= len(arg_attrs):
            return None
        d = ir.DictAttr(arg_attrs[arg.arg_number])
        if "tf._output_shapes" not in d:
            return None
        shapes = d["tf._output_shapes"]
        if not isinstance(shapes, ir.ArrayAttr) or len(shapes) != 1 or not tf_type.ShapeAttr.isinstance(shapes[0]):
            return None
        s = tf_type.ShapeAttr(shapes[0])
        return None if s.rank is None else [-1 if d is None or d < 0 else d for d in s.dims]

    def infer_host_compute_mlir(self, op):
        text = ir.StringAttr(op.attributes["host_mlir_module"]).value if "host_mlir_module" in op.attributes \
            else ""
        if not text:
            return False
        try:
            host = ir.Module.parse(text, op.context)
        except ir.MLIRError:
            return False
        func = None
        for f in host.body.operations:
            if f.operation.name == FUNC and symbol_name(f.operation) == "host_func":
                func = f.operation
        if func is None:
            return False
        types = [v.type for v in op.operands]
        ftype = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
        func.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(types, list(ftype.results)))
        self.propagate_to_regions(types, [func.regions[0]], 10)
        self.infer_return_type(func)
        results = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value).results
        changed = False
        for result, t in zip(op.results, results):
            if self.refine(result, t):
                changed = True
        return changed

    def infer_tensor_list_init(self, op, name):
        handle = op.results[0]
        element_shape = op.operands[_TENSOR_LIST_INIT[name]]
        element = None
        if name == "tf.TensorListFromTensor":
            ti = self.types.info(op.operands[0].type)
            if ti.shape is None or not ti.shape or -1 in ti.shape[1:]:
                return False
            element = self.types.tensor(ti.shape[1:], ti.elem)
        ok, element = self._tensor_list_element(handle, element_shape, element)
        if not ok or element is None:
            return False
        new = self.types.tensor([], self.types.with_subtypes("variant", [element]))
        return self.refine(handle, new)

    def _tensor_list_element(self, tensor_list, initial_element_shape, element):
        potential = [element]

        def agree(t):
            info = self.types.info(t)
            if info.shape is None or -1 in info.shape:
                return False
            if potential[0] is None:
                potential[0] = t
                return True
            return potential[0] == t

        def first_dim_dropped(t):
            info = self.types.info(t)
            if info.shape is None or not info.shape:
                return None
            return self.types.tensor(info.shape[1:], info.elem)

        stack, visited = [tensor_list], {tensor_list}

        def push(v):
            if v not in visited:
                visited.add(v)
                stack.append(v)

        while stack:
            value = stack.pop()
            for use in list(value.uses):
                owner, index = use.owner, use.operand_number
                uname = owner.name
                if uname == "tf.TensorListPushBack":
                    if not agree(owner.operands[1].type):
                        return False, None
                    push(owner.results[0])
                elif uname == "tf.TensorListScatterIntoExistingList":
                    t = first_dim_dropped(owner.operands[1].type)
                    if t is None or not agree(t):
                        return False, None
                    push(owner.results[0])
                elif uname == "tf.TensorListSetItem":
                    if not agree(owner.operands[2].type):
                        return False, None
                    push(owner.results[0])
                elif uname in ("tf.TensorListPopBack", "tf.TensorListResize"):
                    push(owner.results[0])
                elif uname == "tf.WhileRegion":
                    for region in owner.regions:
                        push(region.blocks[0].arguments[index])
                elif uname == "tf.Yield":
                    push(owner.parent.results[index])
                elif uname in ("tf.Identity", "tf.IdentityN", "tf.StopGradient"):
                    push(owner.results[index])
                elif uname == "tf.TensorListElementShape":
                    result = owner.results[0]
                    if self.types.info(result.type).elem == self.types.info(initial_element_shape.type).elem:
                        result.replace_all_uses_with(initial_element_shape)
                        self.touch(initial_element_shape)
                    else:
                        cast = self._insert_cast(result.type, initial_element_shape, owner.location,
                                                 ir.InsertionPoint(owner))
                        if cast is None:
                            return False, None
                        result.replace_all_uses_with(cast)
                elif uname in ("tf.TensorListStack", "tf.TensorListGather", "tf.TensorListConcatV2",
                               "tf.TensorListLength", "tf.TensorListGetItem"):
                    continue
                else:
                    return False, None
        return True, potential[0]

    def infer_pop_back(self, op):
        src = self.types.info(op.operands[0].type)
        if src.handle_kind != "variant" or not src.subtypes or len(src.subtypes) != 1:
            return False
        if not self.refine(op.results[0], op.operands[0].type):
            return False
        return self.refine(op.results[1], src.subtypes[0])

    def infer_var_handle(self, op):
        resource = op.results[0]
        if not self.types.info(resource.type).refinable:
            return False
        uses = list(resource.uses)
        if any(u.owner.name not in ("tf.AssignVariableOp", "tf.ReadVariableOp") for u in uses):
            return False
        changed = False
        for u in uses:
            owner = u.owner
            value = owner.operands[1] if owner.name == "tf.AssignVariableOp" else owner.results[0]
            new = ir.UnrankedTensorType.get(self.types.with_subtypes("resource", [value.type]))
            refined = self.types.meet(resource.type, new)
            if refined == resource.type:
                continue
            resource.set_type(refined)
            self.touch(resource)
            changed = True
        return changed


_ALWAYS_EVALUATED = frozenset({"Const", "HostConst", "Shape", "Size", "Rank"})
# Ops whose constant value consumers read: revisiting one may make its value known.
_VALUE_PRODUCERS = frozenset("tf." + n for n in _ALWAYS_EVALUATED | EVALUABLE_OPS)
_TERMINATORS = frozenset({"tf_executor.yield", "tf_executor.fetch", RETURN, "tf_device.return", "tf.Yield"})
# Ops whose inference reads more than their operands (uses, attached modules).
_VISIT_ALWAYS = frozenset({"tf.VarHandleOp", "tf._XlaHostComputeMlir", "tf.XlaHostCompute", "tf.If",
                           "tf.Case", "tf.While", NEXT_ITERATION_SINK})


def _tf_op_type(name):
    return name[3:] if name.startswith("tf.") else None


def _through_executor(v):
    """The value an island or graph result forwards (TF's ValuePort looks through them)."""
    while not isinstance(v, ir.BlockArgument):
        owner = v.owner
        name = owner.name
        if name != ISLAND and name != GRAPH:
            return v
        term = _terminator(owner.regions[0])
        index = v.result_number
        if index >= len(term.operands) or index >= len(owner.results) - (1 if name == ISLAND else 0):
            return v
        v = term.operands[index]
    return v


def _implements_infer_type(op):
    """Whether `op` has InferTypeOpInterface (for tf ops: exactly the ops TF's dialect infers)."""
    try:
        ir.InferTypeOpInterface(op)
        return True
    except (ValueError, TypeError):
        return False


def _terminator(region):
    block = region.blocks[0]
    return block.operations[len(block.operations) - 1].operation




def _is_call(op):
    return op.name in _TF_CALLS or op.name in _OTHER_CALLS


def _shape_invariant(op):
    return "shape_invariant" in op.attributes


def _is_builtin_element(elem):
    return not str(elem).startswith("!")


def _compatible_elements(types, a, b):
    ai, bi = types.info(a), types.info(b)
    if ai.elem == bi.elem:
        return True
    return ai.handle_kind is not None and ai.handle_kind == bi.handle_kind


def _element_from_operand(types, operand_type, result_type):
    """TF's GetElementTypeFromOperand: the operand's handle subtypes when the result has none."""
    oi, ri = types.info(operand_type), types.info(result_type)
    if oi.handle_kind is None:
        return ri.elem
    if not oi.subtypes or ri.subtypes:
        return ri.elem
    return oi.elem


def _while_refinable_with(current, potential):
    if current.shape is None:
        return True
    if potential.shape is None or len(potential.shape) != len(current.shape):
        return False
    return all(c == p or c < 0 for c, p in zip(current.shape, potential.shape))
