"""Rewrites every TPU ``tf_device.cluster_func`` into TPU runtime ops (TF 2.21's -tf-tpu-rewrite).

For every ``tf_device.cluster_func`` with a ``_replication_info`` attribute (in
post-order; ones without it are left alone, invalid ``_replication_info`` /
``_xla_compile_device_type`` pairs are an error):

* the devices come from the module's ``tf.devices`` and the cluster_func's
  ``num_cores_per_replica``, ``topology`` and ``device_assignment`` (TF's
  ``GetTPUCompilationAndExecutionDevices``; the replica count is the
  enclosing ``tf_device.replicate``'s ``n``, else 1);
* the called function and every function it references are cloned into a new
  module ``@module_<name>`` (``unknown_graph`` without a module name) carrying
  the module's ``tf.versions``, the callee renamed ``main`` (public), the rest
  private; the module's text (printed without locations) is the
  ``mlir_module`` of a ``tf._TPUCompileMlir``;
* its ``metadata`` is a serialized ``tensorflow.tpu.TPUCompileMetadataProto``
  (TF's own message, :mod:`.analysis.tpu_protos`): the parsed
  ``tpu_compile_options_proto``, ``num_replicas``, ``num_cores_per_replica``,
  ``step_marker_location`` (empty: ``STEP_MARK_AT_ENTRY``), the XLA device
  assignment when a topology is given, ``use_spmd_for_xla_partitioning``,
  ``use_shardy_partitioner``, per operand its dtype, kind (VARIABLE for
  resources, else PARAMETER), shape, input sharding,
  ``is_same_data_across_replicas`` (the callee's
  ``mhlo.is_same_data_across_replicas`` argument attribute) and
  ``is_bounded_dynamic_dim`` (``_dynamic_arg_index``), per result its output
  sharding, and ``mlir_fingerprint`` (Fingerprint64 of the module text).
  Option ``tpu-compile-metadata-debug`` writes the proto in text format instead;
* operands whose shape is not fully static get a ``tf.Shape`` (``tensor<?xi64>``)
  that becomes an operand of the compile op;
* the compile op sits in a ``tf_device.launch`` on the compilation device (the
  host CPU of the first TPU system), followed by a ``tf.TPUCompileSucceededAssert``
  launch on that device, reading the compile status through one ``tf.Identity``
  per ``tf.TPUCompilationResult`` of the cluster (``_tpu_compilation_status`` equal
  to the cluster_func's ``_replication_info``; the Identity takes that op's
  device, or the compile launch's); the ``tf.TPUCompilationResult`` ops are
  replaced by the compile status and erased;
* ``_XlaCompileMlirPlaceholderProgramKey`` ops in the cluster_func's
  ``tf_device.parallel_execute`` (the host launches of outside compilation) are
  replaced by the compiled program key;
* inside a ``tf_device.replicate``, its ``devices`` attribute maps
  ``TPU_REPLICATED_CORE_<core>`` and ``TPU_REPLICATED_HOST_<core>`` to the
  devices of every replica;
* the cluster_func becomes one ``tf.TPUExecute`` per logical core, each in a
  ``tf_device.launch`` on the core's device (``TPU_REPLICATED_CORE_<core>`` when
  replicated), taking the operands the input shardings give that core (MAXIMAL:
  the one core, REPLICATED: every core; operands of ``tf.TPUPartitionedInputV2``
  split by core; tiled operands cut into tiles on the host by ``tf.Split`` trees,
  padded with ``tf.Pad`` where a dimension does not divide evenly:
  :mod:`.lib.tpu_tiles`) and the core's program key, returning the results the
  output shardings give it (a tiled result as its tile type); the launches are
  regions of a ``tf_device.parallel_execute`` after the preserved host regions,
  whose users read the results mapped back (tiled results merged by ``tf.Concat``
  trees, padding cut off by a ``tf.Slice``; a single-region parallel_execute is
  unwrapped); ``_producer_name`` is kept.

Errors (module unchanged): a missing/ill-formed attribute (``num_cores_per_replica``,
``topology``, ``device_assignment``, ``step_marker_location``,
``use_spmd_for_xla_partitioning``, input/output sharding configurations),
devices that cannot be assigned, a ``tf.TPUCompilationResult`` without
``_tpu_compilation_status`` or still used afterwards, a parallel_execute that is
not the cluster_func's parent, ``tf.TPUPartitionedInputV2`` / ``OutputV2`` on the
host side of the computation, tiled shardings whose tiles are not one per logical
core or whose dimension cannot be split evenly (unknown sizes cannot be padded).
"""
from mlir import ir

from ..dialects import tf_device
from ..shapes import xla_protos
from ..tfcore import tf_types
from . import attributes
from .analysis import tpu_devices, tpu_protos
from .analysis.fingerprint import fingerprint64
from .analysis.devices import module_devices, replicated_host_alias
from .names import (CLUSTER_FUNC, FUNC, LAUNCH, MODULE, PARALLEL_EXECUTE,
                             REPLICATE)
