//===- FunctionBodyEmitter.cpp - Instructions at indices ------------------===//
//
// FunctionBodyEmitter's member functions: the per-instruction dispatch
// (emit, emitOwned) with its cache of emitted values, the building blocks
// (indexing maps, scf.if, loop nests, scalar calls) and the per-opcode
// emitters: gather, pad, concatenate, dynamic-slice, dynamic-update-slice,
// iota, constant, reduce, reduce-window, dot, map and width-changing
// bitcast; the other ops go through their indexing maps or, elementwise,
// through the ScalarOpEmitter.
//
//===----------------------------------------------------------------------===//
#include "emitters/FunctionBodyEmitter.h"

#include "dialect/XlaGpuDialect.h"
#include "emitters/ScalarOpEmitter.h"
#include "emitters/TypeConversion.h"
#include "hlo_parser/OpAttributes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cctype>

using namespace mlir;

namespace hlo {

SmallVector<Value> FunctionBodyEmitter::applyMap(const IndexingMap &map,
                                                 ValueRange dims,
                                                 ValueRange symbols) {
  AffineMap affine = map.getAffineMap();
  if (affine.getNumResults() == 0)
    return {};
  if (symbols.empty() && affine.isIdentity() && map.getSymbolCount() == 0)
    return SmallVector<Value>(dims.begin(), dims.end());
  SmallVector<Value> operands(dims.begin(), dims.end());
  operands.append(symbols.begin(), symbols.end());
  SmallVector<Type> types(affine.getNumResults(), b.getIndexType());
  auto op = xla_gpu::ApplyIndexingOp::create(
      b, types, operands, xla_gpu::IndexingMapAttr::get(b.getContext(), map));
  return SmallVector<Value>(op.getResults().begin(), op.getResults().end());
}

SmallVector<Value> FunctionBodyEmitter::emitIf(
    Value condition, TypeRange types,
    const std::function<SmallVector<Value>()> &thenValues,
    const std::function<SmallVector<Value>()> &elseValues) {
  auto ifOp = scf::IfOp::create(b, types, condition, /*withElse=*/true);
  bool ok = true;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    SmallVector<Value> values = thenValues();
    ok &= values.size() == types.size();
    scf::YieldOp::create(b, values);
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    values = elseValues();
    ok &= values.size() == types.size();
    scf::YieldOp::create(b, values);
  }
  if (!ok)
    return {};
  return SmallVector<Value>(ifOp.getResults().begin(), ifOp.getResults().end());
}

SmallVector<Value> FunctionBodyEmitter::emitLoopNest(
    ArrayRef<int64_t> bounds, ValueRange inits,
    const std::function<SmallVector<Value>(ValueRange, ValueRange)> &body) {
  SmallVector<Value> ivs;
  std::function<SmallVector<Value>(size_t, ValueRange)> nest =
      [&](size_t level, ValueRange carried) -> SmallVector<Value> {
    if (level == bounds.size())
      return body(ivs, carried);
    auto loop = scf::ForOp::create(b, indexConstant(0), indexConstant(bounds[level]),
                                   indexConstant(1), carried);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    ivs.push_back(loop.getInductionVar());
    SmallVector<Value> next = nest(level + 1, loop.getRegionIterArgs());
    ivs.pop_back();
    if (next.size() != carried.size())
      return {};
    scf::YieldOp::create(b, next);
    return SmallVector<Value>(loop.getResults().begin(), loop.getResults().end());
  };
  return nest(0, inits);
}

SmallVector<Value> FunctionBodyEmitter::callScalar(const HloComputation &computation,
                                                   ValueRange arguments,
                                                   const HloInstruction *user) {
  if (computation.isDeclaration()) {
    fail(user, "computation '" + computation.name() + "' is not defined");
    return {};
  }
  llvm::Expected<func::FuncOp> function = parent.scalarFunction(computation);
  if (!function) {
    // A scalar function's failure replaces what was recorded before.
    llvm::consumeError(std::move(error));
    error = function.takeError();
    return {};
  }
  // A pure call: equal calls merge (CSE), and so do the loops and branches
  // that hold them (a reduce-window read twice at the same index), which a
  // func.call, with unknown effects, would keep apart.
  auto call = xla_gpu::PureCallOp::create(b, *function, arguments);
  return SmallVector<Value>(call.getResults().begin(), call.getResults().end());
}

