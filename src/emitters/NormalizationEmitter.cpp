//===- NormalizationEmitter.cpp - Block-level normalization fusions -------===//
#include "emitters/NormalizationEmitter.h"

#include "analysis/NormalizationAnalysis.h"
#include "dialect/XlaGpuDialect.h"
#include "emitters/TypeConversion.h"
#include "hlo_parser/OpAttributes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;

namespace hlo {
namespace {

constexpr int64_t kWarpSize = 32;
constexpr int64_t kMaxThreadsPerBlock = 1024;
/// Bytes a thread reads at once from its neighbouring elements (a 128-bit
/// load, as XLA's Triton kernels make).
constexpr int64_t kVectorBytes = 16;
/// The most elements of a row one thread walks as straight-line code (so
/// that every pass reads the same registers); longer rows are walked in a
/// loop, each pass reading the row again.
constexpr int64_t kMaxElementsInRegisters = 32;

/// `fused` with each of `reductions` replaced by a broadcast of a new
/// scalar parameter (numbered after the fusion's own, in order), so that
/// emitting it reads the values a block computed. `clones` maps each
/// instruction of `fused` to its copy (a reduce to its broadcast).
std::unique_ptr<HloComputation>
withReductionsAsParameters(const HloComputation &fused,
                           const std::vector<const HloInstruction *> &reductions,
                           std::map<const HloInstruction *, HloInstruction *> &clones) {
  auto staged = std::make_unique<HloComputation>(fused.name() + ".rows");
  staged->setParent(fused.parent());
  auto add = [&](HloOpcode opcode, const std::string &name, const Shape &shape,
                 uint32_t offset) {
    auto instruction = std::make_unique<HloInstruction>(opcode, name, shape);
    instruction->setSourceOffset(offset);
    return staged->addInstruction(std::move(instruction));
  };
  for (const auto &instruction : fused.instructions()) {
    auto reduction = std::find(reductions.begin(), reductions.end(), instruction.get());
    if (reduction != reductions.end()) {
      const Shape &shape = instruction->shape();
      HloInstruction *value =
          add(HloOpcode::Parameter, instruction->name() + ".row_value",
              Shape(shape.elementType(), {}), instruction->sourceOffset());
      value->setParameterNumber(fused.parameterCount() + (reduction - reductions.begin()));
      HloInstruction *broadcast = add(HloOpcode::Broadcast, instruction->name(), shape,
                                      instruction->sourceOffset());
      AttrValue dimensions;
      dimensions.kind = AttrKind::IntList;
      broadcast->addAttribute({"dimensions", dimensions});
      broadcast->appendOperand(value);
      clones[instruction.get()] = broadcast;
      continue;
    }
    HloInstruction *clone = add(instruction->opcode(), instruction->name(),
                                instruction->shape(), instruction->sourceOffset());
    clone->setParameterNumber(instruction->parameterNumber());
    if (instruction->hasLiteral())
      clone->setLiteral(instruction->literal());
    for (const HloAttribute &attribute : instruction->attributes())
      clone->addAttribute(attribute);
    for (const HloInstruction *operand : instruction->operands())
      clone->appendOperand(clones.at(operand));
    clones[instruction.get()] = clone;
  }
  staged->setRoot(clones.at(fused.root()));
  staged->finalizeParameters();
  return staged;
}

class NormalizationEmitter : public EmitterBase {
public:
  NormalizationEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
                       const GpuDeviceInfo &device, const NormalizationRows &rows)
      : EmitterBase(analysis, fused, device), outputDims(rows.outputDims),
        rowDims(rows.rowDims), batchDims(rows.batchDims), reductions(rows.reductions),
        rowElements(rows.rowElements()) {
    staged = withReductionsAsParameters(fused, reductions, clones);
    int64_t work = 0;
    std::vector<int64_t> lengths = {rowElements};
    for (const HloInstruction *reduction : reductions) {
      work = std::max(work, NormalizationRows::reducedElements(*reduction));
      lengths.push_back(NormalizationRows::reducedElements(*reduction));
    }
    // The block: the warps XLA's block-level config asks for, else enough
    // threads for a vector of neighbours each.
    std::optional<int64_t> configured;
    if (analysis.blockLevelWarps)
      configured = std::clamp<int64_t>(*analysis.blockLevelWarps * kWarpSize, kWarpSize,
                                       kMaxThreadsPerBlock);
    chooseTile(analysis.blockLevelTile, configured);
    int64_t segment = segmentElements();
    work = std::max(work, segment);
    lengths.push_back(segment);
    lengths.push_back(tileSizes[rowDims.back()]);
    lengths.push_back(outputDims[rowDims.back()]);
    // The neighbours: a 16-byte load of the narrowest array read, where
    // every walk's length is a multiple of it (so that each thread's first
    // element is aligned) and every thread still has work.
    int64_t narrowest = kVectorBytes;
    for (const HloInstruction *parameter : fused.parameters())
      if (!parameter->shape().dimensions().empty())
        narrowest = std::min<int64_t>(narrowest,
                                      primitiveByteWidth(parameter->shape().elementType()));
    vector = kVectorBytes / std::max<int64_t>(narrowest, 1);
    auto fits = [&](int64_t v) {
      return llvm::all_of(lengths, [&](int64_t n) { return n % v == 0; }) &&
             work / v >= (configured ? *configured / rowsPerBlock : kWarpSize);
    };
    while (vector > 1 && !fits(vector))
      vector /= 2;
    threads = configured ? *configured
                         : std::clamp<int64_t>(
                               llvm::alignTo(llvm::divideCeil(work, vector), kWarpSize),
                               kWarpSize, kMaxThreadsPerBlock);
  }

