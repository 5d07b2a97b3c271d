"""Random misuse of the pass framework (``tfmlir.passes``), in ``api_calls.py``'s style.

A case is a random sequence of actions on a small module: ``passes.run`` with
arguments of the wrong types, nested and recursive pipelines (named pipelines
that expand to themselves), passes that call ``passes.run`` from inside,
passes that erase other functions, keep op handles and fail (the handles
used afterwards), raise from walk callbacks, ``register_pass`` with bad or
taken names, huge option values, pipelines with unknown passes or options.
Each action may end in a clean refusal (``ExpectedError``); none may kill the
process. After every action the module must verify and print; after the case
a plain pipeline must still run (the framework is left usable). The pass and
pipeline registries are restored after each case.
"""
from mlir import ir

import tfmlir
from tfmlir import passes
from tfmlir.passes import framework

ExpectedError = (ValueError, TypeError, ir.MLIRError, OverflowError, RuntimeError)

_MODULE = """
func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.Identity"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "tf.PartitionedCall"(%0) {config = "", config_proto = "", executor_type = "", f = @helper} : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
func.func private @helper(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.AddV2"(%arg0, %arg0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @other(%arg0: tensor<*xi32>) -> tensor<*xi32> {
  %0 = "tf.Neg"(%arg0) : (tensor<*xi32>) -> tensor<*xi32>
  return %0 : tensor<*xi32>
}
"""

_BAD_NAMES = ["", "a b", "x.y", "f(g)", "a,b", "{x}", "\udcff", "\u00e9", "canonicalize", "cse",
              "tf-tpu-rewrite", "tf-shape-inference", "tf-tpu-bridge", "builtin.module", "func.func",
              "a" * 5000, 123, None, b"bytes"]
_HUGE = ["99999999999999999999999999", "-1", "-9223372036854775809", "1e400", "nan", "inf", "",
         "{" * 40, "}", "\"unterminated", "a" * 100_000, "\\FF", "true", "maybe", "0x7fffffffffffffff"]
_KNOWN = ["canonicalize", "cse", "symbol-dce", "inline", "tf-shape-inference", "tf-executor-graph-pruning",
          "tf-tpu-bridge", "tf-guarantee-all-funcs-one-use", "tf-functional-control-flow-to-regions"]