SmallVector<Value> FunctionBodyEmitter::emit(const HloInstruction *inst,
                                             ValueRange indices) {
  // The ops built for `inst` carry its place in the HLO text.
  Location outer = b.getLoc();
  b.setLoc(parent.locations.of(inst));
  SmallVector<Value> values = emitAt(inst, indices);
  b.setLoc(outer);
  return values;
}

SmallVector<Value> FunctionBodyEmitter::emitAt(const HloInstruction *inst,
                                               ValueRange indices) {
  // An instruction read twice at the same indices in the same block is
  // emitted once.
  CacheKey key{inst, b.getInsertionBlock(),
               SmallVector<Value>(indices.begin(), indices.end())};
  auto cached = cache.find(key);
  if (cached != cache.end())
    return cached->second;
  SmallVector<Value> values = emitUncached(inst, indices);
  if (!values.empty())
    cache[key] = values;
  return values;
}

SmallVector<Value> FunctionBodyEmitter::emitUncached(const HloInstruction *inst,
                                                     ValueRange indices) {
  if (subgraph && subgraph->injected == inst)
    return SmallVector<Value>(injectedValues.begin(), injectedValues.end());
  if (inst->opcode() == HloOpcode::Parameter) {
    Value parameter = parameters[inst->parameterNumber()];
    if (scalarParameters)
      return {parameter};
    return {tensor::ExtractOp::create(b, parameter, bufferIndices(inst->shape(), indices))};
  }
  if (inst->opcode() == HloOpcode::Constant)
    return emitConstant(inst, indices);
  const Subgraph *owner = parent.partitioned.subgraphOf(inst);
  bool inScope = subgraph && subgraph->contains(inst);
  if (!inScope && owner && owner->root == inst) {
    // Another subgraph's value: call its function.
    return parent.callSubgraph(b, *owner, parameters, indices);
  }
  return emitOwned(inst, indices);
}

SmallVector<Value> FunctionBodyEmitter::emitOwned(const HloInstruction *inst,
                                                  ValueRange indices) {
  HloOpcode opcode = inst->opcode();
  switch (opcode) {
  case HloOpcode::Broadcast:
  case HloOpcode::Transpose:
  case HloOpcode::Reshape:
  case HloOpcode::Bitcast:
  case HloOpcode::Slice:
  case HloOpcode::Reverse:
  case HloOpcode::Copy:
  case HloOpcode::OptimizationBarrier:
    return emitThroughMap(inst, indices);
  case HloOpcode::Pad:
    return emitPad(inst, indices);
  case HloOpcode::Concatenate:
    return emitConcatenate(inst, indices);
  case HloOpcode::DynamicSlice:
    return emitDynamicSlice(inst, indices);
  case HloOpcode::DynamicUpdateSlice:
    return emitDynamicUpdateSlice(inst, indices);
  case HloOpcode::Iota:
    return emitIota(inst, indices);
  case HloOpcode::Reduce:
    return emitReduce(inst, indices);
  case HloOpcode::ReduceWindow:
    return emitReduceWindow(inst, indices);
  case HloOpcode::Dot:
    return emitDot(inst, indices);
  case HloOpcode::Map:
    return emitMap(inst, indices);
  case HloOpcode::Gather:
    return emitGather(inst, indices);
  case HloOpcode::BitcastConvert:
    if (primitiveBitWidth(inst->shape().elementType()) !=
        primitiveBitWidth(inst->operand(0)->shape().elementType()))
      return emitWidthChangingBitcast(inst, indices);
    break;
  case HloOpcode::GetTupleElement: {
    const HloInstruction *producer = inst->operand(0);
    if (producer->opcode() == HloOpcode::Tuple)
      return emit(producer->operand(tupleIndex(*inst)), indices);
    SmallVector<Value> values = emit(producer, indices);
    int64_t index = tupleIndex(*inst);
    if (values.empty() || index >= static_cast<int64_t>(values.size()))
      return {};
    return {values[index]};
  }
  default:
    break;
  }
  if (!isElementwiseOpcode(opcode) || inst->shape().isTuple()) {
    fail(inst, "unsupported: " + std::string(opcodeName(opcode)));
    return {};
  }
  SmallVector<Value> operands;
  for (const HloInstruction *operand : inst->operands()) {
    // Scalar operands of clamp / select are read without indices.
    bool scalar = operand->shape().rank() == 0 && inst->shape().rank() > 0;
    SmallVector<Value> values = emit(operand, scalar ? ValueRange() : indices);
    if (values.empty())
      return {};
    operands.push_back(values[0]);
  }
  llvm::Expected<Value> result = emitElementwise(b, *inst, operands);
  if (!result) {
    fail(inst, llvm::toString(result.takeError()));
    return {};
  }
  return {*result};
}

