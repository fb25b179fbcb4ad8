//===- SortEmitter.cpp - Sorting networks for kSort fusions ---------------===//
#include "emitters/SortEmitter.h"

#include "dialect/XlaGpuDialect.h"
#include "emitters/TypeConversion.h"
#include "hlo_parser/OpAttributes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace hlo {
namespace {

/// XLA's figures: tiles of up to 4096 elements, a thread per two pairs of
/// the tile (1024 for a full tile); the global steps with 128 threads per
/// block, four pairs each.
constexpr int64_t kMaxTile = 4096;
constexpr int64_t kPairsPerTileThread = 2;
constexpr int64_t kSharedMemoryLimit = 48 * 1024;
constexpr int64_t kGlobalThreadsPerBlock = 128;
constexpr int64_t kPairsPerGlobalThread = 4;

/// One compare-exchange step of the network: pairs 2^j apart, or each
/// element with its mirror in its block of 2^(j+1).
struct NetworkStep {
  int64_t j;
  bool mirror;
};

/// One launch: the steps it runs, in shared memory (a block per tile) or
/// on the outputs in global memory (one step).
struct SortLaunch {
  bool shared;
  /// Global launches: the one step.
  std::vector<NetworkStep> steps;
  /// Shared launches: stages [stageBegin, stageEnd) of the network, each
  /// its steps j = stage .. 0 (j = stage being the mirror step, left out
  /// unless `withMirror`).
  int64_t stageBegin = 0, stageEnd = 0;
  bool withMirror = true;
};

int64_t alignTo16(int64_t bytes) { return (bytes + 15) / 16 * 16; }

/// The shared memory of tiles of `elements` per operand (and positions for
/// a stable sort), each at a 16-byte aligned offset
/// (pipeline/SharedMemoryLayout.h).
int64_t tileBytes(const HloInstruction &sort, int64_t elements) {
  int64_t bytes = 0;
  for (const HloInstruction *operand : sort.operands())
    bytes = alignTo16(bytes) + elements * primitiveByteWidth(operand->shape().elementType());
  return isStableSort(sort) ? alignTo16(bytes) + elements * 4 : bytes;
}

/// The sort dimension's size, padded to a power of two (at least 1).
int64_t paddedSortSize(const HloInstruction &sort) {
  const Shape &shape = sort.operand(0)->shape();
  int64_t size = shape.rank() ? shape.dimension(sort.dimensions().front()) : 1;
  return static_cast<int64_t>(llvm::PowerOf2Ceil(static_cast<uint64_t>(std::max<int64_t>(size, 1))));
}

class SortEmitter : public EmitterBase {
public:
  SortEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
              const GpuDeviceInfo &device, int64_t tile)
      : EmitterBase(analysis, fused, device), sort(analysis.roots.front()),
        stable(isStableSort(*sort)), tile(tile) {
    const Shape &shape = sort->operand(0)->shape();
    dims = shape.dimensions();
    sortDim = sort->dimensions().front();
    size = dims[sortDim];
    for (size_t d = 0; d < dims.size(); ++d)
      if (static_cast<int64_t>(d) != sortDim) {
        otherDims.push_back(dims[d]);
        rows *= dims[d];
      }
    padded = paddedSortSize(*sort);
    planLaunches();
  }

  int64_t launchCount() const override { return static_cast<int64_t>(launches.size()); }
  std::string emitterName() const override { return "kSort/SortingNetwork"; }
  LaunchDimensions launchDimensions() const override {
    if (!launches[currentLaunch()].shared)
      return threadPerItemLaunch(llvm::divideCeil(rows * padded / 2, kPairsPerGlobalThread),
                                 kGlobalThreadsPerBlock, device);
    LaunchDimensions launch;
    launch.threads[0] = tileThreads();
    launch.blocks = splitGrid(std::max<int64_t>(rows * (padded / tile), 1), device);
    return launch;
  }
  int64_t sharedMemoryBytes() const override {
    return launches[currentLaunch()].shared ? tileBytes(*sort, tile) : 0;
  }
  bool synchronizesThreads() const override { return launches[currentLaunch()].shared; }
  /// A stable sort of several launches keeps each element's original
  /// position in a scratch buffer between them.
  std::vector<Shape> scratchBuffers() const override {
    if (!stable || launches.size() == 1)
      return {};
    return {positionsShape()};
  }
  std::optional<IndexingMap> threadIdToOutputIndexing(int64_t, MLIRContext *) const override {
    return std::nullopt;
  }

protected:
  std::vector<const HloInstruction *> valuesReadByEmitter() const override {
    return std::vector<const HloInstruction *>(sort->operands().begin(),
                                               sort->operands().end());
  }

