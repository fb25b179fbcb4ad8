//===- HostPasses.h - The host target's own passes --------------*- C++ -*-===//
//
// Declarations and registration of the passes in HostPasses.td, and the
// attribute names they share.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_HOST_HOSTPASSES_H
#define HLO_PIPELINE_HOST_HOSTPASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace hlo::pipeline {

/// On the trailing argument of every function after
/// xla-gpu-lower-gpu-to-host: the `HloHostThread *` of the running thread.
inline constexpr llvm::StringLiteral kHostThreadArgAttr = "xla_gpu.host_thread";

/// Names of the runtime interface (abi/HostKernelAbi.h).
inline constexpr llvm::StringLiteral kBarrierFunction = "__hlo_host_barrier";
inline constexpr llvm::StringLiteral kShuffleFunction = "__hlo_host_shuffle";
inline constexpr llvm::StringLiteral kMmaSyncFunction = "__hlo_host_mma_sync";
inline constexpr llvm::StringLiteral kLdmatrixFunction = "__hlo_host_ldmatrix";
inline constexpr llvm::StringLiteral kWgmmaFunction = "__hlo_host_wgmma";
inline constexpr llvm::StringLiteral kWgmmaIssueFunction = "__hlo_host_wgmma_issue";
inline constexpr llvm::StringLiteral kWgmmaCommitFunction = "__hlo_host_wgmma_commit";
inline constexpr llvm::StringLiteral kWgmmaWaitFunction = "__hlo_host_wgmma_wait";
inline constexpr llvm::StringLiteral kCpAsyncFunction = "__hlo_host_cp_async";
inline constexpr llvm::StringLiteral kCpAsyncCommitFunction = "__hlo_host_cp_async_commit";
inline constexpr llvm::StringLiteral kCpAsyncWaitFunction = "__hlo_host_cp_async_wait";
inline constexpr llvm::StringLiteral kMbarrierInitFunction = "__hlo_host_mbarrier_init";
inline constexpr llvm::StringLiteral kMbarrierArriveFunction = "__hlo_host_mbarrier_arrive";
inline constexpr llvm::StringLiteral kMbarrierWaitFunction = "__hlo_host_mbarrier_wait";
inline constexpr llvm::StringLiteral kTmaLoadFunction = "__hlo_host_tma_load";
inline constexpr llvm::StringLiteral kStmatrixFunction = "__hlo_host_stmatrix";
inline constexpr llvm::StringLiteral kTmaStoreFunction = "__hlo_host_tma_store";
inline constexpr llvm::StringLiteral kTmaStoreWaitFunction = "__hlo_host_tma_store_wait";
inline constexpr llvm::StringLiteral kClusterSyncFunction = "__hlo_host_cluster_sync";
inline constexpr llvm::StringLiteral kMbarrierArriveClusterFunction =
    "__hlo_host_mbarrier_arrive_cluster";
inline constexpr llvm::StringLiteral kTmaLoadMulticastFunction = "__hlo_host_tma_load_multicast";
inline constexpr llvm::StringLiteral kSetMaxRegistersFunction = "__hlo_host_setmaxnreg";
inline constexpr llvm::StringLiteral kOutOfBoundsFunction = "__hlo_host_out_of_bounds";

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "pipeline/host/HostPasses.h.inc"

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_HOST_HOSTPASSES_H
