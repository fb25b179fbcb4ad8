//===- TransposeEmitter.cpp - The shared-memory transpose emitter ---------===//
#include "emitters/TransposeEmitter.h"

#include "analysis/OpIndexing.h"
#include "dialect/XlaGpuDialect.h"
#include "emitters/TypeConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace hlo {
namespace {

/// `linear`'s coordinates in a row-major box of `sizes` (constant 0 where
/// a size is 1).
SmallVector<AffineExpr> delinearize(AffineExpr linear, ArrayRef<int64_t> sizes,
                                    MLIRContext *context) {
  SmallVector<AffineExpr> coordinates(sizes.size());
  int64_t stride = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    if (sizes[d] == 1) {
      coordinates[d] = getAffineConstantExpr(0, context);
      continue;
    }
    AffineExpr scaled = stride == 1 ? linear : linear.floorDiv(stride);
    coordinates[d] = d == 0 ? scaled : scaled % sizes[d];
    stride *= sizes[d];
  }
  return coordinates;
}

} // namespace

TransposeEmitter::TransposeEmitter(const FusionAnalysis &analysis,
                                   const HloComputation &fused, const GpuDeviceInfo &device)
    : EmitterBase(analysis, fused, device),
      tilingValue(computeTransposeTiling(analysis, device)) {
  launch.threads = {TransposeTiling::kThreads, 1, 1};
  launch.blocks = splitGrid(tiling().blockCount(), device);
}

std::vector<const HloInstruction *> TransposeEmitter::transposedHeroes() const {
  std::vector<const HloInstruction *> heroes;
  for (size_t i = 0; i < analysis().roots.size(); ++i)
    if (isTransposedRoot(i) &&
        std::find(heroes.begin(), heroes.end(), analysis().heroes[i]) == heroes.end())
      heroes.push_back(analysis().heroes[i]);
  return heroes;
}

bool TransposeEmitter::isTransposedRoot(size_t rootIndex) const {
  return getTiledTransposeDescription(*analysis().heroes[rootIndex]).has_value();
}

int64_t TransposeEmitter::sharedMemoryBytes() const {
  // One tile per hero, each at a 16-byte aligned offset
  // (pipeline/SharedMemoryLayout.h).
  int64_t bytes = 0;
  for (const HloInstruction *hero : transposedHeroes()) {
    bytes = (bytes + 15) / 16 * 16;
    bytes += tiling().sharedTileElements() * primitiveByteWidth(hero->shape().elementType());
  }
  return bytes;
}

IndexingMap TransposeEmitter::tileWalk(bool input, bool withShared,
                                       MLIRContext *context) const {
  const TransposeTiling &t = tiling();
  int64_t rank = static_cast<int64_t>(t.inputDimensions.size());
  int64_t vector = t.vectorSize;
  // A packed tile's elements need not fill the last iteration: those past
  // it are cut by a constraint.
  int64_t perIteration = TransposeTiling::kThreads * vector;
  int64_t iterations = (t.tileElements() + perIteration - 1) / perIteration;
  AffineExpr element = (getAffineSymbolExpr(0, context) * TransposeTiling::kThreads +
                        threadIdExpr(context)) *
                           vector +
                       getAffineSymbolExpr(1, context);
  AffineExpr linearBlock =
      blockIdExpr(1, context) * launch.blocks[0] + blockIdExpr(0, context);
  SmallVector<AffineExpr> block = delinearize(linearBlock, t.tileCounts, context);
  // The walk's order: the input's dimensions, or the output's (each
  // output dimension k is input dimension permutation[k]).
  SmallVector<int64_t> order;
  for (int64_t k = 0; k < rank; ++k)
    order.push_back(input ? k : t.permutation[k]);
  SmallVector<int64_t> sizes;
  for (int64_t d : order)
    sizes.push_back(t.tile[d]);
  SmallVector<AffineExpr> within = delinearize(element, sizes, context);
  SmallVector<AffineExpr> results, shared(rank);
  SmallVector<std::pair<AffineExpr, Interval>> constraints;
  for (int64_t k = 0; k < rank; ++k) {
    int64_t d = order[k];
    AffineExpr index = block[d] * t.tile[d] + within[k];
    results.push_back(index);
    shared[d] = within[k];
    if (t.inputDimensions[d] % t.tile[d] != 0)
      constraints.push_back({index, Interval{0, t.inputDimensions[d] - 1}});
  }
  if (withShared)
    results.append(shared.begin(), shared.end());
  if (t.tileElements() % perIteration != 0)
    constraints.push_back({element, Interval{0, t.tileElements() - 1}});
  IndexingMap map = launchMap(results, {iterations, vector}, context);
  if (launch.blocks[0] * std::max<int64_t>(launch.blocks[1], 1) * launch.blocks[2] >
      t.blockCount())
    map.addConstraint(linearBlock, Interval{0, t.blockCount() - 1});
  for (const auto &[expr, range] : constraints)
    map.addConstraint(expr, range);
  map.simplify();
  return map;
}

