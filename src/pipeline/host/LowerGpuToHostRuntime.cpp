//===- LowerGpuToHostRuntime.cpp - gpu ops for the host CPU ---------------===//
//
// Owns xla-gpu-lower-gpu-to-host: the thread record argument threaded
// through every function, and each gpu dialect op as a read of that record
// (abi/HostKernelAbi.h) or a call into hlo-run's launcher, as are the
// dialect's warp- and warpgroup-collective operations (xla_gpu.mma_sync,
// ldmatrix, wgmma). An op the host cannot run is an error naming it.
//
//===----------------------------------------------------------------------===//
#include "abi/HostKernelAbi.h"
#include "dialect/MmaSyncKind.h"
#include "dialect/XlaGpuDialect.h"
#include "pipeline/host/HostPasses.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_LOWERGPUTOHOSTRUNTIMEPASS
#include "pipeline/host/HostPasses.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

constexpr int64_t kWarpSize = 32;

/// Moves everything out of gpu.module ops into `module`: on the host,
/// kernels are ordinary functions.
void unwrapGpuModules(ModuleOp module) {
  for (auto gpuModule : llvm::make_early_inc_range(module.getOps<gpu::GPUModuleOp>())) {
    Block &body = gpuModule.getBodyRegion().front();
    for (Operation &op : llvm::make_early_inc_range(body.getOperations()))
      op.moveBefore(module.getBody(), module.getBody()->end());
    gpuModule.erase();
  }
}

/// The thread record argument of the function around `op`.
Value threadRecordOf(Operation *op) {
  auto function = op->getParentOfType<func::FuncOp>();
  unsigned count = function.getNumArguments();
  return function.getArgument(count - 1);
}

/// Emits the ids of the running thread from its record.
class ThreadRecordReader {
public:
  ThreadRecordReader(OpBuilder &b, Location loc, Value record)
      : b(b), loc(loc), record(record) {}

  /// Field `offset` + 4 * `dimension` (a uint32_t) as an index.
  Value read(size_t offset, gpu::Dimension dimension) {
    Type i8 = b.getI8Type();
    auto pointer = LLVM::LLVMPointerType::get(b.getContext());
    int32_t byteOffset =
        static_cast<int32_t>(offset + 4 * static_cast<unsigned>(dimension));
    Value address = LLVM::GEPOp::create(b, loc, pointer, i8, record,
                                        ArrayRef<LLVM::GEPArg>{byteOffset});
    // The record of a thread does not change while the thread runs.
    Value value = LLVM::LoadOp::create(b, loc, b.getI32Type(), address, /*alignment=*/4,
                                       /*isVolatile=*/false, /*isNonTemporal=*/false,
                                       /*isInvariant=*/true);
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), value);
  }

  /// threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z):
  /// the thread's position in its block, which warps are cut from.
  Value linearThreadId() {
    Value x = read(HLO_HOST_THREAD_ID_OFFSET, gpu::Dimension::x);
    Value y = read(HLO_HOST_THREAD_ID_OFFSET, gpu::Dimension::y);
    Value z = read(HLO_HOST_THREAD_ID_OFFSET, gpu::Dimension::z);
    Value dx = read(HLO_HOST_BLOCK_DIM_OFFSET, gpu::Dimension::x);
    Value dy = read(HLO_HOST_BLOCK_DIM_OFFSET, gpu::Dimension::y);
    Value zy = arith::AddIOp::create(b, loc, y, arith::MulIOp::create(b, loc, dy, z));
    return arith::AddIOp::create(b, loc, x, arith::MulIOp::create(b, loc, dx, zy));
  }

  Value threadsPerBlock() {
    Value dx = read(HLO_HOST_BLOCK_DIM_OFFSET, gpu::Dimension::x);
    Value dy = read(HLO_HOST_BLOCK_DIM_OFFSET, gpu::Dimension::y);
    Value dz = read(HLO_HOST_BLOCK_DIM_OFFSET, gpu::Dimension::z);
    return arith::MulIOp::create(b, loc, dx, arith::MulIOp::create(b, loc, dy, dz));
  }

private:
  OpBuilder &b;
  Location loc;
  Value record;
};

/// Declares (once) a runtime function in `module`.
func::FuncOp declareRuntimeFunction(ModuleOp module, StringRef name, FunctionType type) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto function = func::FuncOp::create(b, module.getLoc(), name, type);
  function.setPrivate();
  return function;
}

Value constantI32(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), value);
}

/// A stack slot of `type` at the start of the function around `user` (out
/// of any loop), for what a runtime call reads or writes through memory.
Value entryStackSlot(Operation *user, Type type, unsigned alignment) {
  auto function = user->getParentOfType<func::FuncOp>();
  OpBuilder entry = OpBuilder::atBlockBegin(&function.getBody().front());
  Location loc = user->getLoc();
  Value one = LLVM::ConstantOp::create(entry, loc, entry.getI32Type(), entry.getI32IntegerAttr(1));
  return LLVM::AllocaOp::create(entry, loc, LLVM::LLVMPointerType::get(user->getContext()), type,
                                one, alignment);
}

