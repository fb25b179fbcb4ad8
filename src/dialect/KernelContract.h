//===- KernelContract.h - What a kernel's entry function carries -*- C++ -*-===//
//
// The contract between the stages about a kernel, in one place: the
// emitters mark a kernel's entry function with its launch (a verified
// `#xla_gpu.launch` attribute), its emitter and its index in the module's
// plan; the targets add what only the lowered code knows (its static shared
// memory, whether its threads must run concurrently); the driver reads them
// back for the manifest. Every stage asks these accessors instead of
// looking attributes up by name; the dialect verifies each wherever it
// appears (XlaGpuDialect::verifyOperationAttribute).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DIALECT_KERNELCONTRACT_H
#define HLO_DIALECT_KERNELCONTRACT_H

#include "dialect/XlaGpuDialect.h"

#include <optional>

namespace hlo::xla_gpu {

/// The attribute names, for the dialect's verifier and for tests; code
/// uses the accessors below.
inline constexpr llvm::StringLiteral kLaunchAttr = "xla_gpu.launch";
inline constexpr llvm::StringLiteral kEmitterAttr = "xla_gpu.emitter";
inline constexpr llvm::StringLiteral kKernelIndexAttr = "xla_gpu.kernel_index";
inline constexpr llvm::StringLiteral kSharedMemoryBytesAttr = "xla_gpu.shared_memory_bytes";
inline constexpr llvm::StringLiteral kConcurrentThreadsAttr = "xla_gpu.concurrent_threads";
/// On an scf.for an emitter keeps as a loop whatever its trip count (a
/// GEMM's K loop, whose body copies tiles between barriers): the
/// pipeline's full unrolling of small loops leaves it.
inline constexpr llvm::StringLiteral kKeepLoopAttr = "xla_gpu.keep_loop";
/// On an xla_gpu.predicated_insert: kept as it is until one-shot
/// bufferization stores under its condition (PredicatedInsertBufferization.h),
/// rather than lowered to a tensor-valued scf.if first.
inline constexpr llvm::StringLiteral kKeepUntilBufferizationAttr =
    "xla_gpu.keep_until_bufferization";
/// On a kernel argument: the launch passes it as a TMA tensor map of its
/// buffer (128 bytes by value), which only `xla_gpu.tma_load` reads.
inline constexpr llvm::StringLiteral kTensorMapArgAttr = "xla_gpu.tensor_map";
/// On two kernel arguments, an input and an output: the memory plan may
/// give them one buffer (the kernel reads each element before writing
/// it), so the target must not mark them `noalias`.
inline constexpr llvm::StringLiteral kMayAliasArgAttr = "xla_gpu.may_alias";

/// The launch of a kernel's entry function (func.func or, after lowering,
/// llvm.func); null on any other operation.
LaunchAttr getKernelLaunch(mlir::Operation *function);

/// Whether `function` is a kernel's entry: it has a launch and a body.
bool isKernel(mlir::Operation *function);

/// Marks `function` as a kernel with this launch (three extents each).
void setKernelLaunch(mlir::Operation *function, llvm::ArrayRef<int64_t> grid,
                     llvm::ArrayRef<int64_t> block);
/// The same with a whole launch (clusters, dynamic shared memory, a
/// register bound).
void setKernelLaunch(mlir::Operation *function, LaunchAttr launch);

/// The emitter that wrote the kernel ("kLoop/LoopFusion"), "" if unknown.
llvm::StringRef getKernelEmitter(mlir::Operation *function);
void setKernelEmitter(mlir::Operation *function, llvm::StringRef emitter);

/// The kernel's position in the module's plan (the manifest's order),
/// whatever its symbol is called; none for a kernel outside a plan.
std::optional<int64_t> getKernelIndex(mlir::Operation *function);
void setKernelIndex(mlir::Operation *function, int64_t index);

/// The static shared memory of the lowered kernel, in bytes (0 if the
/// target has not recorded any).
int64_t getKernelSharedMemoryBytes(mlir::Operation *function);
void setKernelSharedMemoryBytes(mlir::Operation *function, int64_t bytes);

/// Whether the lowered kernel's threads must run concurrently (it reaches
/// a barrier or a warp collective): the host target's runtime needs it.
bool kernelNeedsConcurrentThreads(mlir::Operation *function);
void setKernelNeedsConcurrentThreads(mlir::Operation *function);

} // namespace hlo::xla_gpu

#endif // HLO_DIALECT_KERNELCONTRACT_H