SmallVector<Value> FunctionBodyEmitter::emitThroughMap(const HloInstruction *inst,
                                                       ValueRange indices) {
  std::optional<IndexingMapSets> computed = indexingOf(inst);
  if (!computed)
    return {};
  IndexingMapSets &maps = *computed;
  if (maps[0].size() != 1 || maps[0][0].getSymbolCount() != 0) {
    fail(inst, "unsupported: " + std::string(opcodeName(inst->opcode())));
    return {};
  }
  SmallVector<Value> values =
      emit(inst->operand(0), applyMap(maps[0][0], indices));
  // A bitcast may reinterpret the element type (same width).
  Type type = elementType(inst->shape().elementType(), b.getContext());
  if (values.size() == 1 && values[0].getType() != type)
    values[0] = arith::BitcastOp::create(b, type, values[0]);
  return values;
}

SmallVector<Value>
FunctionBodyEmitter::emitWidthChangingBitcast(const HloInstruction *inst,
                                              ValueRange indices) {
  // The extra minor dimension walks the narrow elements in memory order
  // (little-endian: element k is bits [k * narrow, (k + 1) * narrow)).
  PrimitiveType fromType = inst->operand(0)->shape().elementType();
  PrimitiveType toType = inst->shape().elementType();
  int64_t fromBits = primitiveBitWidth(fromType);
  int64_t toBits = primitiveBitWidth(toType);
  if (isComplex(fromType) || isComplex(toType) ||
      fromType == PrimitiveType::Pred || toType == PrimitiveType::Pred) {
    fail(inst, "unsupported: bitcast-convert between " +
                   std::string(primitiveTypeName(fromType)) + " and " +
                   std::string(primitiveTypeName(toType)));
    return {};
  }
  Type wide = b.getIntegerType(std::max(fromBits, toBits));
  Type narrow = b.getIntegerType(std::min(fromBits, toBits));
  Type result = elementType(toType, b.getContext());
  auto asInt = [&](Value value, Type type) -> Value {
    return value.getType() == type ? value
                                   : Value(arith::BitcastOp::create(b, type, value));
  };
  if (fromBits > toBits) {
    // One wide element, one narrow piece of it.
    SmallVector<Value> source =
        emit(inst->operand(0), indices.drop_back());
    if (source.empty())
      return {};
    Value shift = arith::MulIOp::create(
        b, arith::IndexCastOp::create(b, wide, indices.back()),
        arith::ConstantOp::create(b, IntegerAttr::get(wide, toBits)));
    Value piece = arith::TruncIOp::create(
        b, narrow, arith::ShRUIOp::create(b, asInt(source[0], wide), shift));
    return {asInt(piece, result)};
  }
  // Narrow pieces assembled into one wide element.
  Value assembled = arith::ConstantOp::create(b, IntegerAttr::get(wide, 0));
  for (int64_t k = 0; k < toBits / fromBits; ++k) {
    SmallVector<Value> pieceIndices(indices.begin(), indices.end());
    pieceIndices.push_back(indexConstant(k));
    SmallVector<Value> piece = emit(inst->operand(0), pieceIndices);
    if (piece.empty())
      return {};
    Value extended = arith::ExtUIOp::create(b, wide, asInt(piece[0], narrow));
    Value shifted = arith::ShLIOp::create(
        b, extended, arith::ConstantOp::create(b, IntegerAttr::get(wide, k * fromBits)));
    assembled = arith::OrIOp::create(b, assembled, shifted);
  }
  return {asInt(assembled, result)};
}

