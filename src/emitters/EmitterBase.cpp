//===- EmitterBase.cpp - What every hero emitter shares -------------------===//
#include "emitters/EmitterBase.h"

#include "analysis/HeroAnalysis.h"
#include "analysis/OpIndexing.h"
#include "dialect/KernelContract.h"
#include "dialect/XlaGpuDialect.h"
#include "emitters/TypeConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <functional>
#include <set>

using namespace mlir;

namespace hlo {

std::array<int64_t, 3> splitGrid(int64_t blocks, const GpuDeviceInfo &device) {
  // Past the x-dimension limit the grid becomes x * y, past y's x * y * z.
  // An array's size fits in 64 bits (the verifier), so x * y * z always
  // suffices. As XLA's launches, the blocks are spread evenly over the
  // rows (x = ceil(blocks / rows)), so that at most rows - 1 launched
  // blocks have no work; a full x row would leave up to a row idle.
  auto ceilDiv = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
  std::array<int64_t, 3> grid;
  blocks = std::max<int64_t>(blocks, 1);
  int64_t rows = ceilDiv(blocks, device.blockDimLimitX);
  grid[0] = ceilDiv(blocks, rows);
  grid[2] = ceilDiv(rows, device.blockDimLimitYZ);
  grid[1] = ceilDiv(rows, grid[2]);
  return grid;
}

LaunchDimensions threadPerItemLaunch(int64_t items, int64_t threadsPerBlock,
                                     const GpuDeviceInfo &device) {
  LaunchDimensions launch;
  items = std::max<int64_t>(items, 1);
  launch.threads[0] = std::min(threadsPerBlock, items);
  launch.blocks = splitGrid((items + launch.threads[0] - 1) / launch.threads[0], device);
  return launch;
}

const Shape &firstArrayShape(const Shape &shape) {
  return shape.isTuple() ? shape.tupleShapes()[0] : shape;
}

Shape normalFormShape(const std::vector<int64_t> &dims) {
  return Shape(PrimitiveType::F32, dims);
}

EmitterBase::EmitterBase(const FusionAnalysis &analysis, const HloComputation &fused,
                         const GpuDeviceInfo &device)
    : fused(fused), device(device), analysisValue(analysis) {
  for (const HloInstruction *root : getFusionRoots(fused)) {
    const Shape &shape = root->shape();
    if (shape.isTuple()) {
      for (int64_t i = 0; i < shape.tupleSize(); ++i)
        outputs.push_back({root, i, &shape.tupleShapes()[i]});
    } else {
      outputs.push_back({root, 0, &shape});
    }
  }
}

int64_t EmitterBase::outputIndex(const HloInstruction *root, int64_t leaf) const {
  for (size_t i = 0; i < outputs.size(); ++i)
    if (outputs[i].root == root && outputs[i].leaf == leaf)
      return static_cast<int64_t>(i);
  return -1;
}

std::vector<IndexingVar> EmitterBase::launchDimVars() const {
  LaunchDimensions launch = launchDimensions();
  std::vector<IndexingVar> dims = {{Interval{0, launch.threads[0] - 1}, "th_x"},
                                   {Interval{0, launch.blocks[0] - 1}, "bl_x"}};
  if (launch.blocks[1] > 1 || launch.blocks[2] > 1)
    dims.push_back({Interval{0, launch.blocks[1] - 1}, "bl_y"});
  if (launch.blocks[2] > 1)
    dims.push_back({Interval{0, launch.blocks[2] - 1}, "bl_z"});
  return dims;
}

IndexingMap EmitterBase::launchMap(llvm::ArrayRef<AffineExpr> results,
                                   llvm::ArrayRef<int64_t> symbolSizes,
                                   MLIRContext *context) const {
  std::vector<IndexingVar> dims = launchDimVars();
  std::vector<IndexingVar> ranges;
  for (int64_t size : symbolSizes)
    ranges.push_back({Interval{0, size - 1}, ""});
  return IndexingMap(AffineMap::get(dims.size(), ranges.size(), results, context), dims,
                     ranges, {});
}

AffineExpr EmitterBase::threadIdExpr(MLIRContext *context) const {
  return getAffineDimExpr(0, context);
}

AffineExpr EmitterBase::blockIdExpr(int axis, MLIRContext *context) const {
  int64_t position = 1 + axis;
  if (position >= static_cast<int64_t>(launchDimVars().size()))
    return getAffineConstantExpr(0, context);
  return getAffineDimExpr(position, context);
}

IndexingMap EmitterBase::elementIndexing(const std::vector<int64_t> &dims, int64_t unroll,
                                        MLIRContext *context) const {
  LaunchDimensions launch = launchDimensions();
  int64_t count = 1;
  for (int64_t dim : dims)
    count *= dim;
  // The block id is (z * Y + y) * X + x.
  AffineExpr blockId = (blockIdExpr(2, context) * launch.blocks[1] + blockIdExpr(1, context)) *
                           launch.blocks[0] +
                       blockIdExpr(0, context);
  AffineExpr vector = getAffineSymbolExpr(0, context);
  AffineExpr linear = (blockId * launch.threads[0] + threadIdExpr(context)) * unroll + vector;
  std::vector<AffineExpr> results;
  int64_t stride = count;
  for (size_t d = 0; d < dims.size(); ++d) {
    stride /= dims[d];
    AffineExpr index = linear.floorDiv(stride);
    results.push_back(d == 0 ? index : index % dims[d]);
  }
  std::vector<IndexingVar> dimVars = launchDimVars();
  std::vector<IndexingVar> ranges = {{Interval{0, unroll - 1}, "vector_index"}};
  IndexingMap map(AffineMap::get(dimVars.size(), 1, results, context), dimVars, ranges, {});
  __int128 launched = (__int128)launch.blockCount() * launch.threads[0] * unroll;
  // Threads past the last element do nothing. Where the unroll divides the
  // elements, that is a bound on the thread alone (no element of a
  // thread's vector is cut), so that its accesses stay one vector.
  if (launched > count) {
    if (count % unroll == 0)
      map.addConstraint(blockId * launch.threads[0] + threadIdExpr(context),
                        Interval{0, std::max<int64_t>(count / unroll, 1) - 1});
    else
      map.addConstraint(linear, Interval{0, std::max<int64_t>(count, 1) - 1});
  }
  map.simplify();
  return map;
}

SmallVector<Value> EmitterBase::delinearizeIndex(ImplicitLocOpBuilder &b, Value linear,
                                            ArrayRef<int64_t> dims) {
  SmallVector<Value> result(dims.size());
  for (size_t k = dims.size(); k-- > 0;) {
    Value size = arith::ConstantIndexOp::create(b, dims[k]);
    result[k] = k == 0 ? linear : Value(arith::RemUIOp::create(b, linear, size));
    if (k > 0)
      linear = arith::DivUIOp::create(b, linear, size);
  }
  return result;
}

EmitterBase::BodyValues EmitterBase::emitIf(ImplicitLocOpBuilder &b, Value condition,
                                             ValueRange values, const BranchBody &body) const {
  llvm::Error failure = llvm::Error::success();
  auto branch = scf::IfOp::create(
      b, condition,
      [&](OpBuilder &builder, Location location) {
        ImplicitLocOpBuilder inner(location, builder);
        BodyValues results = body(inner);
        if (!results) {
          // The kernel is abandoned; the branch only needs a terminator.
          failure = results.takeError();
          scf::YieldOp::create(inner, values);
          return;
        }
        scf::YieldOp::create(inner, *results);
      },
      [&](OpBuilder &builder, Location location) {
        scf::YieldOp::create(builder, location, values);
      });
  if (failure)
    return failure;
  return SmallVector<Value>(branch.getResults());
}

llvm::Expected<Operation *> EmitterBase::emitLoop(ImplicitLocOpBuilder &b, ValueRange dims,
                                                  const IndexingMap &map, ValueRange inits,
                                                  const LoopBody &body) const {
  MLIRContext *context = b.getContext();
  SmallVector<Type> types;
  for (Value init : inits)
    types.push_back(init.getType());
  OperationState state(b.getLoc(), xla_gpu::LoopOp::getOperationName());
  xla_gpu::LoopOp::build(b, state, TypeRange(types), dims,
                         xla_gpu::IndexingMapAttr::get(context, map), inits);
  auto loop = cast<xla_gpu::LoopOp>(b.create(state));
  Block *block = new Block();
  loop.getRegion().push_back(block);
  for (int64_t s = 0; s < map.getRangeVarCount(); ++s)
    block->addArgument(b.getIndexType(), b.getLoc());
  for (unsigned r = 0; r < map.getAffineMap().getNumResults(); ++r)
    block->addArgument(b.getIndexType(), b.getLoc());
  for (Type type : types)
    block->addArgument(type, b.getLoc());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(block);
  BodyValues yielded =
      body(b, loop.getRangeVars(), loop.getMapResults(), loop.getIterArgs());
  if (!yielded)
    return yielded.takeError();
  if (yielded->size() != inits.size())
    return emissionError(nullptr, "internal error: a loop body yields " +
                                      std::to_string(yielded->size()) + " values for " +
                                      std::to_string(inits.size()) + " iteration values");
  xla_gpu::YieldOp::create(b, *yielded);
  return loop.getOperation();
}

SmallVector<Value> EmitterBase::applyIndexing(ImplicitLocOpBuilder &b,
                                              const IndexingMap &map, ValueRange dims,
                                              ValueRange symbols) const {
  SmallVector<Value> operands(dims.begin(), dims.end());
  operands.append(symbols.begin(), symbols.end());
  SmallVector<Type> types(map.getAffineMap().getNumResults(), b.getIndexType());
  if (types.empty())
    return {};
  auto op = xla_gpu::ApplyIndexingOp::create(
      b, types, operands, xla_gpu::IndexingMapAttr::get(b.getContext(), map));
  return SmallVector<Value>(op.getResults().begin(), op.getResults().end());
}

Value EmitterBase::checkConstraints(ImplicitLocOpBuilder &b, const IndexingMap &map,
                                    ValueRange dims, ValueRange symbols) const {
  // The constraints, and the dimension bounds that simplification tightened
  // below the launch's (a constraint on one id becomes its bound).
  SmallVector<AffineExpr> exprs;
  SmallVector<Interval> ranges;
  std::vector<IndexingVar> launchVars = launchDimVars();
  for (int64_t d = 0; d < map.getDimCount(); ++d) {
    const Interval &bound = map.getDimVars()[d].bounds;
    if (d >= static_cast<int64_t>(launchVars.size()) || bound != launchVars[d].bounds) {
      exprs.push_back(getAffineDimExpr(d, b.getContext()));
      ranges.push_back(bound);
    }
  }
  for (const IndexingConstraint &constraint : map.getConstraints()) {
    exprs.push_back(constraint.expr);
    ranges.push_back(constraint.range);
  }
  Value inside = arith::ConstantIntOp::create(b, 1, 1);
  if (exprs.empty())
    return inside;
  // Evaluated over the launch's full domain: every thread computes it.
  std::vector<IndexingVar> dimVars = map.getDimVars();
  for (size_t d = 0; d < dimVars.size() && d < launchVars.size(); ++d)
    dimVars[d] = launchVars[d];
  IndexingMap values(AffineMap::get(map.getDimCount(), map.getSymbolCount(), exprs,
                                    b.getContext()),
                     dimVars, map.getRangeVars(), map.getRuntimeVars());
  SmallVector<Value> results = applyIndexing(b, values, dims, symbols);
  for (auto [value, range] : llvm::zip(results, ranges)) {
    Value low = arith::CmpIOp::create(b, arith::CmpIPredicate::sge, value,
                                      arith::ConstantIndexOp::create(b, range.lower));
    Value high = arith::CmpIOp::create(b, arith::CmpIPredicate::sle, value,
                                       arith::ConstantIndexOp::create(b, range.upper));
    inside = arith::AndIOp::create(b, inside, arith::AndIOp::create(b, low, high));
  }
  return inside;
}

std::optional<IndexingMap>
EmitterBase::heroToRootIndexing(const HloInstruction *hero, const HloInstruction *root,
                                     MLIRContext *context) const {
  // The path from the root up to the hero, as (instruction, the operand
  // it reads the hero's value through); epilogues are elementwise and
  // index-moving ops, so the first path found is the one.
  std::vector<std::pair<const HloInstruction *, int64_t>> path;
  std::set<const HloInstruction *> deadEnds;
  std::function<bool(const HloInstruction *)> reaches = [&](const HloInstruction *inst) {
    if (inst == hero)
      return true;
    if (deadEnds.count(inst))
      return false;
    for (int64_t i = 0; i < inst->operandCount(); ++i) {
      path.push_back({inst, i});
      if (reaches(inst->operand(i)))
        return true;
      path.pop_back();
    }
    deadEnds.insert(inst);
    return false;
  };
  if (!reaches(root))
    return std::nullopt;
  IndexingMap map = IndexingMap::identity(firstArrayShape(hero->shape()).dimensions(), context);
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    llvm::Expected<IndexingMapSets> maps =
        computeInputToOutputIndexing(*it->first, it->second, context);
    if (!maps) {
      llvm::consumeError(maps.takeError());
      return std::nullopt;
    }
    if ((*maps)[0].size() != 1 || (*maps)[0][0].isUndefined())
      return std::nullopt;
    map = composeIndexingMaps(map, (*maps)[0][0]);
    map.simplify();
  }
  return map;
}