  llvm::Error emitEntryFunction(EmitterContext &context) override {
    if (rows == 0 || size == 0) {
      SmallVector<Value> results(context.outputs);
      results.append(context.scratch.begin(), context.scratch.end());
      func::ReturnOp::create(context.b, results);
      return llvm::Error::success();
    }
    return launches[currentLaunch()].shared ? emitSharedLaunch(context)
                                            : emitGlobalLaunch(context);
  }

private:
  int64_t tileThreads() const {
    return std::max<int64_t>(tile / 2 / kPairsPerTileThread, 1);
  }

  Shape positionsShape() const { return Shape(PrimitiveType::S32, dims); }

  void planLaunches() {
    int64_t logP = llvm::Log2_64(static_cast<uint64_t>(padded));
    int64_t logT = llvm::Log2_64(static_cast<uint64_t>(tile));
    launches.push_back({true, {}, 0, std::min(logP, logT), true});
    for (int64_t s = logT; s < logP; ++s) {
      launches.push_back({false, {{s, true}}});
      for (int64_t j = s - 1; j >= logT; --j)
        launches.push_back({false, {{j, false}}});
      // Steps logT - 1 .. 0: stage logT without its mirror step.
      launches.push_back({true, {}, logT, logT + 1, false});
    }
  }

  /// The element at position `position` of the row whose coordinates (the
  /// dimensions other than the sorted one) are `row`.
  SmallVector<Value> elementIndex(ValueRange row, Value position) const {
    SmallVector<Value> index;
    size_t r = 0;
    for (size_t d = 0; d < dims.size(); ++d)
      index.push_back(static_cast<int64_t>(d) == sortDim ? position : row[r++]);
    return index;
  }

  /// The pair `pair` of the step 2^j apart (a mirror step where `mirror`):
  /// its lower and upper position. j and `mirror` are constants in a global
  /// launch and the loops' values in a shared one.
  static std::pair<Value, Value> pairPositions(ImplicitLocOpBuilder &b, Value pair, Value j,
                                               Value mirror) {
    Value one = arith::ConstantIndexOp::create(b, 1);
    Value distance = arith::ShLIOp::create(b, one, j);
    Value low = arith::AddIOp::create(
        b,
        arith::ShLIOp::create(b, arith::ShRUIOp::create(b, pair, j),
                              arith::AddIOp::create(b, j, one)),
        arith::AndIOp::create(b, pair, arith::SubIOp::create(b, distance, one)));
    Value block = arith::SubIOp::create(b, arith::ShLIOp::create(b, distance, one), one);
    // The mirror partner low ^ block, written 2 * (low & ~block) + block -
    // low: affine in `low` within a block, so a thread's consecutive pairs
    // get partners at constant offsets (one address each, as XLA's).
    Value blockStart = arith::AndIOp::create(
        b, low, arith::XOrIOp::create(b, block, arith::ConstantIndexOp::create(b, -1)));
    Value mirrored = arith::SubIOp::create(
        b, arith::AddIOp::create(b, arith::AddIOp::create(b, blockStart, blockStart), block),
        low);
    Value high = arith::SelectOp::create(b, mirror, mirrored,
                                         arith::AddIOp::create(b, low, distance));
    return {low, high};
  }

