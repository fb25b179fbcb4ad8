//===- ElementalEmitter.h - Subgraphs as functions of indices ---*- C++ -*-===//
//
// Emits each subgraph of a partitioned fusion as
//
//   func.func private @name(%p0: tensor<..>, ..., %i0: index, ...) -> (elt..)
//
// computing the root's element at the given indices (seed 004, "Subgraph
// functions"): parameters are read with tensor.extract, other subgraphs
// with xla_gpu.pure_call, index transformations go through the indexing
// maps (xla_gpu.apply_indexing), and reduce, reduce-window and dot become
// serial scf.for loops. Reducers and mapped computations become scalar
// functions.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_ELEMENTALEMITTER_H
#define HLO_EMITTERS_ELEMENTALEMITTER_H

#include "emitters/SourceLocations.h"
#include "emitters/SymbolNamer.h"
#include "partitioner/ComputationPartitioner.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <map>
#include <string>

namespace hlo {

/// Where emission failed.
struct EmissionError {
  const HloInstruction *instruction = nullptr;
  std::string message;
};

class ElementalEmitter {
public:
  ElementalEmitter(mlir::ModuleOp module, const PartitionedComputation &partitioned,
                   SymbolNamer &namer, const SourceLocations &locations)
      : module(module), partitioned(partitioned), namer(namer), locations(locations) {}

  /// Emits every subgraph function (and the scalar functions they call).
  bool emitSubgraphFunctions(EmissionError &error);
  /// The function emitted for `subgraph`.
  mlir::func::FuncOp functionFor(const Subgraph &subgraph) const {
    return functions.at(&subgraph);
  }
  /// Calls the function of `subgraph` (xla_gpu.pure_call) with the
  /// fusion's parameters and the element's indices.
  llvm::SmallVector<mlir::Value> callSubgraph(mlir::ImplicitLocOpBuilder &b,
                                              const Subgraph &subgraph,
                                              mlir::ValueRange parameters,
                                              mlir::ValueRange indices) const;

private:
  friend class FunctionBodyEmitter;
  /// The scalar function for a reducer / mapped computation, created once.
  mlir::func::FuncOp scalarFunction(const HloComputation &computation,
                                    EmissionError &error);

  mlir::ModuleOp module;
  const PartitionedComputation &partitioned;
  SymbolNamer &namer;
  const SourceLocations &locations;
  std::map<const Subgraph *, mlir::func::FuncOp> functions;
  std::map<const HloComputation *, mlir::func::FuncOp> scalarFunctions;
};

/// Element types of an instruction's result (one per tuple element).
llvm::SmallVector<mlir::Type> elementTypesOf(const Shape &shape,
                                             mlir::MLIRContext *context);

} // namespace hlo

#endif // HLO_EMITTERS_ELEMENTALEMITTER_H