std::optional<IndexingMap> EmitterBase::rootIndexing(const IndexingMap &heroIndex,
                                                     const HloInstruction *hero,
                                                     const HloInstruction *root,
                                                     MLIRContext *context) const {
  std::optional<IndexingMap> toRoot = heroToRootIndexing(hero, root, context);
  if (!toRoot)
    return std::nullopt;
  IndexingMap map = composeIndexingMaps(heroIndex, *toRoot);
  map.simplify();
  return map;
}

llvm::Error EmitterBase::epilogueWithoutIndexing(const HloInstruction *hero,
                                                 const HloInstruction *root) {
  return emissionError(root, "unsupported: an epilogue from '" + hero->name() + "' to '" +
                                 root->name() + "' without indexing rules");
}

void EmitterBase::insertRootValues(ImplicitLocOpBuilder &b, const HloInstruction *root,
                                   ValueRange values, ValueRange rootIndex,
                                   SmallVectorImpl<Value> &outputs) const {
  for (size_t leaf = 0; leaf < values.size(); ++leaf) {
    int64_t output = outputIndex(root, static_cast<int64_t>(leaf));
    outputs[output] = tensor::InsertOp::create(
        b, values[leaf], outputs[output],
        bufferIndices(*fusionOutputs()[output].shape, rootIndex));
  }
}