  /// The output tile of a block, as XLA's block-level config gives it: its
  /// batch dimensions are rows side by side (each with threadsPerRow()
  /// threads: whole warps, or a power-of-two share of one), its row
  /// dimensions the part of each row the block writes; every row's
  /// reductions are over the whole row, whatever part of it the block
  /// writes (as XLA's Triton kernels keep the reduced dimension whole). Without a
  /// config, or with rows the block's threads cannot share out, a block
  /// takes one whole row.
  void chooseTile(const std::vector<int64_t> &tile, std::optional<int64_t> configured) {
    tileSizes.assign(outputDims.size(), 1);
    for (int64_t d : rowDims)
      tileSizes[d] = outputDims[d];
    rowsPerBlock = 1;
    if (!configured || tile.size() != outputDims.size())
      return;
    // A tile size over its dimension is the dimension rounded up to a power
    // of two (XLA's are powers of two): rows past the end are masked.
    auto clamped = [&](int64_t d) {
      return std::clamp<int64_t>(tile[d], 1,
                                 static_cast<int64_t>(llvm::PowerOf2Ceil(outputDims[d])));
    };
    for (int64_t d : rowDims)
      tileSizes[d] = std::min(clamped(d), outputDims[d]);
    int64_t rows = 1;
    for (int64_t d : batchDims)
      rows *= clamped(d);
    int64_t perRow = *configured / rows;
    bool shared = rows <= *configured && *configured % rows == 0 &&
                  (perRow % kWarpSize == 0 || (perRow < kWarpSize && llvm::isPowerOf2_64(perRow)));
    if (!shared)
      return;
    for (int64_t d : batchDims)
      tileSizes[d] = clamped(d);
    rowsPerBlock = rows;
  }

  LaunchDimensions launchDimensions() const override {
    LaunchDimensions launch;
    launch.threads[0] = threads;
    int64_t blocks = 1;
    for (int64_t count : tileCounts())
      blocks *= count;
    launch.blocks = splitGrid(std::max<int64_t>(blocks, 1), device);
    return launch;
  }
  int64_t sharedMemoryBytes() const override {
    int64_t bytes = 0;
    for (const HloInstruction *reduction : reductions)
      bytes = llvm::alignTo(bytes, 16) +
              slots() * primitiveByteWidth(reduction->shape().elementType());
    return bytes;
  }
  bool synchronizesThreads() const override { return true; }
  std::optional<IndexingMap> threadIdToOutputIndexing(int64_t, MLIRContext *) const override {
    return std::nullopt;
  }

protected:
  const HloComputation &emittedComputation() const override { return *staged; }
  std::vector<const HloInstruction *> valuesReadByEmitter() const override {
    std::vector<const HloInstruction *> values;
    for (const HloInstruction *reduction : reductions)
      values.push_back(clones.at(reduction->operand(0)));
    return values;
  }

