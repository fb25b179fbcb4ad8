//===- ReductionEmitter.cpp - What the reduction variants share -----------===//
#include "emitters/ReductionEmitter.h"
#include "analysis/HeroAnalysis.h"
#include "analysis/OperandBufferSharing.h"

#include "analysis/OpIndexing.h"
#include "dialect/XlaGpuDialect.h"
#include "emitters/TypeConversion.h"
#include "hlo_parser/OpAttributes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace hlo {
namespace {

/// The reduce's output as the input's kept dimensions in the input's
/// physical order: what the normal form's kept part is a bitcast of.
Shape keptShape(const HloInstruction &reduce) {
  const Shape &input = reduce.operand(0)->shape();
  const auto &reduced = reduce.dimensions();
  std::vector<int64_t> newIndex(input.rank(), -1), dims;
  for (int64_t d = 0; d < input.rank(); ++d)
    if (std::find(reduced.begin(), reduced.end(), d) == reduced.end()) {
      newIndex[d] = static_cast<int64_t>(dims.size());
      dims.push_back(input.dimension(d));
    }
  Shape kept(PrimitiveType::F32, dims);
  Layout layout;
  for (int64_t d : input.layoutOrDefault().minorToMajor)
    if (newIndex[d] >= 0)
      layout.minorToMajor.push_back(newIndex[d]);
  kept.setLayout(layout);
  return kept;
}

int64_t arityOf(const HloInstruction &reduce) { return reduce.operandCount() / 2; }

} // namespace

ReductionEmitter::ReductionEmitter(const FusionAnalysis &analysis,
                                   const HloComputation &fused, const GpuDeviceInfo &device)
    : EmitterBase(analysis, fused, device),
      tilingValue(computeReductionTiling(*analysis.reduction, analysis.elementBits, device)),
      groupsValue(groupDisjointReductions(analysis)) {
  const ReductionTiling &tiling = tilingValue;
  launch.threads = {tiling.threadsPerBlock(), 1, 1};
  std::array<int64_t, 3> grid = splitGrid(tiling.blockCount(), device);
  int64_t groupCount = static_cast<int64_t>(groupsValue.groupedRoots.size());
  // One group per grid row, as XLA launches reduction groups; a block
  // count past grid x (2^31 - 1) takes y and moves the groups to z. A
  // count past x * y does not occur for arrays that fit in memory.
  if (grid[1] * grid[2] == 1) {
    launch.blocks = {grid[0], groupCount, 1};
    groupAxis = 1;
  } else {
    launch.blocks = {grid[0], grid[1] * grid[2], groupCount};
    groupAxis = 2;
  }
}

AffineExpr ReductionEmitter::linearBlockId(MLIRContext *context) const {
  if (groupAxis == 1)
    return blockIdExpr(0, context);
  return blockIdExpr(1, context) * launch.blocks[0] + blockIdExpr(0, context);
}

std::vector<int64_t> ReductionEmitter::normalizedInputShape() const {
  const auto &d = tiling().dimensions.dimensions;
  return {d[0], d[1], d[2]};
}

std::vector<int64_t> ReductionEmitter::normalizedOutputShape() const {
  const ReductionDimensions &dims = tiling().dimensions;
  if (dims.isRowReduction)
    return {dims.dimensions[1]};
  return {dims.dimensions[0], dims.dimensions[2]};
}

int64_t ReductionEmitter::sharedMemoryBytes() const {
  if (tiling().sharedTile.empty())
    return 0;
  // One tile per reduced input of every hero in every group, each at a
  // 16-byte aligned offset (pipeline/SharedMemoryLayout.h).
  int64_t bytes = 0;
  std::set<const HloInstruction *> seen;
  for (size_t i = 0; i < analysis().roots.size(); ++i) {
    if (!groupsValue.isReductionRoot[i] || !seen.insert(analysis().heroes[i]).second)
      continue;
    const HloInstruction *hero = analysis().heroes[i];
    for (int64_t k = 0; k < arityOf(*hero); ++k) {
      bytes = (bytes + 15) / 16 * 16;
      bytes += tiling().sharedTileElements() *
               primitiveByteWidth(hero->operand(k)->shape().elementType());
    }
  }
  return bytes;
}

std::array<AffineExpr, 2> ReductionEmitter::threadIds(MLIRContext *context) const {
  AffineExpr thread = threadIdExpr(context);
  int64_t minor = tiling().threads[1];
  return {thread.floorDiv(minor), thread % minor};
}