class _Case:
    def __init__(self, rng, tag):
        self.rng = rng
        self.tag = tag
        self.count = 0
        self.names = []  # registered fuzz pass names
        self.handles = []
        self.unverified = False  # the last pipeline ran without verify_each

    def name(self):
        self.count += 1
        return f"fuzz-{self.tag}-{self.count}"

    # ------------------------------------------------------------------ misbehaving passes
    def make_pass(self, behaviour, anchor=None):
        rng = self.rng
        case = self
        anchor = anchor or rng.choice([framework.FUNC, framework.MODULE])

        def run_on_operation(self, op):
            if behaviour == "reenter":
                passes.run(op, rng.choice(["builtin.module(canonicalize)", "func.func(cse)",
                                           "canonicalize", f"builtin.module({rng.choice(case.names or _KNOWN)})"]))
            elif behaviour == "pipeline_inside":
                passes.PassPipeline("builtin.module(cse)")
            elif behaviour == "erase_others":
                module = op if anchor == framework.MODULE else op.operation.parent
                victims = [o for o in module.regions[0].blocks[0].operations
                           if o.operation != op.operation]
                for v in victims[:rng.randrange(1, 4)]:
                    v.operation.erase()
                if rng.random() < 0.5:
                    self.fail("erased and failed")
            elif behaviour == "erase_self":
                op.operation.erase()
            elif behaviour == "keep_handles":
                def keep(o):
                    case.handles.append(o)
                    return ir.WalkResult.ADVANCE
                op.operation.walk(keep)
                first = op.regions[0].blocks[0].operations[0] if op.regions[0].blocks else None
                if first is not None and rng.random() < 0.5:
                    first.operation.erase()
                self.fail("kept handles, then failed")
            elif behaviour == "raise_in_walk":
                exc = rng.choice([ValueError("boom"), RuntimeError("walk"), KeyError("k"), RecursionError("deep"),
                                  MemoryError("oom"), ZeroDivisionError("z"), StopIteration()])

                def cb(o):
                    raise exc
                op.operation.walk(cb, rng.choice([ir.WalkOrder.PRE_ORDER, ir.WalkOrder.POST_ORDER]))
            elif behaviour == "bad_walk_result":
                op.operation.walk(lambda o: rng.choice([None, 7, "x", object()]))
            elif behaviour == "mutate_then_raise":
                with ir.InsertionPoint.at_block_begin(op.regions[0].blocks[0]):
                    ir.Operation.create("tf.NoOp")
                raise ValueError("after mutation")
            elif behaviour == "set_bad_attr":
                op.operation.attributes[rng.choice(["sym_name", "function_type", "tf.x", "sym_visibility"])] = \
                    rng.choice([ir.StringAttr.get("\u00e9"), ir.UnitAttr.get(),
                                ir.IntegerAttr.get(ir.IntegerType.get_signless(64), -1)])
            elif behaviour == "recurse":
                def f(n):
                    return f(n + 1)
                f(0)
            else:
                return None

        cls = type(f"Fuzz_{behaviour}", (framework.Pass,), {
            "__doc__": "fuzz pass", "__module__": __name__, "argument": self.name(), "anchor": anchor,
            "options": (framework.Option("n", int, 0), framework.Option("s", str, ""),
                        framework.Option("b", bool, False), framework.Option("l", int, (), list=True)),
            "run_on_operation": run_on_operation})
        passes.register_pass(cls)
        self.names.append(cls.argument)
        return cls.argument

    # ------------------------------------------------------------------ actions
    def action(self, module):
        rng = self.rng
        kind = rng.randrange(10)
        self.last = f"action {kind}"
        if kind == 0:  # wrong argument types
            target = rng.choice([module, module.operation, None, 7, "module", module.body,
                                 *list(module.body.operations)[:1]])
            pipeline = rng.choice(["builtin.module(cse)", None, 3, b"cse", ["cse"], "builtin.module(",
                                   "", ")", "builtin.module(cse))", "func.func(cse)"])
            kwargs = rng.choice([{}, {"verify_each": "yes"}, {"timing": 2**70}, {"nope": 1},
                                 {"print_ir_after_all": None}, {"context": 5}])
            passes.run(target, pipeline, **kwargs)
        elif kind == 1:  # nested / recursive pipelines
            choice = rng.randrange(4)
            if choice == 0:
                depth = rng.choice([2, 10, 200, 3000])
                text = "builtin.module(" * depth + "cse" + ")" * depth
            elif choice == 1:
                text = rng.choice(["func.func(func.func(cse))", "builtin.module(func.func(builtin.module(cse)))",
                                   "func.func(tf-tpu-bridge)", "builtin.module(func.func(" + ",".join(_KNOWN) + "))"])
            else:
                a, b = self.name(), self.name()
                passes.register_pipeline(a, f"builtin.module({rng.choice([a, b, 'cse'])})", "fuzz")
                if choice == 3:
                    passes.register_pipeline(b, f"builtin.module({a})", "fuzz")
                text = f"builtin.module({rng.choice([a, b])})"
            passes.run(module, text)
        elif kind == 2:  # misbehaving passes
            behaviour = rng.choice(["reenter", "pipeline_inside", "erase_others", "erase_self", "keep_handles",
                                    "raise_in_walk", "bad_walk_result", "mutate_then_raise", "set_bad_attr",
                                    "recurse", "nothing"])
            name = self.make_pass(behaviour)
            pipeline = rng.choice([f"builtin.module({name})", f"builtin.module({name},canonicalize)",
                                   f"builtin.module(cse,{name},symbol-dce)", f"func.func({name})", name])
            self.unverified = rng.random() < 0.2
            self.last = f"pass '{behaviour}' in {pipeline} (verify_each={not self.unverified})"
            passes.run(module, pipeline, verify_each=not self.unverified)
        elif kind == 3:  # use handles kept by an earlier pass
            for handle in self.handles[-5:]:
                try:
                    handle.operation.name
                    str(handle.operation.location)
                except ExpectedError:
                    pass
        elif kind == 4:  # register_pass with bad / taken names
            argument = rng.choice(_BAD_NAMES)
            cls = type("FuzzBad", (framework.Pass,), {"__doc__": "x", "__module__": __name__,
                                                      "argument": argument,
                                                      "anchor": rng.choice([framework.FUNC, framework.MODULE,
                                                                            "tf.Foo", "", None]),
                                                      "aliases": rng.choice([(), ("",), (argument,), (5,)])})
            target = rng.choice([cls, cls, object, None, "cls", cls()])
            passes.register_pass(target)
            if isinstance(argument, str):
                self.names.append(argument)
        elif kind == 5:  # huge option values on Python and upstream passes
            name = self.make_pass("nothing")
            option = rng.choice(["n", "s", "b", "l", "nope", ""])
            text = rng.choice([f"{name}{{{option}={rng.choice(_HUGE)}}}",
                               f"canonicalize{{max-iterations={rng.choice(_HUGE)}}}",
                               f"tf-tpu-bridge{{v1-compat={rng.choice(_HUGE)}}}",
                               f"inline{{default-pipeline={rng.choice(_HUGE)}}}"])
            passes.run(module, f"builtin.module({text})")
        elif kind == 6:  # unknown passes and options
            passes.run(module, rng.choice(["builtin.module(no-such-pass)", "func.func(tf-shape-inference{nope=1})",
                                           "builtin.module(canonicalize{nope=1})", "no.such.op(cse)",
                                           "builtin.module(cse{})", "builtin.module(,,)",
                                           "builtin.module(tf-shape-inference{max-iterations=})"]))
        elif kind == 7:  # function_pass with bad options / names
            @passes.function_pass(rng.choice([self.name(), rng.choice(_BAD_NAMES)]),
                                  anchor=rng.choice([framework.FUNC, framework.MODULE]),
                                  options=rng.choice([(), (framework.Option("x", int, "notint"),),
                                                      (framework.Option("x", list, None),)]))
            def fuzz_fn(op, **kw):
                if rng.random() < 0.5:
                    raise TypeError("fn failed")
            self.names.append(fuzz_fn.pass_class.argument)
            passes.run(module, f"builtin.module({fuzz_fn.pass_class.argument}{{x=1}})")
        elif kind == 8:  # a PassPipeline reused across modules and contexts
            pm = passes.PassPipeline(rng.choice(["builtin.module(cse)", "builtin.module(canonicalize)"]),
                                     module.context)
            other = rng.choice([module, None, 5])
            if rng.random() < 0.5:
                with ir.Context() as ctx2:
                    other = ir.Module.parse(_MODULE)
            pm.run(other)
        else:  # a pipeline given an op of a function instead of the module
            ops = list(module.body.operations)
            if ops:
                func = ops[0]
                passes.run(rng.choice([func, *func.regions[0].blocks[0].operations]), "builtin.module(cse)")