  llvm::Error emitEntryFunction(EmitterContext &context) override {
    ImplicitLocOpBuilder &b = context.b;
    MLIRContext *mlirContext = b.getContext();
    llvm::Expected<NormalizationRows> rows = analyzeNormalizationRows(fused, mlirContext);
    if (!rows)
      return emissionError(fused.root(), llvm::toString(rows.takeError()));
    Value blockThread = context.threadAndBlockIds[0];
    // The block's linear id.
    LaunchDimensions launch = launchDimensions();
    Value block = context.threadAndBlockIds[1];
    for (size_t axis = 2; axis < context.threadAndBlockIds.size(); ++axis)
      block = arith::AddIOp::create(
          b, block,
          arith::MulIOp::create(b, context.threadAndBlockIds[axis],
                                constant(b, axis == 2 ? launch.blocks[0]
                                                      : launch.blocks[0] * launch.blocks[1])));
    // The tile's origin: the block's id over the tiles of each dimension.
    SmallVector<Value> origin = delinearizeIndex(b, block, tileCounts());
    for (size_t d = 0; d < outputDims.size(); ++d)
      origin[d] = arith::MulIOp::create(b, origin[d], constant(b, tileSizes[d]));
    // The thread's row: its place among the tile's rows, clamped into the
    // output (a row past the end computes the last one again and writes
    // nothing).
    Value thread = blockThread;
    Value rowValid;
    SmallVector<Value> rowStart(outputDims.size(), constant(b, 0));
    SmallVector<int64_t> rowsInTile;
    for (int64_t d : batchDims)
      rowsInTile.push_back(tileSizes[d]);
    SmallVector<Value> rowInTile(batchDims.size(), constant(b, 0));
    if (rowsPerBlock > 1) {
      Value rowInBlock = arith::DivUIOp::create(b, blockThread, constant(b, threadsPerRow()));
      thread = arith::RemUIOp::create(b, blockThread, constant(b, threadsPerRow()));
      rowInTile = delinearizeIndex(b, rowInBlock, rowsInTile);
    }
    for (size_t i = 0; i < batchDims.size(); ++i) {
      int64_t d = batchDims[i];
      rowStart[d] = clampIntoOutput(b, arith::AddIOp::create(b, origin[d], rowInTile[i]), d,
                                    rowValid);
    }
    SmallVector<int64_t> segmentSizes;
    for (int64_t d : rowDims)
      segmentSizes.push_back(tileSizes[d]);

    // The fusion's parameters, then one scalar tensor per reduction: empty
    // until the block has computed it (nothing reads it before).
    SmallVector<Value> parameters(context.parameters);
    for (const HloInstruction *reduction : reductions)
      parameters.push_back(tensor::EmptyOp::create(
          b, ArrayRef<int64_t>{},
          elementType(reduction->shape().elementType(), mlirContext)));
    size_t fusionParameters = context.parameters.size();
    for (size_t r = 0; r < reductions.size(); ++r) {
      llvm::Expected<Value> value =
          emitRowReduction(context, *reductions[r], rows->outputToReduction[r], rowStart,
                           thread, blockThread, parameters);
      if (!value)
        return value.takeError();
      parameters[fusionParameters + r] = tensor::FromElementsOp::create(
          b, RankedTensorType::get({}, value->getType()), ValueRange{*value});
    }

    // Every output element of the row.
    SmallVector<Value> outputs(context.outputs);
    BodyValues written = walkRow(
        b, thread, segmentElements(), outputs, rowValid,
        [&](ImplicitLocOpBuilder &inner, Value k, Value valid,
            ValueRange carried) -> BodyValues {
          SmallVector<Value> index(rowStart);
          SmallVector<Value> inSegment = delinearizeIndex(inner, k, segmentSizes);
          for (size_t i = 0; i < rowDims.size(); ++i) {
            int64_t d = rowDims[i];
            // A tile past the row's end: clamped, and writes nothing there.
            index[d] = clampIntoOutput(
                inner, arith::AddIOp::create(inner, origin[d], inSegment[i]), d, valid);
          }
          // The values first (reads the other passes share), then the
          // writes, only where the position is one.
          std::vector<SmallVector<Value>> rootValues;
          for (const HloInstruction *root : analysis().roots) {
            llvm::Expected<SmallVector<Value>> values =
                context.elemental.emitValue(inner, *clones.at(root), parameters, index);
            if (!values)
              return values.takeError();
            rootValues.push_back(std::move(*values));
          }
          auto write = [&](ImplicitLocOpBuilder &writer) {
            SmallVector<Value> results(carried);
            for (size_t r = 0; r < rootValues.size(); ++r)
              insertRootValues(writer, analysis().roots[r], rootValues[r], index, results);
            return results;
          };
          if (!valid)
            return BodyValues(write(inner));
          auto guarded = scf::IfOp::create(
              inner, valid,
              [&](OpBuilder &nested, Location location) {
                ImplicitLocOpBuilder writer(location, nested);
                scf::YieldOp::create(writer, write(writer));
              },
              [&](OpBuilder &nested, Location location) {
                scf::YieldOp::create(nested, location, carried);
              });
          return SmallVector<Value>(guarded.getResults());
        });
    if (!written)
      return written.takeError();
    func::ReturnOp::create(b, *written);
    return llvm::Error::success();
  }

private:
  int64_t threadsPerRow() const { return threads / rowsPerBlock; }
  /// The threads whose values one shuffle reduction combines: a warp, or
  /// a row's share of one; and one shared-memory slot for each group.
  int64_t groupSize() const { return std::min(threadsPerRow(), kWarpSize); }
  int64_t slots() const { return threads / groupSize(); }
  /// The output elements of a row one block writes.
  int64_t segmentElements() const {
    int64_t elements = 1;
    for (int64_t d : rowDims)
      elements *= tileSizes[d];
    return elements;
  }
  /// The tiles along each output dimension; blocks are their product.
  SmallVector<int64_t> tileCounts() const {
    SmallVector<int64_t> counts;
    for (size_t d = 0; d < outputDims.size(); ++d)
      counts.push_back(llvm::divideCeil(outputDims[d], tileSizes[d]));
    return counts;
  }
  static Value constant(ImplicitLocOpBuilder &b, int64_t value) {
    return arith::ConstantIndexOp::create(b, value);
  }
  /// `index` into output dimension `d`, where tiles of it can run past its
  /// end: clamped into it, and `valid` (null: always) and-ed with whether
  /// it was inside.
  Value clampIntoOutput(ImplicitLocOpBuilder &b, Value index, int64_t d, Value &valid) const {
    if (outputDims[d] % tileSizes[d] == 0)
      return index;
    Value inside =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ult, index, constant(b, outputDims[d]));
    valid = valid ? Value(arith::AndIOp::create(b, valid, inside)) : inside;
    return arith::MinUIOp::create(b, index, constant(b, outputDims[d] - 1));
  }