SmallVector<Value> FunctionBodyEmitter::emitGather(const HloInstruction *inst,
                                                   ValueRange indices) {
  std::optional<IndexingMapSets> computed = indexingOf(inst);
  if (!computed)
    return {};
  const IndexingMapSets &maps = *computed;
  const IndexingMap &operandMap = maps[0][0];
  const IndexingMap &indicesMap = maps[1][0];
  const Shape &operand = inst->operand(0)->shape();
  GatherDimensionNumbers numbers = gatherDimensionNumbers(*inst);
  const std::vector<int64_t> &startIndexMap = numbers.startIndexMap;
  const std::vector<int64_t> &sliceSizes = numbers.sliceSizes;
  // Each runtime offset: the index vector's element k, clamped so that the
  // slice stays in bounds.
  SmallVector<Value> offsets;
  for (size_t k = 0; k < startIndexMap.size(); ++k) {
    SmallVector<Value> position = applyMap(
        indicesMap, indices,
        indicesMap.getRangeVarCount() ? ValueRange{indexConstant(k)} : ValueRange{});
    SmallVector<Value> start = emit(inst->operand(1), position);
    if (start.empty())
      return {};
    int64_t dim = startIndexMap[k];
    offsets.push_back(
        clampedStart(start[0], inst->operand(1)->shape().elementType(),
                     operand.dimension(dim) - sliceSizes[dim]));
  }
  return emit(inst->operand(0), applyMap(operandMap, indices, offsets));
}

SmallVector<Value> FunctionBodyEmitter::emitPad(const HloInstruction *inst,
                                                ValueRange indices) {
  std::optional<IndexingMapSets> computed = indexingOf(inst);
  if (!computed)
    return {};
  const IndexingMapSets &maps = *computed;
  const IndexingMap &map = maps[0][0];
  Type type = elementType(inst->shape().elementType(), b.getContext());
  if (map.isKnownEmpty())
    return emit(inst->operand(1), {});
  // In the operand's domain: dimension bounds and the interior constraints.
  Value condition = arith::ConstantIntOp::create(b, 1, 1);
  for (size_t d = 0; d < indices.size(); ++d) {
    const Interval &bounds = map.getDimVars()[d].bounds;
    condition = arith::AndIOp::create(
        b, condition, inBounds(indices[d], bounds.lower, bounds.upper));
  }
  for (const IndexingConstraint &constraint : map.getConstraints()) {
    IndexingMap check(AffineMap::get(map.getDimCount(), 0, {constraint.expr},
                                     b.getContext()),
                      map.getDimVars(), {}, {});
    Value value = applyMap(check, indices)[0];
    condition = arith::AndIOp::create(
        b, condition, inBounds(value, constraint.range.lower, constraint.range.upper));
  }
  return emitIf(
      condition, {type},
      [&]() { return emit(inst->operand(0), applyMap(map, indices)); },
      [&]() { return emit(inst->operand(1), {}); });
}

SmallVector<Value> FunctionBodyEmitter::emitConcatenate(const HloInstruction *inst,
                                                        ValueRange indices) {
  int64_t dim = inst->dimensions()[0];
  Type type = elementType(inst->shape().elementType(), b.getContext());
  std::function<SmallVector<Value>(int64_t, int64_t)> select =
      [&](int64_t operand, int64_t offset) -> SmallVector<Value> {
    auto read = [&, operand, offset]() {
      SmallVector<Value> operandIndices(indices.begin(), indices.end());
      if (offset)
        operandIndices[dim] = arith::SubIOp::create(b, indices[dim],
                                                    indexConstant(offset));
      return emit(inst->operand(operand), operandIndices);
    };
    if (operand + 1 == inst->operandCount())
      return read();
    int64_t end = offset + inst->operand(operand)->shape().dimension(dim);
    Value here = arith::CmpIOp::create(b, arith::CmpIPredicate::slt, indices[dim],
                                       indexConstant(end));
    return emitIf(here, {type}, read,
                  [&, operand, end]() { return select(operand + 1, end); });
  };
  return select(0, 0);
}

SmallVector<Value> FunctionBodyEmitter::emitDynamicSlice(const HloInstruction *inst,
                                                         ValueRange indices) {
  const Shape &operand = inst->operand(0)->shape();
  if (inst->operandCount() != operand.rank() + 1) {
    fail(inst, "unsupported: dynamic-slice with an index vector");
    return {};
  }
  SmallVector<Value> operandIndices;
  for (int64_t d = 0; d < operand.rank(); ++d) {
    SmallVector<Value> start = emit(inst->operand(d + 1), {});
    if (start.empty())
      return {};
    // Offsets are clamped so that the slice stays in bounds.
    Value offset = clampedStart(
        start[0], inst->operand(d + 1)->shape().elementType(),
        operand.dimension(d) - inst->shape().dimension(d));
    operandIndices.push_back(arith::AddIOp::create(b, indices[d], offset));
  }
  return emit(inst->operand(0), operandIndices);
}