llvm::Expected<SmallVector<Value>>
EmitterBase::callComputation(ImplicitLocOpBuilder &b, IndexedValueEmitter &elemental,
                             const HloComputation &computation, ValueRange arguments) {
  llvm::Expected<func::FuncOp> function = elemental.scalarFunction(computation);
  if (!function)
    return function.takeError();
  auto call = xla_gpu::PureCallOp::create(b, *function, arguments);
  // No values: every caller's failure, which recorded nothing.
  if (call.getResults().empty())
    return emissionError(nullptr, "");
  return SmallVector<Value>(call.getResults());
}

llvm::Error EmitterBase::emit(ModuleOp module, const std::string &name, SymbolNamer &namer,
                              const SourceLocations &locations, Location location,
                              std::vector<KernelLaunchRecord> &records) {
  MLIRContext *context = module.getContext();
  for (const HloInstruction *parameter : fused.parameters())
    if (!parameter->shape().isArray())
      return emissionError(parameter, "unsupported: tuple-shaped fusion parameter");
  // The kernel writes each distinct root once; a tuple that names one
  // value twice would leave the second output unwritten.
  if (const HloInstruction *root = fused.root(); root->opcode() == HloOpcode::Tuple)
    for (int64_t i = 0; i < root->operandCount(); ++i)
      for (int64_t j = 0; j < i; ++j)
        if (root->operand(i) == root->operand(j))
          return emissionError(root, "unsupported: fusion outputs " + std::to_string(j) +
                                         " and " + std::to_string(i) +
                                         " are one value (" + root->operand(i)->name() + ")");
  std::set<const HloInstruction *> extraRoots;
  for (const HloInstruction *value : valuesReadByEmitter())
    if (!isSubgraphLeaf(*value))
      extraRoots.insert(value);
  PartitionedComputation partitioned(emittedComputation(), context, extraRoots, epilogues());
  IndexedValueEmitter elemental(module, partitioned, namer, locations);
  std::vector<func::FuncOp> functions;
  int64_t count = launchCount();
  for (launchIndex = 0; launchIndex < count; ++launchIndex) {
    KernelLaunchRecord record;
    std::string launchName = launchIndex == 0
                                 ? name
                                 : namer.claim(name + "_" + std::to_string(launchIndex));
    if (llvm::Error error =
            emitLaunch(module, launchName, partitioned, elemental, location, record))
      return error;
    record.launchIndex = launchIndex;
    record.launchCount = count;
    records.push_back(record);
  }
  launchIndex = 0;
  if (llvm::Error error = elemental.emitPendingFunctions())
    return error;
  // The kernels after the functions they call, as a reader expects.
  elemental.moveFunctionsToEnd();
  for (size_t k = records.size() - count; k < records.size(); ++k)
    module.lookupSymbol(records[k].name)->moveBefore(module.getBody(), module.getBody()->end());
  return llvm::Error::success();
}