  /// One element of a walk: its position in the row, whether it is one
  /// (null: always; otherwise the position is clamped into the row and the
  /// body must keep `carried` where `valid` is false), the values carried
  /// along the walk -> their new values.
  using RowElementBody = llvm::function_ref<BodyValues(
      ImplicitLocOpBuilder &, Value position, Value valid, ValueRange carried)>;

  /// `body` for each of the `elements` positions of a row the thread owns,
  /// threading `carried` through: groups of `vector` neighbours starting at
  /// (j * threadsPerRow() + thread) * vector (`thread`: the index among
  /// its row's threads), each group an scf.for over its
  /// neighbours (xla-gpu-vectorize-accesses makes their reads one vector
  /// load). Every walk of the same length reads the same positions in the
  /// same order, unconditionally (a group past the row's end reads the last
  /// group and is masked), so that LLVM reads each element once for all the
  /// passes; where `rowValid` is false (a block's rows past the last) the
  /// body sees `valid` false. The groups are straight-line code when a thread owns at most
  /// kMaxElementsInRegisters elements, otherwise a loop over the whole
  /// steps that reads the row again in each pass; the step that runs past
  /// the row's end, if any, comes last.
  /// The body's first failure ends the walk with its error.
  BodyValues walkRow(ImplicitLocOpBuilder &b, Value thread, int64_t elements,
                     ValueRange carried, Value rowValid, RowElementBody body) const {
    int64_t stride = threadsPerRow() * vector;
    int64_t steps = llvm::divideCeil(elements, stride);
    bool lastPartial = elements % stride != 0;
    Value first = arith::MulIOp::create(b, thread, constant(b, vector));
    // A failure inside a loop's body builder, which cannot return it; the
    // body yields its values unchanged so that the region stays whole.
    llvm::Error failure = llvm::Error::success();
    auto bodyOrCarried = [&](ImplicitLocOpBuilder &builder, Value position, Value valid,
                             ValueRange values) -> SmallVector<Value> {
      BodyValues result = body(builder, position, valid, values);
      if (result)
        return std::move(*result);
      if (!failure)
        failure = result.takeError();
      else
        llvm::consumeError(result.takeError()); // the first failure is reported
      return SmallVector<Value>(values);
    };
    auto emitGroup = [&](ImplicitLocOpBuilder &builder, Value stepStart, bool partial,
                         ValueRange values) -> SmallVector<Value> {
      Value group = arith::AddIOp::create(builder, stepStart, first);
      Value valid = rowValid;
      if (partial) {
        Value inside = arith::CmpIOp::create(builder, arith::CmpIPredicate::ult, group,
                                             constant(builder, elements));
        group = arith::SelectOp::create(builder, inside, group,
                                        constant(builder, elements - vector));
        valid = valid ? Value(arith::AndIOp::create(builder, valid, inside)) : inside;
      }
      if (vector == 1)
        return bodyOrCarried(builder, group, valid, values);
      auto loop = scf::ForOp::create(
          builder, constant(builder, 0), constant(builder, vector), constant(builder, 1),
          values, [&](OpBuilder &nested, Location location, Value v, ValueRange current) {
            ImplicitLocOpBuilder inner(location, nested);
            Value position = arith::AddIOp::create(inner, group, v);
            scf::YieldOp::create(inner, bodyOrCarried(inner, position, valid, current));
          });
      return SmallVector<Value>(loop.getResults());
    };
    // Whole steps, then the one that runs past the row's end (masked).
    int64_t wholeSteps = elements / stride;
    SmallVector<Value> current(carried);
    if (steps * vector <= kMaxElementsInRegisters) {
      for (int64_t j = 0; j < wholeSteps; ++j)
        current = emitGroup(b, constant(b, j * stride), /*partial=*/false, current);
    } else if (wholeSteps > 0) {
      auto loop = scf::ForOp::create(
          b, constant(b, 0), constant(b, wholeSteps * stride), constant(b, stride), current,
          [&](OpBuilder &builder, Location location, Value stepStart, ValueRange values) {
            ImplicitLocOpBuilder inner(location, builder);
            scf::YieldOp::create(inner, emitGroup(inner, stepStart, /*partial=*/false, values));
          });
      current.assign(loop.getResults().begin(), loop.getResults().end());
    }
    if (lastPartial)
      current = emitGroup(b, constant(b, wholeSteps * stride), /*partial=*/true, current);
    if (failure)
      return failure;
    return current;
  }