SmallVector<Value>
FunctionBodyEmitter::emitDynamicUpdateSlice(const HloInstruction *inst,
                                            ValueRange indices) {
  const Shape &operand = inst->operand(0)->shape();
  const Shape &update = inst->operand(1)->shape();
  if (inst->operandCount() != operand.rank() + 2) {
    fail(inst, "unsupported: dynamic-update-slice with an index vector");
    return {};
  }
  Value inside = arith::ConstantIntOp::create(b, 1, 1);
  SmallVector<Value> updateIndices;
  for (int64_t d = 0; d < operand.rank(); ++d) {
    SmallVector<Value> start = emit(inst->operand(d + 2), {});
    if (start.empty())
      return {};
    Value offset =
        clampedStart(start[0], inst->operand(d + 2)->shape().elementType(),
                     operand.dimension(d) - update.dimension(d));
    Value relative = arith::SubIOp::create(b, indices[d], offset);
    inside = arith::AndIOp::create(b, inside,
                                   inBounds(relative, 0, update.dimension(d) - 1));
    updateIndices.push_back(relative);
  }
  Type type = elementType(inst->shape().elementType(), b.getContext());
  return emitIf(
      inside, {type}, [&]() { return emit(inst->operand(1), updateIndices); },
      [&]() { return emit(inst->operand(0), indices); });
}

SmallVector<Value> FunctionBodyEmitter::emitIota(const HloInstruction *inst,
                                                 ValueRange indices) {
  int64_t dim = iotaDimension(*inst);
  Value index = indices.empty() ? indexConstant(0) : indices[dim];
  Value asInt = arith::IndexCastOp::create(b, b.getI64Type(), index);
  return {emitConvert(b, asInt, PrimitiveType::S64, inst->shape().elementType())};
}

SmallVector<Value> FunctionBodyEmitter::emitConstant(const HloInstruction *inst,
                                                     ValueRange indices) {
  const Literal &literal = inst->literal();
  const Shape &shape = inst->shape();
  PrimitiveType type = shape.elementType();
  if (!shape.isArray()) {
    fail(inst, "unsupported: constant of type " + shape.toString(false));
    return {};
  }
  if (literal.isElided()) {
    fail(inst, "unsupported: elided constant {...} (its values are unknown)");
    return {};
  }
  auto scalarAt = [&](int64_t i) {
    if (isComplex(type))
      return ::hlo::emitConstant(b, type, literal.getComplex(i).real(), 0,
                                 literal.getComplex(i).imag());
    return ::hlo::emitConstant(b, type, literal.getAsDouble(i),
                               isIntegral(type) || type == PrimitiveType::Pred
                                   ? literal.getInt(i)
                                   : 0);
  };
  if (shape.rank() == 0 || shape.elementCount() == 1)
    return {scalarAt(0)};
  // Array constants: a dense tensor read at the indices.
  MLIRContext *context = b.getContext();
  RankedTensorType tensor = tensorType(shape, context);
  Type element = tensor.getElementType();
  DenseElementsAttr attr;
  if (type == PrimitiveType::C64) {
    std::vector<std::complex<float>> values;
    for (int64_t i = 0; i < literal.elementCount(); ++i)
      values.emplace_back(literal.getComplex(i));
    attr = DenseElementsAttr::get(tensor, llvm::ArrayRef(values));
  } else if (type == PrimitiveType::C128) {
    std::vector<std::complex<double>> values;
    for (int64_t i = 0; i < literal.elementCount(); ++i)
      values.push_back(literal.getComplex(i));
    attr = DenseElementsAttr::get(tensor, llvm::ArrayRef(values));
  } else {
    SmallVector<Attribute> values;
    for (int64_t i = 0; i < literal.elementCount(); ++i) {
      if (isFloatingPoint(type))
        values.push_back(FloatAttr::get(element, literal.getFloat(i)));
      else
        values.push_back(IntegerAttr::get(element, literal.getInt(i)));
    }
    attr = DenseElementsAttr::get(tensor, values);
  }
  Value dense = arith::ConstantOp::create(b, attr);
  return {tensor::ExtractOp::create(b, dense, indices)};
}