std::array<AffineExpr, 2> ReductionEmitter::blockIds(MLIRContext *context) const {
  AffineExpr linear = linearBlockId(context);
  int64_t minor = tiling().blocks[1];
  return {linear.floorDiv(minor), linear % minor};
}

IndexingMap ReductionEmitter::keptRowReducedIndexing(MLIRContext *context) const {
  const ReductionTiling &t = tiling();
  auto [kept, reduced] = threadIds(context);
  AffineExpr row = blockIds(context)[0] * t.threads[0] + kept;
  return reductionMap({row}, {},
                      {{reduced, Interval{0, 0}},
                       {row, Interval{0, t.dimensions.dimensions[1] - 1}}},
                      context);
}

IndexingMap ReductionEmitter::reductionMap(
    llvm::ArrayRef<AffineExpr> results, llvm::ArrayRef<int64_t> symbolSizes,
    llvm::ArrayRef<std::pair<AffineExpr, Interval>> constraints, MLIRContext *context) const {
  IndexingMap map = launchMap(results, symbolSizes, context);
  // Blocks past the logical count (a split grid's last row) do nothing.
  int64_t launched = groupAxis == 1 ? launch.blocks[0] : launch.blocks[0] * launch.blocks[1];
  if (launched > tiling().blockCount())
    map.addConstraint(linearBlockId(context), Interval{0, tiling().blockCount() - 1});
  for (const auto &[expr, range] : constraints)
    map.addConstraint(expr, range);
  map.simplify();
  return map;
}

std::vector<const HloInstruction *> ReductionEmitter::valuesReadByEmitter() const {
  std::vector<const HloInstruction *> values;
  for (size_t i = 0; i < analysis().roots.size(); ++i)
    if (groupsValue.isReductionRoot[i])
      for (const HloInstruction *operand : analysis().heroes[i]->operands())
        values.push_back(operand);
  return values;
}

std::vector<EpilogueSpecification> ReductionEmitter::epilogues() const {
  std::vector<EpilogueSpecification> result;
  for (size_t i = 0; i < analysis().roots.size(); ++i)
    if (groupsValue.isReductionRoot[i])
      result.push_back({analysis().heroes[i], analysis().roots[i]});
  return result;
}

std::optional<IndexingMap> ReductionEmitter::reductionRootIndexing(const HloInstruction *root,
                                                                   MLIRContext *context) const {
  size_t position = std::find(analysis().roots.begin(), analysis().roots.end(), root) -
                    analysis().roots.begin();
  const HloInstruction *hero = analysis().heroes[position];
  IndexingMap heroIndex = composeIndexingMaps(
      threadIdToReducedIndexing(context),
      bitcastIndexingMap(normalFormShape(normalizedOutputShape()), keptShape(*hero), context));
  return rootIndexing(heroIndex, hero, root, context);
}

std::optional<IndexingMap> ReductionEmitter::threadIdToOutputIndexing(int64_t rootIndex,
                                                                      MLIRContext *context) const {
  const HloInstruction *root = analysis().roots[rootIndex];
  std::optional<IndexingMap> map;
  if (groupsValue.isReductionRoot[rootIndex]) {
    map = reductionRootIndexing(root, context);
  } else {
    map = composeIndexingMaps(
        threadIdToInputIndexing(context),
        bitcastIndexingMap(normalFormShape(normalizedInputShape()), firstArrayShape(root->shape()),
                           context));
  }
  if (!map)
    return std::nullopt;
  // Only the root's group writes it.
  if (groupsValue.groupedRoots.size() > 1) {
    int64_t group = groupsValue.groupOfRoot[rootIndex];
    map->addConstraint(blockIdExpr(groupAxis, context), Interval{group, group});
  }
  map->simplify();
  return map;
}

llvm::Error ReductionEmitter::emitEntryFunction(EmitterContext &context) {
  ImplicitLocOpBuilder &b = context.b;
  SmallVector<Value> outputs(context.outputs.begin(), context.outputs.end());
  SmallVector<Value> results;
  int64_t groupCount = static_cast<int64_t>(groupsValue.groupedRoots.size());
  if (groupCount == 1) {
    llvm::Expected<SmallVector<Value>> written = emitGroup(context, 0, outputs);
    if (!written)
      return written.takeError();
    results = std::move(*written);
  } else {
    // One group per grid row (the last block id): group 0 is the default.
    SmallVector<int64_t> cases;
    for (int64_t id = 1; id < groupCount; ++id)
      cases.push_back(id);
    auto switchOp = scf::IndexSwitchOp::create(b, ValueRange(outputs).getTypes(),
                                               context.threadAndBlockIds.back(), cases,
                                               cases.size());
    for (auto [id, region] : llvm::enumerate(switchOp->getRegions())) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&region.emplaceBlock());
      llvm::Expected<SmallVector<Value>> written = emitGroup(context, id, outputs);
      if (!written)
        return written.takeError();
      scf::YieldOp::create(b, *written);
    }
    results.assign(switchOp.getResults().begin(), switchOp.getResults().end());
  }
  func::ReturnOp::create(b, results);
  return llvm::Error::success();
}