from .analysis.symbol_uses import referenced_roots
from .analysis.symbols import symbol_name
from .framework import Option, Pass, PassFailure, erase_op, register_pass
from .lib import tpu_tiles
from .lib.ir_helpers import (arg_attr, enclosing_op, ops_named, remove_singleton_parallel_execute,
                         wrap_op_in_launch)
from .tf_tpu_cluster_formation import compilation_and_replication_error

COMPILE = "tf._TPUCompileMlir"
COMPILE_ASSERT = "tf.TPUCompileSucceededAssert"
COMPILATION_RESULT = "tf.TPUCompilationResult"
EXECUTE = "tf.TPUExecute"
PROGRAM_KEY_PLACEHOLDER = "tf._XlaCompileMlirPlaceholderProgramKey"
PARTITIONED_INPUT_V2 = "tf.TPUPartitionedInputV2"
PARTITIONED_OUTPUT_V2 = "tf.TPUPartitionedOutputV2"
LAUNCH_FUNC = "tf_device.launch_func"

REPLICATION_INFO_ATTR = "_replication_info"
COMPILATION_STATUS_ATTR = "_tpu_compilation_status"
INPUT_SHARDING_ATTR = "input_sharding_configuration"
OUTPUT_SHARDING_ATTR = "output_sharding_configuration"
STEP_MARKER_ATTR = "step_marker_location"
USE_SPMD_ATTR = "use_spmd_for_xla_partitioning"
USE_SHARDY_ATTR = "use_shardy_partitioner"
DYNAMIC_ARG_INDEX_ATTR = "_dynamic_arg_index"
COMPILE_OPTIONS_ATTR = "tpu_compile_options_proto"
SAME_DATA_ARG_ATTR = "mhlo.is_same_data_across_replicas"
VERSIONS_ATTR = "tf.versions"
TPU_REPLICATED_CORE = "TPU_REPLICATED_CORE"
STEP_MARKER_ENUM = "xla.DebugOptions.StepMarkerLocation"
ARG_KIND_ENUM = "tensorflow.tpu.TPUCompileMetadataProto.Arg.Kind"


def replicated_core_alias(core):
    """``TPU_REPLICATED_CORE_<core>``: logical core `core` of a replicated computation."""
    return f"{TPU_REPLICATED_CORE}_{core}"


def _missing(attr):
    return f"requires attribute '{attr}'"


@register_pass
class TPURewritePass(Pass):
    argument = "tf-tpu-rewrite"
    anchor = MODULE
    dependent_dialects = ("tf", "tf_device")
    options = (Option("tpu-compile-metadata-debug", bool, False,
                      "Serialize TPUCompileMetadataProto metadata in _TPUCompileMlir op as a proto "
                      "debug string (text format)"),)

    def run_on_operation(self, module):
        devices, error = module_devices(module)
        if error:
            raise PassFailure(error, module)
        parsed_devices = [parsed for _name, parsed in devices]
        results = {}
        for op in ops_named(module, COMPILATION_RESULT):
            status = attributes.get(op, COMPILATION_STATUS_ATTR)
            if not isinstance(status, ir.StringAttr):
                raise PassFailure(f"'{op.name}' op missing '{COMPILATION_STATUS_ATTR}'", op)
            results.setdefault(ir.StringAttr(status).value, []).append(op)
        table = ir.SymbolTable(module.operation)
        rewritten = []
        for cluster_func in ops_named(module, CLUSTER_FUNC):
            error = compilation_and_replication_error(cluster_func)
            if error:
                raise PassFailure(f"'{CLUSTER_FUNC}' op {error}", cluster_func)
            info = attributes.get(cluster_func, REPLICATION_INFO_ATTR)
            if not isinstance(info, ir.StringAttr):
                continue
            _Rewrite(module, table, cluster_func, parsed_devices,
                     results.get(ir.StringAttr(info).value, []),
                     self.tpu_compile_metadata_debug).run()
            rewritten.append(cluster_func)
        for cluster_func in rewritten:
            _erase_cluster_func(cluster_func)
        for ops in results.values():
            for op in ops:
                if len(list(op.results[0].uses)):
                    user = next(iter(op.results[0].uses)).owner
                    raise PassFailure(f"uses remain post rewrite (a remaining user: "
                                      f"'{user.name}' at {user.location})", op)
                erase_op(op)


def _string(op, name):
    attr = attributes.get(op, name)
    return ir.StringAttr(attr).value if isinstance(attr, ir.StringAttr) else None


def _string_bytes(op, name):
    attr = attributes.get(op, name)
    return ir.StringAttr(attr).value_bytes if isinstance(attr, ir.StringAttr) else None


