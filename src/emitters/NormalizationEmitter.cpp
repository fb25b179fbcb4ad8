//===- NormalizationEmitter.cpp - Block-level normalization fusions -------===//
#include "emitters/NormalizationEmitter.h"

#include "analysis/NormalizationAnalysis.h"
#include "dialect/XlaGpuDialect.h"
#include "emitters/TypeConversion.h"

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
/// Elements each thread takes of the longest loop of a row, at least.
constexpr int64_t kElementsPerThread = 4;

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
        rowElements(rows.rowElements()), rowCount(rows.rowCount()) {
    staged = withReductionsAsParameters(fused, reductions, clones);
    int64_t work = rowElements;
    for (const HloInstruction *reduction : reductions)
      work = std::max(work, NormalizationRows::reducedElements(*reduction));
    threads = std::clamp<int64_t>(
        llvm::alignTo(llvm::divideCeil(work, kElementsPerThread), kWarpSize), kWarpSize,
        kMaxThreadsPerBlock);
  }

  LaunchDimensions launchDimensions() const override {
    LaunchDimensions launch;
    launch.threads[0] = threads;
    launch.blocks = splitGrid(std::max<int64_t>(rowCount, 1), device);
    return launch;
  }
  int64_t sharedMemoryBytes() const override {
    int64_t bytes = 0;
    for (const HloInstruction *reduction : reductions)
      bytes = llvm::alignTo(bytes, 16) +
              warps() * primitiveByteWidth(reduction->shape().elementType());
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

  bool emitEntryFunction(EmitterContext &context, EmissionError &error) override {
    ImplicitLocOpBuilder &b = context.b;
    MLIRContext *mlirContext = b.getContext();
    std::string whyNot;
    std::optional<NormalizationRows> rows =
        analyzeNormalizationRows(fused, mlirContext, whyNot);
    if (!rows) {
      error = {fused.root(), whyNot};
      return false;
    }
    Value thread = context.threadAndBlockIds[0];
    // The row: the block's linear id over the batch dimensions.
    LaunchDimensions launch = launchDimensions();
    Value block = context.threadAndBlockIds[1];
    for (size_t axis = 2; axis < context.threadAndBlockIds.size(); ++axis)
      block = arith::AddIOp::create(
          b, block,
          arith::MulIOp::create(b, context.threadAndBlockIds[axis],
                                constant(b, axis == 2 ? launch.blocks[0]
                                                      : launch.blocks[0] * launch.blocks[1])));
    std::vector<int64_t> batchSizes, rowSizes;
    for (int64_t dim : batchDims)
      batchSizes.push_back(outputDims[dim]);
    for (int64_t dim : rowDims)
      rowSizes.push_back(outputDims[dim]);
    SmallVector<Value> rowStart(outputDims.size(), constant(b, 0));
    SmallVector<Value> batch = delinearizeIndex(b, block, batchSizes);
    for (size_t i = 0; i < batchDims.size(); ++i)
      rowStart[batchDims[i]] = batch[i];

    // The fusion's parameters, then one scalar tensor per reduction: empty
    // until the block has computed it (nothing reads it before).
    SmallVector<Value> parameters(context.parameters);
    for (const HloInstruction *reduction : reductions)
      parameters.push_back(tensor::EmptyOp::create(
          b, ArrayRef<int64_t>{},
          elementType(reduction->shape().elementType(), mlirContext)));
    size_t fusionParameters = context.parameters.size();
    for (size_t r = 0; r < reductions.size(); ++r) {
      std::optional<Value> value =
          emitRowReduction(context, *reductions[r], rows->outputToReduction[r], rowStart,
                           thread, parameters, error);
      if (!value)
        return false;
      parameters[fusionParameters + r] = tensor::FromElementsOp::create(
          b, RankedTensorType::get({}, value->getType()), ValueRange{*value});
    }

    // Every output element of the row.
    SmallVector<Value> outputs(context.outputs);
    bool failed = false;
    auto loop = scf::ForOp::create(
        b, thread, constant(b, rowElements), constant(b, threads), outputs,
        [&](OpBuilder &builder, Location location, Value k, ValueRange carried) {
          ImplicitLocOpBuilder inner(location, builder);
          SmallVector<Value> results(carried);
          SmallVector<Value> index(rowStart);
          SmallVector<Value> inRow = delinearizeIndex(inner, k, rowSizes);
          for (size_t i = 0; i < rowDims.size(); ++i)
            index[rowDims[i]] = inRow[i];
          for (const HloInstruction *root : analysis().roots) {
            SmallVector<Value> values =
                context.elemental.emitValue(inner, *clones.at(root), parameters, index, error);
            if (values.empty()) {
              failed = true;
              break;
            }
            insertRootValues(inner, root, values, index, results);
          }
          scf::YieldOp::create(inner, results);
        });
    if (failed)
      return false;
    func::ReturnOp::create(b, loop.getResults());
    return true;
  }

private:
  int64_t warps() const { return threads / kWarpSize; }
  static Value constant(ImplicitLocOpBuilder &b, int64_t value) {
    return arith::ConstantIndexOp::create(b, value);
  }

  /// `reduction`'s value for the block's row, in every thread: a strided
  /// pass of the threads over the reduced elements, warp shuffles, then the
  /// warps' partial values through shared memory.
  std::optional<Value> emitRowReduction(EmitterContext &context,
                                        const HloInstruction &reduction,
                                        const IndexingMap &outputToReduction,
                                        ValueRange rowStart, Value thread,
                                        ValueRange parameters, EmissionError &error) {
    ImplicitLocOpBuilder &b = context.b;
    const HloComputation &reducer = *reduction.computationAttr("to_apply");
    SmallVector<Value> resultIndex = applyIndexing(b, outputToReduction, rowStart);
    const HloInstruction &input = *clones.at(reduction.operand(0));
    SmallVector<Value> init =
        context.elemental.emitValue(b, *clones.at(reduction.operand(1)), parameters, {}, error);
    if (init.empty())
      return std::nullopt;
    const std::vector<int64_t> &inputDims = reduction.operand(0)->shape().dimensions();
    std::vector<int64_t> reducedDims = reduction.dimensions();
    std::sort(reducedDims.begin(), reducedDims.end());
    std::vector<int64_t> reducedSizes;
    for (int64_t dim : reducedDims)
      reducedSizes.push_back(inputDims[dim]);
    bool failed = false;
    auto accumulate = scf::ForOp::create(
        b, thread, constant(b, NormalizationRows::reducedElements(reduction)),
        constant(b, threads), init,
        [&](OpBuilder &builder, Location location, Value k, ValueRange carried) {
          ImplicitLocOpBuilder inner(location, builder);
          SmallVector<Value> reduced = delinearizeIndex(inner, k, reducedSizes);
          SmallVector<Value> index;
          size_t kept = 0, next = 0;
          for (size_t d = 0; d < inputDims.size(); ++d)
            index.push_back(next < reducedDims.size() &&
                                    reducedDims[next] == static_cast<int64_t>(d)
                                ? reduced[next++]
                                : resultIndex[kept++]);
          SmallVector<Value> value =
              context.elemental.emitValue(inner, input, parameters, index, error);
          SmallVector<Value> combined;
          if (!value.empty())
            combined = callComputation(inner, context.elemental, reducer,
                                       {carried[0], value[0]}, error);
          if (combined.empty()) {
            failed = true;
            combined.assign(carried.begin(), carried.end());
          }
          scf::YieldOp::create(inner, combined);
        });
    if (failed)
      return std::nullopt;
    func::FuncOp combiner = context.elemental.scalarFunction(reducer, error);
    if (!combiner)
      return std::nullopt;
    auto shuffled = xla_gpu::ShuffleReduceOp::create(b, combiner, accumulate.getResults(),
                                                     kWarpSize / 2);
    // Lane 0 of each warp writes its warp's value; after the barrier every
    // thread combines them all.
    Type type = shuffled.getResult(0).getType();
    Value tile = xla_gpu::AllocateSharedOp::create(b, RankedTensorType::get({warps()}, type));
    Value lane = arith::RemUIOp::create(b, thread, constant(b, kWarpSize));
    Value warp = arith::DivUIOp::create(b, thread, constant(b, kWarpSize));
    Value first = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, lane, constant(b, 0));
    tile = xla_gpu::PredicatedInsertOp::create(b, tile.getType(), first, shuffled.getResult(0),
                                               tile, ValueRange{warp});
    tile = xla_gpu::SyncThreadsOp::create(b, ValueRange{tile}).getResult(0);
    Value value = tensor::ExtractOp::create(b, tile, ValueRange{constant(b, 0)});
    for (int64_t w = 1; w < warps(); ++w) {
      Value other = tensor::ExtractOp::create(b, tile, ValueRange{constant(b, w)});
      SmallVector<Value> combined = callComputation(b, context.elemental, reducer,
                                                    {value, other}, error);
      if (combined.empty())
        return std::nullopt;
      value = combined[0];
    }
    return value;
  }

  std::vector<int64_t> outputDims, rowDims, batchDims;
  std::vector<const HloInstruction *> reductions;
  int64_t rowElements, rowCount;
  int64_t threads = kWarpSize;
  std::unique_ptr<HloComputation> staged;
  std::map<const HloInstruction *, HloInstruction *> clones;
};

} // namespace

std::unique_ptr<EmitterBase> createNormalizationEmitter(const FusionAnalysis &analysis,
                                                        const HloComputation &fused,
                                                        const GpuDeviceInfo &device,
                                                        std::string &unsupported) {
  // The structure is found again at emission, with the module's context;
  // this one only holds the maps of the check.
  MLIRContext context(MLIRContext::Threading::DISABLED);
  std::optional<NormalizationRows> rows = analyzeNormalizationRows(fused, &context, unsupported);
  if (!rows)
    return nullptr;
  return std::make_unique<NormalizationEmitter>(analysis, fused, device, *rows);
}

} // namespace hlo