def run(rng, calls):
    """Runs `calls` random actions; AssertionError for a broken invariant."""
    passes.registered_passes()  # the built-in passes loaded before the registries are saved
    saved = (dict(framework._REGISTRY), dict(framework._PIPELINES))
    try:
        module = ir.Module.parse(_MODULE)
        case = _Case(rng, rng.randrange(10**9))
        for _ in range(calls):
            case.unverified = False
            try:
                case.action(module)
            except ExpectedError:
                pass
            try:
                module.operation.verify()
            except ir.MLIRError:
                # A failed pass leaves the module as it was and a passing one is verified,
                # unless the pipeline ran with verify_each=False.
                if not case.unverified:
                    raise AssertionError(f"invariant: the module does not verify after {case.last}") from None
                module = ir.Module.parse(_MODULE)
                continue
            tfmlir.print_ir(module)
        fresh = ir.Module.parse(_MODULE)
        try:
            passes.run(fresh, "builtin.module(canonicalize,tf-shape-inference)")
        except ExpectedError as err:
            raise AssertionError(f"invariant: the framework is unusable after misuse: {err}") from None
    finally:
        framework._REGISTRY.clear()
        framework._REGISTRY.update(saved[0])
        framework._PIPELINES.clear()
        framework._PIPELINES.update(saved[1])