class _Rewrite:
    """One cluster_func's rewrite (TF's ``Rewrite``)."""

    def __init__(self, module, table, cluster_func, devices, compilation_results, debug):
        self.module = module
        self.table = table
        self.op = cluster_func
        self.devices = devices
        self.compilation_results = compilation_results
        self.debug = debug
        self.loc = cluster_func.location
        self.tiled_inputs = {}  # operand index -> its tiled sharding (split on the host)

    def fail(self, message):
        raise PassFailure(message, self.op)

    def op_fail(self, message):
        raise PassFailure(f"'{CLUSTER_FUNC}' op {message}", self.op)

    def run(self):
        op = self.op
        parent = op.parent
        old_pe = enclosing_op(op, PARALLEL_EXECUTE)
        if old_pe is not None and parent.operation != old_pe:
            self.fail("The ParallelExecute ancestor of a ClusterFunc must be its direct parent.")
        if old_pe is None:
            old_pe = _build_parallel_execute(op)
        self.old_pe = old_pe
        self._check_partitioned(old_pe)
        _check_non_cluster_regions(old_pe)
        pre_results = _num_results_pre_cluster(old_pe)

        replicate = enclosing_op(op, REPLICATE)
        num_replicas = ir.IntegerAttr(replicate.attributes["n"]).value if replicate is not None else 1
        cores_attr = attributes.get(op, "num_cores_per_replica")
        if not isinstance(cores_attr, ir.IntegerAttr):
            self.op_fail(_missing("num_cores_per_replica"))
        num_cores = ir.IntegerAttr(cores_attr).value
        topology = _string_bytes(op, tpu_devices.TOPOLOGY_ATTR)
        if topology is None:
            self.op_fail(_missing(tpu_devices.TOPOLOGY_ATTR))
        assignment_attr = attributes.get(op, tpu_devices.DEVICE_ASSIGNMENT_ATTR)
        if not isinstance(assignment_attr, ir.ArrayAttr):
            self.op_fail(_missing(tpu_devices.DEVICE_ASSIGNMENT_ATTR))
        try:
            coordinates = tpu_devices.device_coordinates(assignment_attr)
        except tpu_devices.TPUDeviceError as exc:
            self.fail(f"error in fetching tpu device coordinates: {exc}")
        try:
            compilation_device, tpu, device_ids = tpu_devices.device_assignment(
                self.devices, num_replicas, num_cores, topology, coordinates)
        except tpu_devices.TPUDeviceError as exc:
            self.fail(f"error in fetching TPU compilation/execution devices: {exc}")

        # Everything that can fail on the attributes is checked before the IR changes.
        output_shardings = self.output_shardings = self._output_shardings(num_cores)
        input_lists = self._inputs_per_core(num_cores)
        core_outputs = [self._outputs_of_core(core, output_shardings) for core in range(num_cores)]
        metadata = self._metadata(num_replicas, num_cores, device_ids)

        ip = ir.InsertionPoint(old_pe)
        compile_launch = self._compile(metadata, num_cores, compilation_device, ip)
        key = compile_launch.results[1]
        for placeholder in ops_named(old_pe, PROGRAM_KEY_PLACEHOLDER):
            placeholder.results[0].replace_all_uses_with(key)
            erase_op(placeholder)

        status = compile_launch.results[0]
        compile_device = compile_launch.attributes["device"]
        status_id = status
        for result in self.compilation_results:
            device = attributes.get(result, "device")
            if not (isinstance(device, ir.StringAttr) and ir.StringAttr(device).value):
                device = compile_device
            identity = ir.Operation.create("tf.Identity", results=[status.type], operands=[status_id],
                                           attributes={"device": device}, loc=result.location, ip=ip)
            status_id = identity.results[0]
            result.results[0].replace_all_uses_with(status)
        assert_op = ir.Operation.create(COMPILE_ASSERT, operands=[status_id],
                                        loc=compile_launch.location, ip=ip)
        wrap_op_in_launch(assert_op, compilation_device, compile_launch.location)

        if replicate is not None:
            _assign_devices_to_replicate(replicate, tpu)

        new_pe, cluster_idx = self._new_parallel_execute(num_cores, core_outputs, ip)
        self._split_tiled_inputs(input_lists, new_pe)
        replicated = len(tpu) != 1
        for core in range(num_cores):
            block = new_pe.regions[cluster_idx + core].blocks[0]
            inputs = input_lists[core] + [compile_launch.results[1 + core]]
            types = [self._core_result_type(i, output_shardings[i]) for i in core_outputs[core]]
            execute = ir.Operation.create(EXECUTE, results=types, operands=inputs, loc=self.loc,
                                          ip=ir.InsertionPoint(block))
            if "_producer_name" in self.op.attributes:
                execute.attributes["_producer_name"] = self.op.attributes["_producer_name"]
            device = replicated_core_alias(core) if replicated else tpu[0][core][0]
            region_loc = new_pe.location
            launch = wrap_op_in_launch(execute, device, region_loc)
            tf_device.ReturnOp(list(launch.results), loc=region_loc,
                                ip=ir.InsertionPoint(block))
        self._remap_outputs(output_shardings, core_outputs, pre_results, new_pe, cluster_idx)
        remove_singleton_parallel_execute(new_pe)

    # --- checks -----------------------------------------------------------------------------------
    def _check_partitioned(self, old_pe):
        for result in _execute_outputs(old_pe, self.op):
            for use in result.uses:
                for user_result in use.owner.results:
                    for inner in user_result.uses:
                        if inner.owner.name == PARTITIONED_OUTPUT_V2:
                            raise PassFailure("Input of TPUPartitionedOutputV2 must be in tpu "
                                              "computation.", inner.owner)
        for operand in self.op.operands:
            owner = operand.owner
            if isinstance(owner, ir.Block):
                continue
            for inner in owner.operands:
                definer = inner.owner
                if not isinstance(definer, ir.Block) and definer.name == PARTITIONED_INPUT_V2:
                    raise PassFailure("Output of TPUPartitionedInputV2 must be in tpu computation.",
                                      definer)

    def _shardings(self, attr_name):
        attr = attributes.get(self.op, attr_name)
        if not isinstance(attr, ir.ArrayAttr):
            return None
        return list(ir.ArrayAttr(attr))

    def _output_shardings(self, num_cores):
        attrs = self._shardings(OUTPUT_SHARDING_ATTR)
        if attrs is None:
            self.fail("output_sharding_configuration missing from cluster func")
        if len(attrs) != len(self.op.results):
            self.fail("incorrect number of output sharding")
        out = []
        for index, attr in enumerate(attrs):
            if not isinstance(attr, ir.StringAttr):
                self.fail(f"non-string output sharding at index {index}")
            sharding = xla_protos.decode_sharding(ir.StringAttr(attr).value_bytes)
            if sharding is None:
                self.fail("incorrect sharding format for outputs")
            devices = xla_protos.expanded_devices(sharding) \
                if sharding.type == xla_protos.SHARDING_OTHER else sharding.tile_assignment_devices
            if sharding.type == xla_protos.SHARDING_OTHER and len(devices) != num_cores:
                self.fail(f"incorrect sharding format for outputs. Number of tiled outputs"
                          f"({len(devices)}) must match the number of logical devices({num_cores})")
            if sharding.type == xla_protos.SHARDING_MAXIMAL and \
                    not (devices and 0 <= devices[0] < num_cores):
                device = devices[0] if devices else 0
                self.fail(f"incorrect sharding format for outputs. Maximal sharding should be "
                          f"assigned to device id in range [0, {num_cores}). Currently assigned "
                          f"to {device}")
            if xla_protos.is_split(sharding):
                try:
                    tpu_tiles.tile_type(self.op.results[index].type, sharding)  # (checks the tiling)
                except tpu_tiles.TileError as exc:
                    self.fail(str(exc))
            out.append(sharding)
        return out

    def _partitioned_output(self, index):
        return any(use.owner.name == PARTITIONED_OUTPUT_V2
                   for use in _old_pe_result(self.old_pe, self.op, index).uses)

    def _inputs_per_core(self, num_cores):
        operands = list(self.op.operands)
        lists = [[] for _ in range(num_cores)]
        attrs = self._shardings(INPUT_SHARDING_ATTR)
        if attrs is None:
            lists[0] = operands
            return lists
        for index, (attr, value) in enumerate(zip(attrs, operands)):
            if not isinstance(attr, ir.StringAttr):
                self.fail("incorrect sharding format for inputs")
            sharding = xla_protos.decode_sharding(ir.StringAttr(attr).value_bytes)
            if sharding is None:
                self.fail("incorrect sharding format for inputs")
            definer = value.owner
            if not isinstance(definer, ir.Block) and definer.name == PARTITIONED_INPUT_V2:
                if sharding.type not in (xla_protos.SHARDING_REPLICATED, xla_protos.SHARDING_OTHER):
                    self.op_fail(f"unsupported input sharding type "
                                 f"{xla_protos.SHARDING_TYPES[sharding.type]} for {index}-th input")
                parts = list(definer.operands)
                if sharding.type == xla_protos.SHARDING_REPLICATED:
                    for core in range(num_cores):
                        lists[core].append(parts[core])
                else:
                    if len(parts) != num_cores:
                        self._tiled_mismatch(index, len(parts), num_cores)
                    for i, core in enumerate(xla_protos.expanded_devices(sharding)):
                        lists[core].append(parts[i])
                continue
            if xla_protos.is_split(sharding):
                try:
                    count = tpu_tiles.tile_count(sharding)
                    tpu_tiles.check_split(value.type, sharding)
                except tpu_tiles.TileError as exc:
                    self.fail(str(exc))
                if count != num_cores:
                    self._tiled_mismatch(index, count, num_cores)
                cores = xla_protos.expanded_devices(sharding)
                if len(cores) > count or any(not 0 <= core < num_cores for core in cores):
                    self.fail(f"incorrect sharding format for inputs: the tiled sharding of operand "
                              f"{index} assigns {len(cores)} tile(s) to cores {cores}, for {count} "
                              f"tile(s) on {num_cores} logical cores")
                # Split at the new parallel_execute (_split_tiled_inputs); a placeholder until then.
                for position, core in enumerate(cores):
                    lists[core].append(_Tile(index, position))
                self.tiled_inputs[index] = sharding
                continue
            if xla_protos.is_replicated(sharding):
                for core in range(num_cores):
                    lists[core].append(value)
            else:
                core = sharding.tile_assignment_devices[0] if sharding.tile_assignment_devices else 0
                if not 0 <= core < num_cores:
                    self.fail(f"incorrect sharding format for inputs: maximal sharding of operand "
                              f"{index} on logical device {core}, not in [0, {num_cores})")
                lists[core].append(value)
        return lists

    def _split_tiled_inputs(self, input_lists, new_pe):
        """The tiled operands split before `new_pe` (in operand order, as TF does), their tiles put
        where :meth:`_inputs_per_core` left placeholders."""
        tiles = {}
        for index, sharding in self.tiled_inputs.items():
            tiles[index] = tpu_tiles.split_operand(self.op.operands[index], sharding, self.loc, new_pe)
        for inputs in input_lists:
            for k, value in enumerate(inputs):
                if isinstance(value, _Tile):
                    inputs[k] = tiles[value.operand][value.position]

    def _tiled_mismatch(self, index, size, num_cores):
        self.fail(f"incorrect {index}-th tiled input sharding received. Product of tile sharding "
                  f"splits({size}) must be equal to number of logical devices : {num_cores}")

    def _core_result_type(self, index, sharding):
        """The type core results take for cluster_func result `index`: its tile type when the
        result is tiled across the cores, else its own."""
        result_type = self.op.results[index].type
        return tpu_tiles.tile_type(result_type, sharding) if xla_protos.is_split(sharding) else result_type

    def _outputs_of_core(self, core, shardings):
        """The cluster_func result indices core `core` returns (TF's
        ``GetOutputTypesForLogicalDeviceComputation``)."""
        out = []
        for index, sharding in enumerate(shardings):
            if xla_protos.is_split(sharding) or xla_protos.is_replicated(sharding) or (
                    sharding.type == xla_protos.SHARDING_MAXIMAL
                    and sharding.tile_assignment_devices[0] == core):
                out.append(index)
        return out

    # --- the compile op ---------------------------------------------------------------------------
    def _metadata(self, num_replicas, num_cores, device_ids):
        op = self.op
        metadata = tpu_protos.compile_metadata()
        options = _string_bytes(op, COMPILE_OPTIONS_ATTR)
        if options is not None:
            try:
                metadata.compile_options.ParseFromString(options)
            except Exception:
                self.fail(f"bad '{COMPILE_OPTIONS_ATTR}' attribute: not a serialized "
                          f"tensorflow.tpu.TPUCompileOptions")
        metadata.num_replicas = num_replicas
        metadata.num_cores_per_replica = num_cores
        location = _string(op, STEP_MARKER_ATTR)
        if location is None:
            self.op_fail(_missing(STEP_MARKER_ATTR))
        locations = tpu_protos.enum_values(STEP_MARKER_ENUM)
        if location and location not in locations:
            self.op_fail(f"bad '{STEP_MARKER_ATTR}' attribute with value '{location}'")
        metadata.step_marker_location = locations[location or "STEP_MARK_AT_ENTRY"]
        if device_ids is not None:
            assignment = metadata.device_assignment
            assignment.replica_count = num_replicas
            assignment.computation_count = num_cores
            for core in range(num_cores):
                computation = assignment.computation_devices.add()
                computation.replica_device_ids.extend(device_ids[r][core]
                                                      for r in range(num_replicas))
        spmd = attributes.get(op, USE_SPMD_ATTR)
        if not isinstance(spmd, ir.BoolAttr):
            self.op_fail(_missing(USE_SPMD_ATTR))
        metadata.use_spmd_for_xla_partitioning = ir.BoolAttr(spmd).value
        shardy = attributes.get(op, USE_SHARDY_ATTR)
        if isinstance(shardy, ir.BoolAttr):
            metadata.use_shardy_partitioner = ir.BoolAttr(shardy).value
        self._metadata_args(metadata)
        self._metadata_retvals(metadata)
        return metadata

    def _sharding_into(self, message, attr, name, index):
        if not isinstance(attr, ir.StringAttr):
            self.op_fail(f"bad '{name}' attribute at index {index}, not a string")
        data = ir.StringAttr(attr).value_bytes
        try:
            message.ParseFromString(data)
            return
        except Exception:
            pass
        sharding = xla_protos.decode_sharding(data)
        if sharding is None:
            self.op_fail(f"bad '{name}' attribute at index {index} with value "
                         f"'{ir.StringAttr(attr).value}': failed to parse to xla::OpSharding")
        _sharding_to_proto(sharding, message)

    def _metadata_args(self, metadata):
        op = self.op
        shardings = attributes.get(op, INPUT_SHARDING_ATTR)
        if not isinstance(shardings, ir.ArrayAttr):
            self.op_fail(_missing(INPUT_SHARDING_ATTR))
        shardings = list(ir.ArrayAttr(shardings))
        operands = list(op.operands)
        if len(shardings) != len(operands):
            self.op_fail(f"bad '{INPUT_SHARDING_ATTR}' attribute, expected array attribute of size "
                         f"{len(operands)}, got size {len(shardings)}")
        dynamic = set()
        if DYNAMIC_ARG_INDEX_ATTR in op.attributes:
            for value in ir.ArrayAttr(op.attributes[DYNAMIC_ARG_INDEX_ATTR]):
                dynamic.add(ir.IntegerAttr(value).value)
        callee = self._callee()
        kinds = tpu_protos.enum_values(ARG_KIND_ENUM)
        for index, value in enumerate(operands):
            arg = metadata.args.add()
            dtype = _data_type(value.type)
            if dtype is None:
                self.op_fail(f"failed to determine operand type at index {index}: unsupported "
                             f"type {value.type}")
            arg.dtype = dtype
            arg.kind = kinds["VARIABLE" if dtype == tf_types.DT_RESOURCE else "PARAMETER"]
            arg.shape.SetInParent()
            if isinstance(value.type, ir.RankedTensorType):
                dynamic_size = ir.ShapedType.get_dynamic_size()
                for size in ir.RankedTensorType(value.type).shape:
                    arg.shape.dim.add().size = -1 if size == dynamic_size else size
            else:
                arg.shape.unknown_rank = True
            self._sharding_into(arg.sharding, shardings[index], INPUT_SHARDING_ATTR, index)
            same = arg_attr(callee, index, SAME_DATA_ARG_ATTR)
            arg.is_same_data_across_replicas = isinstance(same, ir.BoolAttr) and ir.BoolAttr(same).value
            arg.is_bounded_dynamic_dim.append(index in dynamic)

    def _metadata_retvals(self, metadata):
        op = self.op
        shardings = attributes.get(op, OUTPUT_SHARDING_ATTR)
        if not isinstance(shardings, ir.ArrayAttr):
            self.op_fail(_missing(OUTPUT_SHARDING_ATTR))
        shardings = list(ir.ArrayAttr(shardings))
        if len(shardings) != len(op.results):
            self.op_fail(f"bad '{OUTPUT_SHARDING_ATTR}' attribute, expected array attribute of size "
                         f"{len(op.results)}, got size {len(shardings)}")
        for index, attr in enumerate(shardings):
            self._sharding_into(metadata.retvals.add().sharding, attr, OUTPUT_SHARDING_ATTR, index)

    def _callee(self):
        name = ir.FlatSymbolRefAttr(self.op.attributes["func"]).value
        callee = self.table[name] if name in self.table else None
        if callee is None or callee.operation.name != FUNC:
            self.fail(f"'{CLUSTER_FUNC}' op references '@{name}', which is not a function of the module")
        return callee

    def _compile(self, metadata, num_cores, compilation_device, ip):
        text = self._serialized_module()
        metadata.mlir_fingerprint = fingerprint64(text.encode("utf-8"))
        metadata_bytes = tpu_protos.serialize_metadata(metadata, debug=self.debug)
        operands = []
        for index, (value, arg) in enumerate(zip(self.op.operands, metadata.args)):
            if arg.shape.unknown_rank or any(d.size < 0 for d in arg.shape.dim):
                shape = ir.Operation.create("tf.Shape", results=[ir.Type.parse("tensor<?xi64>")],
                                            operands=[value], loc=self.loc, ip=ip)
                operands.append(shape.results[0])
        string = ir.Type.parse("!tf_type.string")
        status = ir.RankedTensorType.get([], string)
        program = ir.RankedTensorType.get([3], string)
        compile_op = ir.Operation.create(
            COMPILE, results=[status] + [program] * num_cores, operands=operands,
            attributes={"mlir_module": ir.StringAttr.get(text),
                        "metadata": ir.StringAttr.get(metadata_bytes)},
            loc=self.loc, ip=ip)
        return wrap_op_in_launch(compile_op, compilation_device, self.loc)

    def _serialized_module(self):
        from .. import print_ir
        callee = self._callee()
        versions = attributes.get(self.module.operation, VERSIONS_ATTR)
        if versions is None:
            raise PassFailure(f"requires attribute '{VERSIONS_ATTR}'", self.module)
        with ir.Location.unknown(self.module.context):
            sub = ir.Module.create()
        sub.operation.attributes["sym_name"] = ir.StringAttr.get("module_unknown_graph",
                                                                 self.module.context)
        sub.operation.attributes[VERSIONS_ATTR] = versions
        entry = symbol_name(callee.operation)
        taken = set()
        referenced = [callee.operation]
        body = sub.body
        while referenced:
            func = referenced.pop()
            name = symbol_name(func)
            if name in taken:
                continue
            uses = []
            for nested in _pre_order(func):
                uses.extend(referenced_roots(nested))
            for use in uses:
                target = self.table[use] if use in self.table else None
                if target is not None and target.operation.name == FUNC:
                    referenced.append(target.operation)
            clone = func.clone(ir.InsertionPoint(body))
            if name == entry:
                clone.attributes["sym_name"] = ir.StringAttr.get("main")
                if "sym_visibility" in clone.attributes:
                    del clone.attributes["sym_visibility"]
            else:
                clone.attributes["sym_visibility"] = ir.StringAttr.get("private")
            taken.add(name)
        # TF's SerializeMlirModule: the module as MLIR prints it, no trailing newline.
        return print_ir(sub).rstrip("\n")

    # --- the execute ops ---------------------------------------------------------------------------
    def _new_parallel_execute(self, num_cores, core_outputs, ip):
        old_pe = self.old_pe
        regions = list(old_pe.regions)
        cluster_idx = next(i for i, region in enumerate(regions)
                           if region.blocks[0] == self.op.operation.block)
        types = []
        for region in regions:
            first = region.blocks[0].operations[0].operation
            if first.name != CLUSTER_FUNC:
                types.extend(r.type for r in first.results)
        for core in range(num_cores):
            types.extend(self._core_result_type(i, self.output_shardings[i]) for i in core_outputs[core])
        moved = len(regions) - 1
        new_pe = ir.Operation.create(PARALLEL_EXECUTE, results=types, regions=moved + num_cores,
                                     loc=old_pe.location, ip=ip)
        for child in range(moved):
            old_index = child + 1 if child >= cluster_idx else child
            new_index = child + num_cores if child >= cluster_idx else child
            block = new_pe.regions[new_index].blocks.append()
            for nested in list(regions[old_index].blocks[0].operations):
                _append(nested.operation, block)
        for core in range(num_cores):
            new_pe.regions[cluster_idx + core].blocks.append()
        return new_pe, cluster_idx

    def _remap_outputs(self, shardings, core_outputs, pre_results, new_pe, cluster_idx):
        old_pe = self.old_pe
        region_outputs = _region_outputs(new_pe)
        for index, old in enumerate(old_pe.results):
            if index < pre_results:
                old.replace_all_uses_with(new_pe.results[index])
                continue
            cluster_index = index - pre_results
            sharding = shardings[cluster_index]
            partitioned = [use.owner for use in old.uses if use.owner.name == PARTITIONED_OUTPUT_V2]
            if partitioned:
                output = partitioned[0]
                if len(list(old.uses)) != 1:
                    raise PassFailure(f"'{PARTITIONED_OUTPUT_V2}' op must be a unique user of TPU "
                                      f"Cluster (tf_device.old_parallel_execute) output", output)
                if sharding.type not in (xla_protos.SHARDING_REPLICATED, xla_protos.SHARDING_OTHER):
                    raise PassFailure(f"'{PARALLEL_EXECUTE}' op unsupported output sharding type "
                                      f"{xla_protos.SHARDING_TYPES[sharding.type]} for {index}-th "
                                      f"output", old_pe)
                regions = len(new_pe.regions)
                if sharding.type == xla_protos.SHARDING_REPLICATED:
                    for i, part in enumerate(output.results):
                        region = (cluster_idx + i) % regions
                        part.replace_all_uses_with(region_outputs[region][cluster_index])
                else:
                    devices = xla_protos.expanded_devices(sharding)
                    for part, core in zip(output.results, devices):
                        position = core_outputs[core].index(cluster_index)
                        part.replace_all_uses_with(region_outputs[cluster_idx + core][position])
                continue
            if xla_protos.is_split(sharding):
                last = sharding.tile_assignment_dimensions[-1]
                tiles = []
                for tile, core in enumerate(xla_protos.expanded_devices(sharding)):
                    if sharding.replicate_on_last_tile_dim and tile % last:
                        continue  # a copy of the tile before it
                    if not 0 <= core < len(core_outputs) or cluster_index not in core_outputs[core]:
                        raise PassFailure(f"Attempted to map cluster_func output index {cluster_index} "
                                          f"to program assigned to core {core}. The tensor at this "
                                          f"output index was not assigned or sharded to this core.",
                                          self.op)
                    position = core_outputs[core].index(cluster_index)
                    tiles.append(region_outputs[cluster_idx + core][position])
                tpu_tiles.concat_result(old, tiles, sharding, new_pe, self.loc)
                continue
            core = sharding.tile_assignment_devices[0] \
                if sharding.type == xla_protos.SHARDING_MAXIMAL else 0
            if cluster_index not in core_outputs[core]:
                raise PassFailure(f"Expected output {cluster_index} of the cluster to be mapped to "
                                  f"logical core {core}", self.op)
            position = core_outputs[core].index(cluster_index)
            old.replace_all_uses_with(region_outputs[cluster_idx + core][position])


