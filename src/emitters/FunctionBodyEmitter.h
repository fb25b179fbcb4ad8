//===- FunctionBodyEmitter.h - Body of one index function -------*- C++ -*-===//
//
// Internal to the IndexedValueEmitter (IndexedValueEmitter.cpp and
// FunctionBodyEmitter.cpp): FunctionBodyEmitter evaluates the instructions
// of one function (a subgraph, an epilogue, a reducer or an entry
// function's in-place values) at symbolic indices.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_FUNCTIONBODYEMITTER_H
#define HLO_EMITTERS_FUNCTIONBODYEMITTER_H

#include "analysis/OpIndexing.h"
#include "emitters/IndexedValueEmitter.h"
#include "emitters/StartIndices.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace hlo {

/// Emits the body of one function: instructions evaluated at indices.
class FunctionBodyEmitter {
public:
  FunctionBodyEmitter(IndexedValueEmitter &parent,
                      mlir::ImplicitLocOpBuilder &b, const Subgraph *subgraph,
                      mlir::ValueRange parameters, bool scalarParameters,
                      mlir::ValueRange injectedValues = {})
      : parent(parent), b(b), subgraph(subgraph), parameters(parameters),
        scalarParameters(scalarParameters), injectedValues(injectedValues) {}

  /// The element(s) of `inst` at `indices`; empty on error.
  llvm::SmallVector<mlir::Value> emit(const HloInstruction *inst,
                                      mlir::ValueRange indices);
  /// emit() with the builder already at `inst`'s location.
  llvm::SmallVector<mlir::Value> emitAt(const HloInstruction *inst,
                                        mlir::ValueRange indices);

  /// What the emission recorded: its first failure (or, where a scalar
  /// function it called failed, that function's). Taken once, after the
  /// last emit().
  [[nodiscard]] llvm::Error takeError() { return std::move(error); }

private:
  llvm::Error error = llvm::Error::success();