SmallVector<Value> TransposeEmitter::sharedTileIndex(ImplicitLocOpBuilder &b,
                                                    ValueRange walkIndex) const {
  const TransposeTiling &t = tiling();
  if (!t.swizzled)
    return SmallVector<Value>(walkIndex.begin(), walkIndex.end());
  // [y][swizzled x]: the other dimensions' tiles are 1.
  auto constant = [&](int64_t value) { return arith::ConstantIndexOp::create(b, value); };
  Value v = constant(t.vectorSize);
  Value x = walkIndex[t.inputMinorTiled], y = walkIndex[t.outputMinorTiled];
  // Packed neighbours: several short rows or columns side by side.
  if (t.packedWithColumns >= 0)
    x = arith::AddIOp::create(
        b, arith::MulIOp::create(b, walkIndex[t.packedWithColumns], constant(t.tile[t.inputMinorTiled])),
        x);
  if (t.packedWithRows >= 0)
    y = arith::AddIOp::create(
        b, arith::MulIOp::create(b, walkIndex[t.packedWithRows], constant(t.tile[t.outputMinorTiled])),
        y);
  Value word = arith::DivUIOp::create(b, x, v);
  Value row = arith::RemUIOp::create(b, arith::DivUIOp::create(b, y, v), constant(32));
  Value column = arith::MulIOp::create(b, arith::XOrIOp::create(b, word, row), v);
  return {y, arith::AddIOp::create(b, column, arith::RemUIOp::create(b, x, v))};
}

std::optional<IndexingMap>
TransposeEmitter::transposedRootIndexing(size_t rootIndex, MLIRContext *context) const {
  const HloInstruction *hero = analysis().heroes[rootIndex];
  const HloInstruction *root = analysis().roots[rootIndex];
  IndexingMap heroIndex = composeIndexingMaps(
      tileWalk(/*input=*/false, /*withShared=*/false, context),
      bitcastIndexingMap(normalFormShape(tiling().outputDimensions()), hero->shape(),
                         context));
  return rootIndexing(heroIndex, hero, root, context);
}

std::optional<IndexingMap>
TransposeEmitter::threadIdToOutputIndexing(int64_t rootIndex, MLIRContext *context) const {
  if (isTransposedRoot(rootIndex))
    return transposedRootIndexing(rootIndex, context);
  IndexingMap map = composeIndexingMaps(
      tileWalk(/*input=*/true, /*withShared=*/false, context),
      bitcastIndexingMap(normalFormShape(tiling().inputDimensions),
                         firstArrayShape(analysis().roots[rootIndex]->shape()), context));
  map.simplify();
  return map;
}

std::vector<const HloInstruction *> TransposeEmitter::valuesReadByEmitter() const {
  std::vector<const HloInstruction *> values;
  for (const HloInstruction *hero : transposedHeroes())
    values.push_back(hero->operand(0));
  return values;
}

std::vector<EpilogueSpecification> TransposeEmitter::epilogues() const {
  std::vector<EpilogueSpecification> result;
  for (size_t i = 0; i < analysis().roots.size(); ++i)
    if (isTransposedRoot(i))
      result.push_back({analysis().heroes[i], analysis().roots[i]});
  return result;
}