int32_t shuffleModeCode(gpu::ShuffleMode mode) {
  switch (mode) {
  case gpu::ShuffleMode::UP:
    return HLO_HOST_SHUFFLE_UP;
  case gpu::ShuffleMode::DOWN:
    return HLO_HOST_SHUFFLE_DOWN;
  case gpu::ShuffleMode::XOR:
    return HLO_HOST_SHUFFLE_XOR;
  case gpu::ShuffleMode::IDX:
    return HLO_HOST_SHUFFLE_IDX;
  }
  return HLO_HOST_SHUFFLE_IDX;
}

struct LowerGpuToHostRuntimePass
    : impl::LowerGpuToHostRuntimePassBase<LowerGpuToHostRuntimePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    unwrapGpuModules(module);
    addThreadRecordArguments(module);
    SmallVector<Operation *> gpuOps;
    module.walk([&](Operation *op) {
      if (isa_and_nonnull<gpu::GPUDialect>(op->getDialect()) ||
          isa<xla_gpu::MmaSyncOp, xla_gpu::LdmatrixOp, xla_gpu::WgmmaOp,
              xla_gpu::WgmmaWaitOp, xla_gpu::AsyncCopyOp, xla_gpu::AsyncCommitOp,
              xla_gpu::AsyncWaitOp, xla_gpu::MbarrierInitOp, xla_gpu::MbarrierArriveOp,
              xla_gpu::MbarrierWaitOp, xla_gpu::TmaLoadOp, xla_gpu::SetMaxRegistersOp,
              xla_gpu::StmatrixOp, xla_gpu::TmaStoreOp, xla_gpu::TmaStoreWaitOp>(op))
        gpuOps.push_back(op);
      // The cluster barrier the sync_threads lowering kept.
      if (auto sync = dyn_cast<xla_gpu::SyncThreadsOp>(op); sync && sync.getCluster())
        gpuOps.push_back(op);
    });
    for (Operation *op : gpuOps)
      if (failed(lowerGpuOp(module, op)))
        return signalPassFailure();
  }

  /// The trailing thread record argument of every function with a body,
  /// passed along by calls between them.
  void addThreadRecordArguments(ModuleOp module) {
    MLIRContext *context = module.getContext();
    auto pointer = LLVM::LLVMPointerType::get(context);
    auto marker = DictionaryAttr::get(
        context, {NamedAttribute(StringAttr::get(context, kHostThreadArgAttr),
                                 UnitAttr::get(context))});
    llvm::SmallPtrSet<Operation *, 16> withRecord;
    for (auto function : module.getOps<func::FuncOp>()) {
      if (function.isExternal())
        continue;
      (void)function.insertArgument(function.getNumArguments(), pointer, marker,
                                    function.getLoc());
      withRecord.insert(function);
    }
    module.walk([&](func::CallOp call) {
      Operation *callee = SymbolTable::lookupNearestSymbolFrom(call, call.getCalleeAttr());
      if (withRecord.contains(callee))
        call.getOperandsMutable().append(threadRecordOf(call));
    });
  }

  LogicalResult lowerGpuOp(ModuleOp module, Operation *op) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value record = threadRecordOf(op);
    ThreadRecordReader reader(b, loc, record);
    Value replacement;
    if (auto id = dyn_cast<gpu::ThreadIdOp>(op)) {
      replacement = reader.read(HLO_HOST_THREAD_ID_OFFSET, id.getDimension());
    } else if (auto id = dyn_cast<gpu::BlockIdOp>(op)) {
      replacement = reader.read(HLO_HOST_BLOCK_ID_OFFSET, id.getDimension());
    } else if (auto dim = dyn_cast<gpu::BlockDimOp>(op)) {
      replacement = reader.read(HLO_HOST_BLOCK_DIM_OFFSET, dim.getDimension());
    } else if (auto dim = dyn_cast<gpu::GridDimOp>(op)) {
      replacement = reader.read(HLO_HOST_GRID_DIM_OFFSET, dim.getDimension());
    } else if (auto id = dyn_cast<gpu::GlobalIdOp>(op)) {
      Value block = reader.read(HLO_HOST_BLOCK_ID_OFFSET, id.getDimension());
      Value size = reader.read(HLO_HOST_BLOCK_DIM_OFFSET, id.getDimension());
      Value thread = reader.read(HLO_HOST_THREAD_ID_OFFSET, id.getDimension());
      replacement = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, block, size), thread);
    } else if (isa<gpu::LaneIdOp>(op)) {
      replacement = arith::RemUIOp::create(
          b, loc, reader.linearThreadId(), arith::ConstantIndexOp::create(b, loc, kWarpSize));
    } else if (isa<gpu::SubgroupIdOp>(op)) {
      replacement = arith::DivUIOp::create(
          b, loc, reader.linearThreadId(), arith::ConstantIndexOp::create(b, loc, kWarpSize));
    } else if (isa<gpu::SubgroupSizeOp>(op)) {
      replacement = arith::ConstantIndexOp::create(b, loc, kWarpSize);
    } else if (isa<gpu::NumSubgroupsOp>(op)) {
      replacement = arith::CeilDivUIOp::create(
          b, loc, reader.threadsPerBlock(), arith::ConstantIndexOp::create(b, loc, kWarpSize));
    } else if (isa<gpu::BarrierOp>(op)) {
      auto type = FunctionType::get(b.getContext(), {record.getType()}, {});
      declareRuntimeFunction(module, kBarrierFunction, type);
      func::CallOp::create(b, loc, kBarrierFunction, TypeRange(), ValueRange{record});
      op->erase();
      return success();
    } else if (auto shuffle = dyn_cast<gpu::ShuffleOp>(op)) {
      return lowerShuffle(module, b, shuffle, record);
    } else if (auto mma = dyn_cast<xla_gpu::MmaSyncOp>(op)) {
      return lowerMmaSync(module, b, mma, record);
    } else if (auto load = dyn_cast<xla_gpu::LdmatrixOp>(op)) {
      return lowerLdmatrix(module, b, load, record);
    } else if (auto store = dyn_cast<xla_gpu::StmatrixOp>(op)) {
      return lowerStmatrix(module, b, store, record);
    } else if (auto mma = dyn_cast<xla_gpu::WgmmaOp>(op)) {
      return lowerWgmma(module, b, mma, record);
    } else if (auto wait = dyn_cast<xla_gpu::WgmmaWaitOp>(op)) {
      return lowerWgmmaWait(module, b, wait, record);
    } else if (auto copy = dyn_cast<xla_gpu::AsyncCopyOp>(op)) {
      return lowerAsyncCopy(module, b, copy, record);
    } else if (isa<xla_gpu::AsyncCommitOp, xla_gpu::AsyncWaitOp>(op)) {
      return lowerAsyncGroup(module, b, op, record);
    } else if (isa<xla_gpu::MbarrierInitOp, xla_gpu::MbarrierArriveOp, xla_gpu::MbarrierWaitOp,
                   xla_gpu::TmaLoadOp, xla_gpu::SetMaxRegistersOp, xla_gpu::TmaStoreOp,
                   xla_gpu::TmaStoreWaitOp, xla_gpu::SyncThreadsOp>(op)) {
      return lowerTmaPipelineOp(module, b, op, record);
    } else {
      return op->emitError() << "the host target cannot run '"
                             << op->getName().getStringRef() << "'";
    }
    if (replacement.getType() != op->getResult(0).getType())
      replacement = arith::IndexCastOp::create(b, loc, op->getResult(0).getType(), replacement);
    op->getResult(0).replaceAllUsesWith(replacement);
    op->erase();
    return success();
  }

  /// `gpu.shuffle MODE %value, %offset, %width` as convert-gpu-to-nvvm
  /// lowers it (the first `width` lanes are the member mask; the clamp is
  /// `32 - width` for up and `width - 1` otherwise, no segments), calling
  /// the launcher's shfl.sync.
  LogicalResult lowerShuffle(ModuleOp module, OpBuilder &b, gpu::ShuffleOp shuffle,
                             Value record) {
    Location loc = shuffle.getLoc();
    Type valueType = shuffle.getValue().getType();
    if (!valueType.isIntOrFloat() || valueType.getIntOrFloatBitWidth() > 64)
      return shuffle.emitError()
             << "the host target shuffles scalars of up to 64 bits, not " << valueType;
    MLIRContext *context = b.getContext();
    Type i8 = b.getI8Type(), i32 = b.getI32Type(), i64 = b.getI64Type();
    auto pointer = LLVM::LLVMPointerType::get(context);
    auto type = FunctionType::get(context, {pointer, i64, i32, i32, i32, i32, pointer}, {i64});
    declareRuntimeFunction(module, kShuffleFunction, type);

    unsigned bits = valueType.getIntOrFloatBitWidth();
    Type bitsType = b.getIntegerType(bits);
    Value value = shuffle.getValue();
    if (!isa<IntegerType>(valueType))
      value = arith::BitcastOp::create(b, loc, bitsType, value);
    if (bits < 64)
      value = arith::ExtUIOp::create(b, loc, i64, value);

    Value width = shuffle.getWidth();
    Value leadingInactive = arith::SubIOp::create(b, loc, constantI32(b, loc, 32), width);
    Value memberMask =
        arith::ShRUIOp::create(b, loc, constantI32(b, loc, -1), leadingInactive);
    Value clamp = shuffle.getMode() == gpu::ShuffleMode::UP
                      ? leadingInactive
                      : Value(arith::SubIOp::create(b, loc, width, constantI32(b, loc, 1)));

    // The in-range predicate comes back through a byte on the stack.
    Value slot = entryStackSlot(shuffle, i8, /*alignment=*/1);

    Value result =
        func::CallOp::create(b, loc, kShuffleFunction, TypeRange{i64},
                             ValueRange{record, value,
                                        constantI32(b, loc, shuffleModeCode(shuffle.getMode())),
                                        shuffle.getOffset(), clamp, memberMask, slot})
            .getResult(0);
    if (bits < 64)
      result = arith::TruncIOp::create(b, loc, bitsType, result);
    if (!isa<IntegerType>(valueType))
      result = arith::BitcastOp::create(b, loc, valueType, result);
    Value inRange = LLVM::LoadOp::create(b, loc, i8, slot);
    inRange = arith::TruncIOp::create(b, loc, b.getI1Type(), inRange);
    shuffle.getShuffleResult().replaceAllUsesWith(result);
    shuffle.getValid().replaceAllUsesWith(inRange);
    shuffle.erase();
    return success();
  }

  /// `xla_gpu.mma_sync` as the launcher's warp-collective mma.sync: the
  /// lane's fragments go through stack slots (D over C's).
  LogicalResult lowerMmaSync(ModuleOp module, OpBuilder &b, xla_gpu::MmaSyncOp mma,
                             Value record) {
    llvm::Expected<xla_gpu::MmaSyncKind> kind = xla_gpu::mmaSyncKindOf(mma);
    if (!kind)
      return mma.emitOpError() << llvm::toString(kind.takeError());
    uint32_t code = hostMmaKind(kind->input, kind->bInput());
    Location loc = mma.getLoc();
    MLIRContext *context = b.getContext();
    auto pointer = LLVM::LLVMPointerType::get(context);
    Type i32 = b.getI32Type();
    auto type = FunctionType::get(context, {pointer, i32, pointer, pointer, pointer, pointer}, {});
    declareRuntimeFunction(module, kMmaSyncFunction, type);
    auto slotFor = [&](Value fragment) {
      // 8-bit floats as their bytes (the small-float lowering comes next).
      auto type = cast<VectorType>(fragment.getType());
      if (isa<FloatType>(type.getElementType()) && type.getElementTypeBitWidth() == 8)
        fragment = arith::BitcastOp::create(
            b, loc, VectorType::get(type.getShape(), b.getI8Type()), fragment);
      Value slot = entryStackSlot(mma, fragment.getType(), /*alignment=*/16);
      LLVM::StoreOp::create(b, loc, fragment, slot);
      return slot;
    };
    Value a = slotFor(mma.getA()), bSlot = slotFor(mma.getB()), c = slotFor(mma.getC());
    func::CallOp::create(b, loc, kMmaSyncFunction, TypeRange(),
                         ValueRange{record, constantI32(b, loc, static_cast<int32_t>(code)), a,
                                    bSlot, c, c});
    mma.getD().replaceAllUsesWith(
        LLVM::LoadOp::create(b, loc, mma.getD().getType(), c).getResult());
    mma.erase();
    return success();
  }

  /// `xla_gpu.ldmatrix` on a shared buffer as the launcher's
  /// warp-collective ldmatrix (transposed or not): the lane's row address in, its registers
  /// back through a stack slot.
  LogicalResult lowerLdmatrix(ModuleOp module, OpBuilder &b, xla_gpu::LdmatrixOp load,
                              Value record) {
    if (!isa<MemRefType>(load.getTile().getType()))
      return load.emitOpError("expects its tile's buffer (bufferize first)");
    Location loc = load.getLoc();
    MLIRContext *context = b.getContext();
    auto pointer = LLVM::LLVMPointerType::get(context);
    Type i32 = b.getI32Type();
    auto type = FunctionType::get(context, {pointer, i32, i32, pointer, pointer}, {});
    declareRuntimeFunction(module, kLdmatrixFunction, type);
    int64_t count = load.getCount();
    auto words = VectorType::get({count}, i32);
    Value slot = entryStackSlot(load, words, /*alignment=*/16);
    Value row = xla_gpu::ElementPointerOp::create(b, loc, pointer, load.getTile(),
                                                  load.getIndices());
    func::CallOp::create(b, loc, kLdmatrixFunction, TypeRange(),
                         ValueRange{record, constantI32(b, loc, count),
                                    constantI32(b, loc, load.getTranspose() ? 1 : 0), row,
                                    slot});
    Value loaded = LLVM::LoadOp::create(b, loc, words, slot);
    load.getResult().replaceAllUsesWith(
        vector::BitCastOp::create(b, loc, load.getType(), loaded).getResult());
    load.erase();
    return success();
  }

  /// `xla_gpu.stmatrix` on a shared buffer as the launcher's
  /// warp-collective stmatrix: the lane's row address and its registers
  /// (through a stack slot) in.
  LogicalResult lowerStmatrix(ModuleOp module, OpBuilder &b, xla_gpu::StmatrixOp store,
                              Value record) {
    if (store.getResult())
      return store.emitOpError("expects its tile's buffer (bufferize first)");
    Location loc = store.getLoc();
    MLIRContext *context = b.getContext();
    auto pointer = LLVM::LLVMPointerType::get(context);
    Type i32 = b.getI32Type();
    declareRuntimeFunction(module, kStmatrixFunction,
                           FunctionType::get(context, {pointer, i32, pointer, pointer}, {}));
    int64_t count = store.getCount();
    auto words = VectorType::get({count}, i32);
    Value slot = entryStackSlot(store, words, /*alignment=*/16);
    LLVM::StoreOp::create(b, loc, vector::BitCastOp::create(b, loc, words, store.getValues()),
                          slot);
    Value row = xla_gpu::ElementPointerOp::create(b, loc, pointer, store.getTile(),
                                                  store.getIndices());
    func::CallOp::create(b, loc, kStmatrixFunction, TypeRange(),
                         ValueRange{record, constantI32(b, loc, count), row, slot});
    store.erase();
    return success();
  }

  /// `xla_gpu.wgmma` on shared buffers as the launcher's
  /// warpgroup-collective wgmma, once per 32 bytes of K: the swizzle
  /// mode, each operand's start (its element at the step's first column,
  /// before any swizzle) and offsets, and the thread's accumulators in a
  /// stack slot, updated in place. In flight: as the launcher's issue per
  /// 32 bytes of K, then its commit.
  LogicalResult lowerWgmma(ModuleOp module, OpBuilder &b, xla_gpu::WgmmaOp mma, Value record) {
    auto tileA = dyn_cast<MemRefType>(mma.getA().getType());
    if (!tileA || !isa<MemRefType>(mma.getB().getType()))
      return mma.emitOpError("expects its tiles' buffers (bufferize first)");
    Location loc = mma.getLoc();
    MLIRContext *context = b.getContext();
    auto pointer = LLVM::LLVMPointerType::get(context);
    Type i32 = b.getI32Type();
    auto type = FunctionType::get(
        context, {pointer, i32, i32, i32, pointer, i32, i32, pointer, i32, i32, pointer}, {});
    StringRef function = mma.getInFlight() ? kWgmmaIssueFunction : kWgmmaFunction;
    declareRuntimeFunction(module, function, type);
    Value accumulators = entryStackSlot(mma, mma.getC().getType(), /*alignment=*/16);
    LLVM::StoreOp::create(b, loc, mma.getC(), accumulators);
    // Unswizzled: core matrices 128 bytes apart along K, K/8 of them
    // between 8-row groups; swizzled: rows of `swizzle` bytes, 8 of them
    // between 8-row groups (the leading offset unused).
    constexpr int64_t kCoreMatrixBytes = 128;
    int64_t swizzle = mma.getSwizzle();
    Value leading = constantI32(b, loc, swizzle == 0 ? kCoreMatrixBytes : 16);
    Value stride = constantI32(
        b, loc, static_cast<int32_t>(swizzle == 0 ? tileA.getDimSize(1) * kCoreMatrixBytes
                                                  : 8 * swizzle));
    Type element = tileA.getElementType();
    uint32_t kind = element.isBF16()  ? HLO_HOST_WGMMA_M64K16_F32_BF16
                    : element.isF16() ? HLO_HOST_WGMMA_M64K16_F32_F16
                                      : HLO_HOST_WGMMA_M64K8_F32_TF32;
    if (element.getIntOrFloatBitWidth() == 8) {
      // 8-bit floats: A's format, then B's.
      bool e5m2A = isa<Float8E5M2Type>(element);
      bool e5m2B = isa<Float8E5M2Type>(cast<MemRefType>(mma.getB().getType()).getElementType());
      kind = e5m2A ? (e5m2B ? HLO_HOST_WGMMA_M64K32_F32_E5M2_E5M2
                            : HLO_HOST_WGMMA_M64K32_F32_E5M2_E4M3)
                   : (e5m2B ? HLO_HOST_WGMMA_M64K32_F32_E4M3_E5M2
                            : HLO_HOST_WGMMA_M64K32_F32_E4M3_E4M3);
    }
    auto index = [&](int64_t value) { return arith::ConstantIndexOp::create(b, loc, value); };
    // Element (8 * rowGroup, k) of a tile, before any swizzle.
    auto start = [&](Value tile, Value rowGroup, int64_t k) -> Value {
      auto type = cast<MemRefType>(tile.getType());
      SmallVector<Value> indices =
          swizzle == 0
              ? SmallVector<Value>{rowGroup, index(k / type.getDimSize(3)), index(0), index(0)}
              : SmallVector<Value>{index(k / type.getDimSize(2)),
                                   arith::MulIOp::create(b, loc, rowGroup, index(8)),
                                   index(k % type.getDimSize(2))};
      return xla_gpu::ElementPointerOp::create(b, loc, pointer, tile, indices);
    };
    // An MN-major operand (N-major B, M-major A): element (8 * rowGroup,
    // k) of its [N/T][K][T] tile; atoms of T columns a whole K extent of
    // rows apart, 8-k groups 8 rows apart.
    auto startOf = [&](Value tile, Value rowGroup, bool transposed, int64_t k) -> Value {
      if (!transposed)
        return start(tile, rowGroup, k);
      auto type = cast<MemRefType>(tile.getType());
      Value column = arith::MulIOp::create(b, loc, rowGroup, index(8));
      Value atom = arith::DivUIOp::create(b, loc, column, index(type.getDimSize(2)));
      return xla_gpu::ElementPointerOp::create(b, loc, pointer, tile,
                                               ValueRange{atom, index(k), index(0)});
    };
    auto leadingOf = [&](Value tile, bool transposed) -> Value {
      auto type = cast<MemRefType>(tile.getType());
      return transposed
                 ? constantI32(b, loc, static_cast<int32_t>(type.getDimSize(1) * swizzle))
                 : leading;
    };
    bool aTransposed = mma.getATransposed(), bTransposed = mma.getBTransposed();
    Value aLeading = leadingOf(mma.getA(), aTransposed);
    Value bLeading = leadingOf(mma.getB(), bTransposed);
    if (aTransposed)
      kind |= HLO_HOST_WGMMA_TRANSPOSE_A;
    if (bTransposed)
      kind |= HLO_HOST_WGMMA_TRANSPOSE_B;
    for (int64_t k = 0; k < mma.getDepth(); k += mma.getStepDepth()) {
      Value a = startOf(mma.getA(), mma.getARow(), aTransposed, k);
      Value bStart = startOf(mma.getB(), mma.getBRow(), bTransposed, k);
      func::CallOp::create(b, loc, function, TypeRange(),
                           ValueRange{record, constantI32(b, loc, static_cast<int32_t>(kind)),
                                      constantI32(b, loc, static_cast<int32_t>(mma.getWidth())),
                                      constantI32(b, loc, static_cast<int32_t>(swizzle)), a,
                                      aLeading, stride, bStart, bLeading, stride, accumulators});
    }
    if (mma.getInFlight()) {
      declareRuntimeFunction(module, kWgmmaCommitFunction, FunctionType::get(context, {pointer}, {}));
      func::CallOp::create(b, loc, kWgmmaCommitFunction, TypeRange(), ValueRange{record});
    }
    mma.getD().replaceAllUsesWith(
        LLVM::LoadOp::create(b, loc, mma.getD().getType(), accumulators).getResult());
    mma.erase();
    return success();
  }

  /// `xla_gpu.wgmma_wait` as the launcher's wait: the accumulators through
  /// a stack slot, which receives the chain's once no group is left.
  LogicalResult lowerWgmmaWait(ModuleOp module, OpBuilder &b, xla_gpu::WgmmaWaitOp wait,
                               Value record) {
    Location loc = wait.getLoc();
    MLIRContext *context = b.getContext();
    auto pointer = LLVM::LLVMPointerType::get(context);
    Type i32 = b.getI32Type();
    declareRuntimeFunction(module, kWgmmaWaitFunction,
                           FunctionType::get(context, {pointer, i32, pointer, i32}, {}));
    auto type = cast<VectorType>(wait.getAccumulators().getType());
    Value slot = entryStackSlot(wait, type, /*alignment=*/16);
    LLVM::StoreOp::create(b, loc, wait.getAccumulators(), slot);
    func::CallOp::create(
        b, loc, kWgmmaWaitFunction, TypeRange(),
        ValueRange{record, constantI32(b, loc, static_cast<int32_t>(wait.getPending())), slot,
                   constantI32(b, loc, static_cast<int32_t>(type.getNumElements()))});
    wait.getResult().replaceAllUsesWith(LLVM::LoadOp::create(b, loc, type, slot).getResult());
    wait.erase();
    return success();
  }

  /// `xla_gpu.async_copy` on buffers as the launcher's cp.async (queued,
  /// done at the wait that covers it): the tile element's and the source
  /// element's addresses, and the source bytes (0 where the condition
  /// fails: zeros written, nothing read).
  LogicalResult lowerAsyncCopy(ModuleOp module, OpBuilder &b, xla_gpu::AsyncCopyOp copy,
                               Value record) {
    if (copy.getResult())
      return copy.emitOpError("expects buffers (bufferize first)");
    Location loc = copy.getLoc();
    MLIRContext *context = b.getContext();
    auto pointer = LLVM::LLVMPointerType::get(context);
    Type i32 = b.getI32Type();
    declareRuntimeFunction(module, kCpAsyncFunction,
                           FunctionType::get(context, {pointer, pointer, pointer, i32, i32}, {}));
    Value destination = xla_gpu::ElementPointerOp::create(b, loc, pointer, copy.getTile(),
                                                          copy.getTileIndices());
    Value source = xla_gpu::ElementPointerOp::create(b, loc, pointer, copy.getSource(),
                                                     copy.getSourceIndices());
    int32_t bytes = static_cast<int32_t>(copy.getBytes());
    Value sourceBytes = arith::SelectOp::create(b, loc, copy.getCondition(),
                                                constantI32(b, loc, bytes), constantI32(b, loc, 0));
    func::CallOp::create(b, loc, kCpAsyncFunction, TypeRange(),
                         ValueRange{record, destination, source, constantI32(b, loc, bytes),
                                    sourceBytes});
    copy.erase();
    return success();
  }

  /// `xla_gpu.async_commit` and `async_wait` (without tiles) as the
  /// launcher's group operations.
  LogicalResult lowerAsyncGroup(ModuleOp module, OpBuilder &b, Operation *op, Value record) {
    if (op->getNumOperands() > 0)
      return op->emitOpError("expects no tiles (xla-gpu-lower-sync-threads first)");
    Location loc = op->getLoc();
    MLIRContext *context = b.getContext();
    auto pointer = LLVM::LLVMPointerType::get(context);
    if (auto wait = dyn_cast<xla_gpu::AsyncWaitOp>(op)) {
      declareRuntimeFunction(module, kCpAsyncWaitFunction,
                             FunctionType::get(context, {pointer, b.getI32Type()}, {}));
      func::CallOp::create(b, loc, kCpAsyncWaitFunction, TypeRange(),
                           ValueRange{record, constantI32(b, loc, wait.getPending())});
    } else {
      declareRuntimeFunction(module, kCpAsyncCommitFunction,
                             FunctionType::get(context, {pointer}, {}));
      func::CallOp::create(b, loc, kCpAsyncCommitFunction, TypeRange(), ValueRange{record});
    }
    op->erase();
    return success();
  }

  /// The mbarrier ops, `tma_load`, `tma_store`, `tma_store_wait` and
  /// `set_max_registers` on buffers as the launcher's
  /// (abi/HostKernelAbi.h): barrier addresses, the tile's start, and the
  /// source parameter, which the launcher passes as its HloHostTensorMap.
  LogicalResult lowerTmaPipelineOp(ModuleOp module, OpBuilder &b, Operation *op, Value record) {
    if (op->getNumResults() > 0)
      return op->emitOpError("expects buffers (bufferize first)");
    Location loc = op->getLoc();
    MLIRContext *context = b.getContext();
    auto pointer = LLVM::LLVMPointerType::get(context);
    Type i32 = b.getI32Type();
    auto address = [&](Value buffer, ValueRange indices) -> Value {
      return xla_gpu::ElementPointerOp::create(b, loc, pointer, buffer, indices);
    };
    auto call = [&](StringRef name, ArrayRef<Type> types, ValueRange arguments) {
      SmallVector<Type> parameters = {pointer};
      llvm::append_range(parameters, types);
      declareRuntimeFunction(module, name, FunctionType::get(context, parameters, {}));
      SmallVector<Value> values = {record};
      llvm::append_range(values, arguments);
      func::CallOp::create(b, loc, name, TypeRange(), values);
    };
    if (auto init = dyn_cast<xla_gpu::MbarrierInitOp>(op)) {
      call(kMbarrierInitFunction, {pointer, i32},
           {address(init.getBarriers(), init.getIndex()), constantI32(b, loc, init.getCount())});
    } else if (isa<xla_gpu::SyncThreadsOp>(op)) {
      call(kClusterSyncFunction, {}, {});
    } else if (auto arrive = dyn_cast<xla_gpu::MbarrierArriveOp>(op); arrive && arrive.getInBlock()) {
      call(kMbarrierArriveClusterFunction, {pointer, i32},
           {address(arrive.getBarriers(), arrive.getIndex()),
            arith::IndexCastUIOp::create(b, loc, i32, arrive.getInBlock())});
    } else if (auto arrive = dyn_cast<xla_gpu::MbarrierArriveOp>(op)) {
      call(kMbarrierArriveFunction, {pointer, i32},
           {address(arrive.getBarriers(), arrive.getIndex()),
            constantI32(b, loc, arrive.getTransactionBytes())});
    } else if (auto wait = dyn_cast<xla_gpu::MbarrierWaitOp>(op)) {
      call(kMbarrierWaitFunction, {pointer, i32},
           {address(wait.getBarriers(), wait.getIndex()),
            arith::IndexCastUIOp::create(b, loc, i32, wait.getParity())});
    } else if (auto registers = dyn_cast<xla_gpu::SetMaxRegistersOp>(op)) {
      call(kSetMaxRegistersFunction, {i32, i32},
           {constantI32(b, loc, registers.getCount()),
            constantI32(b, loc, registers.getIncrease() ? 1 : 0)});
    } else if (auto wait = dyn_cast<xla_gpu::TmaStoreWaitOp>(op)) {
      call(kTmaStoreWaitFunction, {i32}, {constantI32(b, loc, wait.getPending())});
    } else if (auto store = dyn_cast<xla_gpu::TmaStoreOp>(op)) {
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      auto zeros = [&](Value buffer) {
        return SmallVector<Value>(cast<MemRefType>(buffer.getType()).getRank(), zero);
      };
      call(kTmaStoreFunction, {pointer, pointer, pointer},
           {address(store.getDestination(), zeros(store.getDestination())),
            address(store.getTile(), store.getTileIndices().empty()
                                         ? zeros(store.getTile())
                                         : SmallVector<Value>(store.getTileIndices())),
            coordinateArray(b, op, store.getCoordinates())});
    } else {
      auto load = cast<xla_gpu::TmaLoadOp>(op);
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      auto zeros = [&](Value buffer) {
        return SmallVector<Value>(cast<MemRefType>(buffer.getType()).getRank(), zero);
      };
      Value coordinates = coordinateArray(b, op, load.getCoordinates());
      SmallVector<Value> arguments = {
          address(load.getSource(), zeros(load.getSource())),
          address(load.getTile(), load.getTileIndices().empty()
                                      ? zeros(load.getTile())
                                      : SmallVector<Value>(load.getTileIndices())),
          address(load.getBarriers(), load.getBarrierIndex()), coordinates};
      if (load.getMulticast() != 0) {
        arguments.push_back(constantI32(b, loc, load.getMulticast()));
        call(kTmaLoadMulticastFunction, {pointer, pointer, pointer, pointer, i32}, arguments);
      } else {
        call(kTmaLoadFunction, {pointer, pointer, pointer, pointer}, arguments);
      }
    }
    op->erase();
    return success();
  }

  /// A TMA op's coordinates as the i32 array the launcher reads (a stack
  /// slot of the function's entry, filled at `b`).
  static Value coordinateArray(OpBuilder &b, Operation *op, ValueRange values) {
    Location loc = op->getLoc();
    auto pointer = LLVM::LLVMPointerType::get(b.getContext());
    Type i32 = b.getI32Type();
    auto type = LLVM::LLVMArrayType::get(i32, values.size());
    Value coordinates = entryStackSlot(op, type, 4);
    for (auto [i, coordinate] : llvm::enumerate(values)) {
      Value at = LLVM::GEPOp::create(b, loc, pointer, type, coordinates,
                                     ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
      LLVM::StoreOp::create(b, loc, arith::IndexCastOp::create(b, loc, i32, coordinate), at);
    }
    return coordinates;
  }

  /// The runtime's HloHostMmaKind for these inputs (A's, B's).
  static uint32_t hostMmaKind(xla_gpu::MmaInput input, xla_gpu::MmaInput inputB) {
    if (input != inputB)
      return input == xla_gpu::MmaInput::F8E4M3FN ? HLO_HOST_MMA_M16N8K32_F32_E4M3_E5M2
                                                  : HLO_HOST_MMA_M16N8K32_F32_E5M2_E4M3;
    switch (input) {
    case xla_gpu::MmaInput::BF16:
      return HLO_HOST_MMA_M16N8K16_F32_BF16;
    case xla_gpu::MmaInput::F16:
      return HLO_HOST_MMA_M16N8K16_F32_F16;
    case xla_gpu::MmaInput::TF32:
      return HLO_HOST_MMA_M16N8K8_F32_TF32;
    case xla_gpu::MmaInput::F64:
      return HLO_HOST_MMA_M8N8K4_F64_F64;
    case xla_gpu::MmaInput::S8:
      return HLO_HOST_MMA_M16N8K32_S32_S8;
    case xla_gpu::MmaInput::F8E4M3FN:
      return HLO_HOST_MMA_M16N8K32_F32_E4M3;
    case xla_gpu::MmaInput::F8E5M2:
      return HLO_HOST_MMA_M16N8K32_F32_E5M2;
    }
    llvm_unreachable("an mma.sync input type");
  }
};

} // namespace
} // namespace hlo::pipeline