  /// comparator(a, b) for the operands' values at two positions.
  llvm::Expected<Value> lessThan(ImplicitLocOpBuilder &b, EmitterContext &context,
                                 ValueRange a, ValueRange c) const {
    SmallVector<Value> arguments;
    for (size_t i = 0; i < a.size(); ++i) {
      arguments.push_back(a[i]);
      arguments.push_back(c[i]);
    }
    llvm::Expected<SmallVector<Value>> results =
        callComputation(b, context.elemental, *toApply(*sort), arguments);
    if (!results)
      return results.takeError();
    Value result = (*results)[0];
    if (result.getType() != b.getI1Type())
      result = arith::TruncIOp::create(b, b.getI1Type(), result);
    return result;
  }

  /// Whether (`low`, `high`) must be exchanged (the smaller goes first).
  /// The last value of each is the position for a stable sort. Global
  /// steps exchange under an scf.if, as XLA's sort does: a pair in order
  /// stores nothing, and values the comparator does not read are loaded
  /// only to be exchanged (selects of every value, always stored, kept all
  /// of a thread's pairs live at once: 28 registers where XLA's take 20).
  /// Shared-memory steps store both values, selected.
  llvm::Expected<Value> swapCondition(ImplicitLocOpBuilder &b, EmitterContext &context,
                                      ValueRange low, ValueRange high) const {
    size_t n = static_cast<size_t>(sort->operandCount());
    llvm::Expected<Value> less = lessThan(b, context, high.take_front(n), low.take_front(n));
    if (!less)
      return less.takeError();
    Value swap = *less;
    if (stable) {
      // Ties keep their original order. (The comparator's function exists
      // now: this call does not fail.)
      llvm::Expected<Value> lowFirst =
          lessThan(b, context, low.take_front(n), high.take_front(n));
      if (!lowFirst)
        return lowFirst.takeError();
      Value tie = arith::XOrIOp::create(b, *lowFirst, arith::ConstantIntOp::create(b, 1, 1));
      Value earlier = arith::CmpIOp::create(b, arith::CmpIPredicate::slt, high.back(), low.back());
      swap = arith::OrIOp::create(b, swap, arith::AndIOp::create(b, tie, earlier));
    }
    return swap;
  }

  /// `tensors` with the values at `low` and `high` of each exchanged.
  static SmallVector<Value> exchanged(ImplicitLocOpBuilder &b, ValueRange tensors,
                                      ArrayRef<SmallVector<Value>> lowIndices,
                                      ArrayRef<SmallVector<Value>> highIndices) {
    SmallVector<Value> results;
    for (size_t i = 0; i < tensors.size(); ++i) {
      Value atLow = tensor::ExtractOp::create(b, tensors[i], lowIndices[i]);
      Value atHigh = tensor::ExtractOp::create(b, tensors[i], highIndices[i]);
      Value updated = tensor::InsertOp::create(b, atHigh, tensors[i], lowIndices[i]);
      results.push_back(tensor::InsertOp::create(b, atLow, updated, highIndices[i]));
    }
    return results;
  }