  /// `reduction`'s value for the block's row, in every thread: a strided
  /// pass of the threads over the reduced elements, warp shuffles, then the
  /// warps' partial values through shared memory.
  llvm::Expected<Value> emitRowReduction(EmitterContext &context,
                                         const HloInstruction &reduction,
                                         const IndexingMap &outputToReduction,
                                         ValueRange rowStart, Value thread,
                                         Value blockThread, ValueRange parameters) {
    ImplicitLocOpBuilder &b = context.b;
    const HloComputation &reducer = *toApply(reduction);
    SmallVector<Value> resultIndex = applyIndexing(b, outputToReduction, rowStart);
    const HloInstruction &input = *clones.at(reduction.operand(0));
    llvm::Expected<SmallVector<Value>> init =
        context.elemental.emitValue(b, *clones.at(reduction.operand(1)), parameters, {});
    if (!init)
      return init.takeError();
    const std::vector<int64_t> &inputDims = reduction.operand(0)->shape().dimensions();
    std::vector<int64_t> reducedDims = reduction.dimensions();
    std::sort(reducedDims.begin(), reducedDims.end());
    std::vector<int64_t> reducedSizes;
    for (int64_t dim : reducedDims)
      reducedSizes.push_back(inputDims[dim]);
    BodyValues accumulated = walkRow(
        b, thread, NormalizationRows::reducedElements(reduction), *init, /*rowValid=*/Value(),
        [&](ImplicitLocOpBuilder &inner, Value k, Value valid, ValueRange carried) -> BodyValues {
          SmallVector<Value> reduced = delinearizeIndex(inner, k, reducedSizes);
          SmallVector<Value> index;
          size_t kept = 0, next = 0;
          for (size_t d = 0; d < inputDims.size(); ++d)
            index.push_back(next < reducedDims.size() &&
                                    reducedDims[next] == static_cast<int64_t>(d)
                                ? reduced[next++]
                                : resultIndex[kept++]);
          llvm::Expected<SmallVector<Value>> value =
              context.elemental.emitValue(inner, input, parameters, index);
          if (!value)
            return value.takeError();
          llvm::Expected<SmallVector<Value>> call =
              callComputation(inner, context.elemental, reducer, {carried[0], (*value)[0]});
          if (!call)
            return call.takeError();
          SmallVector<Value> combined = std::move(*call);
          if (valid)
            combined[0] = arith::SelectOp::create(inner, valid, combined[0], carried[0]);
          return combined;
        });
    if (!accumulated)
      return accumulated.takeError();
    llvm::Expected<func::FuncOp> combiner = context.elemental.scalarFunction(reducer);
    if (!combiner)
      return combiner.takeError();
    // Each group's threads combine their values (a group of one has
    // nothing to combine); its first thread writes the group's value;
    // after the barrier every thread combines its row's groups.
    Value partial = (*accumulated)[0];
    if (groupSize() > 1)
      partial = xla_gpu::ShuffleReduceOp::create(b, *combiner, *accumulated, groupSize() / 2)
                    .getResult(0);
    Type type = partial.getType();
    Value tile = xla_gpu::AllocateSharedOp::create(b, RankedTensorType::get({slots()}, type));
    Value lane = arith::RemUIOp::create(b, blockThread, constant(b, groupSize()));
    Value slot = arith::DivUIOp::create(b, blockThread, constant(b, groupSize()));
    Value first = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, lane, constant(b, 0));
    tile = xla_gpu::PredicatedInsertOp::create(b, tile.getType(), first, partial, tile,
                                               ValueRange{slot});
    tile = xla_gpu::SyncThreadsOp::create(b, ValueRange{tile}).getResult(0);
    // The slots of the thread's row: all of them, or its row's share.
    int64_t rowSlots = threadsPerRow() / groupSize();
    Value firstSlot = constant(b, 0);
    if (rowsPerBlock > 1)
      firstSlot = arith::MulIOp::create(
          b, arith::DivUIOp::create(b, blockThread, constant(b, threadsPerRow())),
          constant(b, rowSlots));
    auto slotValue = [&](int64_t w) -> Value {
      return tensor::ExtractOp::create(
          b, tile, ValueRange{arith::AddIOp::create(b, firstSlot, constant(b, w))});
    };
    Value value = slotValue(0);
    for (int64_t w = 1; w < rowSlots; ++w) {
      Value other = slotValue(w);
      llvm::Expected<SmallVector<Value>> combined =
          callComputation(b, context.elemental, reducer, {value, other});
      if (!combined)
        return combined.takeError();
      value = (*combined)[0];
    }
    return value;
  }

  std::vector<int64_t> outputDims, rowDims, batchDims;
  std::vector<const HloInstruction *> reductions;
  int64_t rowElements;
  int64_t threads = kWarpSize;
  /// The output tile of a block, per output dimension (see chooseTile).
  std::vector<int64_t> tileSizes;
  /// Neighbouring elements a thread takes at each step of a walk.
  int64_t vector = 1;
  /// Rows a block computes side by side, threadsPerRow() threads each.
  int64_t rowsPerBlock = 1;
  std::unique_ptr<HloComputation> staged;
  std::map<const HloInstruction *, HloInstruction *> clones;
};

} // namespace

llvm::Expected<std::unique_ptr<EmitterBase>>
createNormalizationEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
                           const GpuDeviceInfo &device) {
  // The structure is found again at emission, with the module's context;
  // this one only holds the maps of the check.
  MLIRContext context(MLIRContext::Threading::DISABLED);
  llvm::Expected<NormalizationRows> rows = analyzeNormalizationRows(fused, &context);
  if (!rows)
    return rows.takeError();
  return std::make_unique<NormalizationEmitter>(analysis, fused, device, *rows);
}

} // namespace hlo
