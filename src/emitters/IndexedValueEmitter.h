//===- IndexedValueEmitter.h - Subgraphs as index functions -----*- C++ -*-===//
//
// Emits each subgraph of a partitioned fusion as
//
//   func.func private @name(%p0: tensor<..>, ..., %i0: index, ...) -> (elt..)
//
// computing the root's element at the given indices (XLA's "XLA:GPU Emitters", "Subgraph
// functions"): parameters are read with tensor.extract, other subgraphs
// with xla_gpu.pure_call, index transformations go through the indexing
// maps (xla_gpu.apply_indexing), and reduce, reduce-window and dot become
// serial scf.for loops. Reducers and mapped computations become scalar
// functions. Functions are emitted on demand: a subgraph's when something
// first calls it, so subgraphs an emitter computes otherwise (a reduction
// hero) cost nothing. Epilogues (partitioner) are functions of the root's
// indices and the hero's value:
//
//   func.func private @f__epilogue__r(%p0, ..., %i0, ..., %hero) -> (elt..)
//
// This is what XLA calls the elemental emitter: it emits an instruction's
// value at given output indices, over the indexing maps. One elementwise op
// on scalars is the ScalarOpEmitter's (ScalarOpEmitter.h).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_INDEXEDVALUEEMITTER_H
#define HLO_EMITTERS_INDEXEDVALUEEMITTER_H

#include "emitters/EmissionError.h"
#include "emitters/SourceLocations.h"
#include "emitters/SymbolNamer.h"
#include "partitioner/ComputationPartitioner.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <map>
#include <string>

namespace hlo {

class IndexedValueEmitter {
public:
  IndexedValueEmitter(mlir::ModuleOp module,
                      const PartitionedComputation &partitioned,
                      SymbolNamer &namer, const SourceLocations &locations)
      : module(module), partitioned(partitioned), namer(namer),
        locations(locations) {}

  /// The function of `subgraph` (or epilogue), declared on first use; its
  /// body follows in emitPendingFunctions().
  mlir::func::FuncOp functionFor(const Subgraph &subgraph);
  /// Calls the function of `subgraph` (xla_gpu.pure_call) with the
  /// fusion's parameters and the element's indices.
  llvm::SmallVector<mlir::Value> callSubgraph(mlir::ImplicitLocOpBuilder &b,
                                              const Subgraph &subgraph,
                                              mlir::ValueRange parameters,
                                              mlir::ValueRange indices);
  /// Calls an epilogue with the root's indices and the hero's values.
  llvm::SmallVector<mlir::Value> callEpilogue(mlir::ImplicitLocOpBuilder &b,
                                              const Subgraph &epilogue,
                                              mlir::ValueRange parameters,
                                              mlir::ValueRange rootIndices,
                                              mlir::ValueRange heroValues);
  /// The value(s) of `instruction` at `indices`, in a kernel's entry
  /// function: a parameter's element, a constant, or a call of the
  /// subgraph it roots (an instruction rooting none is emitted in place).
  [[nodiscard]] llvm::Expected<llvm::SmallVector<mlir::Value>>
  emitValue(mlir::ImplicitLocOpBuilder &b, const HloInstruction &instruction,
            mlir::ValueRange parameters, mlir::ValueRange indices);
  /// The scalar function for a reducer / mapped computation, created once.
  [[nodiscard]] llvm::Expected<mlir::func::FuncOp>
  scalarFunction(const HloComputation &computation);
  /// Emits the bodies of the functions declared so far, and of those they
  /// call in turn.
  [[nodiscard]] llvm::Error emitPendingFunctions();
  /// Moves the functions emitted so far to the end of the module in a
  /// reader's order, whatever order they were needed in: subgraphs as the
  /// partition lists them, epilogues, then reducers and mapped functions.
  void moveFunctionsToEnd();

private:
  friend class FunctionBodyEmitter;
  [[nodiscard]] llvm::Error emitFunctionBody(const Subgraph &subgraph,
                                             mlir::func::FuncOp function);

  mlir::ModuleOp module;
  const PartitionedComputation &partitioned;
  SymbolNamer &namer;
  const SourceLocations &locations;
  std::map<const Subgraph *, mlir::func::FuncOp> functions;
  std::vector<const Subgraph *> pending;
  std::map<const HloComputation *, mlir::func::FuncOp> scalarFunctions;
  std::vector<mlir::func::FuncOp> scalarFunctionOrder;
};

/// Element types of an instruction's result (one per tuple element).
llvm::SmallVector<mlir::Type> elementTypesOf(const Shape &shape,
                                             mlir::MLIRContext *context);

} // namespace hlo

#endif // HLO_EMITTERS_INDEXEDVALUEEMITTER_H