SmallVector<Value> FunctionBodyEmitter::emitReduce(const HloInstruction *inst,
                                                   ValueRange indices) {
  int64_t n = inst->operandCount() / 2;
  const Shape &input = inst->operand(0)->shape();
  const auto &reduced = inst->dimensions();
  std::vector<int64_t> sortedReduced(reduced.begin(), reduced.end());
  std::sort(sortedReduced.begin(), sortedReduced.end());
  SmallVector<Value> inits = emitScalarOperands(inst, n, n);
  if (static_cast<int64_t>(inits.size()) != n)
    return {};
  SmallVector<int64_t> bounds;
  for (int64_t d : sortedReduced)
    bounds.push_back(input.dimension(d));
  const HloComputation *reducer = toApply(*inst);
  auto inputIndicesOf = [&](ValueRange ivs) {
    SmallVector<Value> inputIndices;
    size_t kept = 0, loop = 0;
    for (int64_t d = 0; d < input.rank(); ++d)
      inputIndices.push_back(
          std::binary_search(sortedReduced.begin(), sortedReduced.end(), d)
              ? ivs[loop++]
              : indices[kept++]);
    return inputIndices;
  };
  // A sum of f16/bf16 in one thread accumulates in f32 and rounds once, as
  // the interpreter's sums do: summed in its own type, a long chain stalls
  // (4000 ones in f16 stop at 2048, fuzz seed 94146), where XLA, which
  // never sums in one thread so, adds short partial sums in a tree.
  PrimitiveType element = input.elementType();
  if (n == 1 && isParameterSum(reducer) &&
      (element == PrimitiveType::F16 || element == PrimitiveType::BF16)) {
    Type narrow = inits[0].getType(), wide = b.getF32Type();
    SmallVector<Value> wideInit = {arith::ExtFOp::create(b, wide, inits[0])};
    SmallVector<Value> sum =
        emitLoopNest(bounds, wideInit, [&](ValueRange ivs, ValueRange accumulators) {
          SmallVector<Value> value = emit(inst->operand(0), inputIndicesOf(ivs));
          if (value.empty())
            return SmallVector<Value>();
          Value term = arith::ExtFOp::create(b, wide, value[0]);
          return SmallVector<Value>{arith::AddFOp::create(b, accumulators[0], term)};
        });
    if (sum.empty())
      return {};
    return {arith::TruncFOp::create(b, narrow, sum[0])};
  }
  return emitLoopNest(bounds, inits, [&](ValueRange ivs, ValueRange accumulators) {
    SmallVector<Value> inputIndices = inputIndicesOf(ivs);
    SmallVector<Value> arguments(accumulators.begin(), accumulators.end());
    for (int64_t i = 0; i < n; ++i) {
      SmallVector<Value> value = emit(inst->operand(i), inputIndices);
      if (value.empty())
        return SmallVector<Value>();
      arguments.push_back(value[0]);
    }
    return callScalar(*reducer, arguments, inst);
  });
}

SmallVector<Value> FunctionBodyEmitter::emitReduceWindow(const HloInstruction *inst,
                                                         ValueRange indices) {
  int64_t n = inst->operandCount() / 2;
  const Shape &input = inst->operand(0)->shape();
  const std::vector<WindowDimension> &window = windowOf(*inst);
  SmallVector<Value> inits = emitScalarOperands(inst, n, n);
  if (static_cast<int64_t>(inits.size()) != n)
    return {};
  SmallVector<int64_t> bounds;
  for (int64_t d = 0; d < input.rank(); ++d)
    bounds.push_back(d < static_cast<int64_t>(window.size()) ? window[d].size : 1);
  const HloComputation *reducer = toApply(*inst);
  return emitLoopNest(bounds, inits, [&](ValueRange ivs, ValueRange accumulators) {
    // Position in the padded, base-dilated input; padding reads the init.
    Value valid = arith::ConstantIntOp::create(b, 1, 1);
    SmallVector<Value> inputIndices;
    for (int64_t d = 0; d < input.rank(); ++d) {
      WindowDimension w = d < static_cast<int64_t>(window.size()) ? window[d]
                                                                  : WindowDimension();
      Value position = arith::AddIOp::create(
          b, arith::MulIOp::create(b, indices[d], indexConstant(w.stride)),
          arith::MulIOp::create(b, ivs[d], indexConstant(w.windowDilation)));
      position = arith::SubIOp::create(b, position, indexConstant(w.padLow));
      valid = arith::AndIOp::create(
          b, valid, inBounds(position, 0, (input.dimension(d) - 1) * w.baseDilation));
      if (w.baseDilation > 1) {
        Value remainder = arith::RemSIOp::create(b, position, indexConstant(w.baseDilation));
        valid = arith::AndIOp::create(
            b, valid, arith::CmpIOp::create(b, arith::CmpIPredicate::eq, remainder,
                                            indexConstant(0)));
        position = arith::DivSIOp::create(b, position, indexConstant(w.baseDilation));
      }
      inputIndices.push_back(position);
    }
    SmallVector<Type> types;
    for (Value init : inits)
      types.push_back(init.getType());
    SmallVector<Value> values = emitIf(
        valid, types,
        [&]() {
          SmallVector<Value> read;
          for (int64_t i = 0; i < n; ++i) {
            SmallVector<Value> value = emit(inst->operand(i), inputIndices);
            if (value.empty())
              return SmallVector<Value>();
            read.push_back(value[0]);
          }
          return read;
        },
        [&]() { return SmallVector<Value>(inits.begin(), inits.end()); });
    if (values.empty())
      return SmallVector<Value>();
    SmallVector<Value> arguments(accumulators.begin(), accumulators.end());
    arguments.append(values);
    return callScalar(*reducer, arguments, inst);
  });
}