  struct CacheKey {
    const HloInstruction *inst;
    mlir::Block *block;
    llvm::SmallVector<mlir::Value> indices;
    bool operator<(const CacheKey &other) const {
      if (inst != other.inst)
        return inst < other.inst;
      if (block != other.block)
        return block < other.block;
      return std::lexicographical_compare(
          indices.begin(), indices.end(), other.indices.begin(),
          other.indices.end(), [](mlir::Value a, mlir::Value c) {
            return a.getAsOpaquePointer() < c.getAsOpaquePointer();
          });
    }
  };
  std::map<CacheKey, llvm::SmallVector<mlir::Value>> cache;
  llvm::SmallVector<mlir::Value> emitUncached(const HloInstruction *inst,
                                              mlir::ValueRange indices);
  /// Records a failure at `inst` unless one was recorded before.
  bool fail(const HloInstruction *inst, std::string message) {
    if (!error)
      error = emissionError(inst, std::move(message));
    return false;
  }
  /// The output-to-input maps of `inst`'s output 0; nullopt after
  /// reporting an op without indexing rules.
  std::optional<IndexingMapSets> indexingOf(const HloInstruction *inst) {
    llvm::Expected<IndexingMapSets> maps =
        computeOutputToInputIndexing(*inst, 0, b.getContext());
    if (!maps) {
      fail(inst, "unsupported: " + std::string(opcodeName(inst->opcode())) +
                     " (" + llvm::toString(maps.takeError()) + ")");
      return std::nullopt;
    }
    return std::move(*maps);
  }
  llvm::SmallVector<mlir::Value> emitOwned(const HloInstruction *inst,
                                           mlir::ValueRange indices);
  llvm::SmallVector<mlir::Value> applyMap(const IndexingMap &map,
                                          mlir::ValueRange dims,
                                          mlir::ValueRange symbols = {});
  mlir::Value indexConstant(int64_t value) {
    return mlir::arith::ConstantIndexOp::create(b, value);
  }
  mlir::Value toIndex(mlir::Value scalar) {
    if (scalar.getType().isIndex())
      return scalar;
    return mlir::arith::IndexCastOp::create(b, b.getIndexType(), scalar);
  }
  mlir::Value inBounds(mlir::Value index, int64_t lower, int64_t upper) {
    mlir::Value low = mlir::arith::CmpIOp::create(
        b, mlir::arith::CmpIPredicate::sge, index, indexConstant(lower));
    mlir::Value high = mlir::arith::CmpIOp::create(
        b, mlir::arith::CmpIPredicate::sle, index, indexConstant(upper));
    return mlir::arith::AndIOp::create(b, low, high);
  }
  /// The scalar operands [first, first + count) of `inst` (init values);
  /// fewer on failure.
  llvm::SmallVector<mlir::Value>
  emitScalarOperands(const HloInstruction *inst, int64_t first, int64_t count) {
    llvm::SmallVector<mlir::Value> values;
    for (int64_t i = first; i < first + count; ++i) {
      llvm::SmallVector<mlir::Value> value = emit(inst->operand(i), {});
      if (value.empty())
        break;
      values.push_back(value[0]);
    }
    return values;
  }
  /// A runtime start offset of HLO type `type` as an index clamped to
  /// [0, maxStart], HLO's rule for dynamic-slice, dynamic-update-slice and
  /// gather starts (clamped in the start's own width: StartIndices.h).
  mlir::Value clampedStart(mlir::Value start, PrimitiveType type,
                           int64_t maxStart) {
    return clampStartToIndex(b, start, type, maxStart);
  }
  /// Runs `thenValues` / `elseValues` under `condition` (scf.if).
  llvm::SmallVector<mlir::Value>
  emitIf(mlir::Value condition, mlir::TypeRange types,
         const std::function<llvm::SmallVector<mlir::Value>()> &thenValues,
         const std::function<llvm::SmallVector<mlir::Value>()> &elseValues);
  llvm::SmallVector<mlir::Value> emitThroughMap(const HloInstruction *inst,
                                                mlir::ValueRange indices);
  llvm::SmallVector<mlir::Value> emitPad(const HloInstruction *inst,
                                         mlir::ValueRange indices);
  llvm::SmallVector<mlir::Value> emitConcatenate(const HloInstruction *inst,
                                                 mlir::ValueRange indices);
  llvm::SmallVector<mlir::Value> emitDynamicSlice(const HloInstruction *inst,
                                                  mlir::ValueRange indices);
  llvm::SmallVector<mlir::Value>
  emitDynamicUpdateSlice(const HloInstruction *inst, mlir::ValueRange indices);
  llvm::SmallVector<mlir::Value> emitIota(const HloInstruction *inst,
                                          mlir::ValueRange indices);
  llvm::SmallVector<mlir::Value> emitConstant(const HloInstruction *inst,
                                              mlir::ValueRange indices);
  llvm::SmallVector<mlir::Value> emitReduce(const HloInstruction *inst,
                                            mlir::ValueRange indices);
  llvm::SmallVector<mlir::Value> emitReduceWindow(const HloInstruction *inst,
                                                  mlir::ValueRange indices);
  llvm::SmallVector<mlir::Value> emitDot(const HloInstruction *inst,
                                         mlir::ValueRange indices);
  llvm::SmallVector<mlir::Value> emitMap(const HloInstruction *inst,
                                         mlir::ValueRange indices);
  llvm::SmallVector<mlir::Value> emitGather(const HloInstruction *inst,
                                            mlir::ValueRange indices);
  llvm::SmallVector<mlir::Value>
  emitWidthChangingBitcast(const HloInstruction *inst,
                           mlir::ValueRange indices);
  /// Nested scf.for loops over `bounds` with `inits`; `body` gets the
  /// induction variables and the carried values and returns the new ones.
  llvm::SmallVector<mlir::Value>
  emitLoopNest(llvm::ArrayRef<int64_t> bounds, mlir::ValueRange inits,
               const std::function<llvm::SmallVector<mlir::Value>(
                   mlir::ValueRange, mlir::ValueRange)> &body);
  llvm::SmallVector<mlir::Value> callScalar(const HloComputation &computation,
                                            mlir::ValueRange arguments,
                                            const HloInstruction *user);

  IndexedValueEmitter &parent;
  mlir::ImplicitLocOpBuilder &b;
  /// The scope whose members are emitted here (a subgraph or an
  /// epilogue); null in an entry function, where only what roots no
  /// subgraph is emitted in place.
  const Subgraph *subgraph;
  mlir::ValueRange parameters;
  bool scalarParameters;
  /// An epilogue's hero values.
  mlir::ValueRange injectedValues;
};

} // namespace hlo

#endif // HLO_EMITTERS_FUNCTIONBODYEMITTER_H