  llvm::Error emitSharedLaunch(EmitterContext &context) {
    ImplicitLocOpBuilder &b = context.b;
    MLIRContext *mlirContext = b.getContext();
    auto constant = [&](int64_t value) { return arith::ConstantIndexOp::create(b, value); };
    bool first = currentLaunch() == 0;
    int64_t n = sort->operandCount();
    int64_t threads = tileThreads();
    int64_t perThread = tile / threads;
    Value thread = context.threadAndBlockIds[0];
    // Blocks in row-major (row, tile) order.
    Value block = context.threadAndBlockIds[1];
    if (context.threadAndBlockIds.size() > 2)
      block = arith::AddIOp::create(
          b, block,
          arith::MulIOp::create(b, context.threadAndBlockIds[2],
                                constant(launchDimensions().blocks[0])));
    int64_t tilesPerRow = padded / tile;
    Value row = arith::DivUIOp::create(b, block, constant(tilesPerRow));
    Value tileStart =
        arith::MulIOp::create(b, arith::RemUIOp::create(b, block, constant(tilesPerRow)),
                              constant(tile));
    SmallVector<Value> rowCoordinates = delinearizeIndex(b, row, otherDims);
    Value sizeValue = constant(size);

    SmallVector<Value> tiles;
    for (int64_t i = 0; i < n; ++i)
      tiles.push_back(xla_gpu::AllocateSharedOp::create(
          b, RankedTensorType::get({tile}, elementType(sort->operand(i)->shape().elementType(),
                                                       mlirContext))));
    if (stable)
      tiles.push_back(
          xla_gpu::AllocateSharedOp::create(b, RankedTensorType::get({tile}, b.getI32Type())));
    // A failure inside a region's builder, which cannot return it: the
    // region yields its values unchanged, and the first failure is the
    // function's result.
    llvm::Error failure = llvm::Error::success();
    bool failed = false;
    auto record = [&](llvm::Error next) {
      if (!failed)
        failure = std::move(next);
      else
        llvm::consumeError(std::move(next));
      failed = true;
    };
    // Each thread's elements of the tile: thread + k * threads.
    auto forEachElement =
        [&](ValueRange inits,
            const std::function<BodyValues(ImplicitLocOpBuilder &, Value, Value, ValueRange)>
                &body) {
          auto loop = scf::ForOp::create(
              b, constant(0), constant(perThread), constant(1), inits,
              [&](OpBuilder &builder, Location location, Value k, ValueRange carried) {
                ImplicitLocOpBuilder inner(location, builder);
                Value element = arith::AddIOp::create(
                    inner, thread,
                    arith::MulIOp::create(inner, k,
                                          arith::ConstantIndexOp::create(inner, threads)));
                Value position = arith::AddIOp::create(inner, tileStart, element);
                Value inside =
                    arith::CmpIOp::create(inner, arith::CmpIPredicate::ult, position, sizeValue);
                BodyValues values =
                    emitIf(inner, inside, carried, [&](ImplicitLocOpBuilder &then) {
                      return body(then, element, position, carried);
                    });
                if (!values) {
                  record(values.takeError());
                  scf::YieldOp::create(inner, carried);
                  return;
                }
                scf::YieldOp::create(inner, *values);
              });
          return SmallVector<Value>(loop.getResults());
        };

    // Load the tile: from the operands on the first launch, else from the
    // outputs being sorted.
    tiles = forEachElement(tiles, [&](ImplicitLocOpBuilder &inner, Value element,
                                      Value position, ValueRange carried) -> BodyValues {
      SmallVector<Value> results(carried);
      SmallVector<Value> index = elementIndex(rowCoordinates, position);
      for (int64_t i = 0; i < n; ++i) {
        Value value;
        if (first) {
          llvm::Expected<SmallVector<Value>> values =
              context.elemental.emitValue(inner, *sort->operand(i), context.parameters, index);
          if (!values)
            return values.takeError();
          value = (*values)[0];
        } else {
          value = tensor::ExtractOp::create(
              inner, context.outputs[i], bufferIndices(*fusionOutputs()[i].shape, index));
        }
        results[i] = tensor::InsertOp::create(inner, value, results[i], element);
      }
      if (stable) {
        // The original position: the element's own on the first launch,
        // else what the last launch left in the scratch buffer.
        Value original =
            first ? Value(arith::IndexCastOp::create(inner, inner.getI32Type(), position))
                  : Value(tensor::ExtractOp::create(
                        inner, context.scratch.front(), bufferIndices(positionsShape(), index)));
        results.back() = tensor::InsertOp::create(inner, original, results.back(), element);
      }
      return results;
    });
    if (failed)
      return failure;
    tiles = SmallVector<Value>(xla_gpu::SyncThreadsOp::create(b, tiles).getResults());

    // The network's steps, tile/2 pairs over the threads, a barrier after
    // each: loops over the stages and their steps (unrolled, the largest
    // tile's 78 steps made functions that one-shot bufferization took tens
    // of seconds over).
    int64_t pairsPerThread = std::max<int64_t>(tile / 2 / threads, 1);
    const SortLaunch &launch = launches[currentLaunch()];
    auto stages = scf::ForOp::create(
        b, constant(launch.stageBegin), constant(launch.stageEnd), constant(1), tiles,
        [&](OpBuilder &stageBuilder, Location stageLocation, Value stage,
            ValueRange stageTiles) {
          ImplicitLocOpBuilder sb(stageLocation, stageBuilder);
          Value one = arith::ConstantIndexOp::create(sb, 1);
          Value firstStep = arith::ConstantIndexOp::create(sb, launch.withMirror ? 0 : 1);
          auto steps = scf::ForOp::create(
              sb, firstStep, arith::AddIOp::create(sb, stage, one), one, stageTiles,
              [&](OpBuilder &stepBuilder, Location stepLocation, Value t,
                  ValueRange stepTiles) {
                ImplicitLocOpBuilder ib(stepLocation, stepBuilder);
                Value j = arith::SubIOp::create(ib, stage, t);
                Value mirror = arith::CmpIOp::create(
                    ib, arith::CmpIPredicate::eq, t, arith::ConstantIndexOp::create(ib, 0));
                SmallVector<Value> current(stepTiles);
                for (int64_t k = 0; k < pairsPerThread && !failed; ++k) {
                  Value pair = k == 0 ? thread
                                      : arith::AddIOp::create(
                                            ib, thread,
                                            arith::ConstantIndexOp::create(ib, k * threads));
                  auto [low, high] = pairPositions(ib, pair, j, mirror);
                  Value inside = arith::CmpIOp::create(
                      ib, arith::CmpIPredicate::ult, arith::AddIOp::create(ib, tileStart, high),
                      sizeValue);
                  BodyValues exchangedTiles = emitIf(
                      ib, inside, current,
                      [&, low = low, high = high](ImplicitLocOpBuilder &inner) -> BodyValues {
                        SmallVector<Value> lowValues, highValues;
                        for (Value t : current) {
                          lowValues.push_back(tensor::ExtractOp::create(inner, t, low));
                          highValues.push_back(tensor::ExtractOp::create(inner, t, high));
                        }
                        llvm::Expected<Value> swap =
                            swapCondition(inner, context, lowValues, highValues);
                        if (!swap)
                          return swap.takeError();
                        // In shared memory both values are stored, selected:
                        // a branch here made ptxas spill (SortFusion.hlo: 32
                        // registers, 8 B), and shared stores are cheap.
                        SmallVector<Value> results;
                        for (size_t i = 0; i < current.size(); ++i) {
                          Value newLow =
                              arith::SelectOp::create(inner, *swap, highValues[i], lowValues[i]);
                          Value newHigh =
                              arith::SelectOp::create(inner, *swap, lowValues[i], highValues[i]);
                          Value updated = tensor::InsertOp::create(inner, newLow, current[i], low);
                          results.push_back(tensor::InsertOp::create(inner, newHigh, updated, high));
                        }
                        return results;
                      });
                  if (!exchangedTiles)
                    record(exchangedTiles.takeError());
                  else
                    current = std::move(*exchangedTiles);
                }
                if (failed)
                  current.assign(stepTiles.begin(), stepTiles.end());
                else
                  current = SmallVector<Value>(
                      xla_gpu::SyncThreadsOp::create(ib, current).getResults());
                scf::YieldOp::create(ib, current);
              });
          scf::YieldOp::create(sb, steps.getResults());
        });
    if (failed)
      return failure;
    tiles = SmallVector<Value>(stages.getResults());

    // Store the tile into the outputs (and the positions into the scratch
    // buffer for the next launch).
    SmallVector<Value> buffers(context.outputs);
    buffers.append(context.scratch.begin(), context.scratch.end());
    SmallVector<Value> outputs = forEachElement(
        buffers,
        [&](ImplicitLocOpBuilder &inner, Value element, Value position,
            ValueRange carried) -> BodyValues {
          SmallVector<Value> results(carried);
          SmallVector<Value> index = elementIndex(rowCoordinates, position);
          for (int64_t i = 0; i < n; ++i)
            results[i] = tensor::InsertOp::create(
                inner, tensor::ExtractOp::create(inner, tiles[i], element), results[i],
                bufferIndices(*fusionOutputs()[i].shape, index));
          if (!context.scratch.empty())
            results.back() = tensor::InsertOp::create(
                inner, tensor::ExtractOp::create(inner, tiles.back(), element), results.back(),
                bufferIndices(positionsShape(), index));
          return results;
        });
    if (failed)
      return failure;
    func::ReturnOp::create(b, outputs);
    return failure; // success: nothing failed
  }

