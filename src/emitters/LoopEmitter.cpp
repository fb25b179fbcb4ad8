//===- LoopEmitter.cpp - The loop (elementwise) fusion emitter ------------===//
#include "emitters/LoopEmitter.h"

#include "analysis/HeroAnalysis.h"
#include "analysis/OpIndexing.h"
#include "dialect/XlaGpuDialect.h"
#include "emitters/TypeConversion.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <numeric>

using namespace mlir;

namespace hlo {

namespace {

constexpr int64_t kMaxThreadsPerBlock = 128;

/// Ops that make unrolling counter-productive (XLA's list).
bool hasExpensiveOp(const HloComputation &computation) {
  for (const auto &inst : computation.instructions()) {
    switch (inst->opcode()) {
    case HloOpcode::Sort:
    case HloOpcode::Dot:
      return true;
    case HloOpcode::Reduce:
      if (inst->operandCount() > 2)
        return true; // variadic
      break;
    case HloOpcode::ReduceWindow:
      if (inst->operand(0)->shape().elementCount() > 1024)
        return true;
      break;
    case HloOpcode::Concatenate:
      if (inst->operandCount() > 10)
        return true;
      break;
    default:
      break;
    }
  }
  return false;
}

} // namespace

LoopEmitter::LoopEmitter(const HloComputation &fusedComputation,
                         const GpuDeviceInfo &device)
    : fused(fusedComputation) {
  for (const HloInstruction *root : getFusionRoots(fused)) {
    const Shape &shape = root->shape();
    if (shape.isTuple()) {
      for (int64_t i = 0; i < shape.tupleSize(); ++i)
        outputs.push_back({root, i, &shape.tupleShapes()[i]});
    } else {
      outputs.push_back({root, 0, &shape});
    }
  }
  for (const Output &output : outputs)
    elements = std::max(elements, output.shape->elementCount());
  elements = std::max<int64_t>(elements, 1);
  bool large = elements >= device.threadsPerSM * device.smCount;
  unroll = large && !hasExpensiveOp(fused) ? std::gcd(elements, int64_t(4)) : 1;
  int64_t n = (elements + unroll - 1) / unroll;
  int64_t threads = std::min(kMaxThreadsPerBlock, n);
  launch.threads[0] = threads;
  int64_t blocks = (n + threads - 1) / threads;
  // Past the x-dimension limit the grid becomes x * y, past y's x * y * z
  // (the block id is (z * Y + y) * X + x). An array's size fits in 64 bits
  // (the verifier), so x * y * z always suffices.
  launch.blocks[0] = std::min(blocks, device.blockDimLimitX);
  int64_t rows = (blocks + launch.blocks[0] - 1) / launch.blocks[0];
  launch.blocks[1] = std::min(rows, device.blockDimLimitYZ);
  launch.blocks[2] = (rows + launch.blocks[1] - 1) / launch.blocks[1];
}

IndexingMap LoopEmitter::threadIdToOutputIndexing(const std::vector<int64_t> &outputDims,
                                                  MLIRContext *context) const {
  int64_t count = 1;
  for (int64_t dim : outputDims)
    count *= dim;
  bool gridY = launch.blocks[1] > 1 || launch.blocks[2] > 1;
  bool gridZ = launch.blocks[2] > 1;
  AffineExpr threadId = getAffineDimExpr(0, context);
  AffineExpr blockId = getAffineDimExpr(1, context);
  if (gridY) {
    AffineExpr row = getAffineDimExpr(2, context);
    if (gridZ)
      row = getAffineDimExpr(3, context) * launch.blocks[1] + row;
    blockId = row * launch.blocks[0] + blockId;
  }
  AffineExpr vector = getAffineSymbolExpr(0, context);
  AffineExpr linear =
      (blockId * launch.threads[0] + threadId) * unroll + vector;
  std::vector<AffineExpr> results;
  int64_t stride = count;
  for (size_t d = 0; d < outputDims.size(); ++d) {
    stride /= outputDims[d];
    AffineExpr index = linear.floorDiv(stride);
    results.push_back(d == 0 ? index : index % outputDims[d]);
  }
  std::vector<IndexingVar> dims = {
      {Interval{0, launch.threads[0] - 1}, "th_x"},
      {Interval{0, launch.blocks[0] - 1}, "bl_x"}};
  if (gridY)
    dims.push_back({Interval{0, launch.blocks[1] - 1}, "bl_y"});
  if (gridZ)
    dims.push_back({Interval{0, launch.blocks[2] - 1}, "bl_z"});
  std::vector<IndexingVar> ranges = {{Interval{0, unroll - 1}, "vector_index"}};
  IndexingMap map(AffineMap::get(dims.size(), 1, results, context), dims,
                  ranges, {});
  __int128 launched = (__int128)launch.blocks[0] * launch.blocks[1] * launch.blocks[2] *
                     launch.threads[0] * unroll;
  if (launched > count)
    map.addConstraint(linear, Interval{0, std::max<int64_t>(count, 1) - 1});
  map.simplify();
  return map;
}

bool LoopEmitter::emitEntryFunction(ModuleOp module, const std::string &name,
                                    const PartitionedComputation &partitioned,
                                    ElementalEmitter &elemental, Location location,
                                    EmissionError &error) {
  MLIRContext *context = module.getContext();
  SmallVector<Type> inputs, outputTypes;
  for (const HloInstruction *parameter : fused.parameters())
    inputs.push_back(bufferTensorType(parameter->shape(), context));
  for (const Output &output : outputs)
    outputTypes.push_back(bufferTensorType(*output.shape, context));
  SmallVector<Type> arguments = inputs;
  arguments.append(outputTypes);
  OpBuilder builder(context);
  builder.setInsertionPointToEnd(module.getBody());
  ImplicitLocOpBuilder b(location, builder);
  auto function = func::FuncOp::create(
      b, name, FunctionType::get(context, arguments, outputTypes));
  function->setAttr(xla_gpu::kBlockSizeAttr,
                    b.getDenseI64ArrayAttr({launch.threads[0], launch.threads[1],
                                            launch.threads[2]}));
  function->setAttr(xla_gpu::kGridSizeAttr,
                    b.getDenseI64ArrayAttr({launch.blocks[0], launch.blocks[1],
                                            launch.blocks[2]}));
  Block *entry = function.addEntryBlock();
  b.setInsertionPointToStart(entry);
  // Ids carry their launch bound (gpu's `upper_bound`, exclusive), which
  // the pipeline's range analysis uses.
  auto withBound = [&](Value id, int64_t count) {
    id.getDefiningOp()->setAttr("upper_bound", b.getIndexAttr(count));
    return id;
  };
  Value threadId = withBound(gpu::ThreadIdOp::create(b, gpu::Dimension::x),
                             launch.threads[0]);
  Value blockId = withBound(gpu::BlockIdOp::create(b, gpu::Dimension::x),
                            launch.blocks[0]);
  SmallVector<Value> gridIds = {threadId, blockId};
  if (launch.blocks[1] > 1 || launch.blocks[2] > 1)
    gridIds.push_back(withBound(gpu::BlockIdOp::create(b, gpu::Dimension::y),
                                launch.blocks[1]));
  if (launch.blocks[2] > 1)
    gridIds.push_back(withBound(gpu::BlockIdOp::create(b, gpu::Dimension::z),
                                launch.blocks[2]));
  ValueRange parameters = entry->getArguments().take_front(inputs.size());
  ValueRange outputArgs = entry->getArguments().drop_front(inputs.size());
  // Outputs of one shape share a loop; each shape gets its own.
  std::vector<std::vector<size_t>> groups;
  for (size_t i = 0; i < outputs.size(); ++i) {
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto &group) {
      return outputs[group.front()].shape->dimensions() ==
             outputs[i].shape->dimensions();
    });
    if (it == groups.end())
      groups.push_back({i});
    else
      it->push_back(i);
  }
  SmallVector<Value> results(outputs.size());
  for (const std::vector<size_t> &group : groups) {
    std::vector<int64_t> dims = outputs[group.front()].shape->dimensions();
    if (outputs[group.front()].shape->elementCount() == 0) {
      for (size_t i : group) // nothing to write
        results[i] = outputArgs[i];
      continue;
    }
    IndexingMap map = threadIdToOutputIndexing(dims, context);
    SmallVector<Value> inits;
    SmallVector<Type> types;
    for (size_t i : group) {
      inits.push_back(outputArgs[i]);
      types.push_back(outputTypes[i]);
    }
    OperationState state(b.getLoc(), xla_gpu::LoopOp::getOperationName());
    xla_gpu::LoopOp::build(b, state, TypeRange(types), gridIds,
                           xla_gpu::IndexingMapAttr::get(context, map), inits);
    auto loop = llvm::cast<xla_gpu::LoopOp>(b.create(state));
    Block *body = new Block();
    loop.getRegion().push_back(body);
    for (int64_t s = 0; s < map.getSymbolCount(); ++s)
      body->addArgument(b.getIndexType(), b.getLoc());
    for (size_t d = 0; d < dims.size(); ++d)
      body->addArgument(b.getIndexType(), b.getLoc());
    for (Type type : types)
      body->addArgument(type, b.getLoc());
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(body);
    ValueRange indices = loop.getMapResults();
    SmallVector<Value> updated;
    std::map<const HloInstruction *, SmallVector<Value>> computed;
    for (size_t slot = 0; slot < group.size(); ++slot) {
      const Output &output = outputs[group[slot]];
      SmallVector<Value> &values = computed[output.root];
      if (values.empty()) {
        const Subgraph *subgraph = partitioned.subgraphRootedAt(output.root);
        if (subgraph) {
          values = elemental.callSubgraph(b, *subgraph, parameters, indices);
        } else if (output.root->opcode() == HloOpcode::Parameter) {
          values.push_back(tensor::ExtractOp::create(
              b, parameters[output.root->parameterNumber()],
              bufferIndices(output.root->shape(), indices)));
        } else {
          error = {output.root, "unsupported: " +
                                    std::string(opcodeName(output.root->opcode())) +
                                    " as a fusion output"};
          return false;
        }
      }
      updated.push_back(tensor::InsertOp::create(b, values[output.index],
                                                 loop.getIterArgs()[slot],
                                                 bufferIndices(*output.shape, indices)));
    }
    xla_gpu::YieldOp::create(b, updated);
    b.setInsertionPointAfter(loop);
    for (size_t slot = 0; slot < group.size(); ++slot)
      results[group[slot]] = loop.getResult(slot);
  }
  func::ReturnOp::create(b, results);
  return true;
}

} // namespace hlo
