//===- KernelEntryPoints.cpp - The runtime interface kernels call ---------===//
//
// Owns the C functions of abi/HostKernelAbi.h that host kernels call
// (hlo-run exports them: HostRuntime.dynlist): each passes the call on to
// the BlockRunner of the calling thread's block.
//
//===----------------------------------------------------------------------===//
#include "host/BlockRunner.h"

namespace {

hlo::runtime::BlockRunner &runnerOf(HloHostThread *thread) {
  return *static_cast<hlo::runtime::BlockRunner *>(thread->block);
}

/// A wgmma kind's layout flags, and its operands with them.
constexpr uint32_t kTransposeBits = HLO_HOST_WGMMA_TRANSPOSE_A | HLO_HOST_WGMMA_TRANSPOSE_B;
hlo::runtime::WgmmaOperands wgmmaOperands(uint32_t kind, uint32_t swizzle, const void *a,
                                          uint32_t aLeading, uint32_t aStride, const void *b,
                                          uint32_t bLeading, uint32_t bStride) {
  hlo::runtime::WgmmaOperands operands{a,       aLeading, aStride, b, bLeading,
                                       bStride, swizzle,  nullptr, false};
  operands.bTransposed = kind & HLO_HOST_WGMMA_TRANSPOSE_B;
  operands.aTransposed = kind & HLO_HOST_WGMMA_TRANSPOSE_A;
  return operands;
}

} // namespace

// The runtime interface the kernels' shared objects reference.
extern "C" {

void __hlo_host_barrier(HloHostThread *thread) {
  runnerOf(thread).barrier(thread);
}

uint64_t __hlo_host_shuffle(HloHostThread *thread, uint64_t value, uint32_t mode,
                            uint32_t laneOffset, uint32_t clampAndSegmentMask,
                            uint32_t memberMask, uint8_t *inRange) {
  return runnerOf(thread).shuffle(thread, value, mode, laneOffset,
                                                clampAndSegmentMask, memberMask, inRange);
}

void __hlo_host_mma_sync(HloHostThread *thread, uint32_t kind, const void *a, const void *b,
                         const void *c, void *d) {
  runnerOf(thread).mmaSync(thread, kind, a, b, c, d);
}

void __hlo_host_ldmatrix(HloHostThread *thread, uint32_t matrices, uint32_t transpose,
                         const void *rowAddress, uint32_t *result) {
  runnerOf(thread).ldmatrix(thread, matrices, transpose, rowAddress, result);
}

void __hlo_host_wgmma(HloHostThread *thread, uint32_t kind, uint32_t n, uint32_t swizzle,
                      const void *a, uint32_t aLeading, uint32_t aStride, const void *b,
                      uint32_t bLeading, uint32_t bStride, float *d) {
  runnerOf(thread).wgmma(thread, kind & ~kTransposeBits, n,
                         wgmmaOperands(kind, swizzle, a, aLeading, aStride, b, bLeading, bStride),
                         d);
}

void __hlo_host_wgmma_issue(HloHostThread *thread, uint32_t kind, uint32_t n,
                            uint32_t swizzle, const void *a, uint32_t aLeading,
                            uint32_t aStride, const void *b, uint32_t bLeading,
                            uint32_t bStride, float *d) {
  runnerOf(thread).wgmmaIssue(
      thread, kind & ~kTransposeBits, n,
      wgmmaOperands(kind, swizzle, a, aLeading, aStride, b, bLeading, bStride), d);
}

void __hlo_host_wgmma_commit(HloHostThread *thread) {
  runnerOf(thread).wgmmaCommit(thread);
}

void __hlo_host_wgmma_wait(HloHostThread *thread, uint32_t pending, float *d, uint32_t values) {
  runnerOf(thread).wgmmaWait(thread, pending, d, values);
}

void __hlo_host_cp_async(HloHostThread *thread, void *destination, const void *source,
                         uint32_t bytes, uint32_t sourceBytes) {
  runnerOf(thread).asyncCopy(thread, destination, source, bytes, sourceBytes);
}

void __hlo_host_cp_async_commit(HloHostThread *thread) {
  runnerOf(thread).asyncCommit(thread);
}

void __hlo_host_cp_async_wait(HloHostThread *thread, uint32_t pending) {
  runnerOf(thread).asyncWait(thread, pending);
}

void __hlo_host_mbarrier_init(HloHostThread *thread, void *barrier, uint32_t count) {
  runnerOf(thread).mbarrierInit(thread, barrier, count);
}

void __hlo_host_mbarrier_arrive(HloHostThread *thread, void *barrier,
                                uint32_t transactionBytes) {
  runnerOf(thread).mbarrierArrive(thread, barrier, transactionBytes);
}

void __hlo_host_mbarrier_wait(HloHostThread *thread, void *barrier, uint32_t parity) {
  runnerOf(thread).mbarrierWait(thread, barrier, parity);
}

void __hlo_host_stmatrix(HloHostThread *thread, uint32_t matrices, void *rowAddress,
                         const uint32_t *values) {
  runnerOf(thread).stmatrix(thread, matrices, rowAddress, values);
}

void __hlo_host_tma_store(HloHostThread *thread, const HloHostTensorMap *map,
                          const void *source, const int32_t *coordinates) {
  runnerOf(thread).tmaStore(thread, map, source, coordinates);
}

void __hlo_host_tma_store_wait(HloHostThread *thread, uint32_t pending) {
  runnerOf(thread).tmaStoreWait(thread, pending);
}

void __hlo_host_tma_load(HloHostThread *thread, const HloHostTensorMap *map, void *destination,
                         void *barrier, const int32_t *coordinates) {
  runnerOf(thread).tmaLoad(thread, map, destination, barrier, coordinates);
}

void __hlo_host_cluster_sync(HloHostThread *thread) { runnerOf(thread).clusterSync(thread); }

void __hlo_host_mbarrier_arrive_cluster(HloHostThread *thread, void *barrier, uint32_t rank) {
  runnerOf(thread).mbarrierArrivePeer(thread, barrier, rank);
}

void __hlo_host_tma_load_multicast(HloHostThread *thread, const HloHostTensorMap *map,
                                   void *destination, void *barrier,
                                   const int32_t *coordinates, uint32_t mask) {
  runnerOf(thread).tmaLoadMulticast(thread, map, destination, barrier, coordinates, mask);
}

void __hlo_host_setmaxnreg(HloHostThread *thread, uint32_t count, uint32_t increase) {
  runnerOf(thread).setMaxRegisters(thread, count, increase != 0);
}

void __hlo_host_out_of_bounds(HloHostThread *thread, uint32_t access, int32_t buffer,
                              uint32_t dimension, int64_t index, int64_t extent) {
  runnerOf(thread).outOfBounds(thread, access, buffer, dimension, index,
                                             extent);
}

} // extern "C"