std::vector<int64_t> ReductionEmitter::outputMayReuse() const {
  if (groupsValue.groupedRoots.size() != 1)
    return {};
  std::vector<int64_t> mayReuse(fusionOutputs().size(), -1);
  std::vector<const HloInstruction *> roots = getFusionRoots(fused);
  std::vector<int64_t> sharable = sideOutputSharableParameters(fused);
  for (size_t i = 0; i < roots.size() && i < sharable.size(); ++i) {
    // Only a side output (written in the per-thread loop), not a root
    // computed from a reduction's result.
    auto root = std::find(analysis().roots.begin(), analysis().roots.end(), roots[i]);
    size_t position = static_cast<size_t>(root - analysis().roots.begin());
    if (root == analysis().roots.end() || position >= groupsValue.isReductionRoot.size() ||
        groupsValue.isReductionRoot[position])
      continue;
    int64_t output = outputIndex(roots[i], 0);
    if (sharable[i] >= 0 && output >= 0 && roots[i]->shape().isArray())
      mayReuse[output] = sharable[i];
  }
  return mayReuse;
}

llvm::Expected<SmallVector<Value>>
ReductionEmitter::emitGroup(EmitterContext &context, int64_t id, SmallVector<Value> outputs) {
  GroupEmission group{context, id, {}, {}, {}, {}, {}, outputs, {}};
  for (size_t i = 0; i < analysis().roots.size(); ++i) {
    if (groupsValue.groupOfRoot[i] != id)
      continue;
    const HloInstruction *root = analysis().roots[i];
    if (!groupsValue.isReductionRoot[i]) {
      group.sideOutputs.push_back(root);
      continue;
    }
    group.reductionRoots.push_back(root);
    const HloInstruction *hero = analysis().heroes[i];
    if (std::find(group.heroes.begin(), group.heroes.end(), hero) == group.heroes.end())
      group.heroes.push_back(hero);
  }
  ImplicitLocOpBuilder &b = context.b;
  for (const HloInstruction *hero : group.heroes) {
    SmallVector<Value> &inits = group.inits[hero];
    for (int64_t k = 0; k < arityOf(*hero); ++k) {
      llvm::Expected<SmallVector<Value>> value = context.elemental.emitValue(
          b, *hero->operand(arityOf(*hero) + k), context.parameters, {});
      if (!value)
        return value.takeError();
      inits.push_back((*value)[0]);
    }
  }
  if (!emitPerThreadElements(group))
    return group.takeFailure();
  SmallVector<Value> written = emitCrossThreadReduction(group);
  // Nothing written where there are outputs is a failure too.
  if (group.failed || (written.empty() && !outputs.empty()))
    return group.takeFailure();
  return written;
}