class _Tile:
    """Where a tile of a tiled operand goes until the operand is split."""
    __slots__ = ("operand", "position")

    def __init__(self, operand, position):
        self.operand, self.position = operand, position


def _append(op, block):
    """Moves `op` to the end of `block`."""
    ops = list(block.operations)
    if ops:
        op.move_after(ops[-1].operation)
    else:
        # An empty block: insert through a temporary anchor.
        anchor = ir.Operation.create("tf.NoOp", loc=op.location, ip=ir.InsertionPoint(block))
        op.move_before(anchor)
        anchor.erase()


def _region_outputs(parallel_execute):
    """The values each region of `parallel_execute` returns, as slices of its results
    (TF's ``GetRegionOutputs``)."""
    out = []
    start = 0
    results = list(parallel_execute.results)
    for region in parallel_execute.regions:
        ops = list(region.blocks[0].operations)
        count = len(ops[-1].operation.operands) if ops else 0
        out.append(results[start:start + count])
        start += count
    return out


def _pre_order(op):
    found = []

    def visit(nested):
        found.append(nested.operation)
        return ir.WalkResult.ADVANCE

    op.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found[1:]


def _data_type(mlir_type):
    """TF's ``ConvertToDataType`` of an operand type (tensors only), or None."""
    if not isinstance(mlir_type, (ir.RankedTensorType, ir.UnrankedTensorType)):
        return None
    return tf_types.dtype_of_element(str(ir.ShapedType(mlir_type).element_type))


