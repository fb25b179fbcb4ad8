//===- SharedMemoryLayout.cpp - A kernel's static shared memory -----------===//
#include "pipeline/SharedMemoryLayout.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace hlo::pipeline {

bool isSharedMemory(LLVM::GlobalOp global) {
  return global.getAddrSpace() == kSharedMemoryAddressSpace;
}

SharedMemoryLayout layoutSharedMemory(LLVM::LLVMFuncOp kernel) {
  llvm::SetVector<Operation *> used;
  kernel.walk([&](LLVM::AddressOfOp address) {
    auto global = dyn_cast_or_null<LLVM::GlobalOp>(
        SymbolTable::lookupNearestSymbolFrom(address, address.getGlobalNameAttr()));
    if (global && isSharedMemory(global))
      used.insert(global);
  });
  SharedMemoryLayout layout;
  if (used.empty())
    return layout;
  // Module order, so that the layout does not depend on use order.
  Operation *symbolTable = SymbolTable::getNearestSymbolTable(kernel);
  DataLayout dataLayout = DataLayout::closest(kernel);
  for (Operation &op : symbolTable->getRegion(0).front()) {
    if (!used.contains(&op))
      continue;
    auto global = cast<LLVM::GlobalOp>(op);
    int64_t alignment = std::max<int64_t>(16, global.getAlignment().value_or(1));
    int64_t offset = (layout.bytes + alignment - 1) / alignment * alignment;
    layout.offsets[&op] = offset;
    layout.bytes = offset + static_cast<int64_t>(
                                dataLayout.getTypeSize(global.getGlobalType()));
  }
  return layout;
}

} // namespace hlo::pipeline