bool ReductionEmitter::emitPerThreadElements(GroupEmission &group) {
  EmitterContext &context = group.context;
  ImplicitLocOpBuilder &b = context.b;
  MLIRContext *mlirContext = b.getContext();
  IndexingMap map = threadIdToInputIndexing(mlirContext);
  Shape normal = normalFormShape(normalizedInputShape());
  int64_t vector = tiling().vectorSize;
  bool vectors = vectorAccumulators();
  // Iteration values: the outputs (side outputs are written here), then
  // each hero's accumulators.
  SmallVector<Value> inits = group.outputs;
  for (const HloInstruction *hero : group.heroes)
    for (Value init : group.inits[hero])
      inits.push_back(vectors ? Value(vector::BroadcastOp::create(
                                    b, VectorType::get({vector}, init.getType()), init))
                              : init);
  llvm::Expected<Operation *> loop = emitLoop(
      b, context.threadAndBlockIds, map, inits,
      [&](ImplicitLocOpBuilder &nested, ValueRange symbols, ValueRange indices,
          ValueRange iterArgs) -> BodyValues {
        SmallVector<Value> results(iterArgs.begin(), iterArgs.end());
        size_t slot = group.outputs.size();
        for (const HloInstruction *hero : group.heroes) {
          int64_t arity = arityOf(*hero);
          // One logical index for every input (their dimensions agree).
          SmallVector<Value> inputIndex = applyIndexing(
              nested,
              bitcastIndexingMap(normal, hero->operand(0)->shape(), mlirContext), indices);
          SmallVector<Value> arguments;
          for (int64_t k = 0; k < arity; ++k) {
            Value accumulator = iterArgs[slot + k];
            if (vectors)
              accumulator = vector::ExtractOp::create(nested, accumulator,
                                                      OpFoldResult(symbols.back()));
            arguments.push_back(accumulator);
          }
          for (int64_t k = 0; k < arity; ++k) {
            llvm::Expected<SmallVector<Value>> value = context.elemental.emitValue(
                nested, *hero->operand(k), context.parameters, inputIndex);
            if (!value)
              return value.takeError();
            arguments.push_back((*value)[0]);
          }
          llvm::Expected<SmallVector<Value>> call =
              callComputation(nested, context.elemental, *toApply(*hero), arguments);
          if (!call)
            return call.takeError();
          for (int64_t k = 0; k < arity; ++k) {
            Value combined = (*call)[k];
            if (vectors)
              combined = vector::InsertOp::create(nested, combined, iterArgs[slot + k],
                                                  OpFoldResult(symbols.back()));
            results[slot + k] = combined;
          }
          slot += arity;
        }
        // Side outputs: the element at this input position. Every value
        // is computed before any is written: a side output may be written
        // over an operand (sideOutputSharableParameters), whose element
        // here the others may still read.
        std::vector<std::pair<SmallVector<Value>, SmallVector<Value>>> sideValues;
        for (const HloInstruction *root : group.sideOutputs) {
          const Shape &shape = firstArrayShape(root->shape());
          SmallVector<Value> rootIndex =
              applyIndexing(nested, bitcastIndexingMap(normal, shape, mlirContext), indices);
          llvm::Expected<SmallVector<Value>> values =
              context.elemental.emitValue(nested, *root, context.parameters, rootIndex);
          if (!values)
            return values.takeError();
          sideValues.emplace_back(std::move(*values), std::move(rootIndex));
        }
        for (auto [root, side] : llvm::zip(group.sideOutputs, sideValues))
          insertRootValues(nested, root, side.first, side.second, results);
        return results;
      });
  if (!loop) {
    group.fail(loop.takeError());
    return false;
  }
  ValueRange results = (*loop)->getResults();
  for (size_t i = 0; i < group.outputs.size(); ++i)
    group.outputs[i] = results[i];
  size_t slot = group.outputs.size();
  for (const HloInstruction *hero : group.heroes) {
    SmallVector<Value> &accumulators = group.accumulators[hero];
    for (int64_t k = 0; k < arityOf(*hero); ++k)
      accumulators.push_back(results[slot++]);
  }
  return true;
}

ReductionEmitter::HeroValues ReductionEmitter::shuffleReduce(GroupEmission &group,
                                                             const HeroValues &values,
                                                             int64_t distance) {
  if (distance < 1)
    return values;
  HeroValues reduced;
  for (const auto &[hero, operands] : values) {
    llvm::Expected<func::FuncOp> reducer =
        group.context.elemental.scalarFunction(*toApply(*hero));
    if (!reducer) {
      group.fail(reducer.takeError());
      return values;
    }
    auto shuffle =
        xla_gpu::ShuffleReduceOp::create(group.context.b, *reducer, operands, distance);
    reduced[hero].assign(shuffle.getResults().begin(), shuffle.getResults().end());
  }
  return reduced;
}

