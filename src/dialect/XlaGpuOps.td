//===- XlaGpuOps.td - Operations of the emitters' dialect --*- tablegen -*-===//
#ifndef HLO_DIALECT_XLAGPUOPS_TD
#define HLO_DIALECT_XLAGPUOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "XlaGpuAttrs.td"

class XlaGpu_Op<string mnemonic, list<Trait> traits = []>
    : Op<XlaGpuDialect, mnemonic, traits>;

def XlaGpu_ApplyIndexingOp : XlaGpu_Op<"apply_indexing", [Pure]> {
  let summary = "Evaluates an indexing map";
  let description = [{
    Applies the map to dimension and symbol values; the results are the
    map's results. Points outside the map's domain give unspecified values.

      %r:2 = xla_gpu.apply_indexing #map(%d0, %d1)[%s0]
  }];
  let arguments = (ins Variadic<Index>:$operands,
                       XlaGpu_IndexingMapAttr:$indexing_map);
  let results = (outs Variadic<Index>:$results);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def XlaGpu_PureCallOp : XlaGpu_Op<"pure_call",
    [Pure, CallOpInterface, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "A call without side effects";
  let description = [{
    Calls a subgraph function. The callee only reads its tensor arguments,
    so the call may be removed, reordered, or inlined.
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<AnyType>:$operands,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<AnyType>);
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
  let extraClassDeclaration = [{
    ::mlir::CallInterfaceCallable getCallableForCallee() {
      return getCalleeAttr();
    }
    void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {
      setCalleeAttr(::llvm::cast<::mlir::FlatSymbolRefAttr>(
          ::llvm::cast<::mlir::SymbolRefAttr>(callee)));
    }
    ::mlir::Operation::operand_range getArgOperands() { return getOperands(); }
    ::mlir::MutableOperandRange getArgOperandsMutable() {
      return getOperandsMutable();
    }
  }];
}

def XlaGpu_YieldOp : XlaGpu_Op<"yield",
    [Pure, Terminator, ReturnLike, ParentOneOf<["LoopOp"]>]> {
  let summary = "Ends a loop body, passing the iteration values on";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
  let builders = [OpBuilder<(ins), [{ /* no values */ }]>];
}

def XlaGpu_LoopOp : XlaGpu_Op<"loop", [
    AttrSizedOperandSegments, RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "A loop nest over the domain of an indexing map";
  let description = [{
    Iterates over all values of the map's range variables, for the given
    dimension values, skipping points outside the domain; the body receives
    the range variables, the map's results and the iteration values:

      %r = xla_gpu.loop (%tid, %bid)[%i] -> (%x, %y) in #map
               iter_args(%acc = %init) -> (tensor<4x8xf32>) {
        ...
        xla_gpu.yield %next : tensor<4x8xf32>
      }
  }];
  let arguments = (ins Variadic<Index>:$dims,
                       XlaGpu_IndexingMapAttr:$indexing_map,
                       Variadic<AnyType>:$inits);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$region);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Block arguments: range variables, map results, iteration values.
    ::mlir::ValueRange getRangeVars();
    ::mlir::ValueRange getMapResults();
    ::mlir::ValueRange getIterArgs();
  }];
}

#endif // HLO_DIALECT_XLAGPUOPS_TD
