//===- DynamicSharedMemory.cpp - Shared tiles in dynamic shared memory ----===//
//
// Owns xla-gpu-dynamic-shared-memory (NvptxPasses.td): a kernel whose launch
// has `dynamic_shared_memory = N` keeps its shared tiles in the block's
// dynamic shared memory, since PTX bounds static shared memory at 48 KiB
// and Hopper GEMM pipelines need up to 227. Each shared global the kernel
// uses becomes an offset (SharedMemoryLayout.h's, so that the host target,
// which lays the same globals out the same way, agrees) into one
// zero-length extern global, `.extern .shared .align 1024 .b8 X[]` in
// PTX, which the driver places at the start of the block's dynamic
// memory. 1024 bytes: the alignment 128-byte swizzled tiles need.
//
//===----------------------------------------------------------------------===//
#include "dialect/KernelContract.h"
#include "dialect/XlaGpuDialect.h"
#include "pipeline/SharedMemoryLayout.h"
#include "pipeline/nvptx/NvptxPasses.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_DYNAMICSHAREDMEMORYPASS
#include "pipeline/nvptx/NvptxPasses.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

constexpr StringLiteral kDynamicSharedName = "hlo_dynamic_shared_memory";
constexpr int64_t kDynamicSharedAlignment = 1024;

struct DynamicSharedMemoryPass : impl::DynamicSharedMemoryPassBase<DynamicSharedMemoryPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    LLVM::GlobalOp dynamic;
    // One table for every lookup (a lookup without one scans the module).
    SymbolTable symbols(module);
    auto bytes = LLVM::LLVMArrayType::get(IntegerType::get(context, 8), 0);
    auto pointer = LLVM::LLVMPointerType::get(context, kSharedMemoryAddressSpace);
    for (auto kernel : module.getOps<LLVM::LLVMFuncOp>()) {
      xla_gpu::LaunchAttr launch = xla_gpu::getKernelLaunch(kernel);
      if (!launch || launch.getDynamicSharedMemory() == 0)
        continue;
      SharedMemoryLayout layout = layoutSharedMemory(kernel);
      if (layout.bytes > launch.getDynamicSharedMemory()) {
        kernel.emitError() << "the kernel's shared tiles take " << layout.bytes
                           << " bytes, more than the launch's dynamic shared memory ("
                           << launch.getDynamicSharedMemory() << ")";
        return signalPassFailure();
      }
      if (layout.offsets.empty())
        continue;
      if (!dynamic) {
        OpBuilder global(module.getBodyRegion());
        global.setInsertionPointToStart(&module.getBodyRegion().front());
        dynamic = LLVM::GlobalOp::create(global, module.getLoc(), bytes, /*isConstant=*/false,
                                         LLVM::Linkage::External, kDynamicSharedName,
                                         Attribute(), kDynamicSharedAlignment,
                                         kSharedMemoryAddressSpace);
      }
      SmallVector<LLVM::AddressOfOp> addresses;
      kernel.walk([&](LLVM::AddressOfOp address) { addresses.push_back(address); });
      for (LLVM::AddressOfOp address : addresses) {
        Operation *global = symbols.lookup(address.getGlobalNameAttr().getAttr());
        auto found = layout.offsets.find(global);
        if (found == layout.offsets.end())
          continue;
        OpBuilder b(address);
        Value base = LLVM::AddressOfOp::create(b, address.getLoc(), pointer, kDynamicSharedName);
        Value at = LLVM::GEPOp::create(b, address.getLoc(), pointer, b.getI8Type(), base,
                                       ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(found->second)},
                                       LLVM::GEPNoWrapFlags::inbounds);
        address.replaceAllUsesWith(at);
        address.erase();
      }
    }
    // Shared globals no kernel takes the address of any longer (the names
    // used, gathered in one walk).
    llvm::DenseSet<StringAttr> used;
    module.walk([&](LLVM::AddressOfOp address) {
      used.insert(address.getGlobalNameAttr().getAttr());
    });
    for (auto global : llvm::make_early_inc_range(module.getOps<LLVM::GlobalOp>()))
      if (isSharedMemory(global) && global != dynamic && !used.contains(global.getSymNameAttr()))
        global.erase();
  }
};

} // namespace
} // namespace hlo::pipeline