SmallVector<Value> ReductionEmitter::reduceThroughSharedMemory(GroupEmission &group,
                                                               const HeroValues &values,
                                                               const IndexingMap &writeMap,
                                                               const IndexingMap &readMap,
                                                               int64_t distance) {
  EmitterContext &context = group.context;
  ImplicitLocOpBuilder &b = context.b;
  bool vectors = vectorAccumulators();
  const std::vector<int64_t> &tileShape = tiling().sharedTile;
  SmallVector<Value> tiles;
  for (const auto &[hero, operands] : values)
    for (int64_t k = 0; k < arityOf(*hero); ++k)
      tiles.push_back(xla_gpu::AllocateSharedOp::create(
          b, RankedTensorType::get(
                 tileShape, elementType(hero->operand(k)->shape().elementType(),
                                        b.getContext()))));
  llvm::Expected<Operation *> written = emitLoop(
      b, context.threadAndBlockIds, writeMap, tiles,
      [&](ImplicitLocOpBuilder &nested, ValueRange symbols, ValueRange indices,
          ValueRange iterArgs) -> BodyValues {
        SmallVector<Value> result(iterArgs.begin(), iterArgs.end());
        size_t tile = 0;
        for (const auto &[hero, operands] : values)
          for (Value value : operands) {
            if (vectors)
              value = vector::ExtractOp::create(nested, value, OpFoldResult(symbols.back()));
            result[tile] = tensor::InsertOp::create(nested, value, result[tile], indices);
            ++tile;
          }
        return result;
      });
  if (!written) {
    group.fail(written.takeError());
    return {};
  }
  // The whole tile is written before anyone reads it.
  auto synced = xla_gpu::SyncThreadsOp::create(b, (*written)->getResults());
  // Every thread takes part in the shuffles: the loop spans the whole
  // launch, without constraints; they decide what is read instead.
  IndexingMap loopMap(readMap.getAffineMap(), launchDimVars(), readMap.getRangeVars(),
                      readMap.getRuntimeVars());
  llvm::Expected<Operation *> read = emitLoop(
      b, context.threadAndBlockIds, loopMap, group.outputs,
      [&](ImplicitLocOpBuilder &nested, ValueRange symbols, ValueRange indices,
          ValueRange outputs) -> BodyValues {
        Value condition =
            checkConstraints(nested, readMap, context.threadAndBlockIds, symbols);
        HeroValues partial;
        size_t tile = 0;
        for (const auto &[hero, operands] : values)
          for (Value init : group.inits[hero])
            partial[hero].push_back(xla_gpu::PredicatedExtractOp::create(
                nested, init.getType(), condition, init, synced.getResult(tile++), indices));
        // (`nested` is the context's builder, now inside the loop.)
        HeroValues reduced = shuffleReduce(group, partial, distance);
        SmallVector<Value> results = evaluateEpilogues(group, reduced, outputs, symbols);
        if (group.failed)
          return group.takeFailure();
        return results;
      });
  if (!read) {
    group.fail(read.takeError());
    return {};
  }
  return SmallVector<Value>((*read)->getResults().begin(), (*read)->getResults().end());
}

SmallVector<Value> ReductionEmitter::evaluateEpilogues(GroupEmission &group,
                                                       const HeroValues &heroValues,
                                                       ValueRange outputs,
                                                       ValueRange symbolValues) {
  EmitterContext &context = group.context;
  ImplicitLocOpBuilder &b = context.b;
  MLIRContext *mlirContext = b.getContext();
  SmallVector<Value> result(outputs.begin(), outputs.end());
  for (const HloInstruction *root : group.reductionRoots) {
    size_t position = std::find(analysis().roots.begin(), analysis().roots.end(), root) -
                      analysis().roots.begin();
    const HloInstruction *hero = analysis().heroes[position];
    std::optional<IndexingMap> rootMap = reductionRootIndexing(root, mlirContext);
    if (!rootMap) {
      group.fail(epilogueWithoutIndexing(hero, root));
      return {};
    }
    const Subgraph *epilogue = context.partitioned.epilogueFor(hero, root);
    SmallVector<Value> rootIndex =
        applyIndexing(b, *rootMap, context.threadAndBlockIds, symbolValues);
    Value writes = checkConstraints(b, *rootMap, context.threadAndBlockIds, symbolValues);
    SmallVector<Value> values = context.elemental.callEpilogue(
        b, *epilogue, context.parameters, rootIndex, heroValues.lookup(hero));
    for (size_t leaf = 0; leaf < values.size(); ++leaf) {
      int64_t output = outputIndex(root, leaf);
      result[output] = xla_gpu::PredicatedInsertOp::create(
          b, result[output].getType(), writes, values[leaf], result[output],
          bufferIndices(*fusionOutputs()[output].shape, rootIndex));
    }
  }
  return result;
}

std::unique_ptr<ReductionEmitter> createReductionEmitter(const FusionAnalysis &analysis,
                                                         const HloComputation &fused,
                                                         const GpuDeviceInfo &device) {
  switch (analysis.variant) {
  case FusionVariant::RowReduction:
    return std::make_unique<RowReductionEmitter>(analysis, fused, device);
  case FusionVariant::MultiRowReduction:
    return std::make_unique<MultiRowReductionEmitter>(analysis, fused, device);
  case FusionVariant::ColumnReduction:
    return std::make_unique<ColumnReductionEmitter>(analysis, fused, device);
  case FusionVariant::SmallColumnReduction:
    return std::make_unique<SmallColumnReductionEmitter>(analysis, fused, device);
  default:
    return nullptr;
  }
}

} // namespace hlo