def _sharding_to_proto(sharding, message):
    """Fills an ``xla.OpSharding`` message from a decoded human-readable sharding."""
    message.type = sharding.type
    message.tile_assignment_dimensions.extend(sharding.tile_assignment_dimensions)
    message.tile_assignment_devices.extend(sharding.tile_assignment_devices)
    message.replicate_on_last_tile_dim = sharding.replicate_on_last_tile_dim
    message.last_tile_dims.extend(sharding.last_tile_dims)
    message.iota_reshape_dims.extend(sharding.iota_reshape_dims)
    message.iota_transpose_perm.extend(sharding.iota_transpose_perm)
    if sharding.type == xla_protos.SHARDING_MAXIMAL and not sharding.tile_assignment_dimensions:
        message.tile_assignment_dimensions.append(1)
    for element in sharding.tuple_shardings:
        _sharding_to_proto(element, message.tuple_shardings.add())


def _build_parallel_execute(cluster_func):
    """Wraps `cluster_func` in a one-region ``tf_device.parallel_execute`` (TF's
    ``BuildParallelExecuteOp``)."""
    loc = cluster_func.location
    pe = ir.Operation.create(PARALLEL_EXECUTE, results=[r.type for r in cluster_func.results],
                             regions=1, loc=loc, ip=ir.InsertionPoint(cluster_func))
    for old, new in zip(cluster_func.results, pe.results):
        old.replace_all_uses_with(new)
    block = pe.regions[0].blocks.append()
    terminator = tf_device.ReturnOp(list(cluster_func.results), loc=loc,
                                     ip=ir.InsertionPoint(block))
    cluster_func.move_before(terminator)
    return pe


