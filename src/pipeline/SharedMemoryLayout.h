//===- SharedMemoryLayout.h - A kernel's static shared memory ---*- C++ -*-===//
//
// Owns the one rule for where a kernel's shared memory lives: after the
// conversion to the LLVM dialect, shared memory is the globals in the
// workgroup address space (3, as NVVM numbers it) whose address the kernel
// takes; they are laid out in module order, each at an offset aligned to
// the larger of 16 bytes and its own alignment. The NVPTX target reports
// the total in the manifest; the host target also places each global at its
// offset in the block's shared memory.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_SHAREDMEMORYLAYOUT_H
#define HLO_PIPELINE_SHAREDMEMORYLAYOUT_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "llvm/ADT/MapVector.h"

namespace hlo::pipeline {

/// The address space of shared memory in the LLVM dialect (both targets).
inline constexpr unsigned kSharedMemoryAddressSpace = 3;

struct SharedMemoryLayout {
  int64_t bytes = 0;
  /// Each shared global the kernel uses, at its offset.
  llvm::MapVector<mlir::Operation *, int64_t> offsets;
};

/// Whether `global` is shared memory.
bool isSharedMemory(mlir::LLVM::GlobalOp global);

/// The shared memory of `kernel` (the globals its own body takes the
/// address of).
SharedMemoryLayout layoutSharedMemory(mlir::LLVM::LLVMFuncOp kernel);

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_SHAREDMEMORYLAYOUT_H
