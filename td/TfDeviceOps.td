//===- TfDeviceOps.td - the tf_device dialect -------------*- tablegen -*-===//
//
// Device placement and clustering: regions that run on a device (launch),
// clusters to compile (cluster / cluster_func), replication (replicate),
// parallel execution and host-to-host send/receive. Printed forms follow
// TF 2.21: launch/cluster/parallel_execute/cluster_func/launch_func print
// generically; replicate, return, remote_run, send, receive have custom forms.
//
//===----------------------------------------------------------------------===//
#ifndef TFMLIR_TF_DEVICE_OPS_TD
#define TFMLIR_TF_DEVICE_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TfDevice_Dialect : Dialect {
  let name = "tf_device";
  let cppNamespace = "::tfmlir::tf_device";
  let summary = "TensorFlow device placement, clustering and replication";
}

class TfDevice_Op<string mnemonic, list<Trait> traits = []>
    : Op<TfDevice_Dialect, mnemonic, traits>;

def TfDevice_LaunchOp : TfDevice_Op<"launch",
    [SingleBlockImplicitTerminator<"ReturnOp">]> {
  let summary = "runs its region on the device named by `device`";
  let arguments = (ins StrAttr:$device);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let extraClassDeclaration = [{
    ::mlir::Block &GetBody() { return getBody().front(); }
    bool WrapsSingleOp();
  }];
}

def TfDevice_ReturnOp : TfDevice_Op<"return",
    [Terminator, ReturnLike, Pure]> {
  let summary = "terminates the regions of tf_device ops";
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::ValueRange{}); }]>];
}

def TfDevice_LaunchFuncOp : TfDevice_Op<"launch_func"> {
  let summary = "calls `func` on the device named by `device`";
  let arguments = (ins StrAttr:$device, FlatSymbolRefAttr:$func,
                   Variadic<AnyType>:$args);
  let results = (outs Variadic<AnyType>:$results);
}

def TfDevice_ParallelExecuteOp : TfDevice_Op<"parallel_execute",
    [SingleBlockImplicitTerminator<"ReturnOp">]> {
  let summary = "runs each of its regions concurrently";
  let description = [{
    Results are the concatenation of each region's `tf_device.return`
    operands, in region order.
  }];
  let results = (outs Variadic<AnyType>:$execute_outputs);
  let regions = (region VariadicRegion<SizedRegion<1>>:$regions);
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Block &GetRegionBlockWithIndex(unsigned index) {
      return getRegions()[index].front();
    }
    /// The results of this op that region `index` produces.
    ::mlir::Operation::result_range GetRegionOutputs(unsigned index);
  }];
}

def TfDevice_ReplicateOp : TfDevice_Op<"replicate",
    [SingleBlockImplicitTerminator<"ReturnOp">, AttrSizedOperandSegments]> {
  let summary = "replicates its region n times";
  let description = [{
    `([%a, %b] as %x: T, %p as %y: T)`: each bracketed list has one value per
    replica and binds a block argument; a single value is packed (the same
    for every replica). Results are grouped per returned value: result
    `i * n + r` is value `i` of replica `r`.
  }];
  let arguments = (ins Variadic<AnyType>:$replicated_inputs,
                   Variadic<AnyType>:$packed_inputs,
                   OptionalAttr<DictionaryAttr>:$devices,
                   ConfinedAttr<I32Attr, [IntMinValue<2>]>:$n);
  let results = (outs Variadic<AnyType>:$replicated_outputs);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Block &GetBody() { return getBody().front(); }
    unsigned GetNumReplicatedBlockArguments();
    unsigned GetNumPackedBlockArguments();
  }];
}

def TfDevice_ClusterOp : TfDevice_Op<"cluster",
    [SingleBlockImplicitTerminator<"ReturnOp">]> {
  let summary = "a region to be compiled and run as one unit (e.g. by XLA)";
  let arguments = (ins OptionalAttr<StrAttr>:$policy);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let extraClassDeclaration = [{
    ::mlir::Block &GetBody() { return getBody().front(); }
  }];
}

def TfDevice_ClusterFuncOp : TfDevice_Op<"cluster_func",
    [DeclareOpInterfaceMethods<CallOpInterface>,
     DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "calls `func` as an outlined cluster";
  let arguments = (ins FlatSymbolRefAttr:$func, Variadic<AnyType>:$args);
  let results = (outs Variadic<AnyType>:$results);
  // The call carries no per-argument attributes.
  let extraClassDeclaration = [{
    ::mlir::ArrayAttr getArgAttrsAttr() { return nullptr; }
    ::mlir::ArrayAttr getResAttrsAttr() { return nullptr; }
    void setArgAttrsAttr(::mlir::ArrayAttr) {}
    void setResAttrsAttr(::mlir::ArrayAttr) {}
    ::mlir::Attribute removeArgAttrsAttr() { return nullptr; }
    ::mlir::Attribute removeResAttrsAttr() { return nullptr; }
  }];
}

def TfDevice_RemoteRunOp : TfDevice_Op<"remote_run"> {
  let summary = "runs `callee` on the remote `host`";
  let arguments = (ins StrAttr:$host, FlatSymbolRefAttr:$callee,
                   Variadic<AnyType>:$callee_args);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $host $callee `(` $callee_args `)` attr-dict `:` functional-type($callee_args, $results)
  }];
}

def TfDevice_SendOp : TfDevice_Op<"send"> {
  let summary = "sends `value` under `key` to `dst_host`";
  let arguments = (ins AnyType:$value, StrAttr:$key, StrAttr:$dst_host);
  let assemblyFormat = "$value $key $dst_host attr-dict `:` type($value)";
}

def TfDevice_ReceiveOp : TfDevice_Op<"receive"> {
  let summary = "receives the value sent under `key` from `src_host`";
  let arguments = (ins StrAttr:$key, StrAttr:$src_host);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$key $src_host attr-dict `:` type($result)";
}

#endif // TFMLIR_TF_DEVICE_OPS_TD