def _check_non_cluster_regions(pe):
    pre = post = clusters = 0
    for region in pe.regions:
        if region.blocks[0].operations[0].operation.name == LAUNCH_FUNC:
            if clusters == 0:
                pre += 1
            else:
                post += 1
        else:
            clusters += 1
    if post > 0 or pre > 2:
        raise PassFailure("contains invalid number of non TPU Process", pe)


def _num_results_pre_cluster(pe):
    count = 0
    for region in pe.regions:
        first = region.blocks[0].operations[0].operation
        if first.name == LAUNCH:
            count = len(first.results)
    return count


def _execute_outputs(pe, cluster_func):
    """The results of `pe` that come from the region holding `cluster_func`."""
    outputs = _region_outputs(pe)
    for region, values in zip(pe.regions, outputs):
        if region.blocks[0] == cluster_func.operation.block:
            return values
    return []


def _old_pe_result(pe, cluster_func, index):
    outputs = _execute_outputs(pe, cluster_func)
    return outputs[index]


def _assign_devices_to_replicate(replicate, tpu):
    num_cores = len(tpu[0])
    entries = {}
    for core in range(num_cores):
        entries[replicated_core_alias(core)] = ir.ArrayAttr.get(
            [ir.StringAttr.get(row[core][0]) for row in tpu])
        entries[replicated_host_alias(core)] = ir.ArrayAttr.get(
            [ir.StringAttr.get(row[core][1]) for row in tpu])
    replicate.attributes["devices"] = ir.DictAttr.get(entries)


def _erase_cluster_func(cluster_func):
    """TF's ``EraseClusterFuncs`` for one rewritten cluster_func."""
    pe = enclosing_op(cluster_func, PARALLEL_EXECUTE)
    if pe is None:
        raise PassFailure(f"the parent of '{CLUSTER_FUNC}' is not a '{PARALLEL_EXECUTE}'", cluster_func)
    for result in _execute_outputs(pe, cluster_func):
        for use in list(result.uses):
            if use.owner.name == PARTITIONED_OUTPUT_V2:
                erase_op(use.owner)
    partitioned_inputs = []
    for operand in cluster_func.operands:
        owner = operand.owner
        if not isinstance(owner, ir.Block) and owner.name == PARTITIONED_INPUT_V2 \
                and len(list(operand.uses)) == 1:
            partitioned_inputs.append(owner)
    for index, result in enumerate(pe.results):
        if len(list(result.uses)):
            raise PassFailure(f"Use of parallel execute op '{PARALLEL_EXECUTE}' is not empty.", pe)
    pe.erase()
    for owner in partitioned_inputs:
        erase_op(owner)
