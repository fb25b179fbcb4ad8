//===- HostKernelAbi.cpp - Kernels exported with the host kernel ABI ------===//
//
// Owns xla-gpu-host-kernel-abi, the last pass of the host target: each
// kernel behind an exported `void NAME(void *const *buffers,
// HloHostThread *thread)` (abi/HostKernelAbi.h), shared memory placed in the
// block's shared memory, everything else internal, and the facts the
// launcher needs (shared memory bytes, whether the block's threads must run
// concurrently) on the exported function for the manifest.
//
//===----------------------------------------------------------------------===//
#include "abi/HostKernelAbi.h"
#include "dialect/KernelContract.h"
#include "dialect/XlaGpuDialect.h"
#include "pipeline/SharedMemoryLayout.h"
#include "pipeline/host/HostPasses.h"

#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/SetVector.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_HOSTKERNELABIPASS
#include "pipeline/host/HostPasses.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

/// Whether `function` calls, directly or through its callees, a barrier, a
/// shuffle, another warp-collective operation or an mbarrier or TMA one.
bool reachesBlockSynchronization(LLVM::LLVMFuncOp function, ModuleOp module) {
  llvm::SetVector<Operation *> seen;
  SmallVector<LLVM::LLVMFuncOp> work = {function};
  seen.insert(function);
  while (!work.empty()) {
    LLVM::LLVMFuncOp current = work.pop_back_val();
    bool found = false;
    current.walk([&](LLVM::CallOp call) {
      std::optional<StringRef> callee = call.getCallee();
      if (!callee)
        return;
      if (*callee == kBarrierFunction || *callee == kShuffleFunction ||
          *callee == kMmaSyncFunction || *callee == kLdmatrixFunction ||
          *callee == kWgmmaFunction || *callee == kWgmmaIssueFunction ||
          *callee == kWgmmaCommitFunction || *callee == kWgmmaWaitFunction ||
          *callee == kMbarrierInitFunction || *callee == kMbarrierArriveFunction ||
          *callee == kMbarrierWaitFunction || *callee == kTmaLoadFunction ||
          *callee == kSetMaxRegistersFunction || *callee == kStmatrixFunction ||
          *callee == kTmaStoreFunction || *callee == kTmaStoreWaitFunction ||
          *callee == kClusterSyncFunction || *callee == kMbarrierArriveClusterFunction ||
          *callee == kTmaLoadMulticastFunction) {
        found = true;
        return;
      }
      auto next = module.lookupSymbol<LLVM::LLVMFuncOp>(*callee);
      if (next && seen.insert(next))
        work.push_back(next);
    });
    if (found)
      return true;
  }
  return false;
}

/// Replaces each address of a shared global in `kernel` with its place in
/// the block's shared memory.
void placeSharedMemory(LLVM::LLVMFuncOp kernel, const SharedMemoryLayout &layout) {
  if (layout.offsets.empty())
    return;
  Value record = kernel.getArgument(kernel.getNumArguments() - 1);
  MLIRContext *context = kernel.getContext();
  auto pointer = LLVM::LLVMPointerType::get(context);
  auto sharedPointer = LLVM::LLVMPointerType::get(context, kSharedMemoryAddressSpace);
  Type i8 = IntegerType::get(context, 8);
  OpBuilder b = OpBuilder::atBlockBegin(&kernel.getBody().front());
  Location loc = kernel.getLoc();
  Value slot = LLVM::GEPOp::create(
      b, loc, pointer, i8, record,
      ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(HLO_HOST_SHARED_MEMORY_OFFSET)});
  Value base = LLVM::LoadOp::create(b, loc, pointer, slot, /*alignment=*/8);
  kernel.walk([&](LLVM::AddressOfOp address) {
    Operation *global =
        SymbolTable::lookupNearestSymbolFrom(address, address.getGlobalNameAttr());
    auto placed = layout.offsets.find(global);
    if (placed == layout.offsets.end())
      return;
    OpBuilder here(address);
    Value inBlock = LLVM::GEPOp::create(
        here, address.getLoc(), pointer, i8, base,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(placed->second)});
    address.replaceAllUsesWith(
        LLVM::AddrSpaceCastOp::create(here, address.getLoc(), sharedPointer, inBlock)
            .getResult());
    address.erase();
  });
}