  llvm::Error emitGlobalLaunch(EmitterContext &context) {
    ImplicitLocOpBuilder &b = context.b;
    const NetworkStep &step = launches[currentLaunch()].steps.front();
    int64_t n = sort->operandCount();
    // The outputs, then the positions of a stable sort (the scratch
    // buffer), exchanged together.
    SmallVector<Value> buffers(context.outputs);
    buffers.append(context.scratch.begin(), context.scratch.end());
    SmallVector<Shape> shapes;
    for (int64_t i = 0; i < n; ++i)
      shapes.push_back(*fusionOutputs()[i].shape);
    if (!context.scratch.empty())
      shapes.push_back(positionsShape());
    llvm::Expected<Operation *> loop = emitLoop(
        b, context.threadAndBlockIds,
        elementIndexing({rows, padded / 2}, kPairsPerGlobalThread, b.getContext()), buffers,
        [&](ImplicitLocOpBuilder &nested, ValueRange, ValueRange rowAndPair,
            ValueRange outputs) -> BodyValues {
          SmallVector<Value> rowCoordinates = delinearizeIndex(nested, rowAndPair[0], otherDims);
          auto [low, high] = pairPositions(
              nested, rowAndPair[1], arith::ConstantIndexOp::create(nested, step.j),
              arith::ConstantIntOp::create(nested, step.mirror ? 1 : 0, 1));
          Value inside = arith::CmpIOp::create(nested, arith::CmpIPredicate::ult, high,
                                               arith::ConstantIndexOp::create(nested, size));
          return emitIf(
              nested, inside, outputs,
              [&, low = low, high = high](ImplicitLocOpBuilder &inner) -> BodyValues {
                SmallVector<Value> lowIndex = elementIndex(rowCoordinates, low);
                SmallVector<Value> highIndex = elementIndex(rowCoordinates, high);
                SmallVector<Value> lowValues, highValues;
                for (size_t i = 0; i < shapes.size(); ++i) {
                  lowValues.push_back(tensor::ExtractOp::create(
                      inner, outputs[i], bufferIndices(shapes[i], lowIndex)));
                  highValues.push_back(tensor::ExtractOp::create(
                      inner, outputs[i], bufferIndices(shapes[i], highIndex)));
                }
                llvm::Expected<Value> swap = swapCondition(inner, context, lowValues, highValues);
                if (!swap)
                  return swap.takeError();
                return emitIf(inner, *swap, outputs, [&](ImplicitLocOpBuilder &then) -> BodyValues {
                  SmallVector<SmallVector<Value>> lows, highs;
                  for (const Shape &shape : shapes) {
                    lows.push_back(bufferIndices(shape, lowIndex));
                    highs.push_back(bufferIndices(shape, highIndex));
                  }
                  return exchanged(then, outputs, lows, highs);
                });
              });
        });
    if (!loop)
      return loop.takeError();
    func::ReturnOp::create(b, (*loop)->getResults());
    return llvm::Error::success();
  }

  const HloInstruction *sort;
  bool stable;
  int64_t tile;
  std::vector<int64_t> dims, otherDims;
  int64_t sortDim = 0, size = 0, padded = 1, rows = 1;
  std::vector<SortLaunch> launches;
};

} // namespace

std::unique_ptr<EmitterBase> createSortEmitter(const FusionAnalysis &analysis,
                                               const HloComputation &fused,
                                               const GpuDeviceInfo &device) {
  const HloInstruction *sort = analysis.roots.front();
  int64_t padded = paddedSortSize(*sort);
  // The tile: the largest power of two <= 4096 whose shared tiles fit.
  int64_t tile = kMaxTile;
  while (tile > 2 && tileBytes(*sort, tile) > kSharedMemoryLimit)
    tile /= 2;
  return std::make_unique<SortEmitter>(analysis, fused, device, std::min(tile, padded));
}

} // namespace hlo