llvm::Error EmitterBase::emitLaunch(ModuleOp module, const std::string &name,
                                    const PartitionedComputation &partitioned,
                                    IndexedValueEmitter &elemental, Location location,
                                    KernelLaunchRecord &record) {
  MLIRContext *context = module.getContext();
  // Buffers are arrays of element types the kernel can load and store: a
  // token (infeed/outfeed ordering) or a tuple parameter is none.
  auto bufferFor = [&](const Shape &shape, const HloInstruction *instruction) -> llvm::Error {
    if (shape.isArray() && elementType(shape.elementType(), context))
      return llvm::Error::success();
    return emissionError(instruction, "unsupported: a kernel buffer of type " +
                                          shape.toString(/*printLayout=*/false));
  };
  SmallVector<Type> inputTypes, outputTypes;
  for (const HloInstruction *parameter : fused.parameters()) {
    if (llvm::Error error = bufferFor(parameter->shape(), parameter))
      return error;
    inputTypes.push_back(bufferTensorType(parameter->shape(), context));
  }
  for (const FusionOutput &output : outputs) {
    if (llvm::Error error = bufferFor(*output.shape, output.root))
      return error;
    outputTypes.push_back(bufferTensorType(*output.shape, context));
  }
  std::vector<Shape> scratch = scratchBuffers();
  for (const Shape &shape : scratch)
    outputTypes.push_back(bufferTensorType(shape, context));
  SmallVector<Type> arguments = inputTypes;
  arguments.append(outputTypes);
  OpBuilder builder(context);
  builder.setInsertionPointToEnd(module.getBody());
  ImplicitLocOpBuilder b(location, builder);
  auto function =
      func::FuncOp::create(b, name, FunctionType::get(context, arguments, outputTypes));
  LaunchDimensions launch = launchDimensions();
  // Tiles past the static limit (48 KiB) live in dynamic shared memory,
  // all of them (the targets place them there, in the same layout).
  int64_t sharedBytes = sharedMemoryBytes();
  if (launch.dynamicSharedMemoryBytes == 0 && sharedBytes > device.sharedMemoryPerBlock)
    launch.dynamicSharedMemoryBytes = sharedBytes;
  llvm::ArrayRef<int64_t> cluster;
  if (launch.cluster)
    cluster = *launch.cluster;
  xla_gpu::setKernelLaunch(function,
                           xla_gpu::LaunchAttr::get(context, launch.blocks, launch.threads,
                                                    cluster, launch.dynamicSharedMemoryBytes,
                                                    launch.maxRegisters));
  xla_gpu::setKernelEmitter(function, emitterName());
  std::vector<int64_t> mayReuse = outputMayReuse();
  for (size_t output = 0; output < mayReuse.size(); ++output) {
    if (mayReuse[output] < 0)
      continue;
    function.setArgAttr(static_cast<unsigned>(mayReuse[output]), xla_gpu::kMayAliasArgAttr,
                        b.getUnitAttr());
    function.setArgAttr(static_cast<unsigned>(inputTypes.size() + output),
                        xla_gpu::kMayAliasArgAttr, b.getUnitAttr());
  }
  std::vector<TensorMapParameter> tensorMaps = tensorMapParameters();
  for (const TensorMapParameter &map : tensorMaps)
    function.setArgAttr(static_cast<unsigned>(map.parameter), xla_gpu::kTensorMapArgAttr,
                        b.getDenseI64ArrayAttr(map.box));
  Block *entry = function.addEntryBlock();
  b.setInsertionPointToStart(entry);
  // Ids carry their launch bound (gpu's `upper_bound`, exclusive), which
  // the pipeline's range analysis uses.
  auto withBound = [&](Value id, int64_t count) {
    id.getDefiningOp()->setAttr("upper_bound", b.getIndexAttr(count));
    return id;
  };
  SmallVector<Value, 4> ids = {
      withBound(gpu::ThreadIdOp::create(b, gpu::Dimension::x), launch.threads[0]),
      withBound(gpu::BlockIdOp::create(b, gpu::Dimension::x), launch.blocks[0])};
  if (launch.blocks[1] > 1 || launch.blocks[2] > 1)
    ids.push_back(withBound(gpu::BlockIdOp::create(b, gpu::Dimension::y), launch.blocks[1]));
  if (launch.blocks[2] > 1)
    ids.push_back(withBound(gpu::BlockIdOp::create(b, gpu::Dimension::z), launch.blocks[2]));
  EmitterContext emitterContext{b,
                                function,
                                entry->getArguments().take_front(inputTypes.size()),
                                entry->getArguments().slice(inputTypes.size(), outputs.size()),
                                entry->getArguments().take_back(scratch.size()),
                                ids,
                                partitioned,
                                elemental};
  if (llvm::Error error = emitEntryFunction(emitterContext))
    return error;
  record.name = name;
  record.emitter = emitterName();
  record.launch = launch;
  record.sharedMemoryBytes = launch.dynamicSharedMemoryBytes > 0 ? 0 : sharedBytes;
  record.synchronizesThreads = synchronizesThreads();
  record.outputAliases = outputAliases();
  record.outputMayReuse = std::move(mayReuse);
  record.scratchBuffers = std::move(scratch);
  record.tensorMaps = std::move(tensorMaps);
  record.gemm = gemmKernel();
  return llvm::Error::success();
}

} // namespace hlo