SmallVector<Value> FunctionBodyEmitter::emitDot(const HloInstruction *inst,
                                                ValueRange indices) {
  std::optional<IndexingMapSets> computed = indexingOf(inst);
  if (!computed)
    return {};
  const IndexingMapSets &maps = *computed;
  const IndexingMap &lhsMap = maps[0][0];
  const IndexingMap &rhsMap = maps[1][0];
  PrimitiveType resultType = inst->shape().elementType();
  if (resultType == PrimitiveType::Pred || isComplex(resultType)) {
    fail(inst, "unsupported: dot of " +
                   std::string(primitiveTypeName(resultType)));
    return {};
  }
  SmallVector<int64_t> bounds;
  for (const IndexingVar &var : lhsMap.getRangeVars())
    bounds.push_back(var.bounds.upper + 1);
  // Float results narrower than f32 accumulate in f32 and round once, as
  // tensor-core GEMMs, cuBLAS and XLA's normalized dots do (a step in bf16
  // would round every partial sum to 8 significand bits); hlo-run's bounds
  // take a dot's sums to err in f32's unit.
  bool smallFloat = isFloatingPoint(resultType) && primitiveBitWidth(resultType) < 32;
  PrimitiveType accumulatorType = smallFloat ? PrimitiveType::F32 : resultType;
  Value zero = ::hlo::emitConstant(b, accumulatorType, 0.0, 0);
  SmallVector<Value> sum =
      emitLoopNest(bounds, {zero}, [&](ValueRange ivs, ValueRange accumulator) {
        SmallVector<Value> lhs = emit(inst->operand(0), applyMap(lhsMap, indices, ivs));
        SmallVector<Value> rhs = emit(inst->operand(1), applyMap(rhsMap, indices, ivs));
        if (lhs.empty() || rhs.empty())
          return SmallVector<Value>();
        Value x = emitConvert(b, lhs[0], inst->operand(0)->shape().elementType(),
                              accumulatorType);
        Value y = emitConvert(b, rhs[0], inst->operand(1)->shape().elementType(),
                              accumulatorType);
        Value next;
        if (isFloatingPoint(resultType))
          next = arith::AddFOp::create(b, accumulator[0], arith::MulFOp::create(b, x, y));
        else
          next = arith::AddIOp::create(b, accumulator[0], arith::MulIOp::create(b, x, y));
        return SmallVector<Value>{next};
      });
  if (sum.empty() || !smallFloat)
    return sum;
  return {emitConvert(b, sum[0], PrimitiveType::F32, resultType)};
}

SmallVector<Value> FunctionBodyEmitter::emitMap(const HloInstruction *inst,
                                                ValueRange indices) {
  SmallVector<Value> arguments;
  for (const HloInstruction *operand : inst->operands()) {
    SmallVector<Value> value = emit(operand, indices);
    if (value.empty())
      return {};
    arguments.push_back(value[0]);
  }
  return callScalar(*toApply(*inst), arguments, inst);
}

} // namespace hlo