/// The exported `NAME(buffers, thread)` that calls `body` (which takes one
/// pointer per buffer, then the thread record).
LLVM::LLVMFuncOp createExportedKernel(ModuleOp module, LLVM::LLVMFuncOp body,
                                      StringRef name) {
  MLIRContext *context = module.getContext();
  auto pointer = LLVM::LLVMPointerType::get(context);
  OpBuilder b(body);
  Location loc = body.getLoc();
  auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context),
                                          {pointer, pointer});
  auto exported = LLVM::LLVMFuncOp::create(b, loc, name, type);
  Block *entry = exported.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  Value buffers = entry->getArgument(0), record = entry->getArgument(1);
  SmallVector<Value> arguments;
  for (unsigned i = 0; i + 1 < body.getNumArguments(); ++i) {
    Value slot = LLVM::GEPOp::create(b, loc, pointer, pointer, buffers,
                                     ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
    arguments.push_back(LLVM::LoadOp::create(b, loc, pointer, slot, /*alignment=*/8));
  }
  arguments.push_back(record);
  LLVM::CallOp::create(b, loc, body, arguments);
  LLVM::ReturnOp::create(b, loc, ValueRange());
  return exported;
}

struct HostKernelAbiPass : impl::HostKernelAbiPassBase<HostKernelAbiPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Everything must be LLVM by now; name what is not.
    WalkResult leftOver = module.walk([&](Operation *op) {
      if (isa<ModuleOp>(op) || isa_and_nonnull<LLVM::LLVMDialect>(op->getDialect()))
        return WalkResult::advance();
      op->emitError() << "the host target cannot lower '" << op->getName().getStringRef()
                      << "' to LLVM";
      return WalkResult::interrupt();
    });
    if (leftOver.wasInterrupted())
      return signalPassFailure();

    SmallVector<LLVM::LLVMFuncOp> kernels;
    for (auto function : module.getOps<LLVM::LLVMFuncOp>())
      if (xla_gpu::isKernel(function))
        kernels.push_back(function);
    // Shared memory is placed per kernel: only a kernel's own body may use
    // it.
    for (auto function : module.getOps<LLVM::LLVMFuncOp>()) {
      if (xla_gpu::isKernel(function))
        continue;
      WalkResult shared = function.walk([&](LLVM::AddressOfOp address) {
        auto global = dyn_cast_or_null<LLVM::GlobalOp>(
            SymbolTable::lookupNearestSymbolFrom(address, address.getGlobalNameAttr()));
        if (!global || !isSharedMemory(global))
          return WalkResult::advance();
        address.emitError() << "shared memory '" << global.getSymName()
                            << "' used outside a kernel's entry function";
        return WalkResult::interrupt();
      });
      if (shared.wasInterrupted())
        return signalPassFailure();
    }

    SmallVector<NamedAttribute> launchAttributes;
    for (LLVM::LLVMFuncOp kernel : kernels) {
      std::string name = kernel.getSymName().str();
      SharedMemoryLayout layout = layoutSharedMemory(kernel);
      placeSharedMemory(kernel, layout);
      bool concurrent = reachesBlockSynchronization(kernel, module);
      kernel.setSymName(name + ".thread");
      LLVM::LLVMFuncOp exported = createExportedKernel(module, kernel, name);
      // The kernel contract moves to the exported entry.
      for (StringRef attribute :
           {xla_gpu::kLaunchAttr, xla_gpu::kEmitterAttr, xla_gpu::kKernelIndexAttr}) {
        if (Attribute value = kernel->getAttr(attribute))
          exported->setAttr(attribute, value);
        kernel->removeAttr(attribute);
      }
      // Tiles in dynamic shared memory (the launch's) are laid out alike:
      // the block's shared memory is the static part plus the dynamic one.
      int64_t dynamicBytes = 0;
      if (xla_gpu::LaunchAttr launch = xla_gpu::getKernelLaunch(exported))
        dynamicBytes = launch.getDynamicSharedMemory();
      if (dynamicBytes > 0 && layout.bytes > dynamicBytes) {
        exported.emitError() << "the kernel's shared tiles take " << layout.bytes
                             << " bytes, more than the launch's dynamic shared memory ("
                             << dynamicBytes << ")";
        return signalPassFailure();
      }
      xla_gpu::setKernelSharedMemoryBytes(exported, dynamicBytes > 0 ? 0 : layout.bytes);
      if (concurrent)
        xla_gpu::setKernelNeedsConcurrentThreads(exported);
    }
    // Shared globals now live in the block's shared memory.
    for (auto global : llvm::make_early_inc_range(module.getOps<LLVM::GlobalOp>()))
      if (isSharedMemory(global))
        global.erase();
    // The shared object exports the kernels alone.
    for (auto function : module.getOps<LLVM::LLVMFuncOp>())
      if (!function.isExternal() && !xla_gpu::isKernel(function))
        function.setLinkage(LLVM::Linkage::Internal);
  }
};

} // namespace
} // namespace hlo::pipeline