llvm::Error TransposeEmitter::emitEntryFunction(EmitterContext &context) {
  ImplicitLocOpBuilder &b = context.b;
  MLIRContext *mlirContext = b.getContext();
  const TransposeTiling &t = tiling();
  int64_t rank = static_cast<int64_t>(t.inputDimensions.size());
  std::vector<const HloInstruction *> heroes = transposedHeroes();
  Shape normalInput = normalFormShape(t.inputDimensions);
  Shape normalOutput = normalFormShape(t.outputDimensions());
  size_t outputCount = context.outputs.size();

  // 1. A shared tile per hero.
  SmallVector<Value> inits(context.outputs.begin(), context.outputs.end());
  for (const HloInstruction *hero : heroes)
    inits.push_back(xla_gpu::AllocateSharedOp::create(
        b, RankedTensorType::get(t.sharedTile,
                                 elementType(hero->shape().elementType(), mlirContext))));

  // 2. Read in the input's order: heroes' operands into the tiles, side
  // outputs into their buffers.
  llvm::Expected<Operation *> read = emitLoop(
      b, context.threadAndBlockIds, tileWalk(/*input=*/true, /*withShared=*/true, mlirContext),
      inits,
      [&](ImplicitLocOpBuilder &nested, ValueRange, ValueRange indices,
          ValueRange iterArgs) -> BodyValues {
        SmallVector<Value> results(iterArgs.begin(), iterArgs.end());
        ValueRange index = indices.take_front(rank);
        ValueRange sharedIndex = indices.drop_front(rank);
        for (auto [i, hero] : llvm::enumerate(heroes)) {
          const HloInstruction *operand = hero->operand(0);
          SmallVector<Value> operandIndex = applyIndexing(
              nested, bitcastIndexingMap(normalInput, operand->shape(), mlirContext), index);
          llvm::Expected<SmallVector<Value>> value = context.elemental.emitValue(
              nested, *operand, context.parameters, operandIndex);
          if (!value)
            return value.takeError();
          size_t slot = outputCount + i;
          results[slot] = tensor::InsertOp::create(nested, (*value)[0], results[slot],
                                                   sharedTileIndex(nested, sharedIndex));
        }
        for (size_t r = 0; r < analysis().roots.size(); ++r) {
          if (isTransposedRoot(r))
            continue;
          const HloInstruction *root = analysis().roots[r];
          SmallVector<Value> rootIndex = applyIndexing(
              nested,
              bitcastIndexingMap(normalInput, firstArrayShape(root->shape()), mlirContext),
              index);
          llvm::Expected<SmallVector<Value>> values =
              context.elemental.emitValue(nested, *root, context.parameters, rootIndex);
          if (!values)
            return values.takeError();
          insertRootValues(nested, root, *values, rootIndex, results);
        }
        return results;
      });
  if (!read)
    return read.takeError();

  // 3. Every tile is complete before anyone reads it.
  auto synced =
      xla_gpu::SyncThreadsOp::create(b, (*read)->getResults().drop_front(outputCount));

  // 4. Write in the output's order through the epilogues.
  SmallVector<std::optional<IndexingMap>> rootMaps(analysis().roots.size());
  for (size_t r = 0; r < analysis().roots.size(); ++r) {
    if (!isTransposedRoot(r))
      continue;
    rootMaps[r] = heroToRootIndexing(analysis().heroes[r], analysis().roots[r], mlirContext);
    if (!rootMaps[r])
      return epilogueWithoutIndexing(analysis().heroes[r], analysis().roots[r]);
  }
  llvm::Expected<Operation *> written = emitLoop(
      b, context.threadAndBlockIds,
      tileWalk(/*input=*/false, /*withShared=*/true, mlirContext),
      (*read)->getResults().take_front(outputCount),
      [&](ImplicitLocOpBuilder &nested, ValueRange, ValueRange indices,
          ValueRange outputs) -> BodyValues {
        SmallVector<Value> results(outputs.begin(), outputs.end());
        ValueRange index = indices.take_front(rank);
        ValueRange sharedIndex = indices.drop_front(rank);
        for (size_t r = 0; r < analysis().roots.size(); ++r) {
          if (!isTransposedRoot(r))
            continue;
          const HloInstruction *hero = analysis().heroes[r];
          const HloInstruction *root = analysis().roots[r];
          size_t tile = std::find(heroes.begin(), heroes.end(), hero) - heroes.begin();
          Value element = tensor::ExtractOp::create(nested, synced.getResult(tile),
                                                    sharedTileIndex(nested, sharedIndex));
          SmallVector<Value> heroIndex = applyIndexing(
              nested, bitcastIndexingMap(normalOutput, hero->shape(), mlirContext), index);
          SmallVector<Value> rootIndex = applyIndexing(nested, *rootMaps[r], heroIndex);
          const Subgraph *epilogue = context.partitioned.epilogueFor(hero, root);
          SmallVector<Value> values = context.elemental.callEpilogue(
              nested, *epilogue, context.parameters, rootIndex, {element});
          insertRootValues(nested, root, values, rootIndex, results);
        }
        return results;
      });
  if (!written)
    return written.takeError();
  func::ReturnOp::create(b, (*written)->getResults());
  return llvm::Error::success();
}

} // namespace hlo
