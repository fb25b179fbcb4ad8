/*===- HostKernelAbi.h - Host-compiled kernels and their launcher -*- C -*-===//
//
// The contract between the kernels `hlo-compile --target=host` writes into a
// shared object and the CPU launcher of `hlo-run` that runs them. Its own
// folder (src/abi) because both sides include it: the compiler's host
// lowering (src/pipeline) emits loads from HloHostThread at these offsets
// and calls to these functions by name, and hlo-run (src/runtime/host)
// implements the functions and fills the structure. Plain C, no LLVM.
//
// A kernel is exported under its manifest name with the signature
//
//   void NAME(void *const *buffers, HloHostThread *thread);
//
// and runs one GPU thread: `buffers` holds the kernel's parameters in
// manifest order (inputs, then outputs), `thread` says which thread of which
// block it is. Everything else a kernel needs from a GPU comes through the
// functions below; the shared object references them (and libm) and defines
// nothing else.
//
//===----------------------------------------------------------------------===*/
#ifndef HLO_ABI_HOSTKERNELABI_H
#define HLO_ABI_HOSTKERNELABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever this file changes incompatibly; the manifest of a host
 * build carries it ("host_abi_version"). */
#define HLO_HOST_ABI_VERSION 1

/* One GPU thread, as the launcher presents it to the kernel. */
typedef struct HloHostThread {
  uint32_t threadId[3]; /* threadIdx.{x,y,z} */
  uint32_t blockId[3];  /* blockIdx.{x,y,z} */
  uint32_t blockDim[3]; /* blockDim.{x,y,z} */
  uint32_t gridDim[3];  /* gridDim.{x,y,z} */
  /* The block's shared memory (the manifest's shared_memory_bytes, filled
   * with a poison pattern before the block starts). */
  void *sharedMemory;
  /* The launcher's state for this block; opaque to kernels. */
  void *block;
} HloHostThread;

typedef void (*HloHostKernel)(void *const *buffers, HloHostThread *thread);

/* Byte offsets the compiler loads the ids from. */
#define HLO_HOST_THREAD_ID_OFFSET offsetof(HloHostThread, threadId)
#define HLO_HOST_BLOCK_ID_OFFSET offsetof(HloHostThread, blockId)
#define HLO_HOST_BLOCK_DIM_OFFSET offsetof(HloHostThread, blockDim)
#define HLO_HOST_GRID_DIM_OFFSET offsetof(HloHostThread, gridDim)
#define HLO_HOST_SHARED_MEMORY_OFFSET offsetof(HloHostThread, sharedMemory)

/* __syncthreads(): returns when every thread of the block has reached a
 * barrier. A barrier that not all threads reach is a fault. */
void __hlo_host_barrier(HloHostThread *thread);

/* Shuffle modes, as PTX's shfl.sync (and gpu.shuffle) name them. */
enum HloHostShuffleMode {
  HLO_HOST_SHUFFLE_UP = 0,
  HLO_HOST_SHUFFLE_DOWN = 1,
  HLO_HOST_SHUFFLE_XOR = 2,
  HLO_HOST_SHUFFLE_IDX = 3
};

/* PTX's `shfl.sync.MODE.b32 d|p, a, b, c, membermask`, on up to 64 bits:
 * waits for the warp's other non-exited lanes in `memberMask`, then returns
 * the value of the source lane computed from `laneOffset` (b) and
 * `clampAndSegmentMask` (c: clamp in bits 0-4, segment mask in bits 8-12),
 * or the caller's own value when that lane is out of range; `*inRange` is
 * the predicate p. A lane that runs a shuffle outside its member mask, lanes
 * of one warp that disagree on mode or mask, and reading a lane that has
 * exited are faults. */
uint64_t __hlo_host_shuffle(HloHostThread *thread, uint64_t value, uint32_t mode,
                            uint32_t laneOffset, uint32_t clampAndSegmentMask,
                            uint32_t memberMask, uint8_t *inRange);

/* Warp-level matrix multiply-accumulate, PTX's mma.sync.aligned with the
 * A operand row-major and B column-major: D = A * B + C over one
 * M x N x K tile, the operands spread over the warp's 32 lanes as the PTX
 * ISA's "matrix fragments for mma" lay them out. Named by shape, then
 * the accumulator's type and the inputs' type. */
enum HloHostMmaKind {
  HLO_HOST_MMA_M16N8K16_F32_BF16 = 0,
  HLO_HOST_MMA_M16N8K16_F32_F16 = 1,
  HLO_HOST_MMA_M16N8K8_F32_TF32 = 2, /* an f32 register's low 13 bits ignored */
  HLO_HOST_MMA_M8N8K4_F64_F64 = 3,
  HLO_HOST_MMA_M16N8K32_S32_S8 = 4,
  HLO_HOST_MMA_M16N8K32_F32_E4M3 = 5,
  HLO_HOST_MMA_M16N8K32_F32_E5M2 = 6,
  /* Mixed 8-bit floats: A's type, then B's. */
  HLO_HOST_MMA_M16N8K32_F32_E4M3_E5M2 = 7,
  HLO_HOST_MMA_M16N8K32_F32_E5M2_E4M3 = 8
};

/* One lane's part of an mma.sync of `kind`: `a`, `b` and `c` point at its
 * fragment registers in PTX's order (32-bit registers, elements packed from
 * the low bits; f64 operands 64-bit), `d` receives its part of the result
 * (it may be `c`). Returns once all 32 lanes of the warp have run the same
 * operation; a lane that has exited, runs another operation, or a warp of
 * fewer than 32 threads is a fault. */
void __hlo_host_mma_sync(HloHostThread *thread, uint32_t kind, const void *a,
                         const void *b, const void *c, void *d);

/* PTX's ldmatrix.sync.aligned.m8n8.xMATRICES[.trans].shared.b16: lanes
 * 8i..8i+7 give the addresses of the 8 rows (16 bytes each) of matrix i;
 * each lane receives one 32-bit register per matrix, `result[i]`: row
 * lane/4, elements 2*(lane%4) and 2*(lane%4)+1 of matrix i (of its
 * transpose with `transpose`). `matrices` is 1, 2 or 4; the addresses of
 * lanes beyond 8*matrices are not read. Collective like
 * __hlo_host_mma_sync. */
void __hlo_host_ldmatrix(HloHostThread *thread, uint32_t matrices, uint32_t transpose,
                         const void *rowAddress, uint32_t *result);

/* Warpgroup-level matrix multiply-accumulate, PTX's
 * wgmma.mma_async.sync.aligned.m64nNk16 (m64nNk8 for TF32, m64nNk32 for
 * 8-bit floats) with both
 * operands in shared memory, K-major, issued, committed and waited for as
 * one step: D = A * B + D, A 64 x K, B N x K (N a multiple of 8 up to
 * 256), D 64 x N in f32. Named by the accumulator's and the inputs' type. */
enum HloHostWgmmaKind {
  HLO_HOST_WGMMA_M64K16_F32_BF16 = 0,
  HLO_HOST_WGMMA_M64K16_F32_F16 = 1,
  /* m64nNk8 with f32 operands of which only the top 19 bits count (TF32):
   * A 64 x 8, B N x 8, the same 32 bytes of K per row as the 16-bit kinds. */
  HLO_HOST_WGMMA_M64K8_F32_TF32 = 2,
  /* m64nNk32 with 8-bit float operands, A's format then B's (e4m3fn or
   * e5m2, alike or mixed): A 64 x 32, B N x 32, 32 bytes of K per row too. */
  HLO_HOST_WGMMA_M64K32_F32_E4M3_E4M3 = 3,
  HLO_HOST_WGMMA_M64K32_F32_E4M3_E5M2 = 4,
  HLO_HOST_WGMMA_M64K32_F32_E5M2_E4M3 = 5,
  HLO_HOST_WGMMA_M64K32_F32_E5M2_E5M2 = 6
};
/* Or'ed into a wgmma's kind: B is N-major (PTX's imm-trans-b, 16-bit
 * inputs, swizzled only): rows of `swizzle` bytes along N, one per k,
 * element (n, k) at n / T * bLeading + k / 8 * bStride + k % 8 * swizzle +
 * n % T * 2 bytes from B's start (T = swizzle / 2 elements), before the
 * same address swizzle as K-major rows. */
#define HLO_HOST_WGMMA_TRANSPOSE_B 0x40u
/* Or'ed into a wgmma's kind: A is M-major (PTX's imm-trans-a), laid out as
 * an N-major B is, with aLeading and aStride. */
#define HLO_HOST_WGMMA_TRANSPOSE_A 0x80u

/* One thread's part of a wgmma of `kind` and width `n`: every thread of the
 * warpgroup (threads 128g to 128g + 127 of the block) gives the same
 * operands, its accumulator `d` (n / 2 f32 registers in the PTX ISA's
 * order: value 4j + i of thread 32w + 4r + c is D's row 16w + r + 8(i / 2),
 * column 8j + 2c + i % 2) updated in place. Both operands lie in the
 * block's shared memory in the layout of the descriptors' `swizzle` mode:
 *  - 0 (none): core matrices of 8 rows of 16 contiguous bytes (E = 8
 *    16-bit or 4 32-bit elements); element (row, k) lies at row / 8 *
 *    stride + k / E * leading + row % 8 * 16 + k % E * (16 / E) bytes from
 *    the operand's start (`leading`: between core matrices adjacent in K,
 *    `stride`: between those adjacent in rows);
 *  - 32, 64 or 128 (bytes): rows of that many bytes, 8-row groups `stride`
 *    bytes apart: element (row, k) at address row / 8 * stride +
 *    row % 8 * swizzle + k * (16 / E) from the start, with that address's bits 4
 *    and up (1, 2 or 3 of them) XORed with its bits 7 and up, the address
 *    taken in the block's shared memory (as the GPU takes its shared
 *    window's); `leading` is not used.
 * Returns once all 128 threads have run the same operation. */
void __hlo_host_wgmma(HloHostThread *thread, uint32_t kind, uint32_t n, uint32_t swizzle,
                      const void *a, uint32_t aLeading, uint32_t aStride, const void *b,
                      uint32_t bLeading, uint32_t bStride, float *d);

/* Asynchronous wgmma (PTX's wgmma.mma_async without a wait,
 * wgmma.commit_group, wgmma.wait_group), collective over the warpgroup
 * like __hlo_host_wgmma. __hlo_host_wgmma_issue queues the product into
 * the warpgroup's open group: its tiles are read when the group retires,
 * and `d` holds a NaN marker while the chain is in flight (a `d` that holds
 * it everywhere continues the chain). __hlo_host_wgmma_commit closes the
 * open group. __hlo_host_wgmma_wait retires the oldest groups until at
 * most `pending` remain; once none does, a `d` (`values` floats) holding
 * the marker receives the accumulators. */
void __hlo_host_wgmma_issue(HloHostThread *thread, uint32_t kind, uint32_t n,
                            uint32_t swizzle, const void *a, uint32_t aLeading,
                            uint32_t aStride, const void *b, uint32_t bLeading,
                            uint32_t bStride, float *d);
void __hlo_host_wgmma_commit(HloHostThread *thread);
void __hlo_host_wgmma_wait(HloHostThread *thread, uint32_t pending, float *d, uint32_t values);

/* PTX's cp.async.shared.global: queues a copy of `bytes` (4, 8 or 16)
 * bytes to `destination` in the block's shared memory, the first
 * `sourceBytes` (at most `bytes`) from `source`, zeros after them, in the
 * thread's open group. The copy is done only when a
 * __hlo_host_cp_async_wait leaves fewer of the thread's committed groups
 * pending than come after its own: until then the destination holds what
 * it held before. */
void __hlo_host_cp_async(HloHostThread *thread, void *destination, const void *source,
                         uint32_t bytes, uint32_t sourceBytes);
/* cp.async.commit_group: the thread's open group is committed. */
void __hlo_host_cp_async_commit(HloHostThread *thread);
/* cp.async.wait_group: does the thread's oldest committed groups until at
 * most `pending` remain. */
void __hlo_host_cp_async_wait(HloHostThread *thread, uint32_t pending);

/* A TMA tensor map as the host target passes it: a kernel parameter the
 * manifest gives as a "tensor_map" reaches the kernel as a pointer to one
 * of these (on a GPU: the CUtensorMap the driver encodes from the same
 * fields). Dimensions, strides and the box most minor first; strides in
 * bytes, dimension 0's being the element size. */
typedef struct HloHostTensorMap {
  const void *base;
  uint32_t rank;         /* 1 to 5 */
  uint32_t elementBytes; /* 1, 2, 4 or 8 */
  uint32_t swizzle;      /* 0 (none), 32, 64 or 128 bytes */
  uint32_t reserved;
  uint64_t dims[5];
  uint64_t strides[5];
  uint32_t box[5];
} HloHostTensorMap;

/* PTX's mbarrier objects (8 bytes of the block's shared memory each):
 * __hlo_host_mbarrier_init sets the expected arrivals of each phase
 * (mbarrier.init); __hlo_host_mbarrier_arrive is one arrival, with
 * `transactionBytes` (> 0: mbarrier.arrive.expect_tx) added to the bytes
 * the phase awaits; __hlo_host_mbarrier_wait returns once the phase of
 * parity `parity` has completed (a loop on mbarrier.try_wait.parity): at
 * once where the current phase has the other parity, as on a GPU, so a
 * wait on the wrong parity sees the tiles as they were. A phase completes
 * when all its arrivals and awaited bytes have come. */
void __hlo_host_mbarrier_init(HloHostThread *thread, void *barrier, uint32_t count);
void __hlo_host_mbarrier_arrive(HloHostThread *thread, void *barrier,
                                uint32_t transactionBytes);
void __hlo_host_mbarrier_wait(HloHostThread *thread, void *barrier, uint32_t parity);

/* PTX's cp.async.bulk.tensor.Nd.shared::cluster.global.mbarrier::complete_tx
 * ::bytes: the box of `map` at element coordinates `coordinates` (rank of
 * them, most minor first; elements outside the tensor read as zero) into
 * `destination` in the block's shared memory, in box order (dimension 0
 * fastest) with the map's swizzle applied to the addresses as
 * __hlo_host_wgmma reads them; the copy's bytes complete on `barrier`. The
 * destination holds the poison pattern from the issue until a wait on the
 * barrier's phase completes the copy: a tile read before its wait, or
 * overwritten while a product still reads it, is wrong. */
void __hlo_host_tma_load(HloHostThread *thread, const HloHostTensorMap *map, void *destination,
                         void *barrier, const int32_t *coordinates);

/* PTX's stmatrix.sync.aligned.m8n8.xMATRICES.shared.b16, then
 * fence.proxy.async.shared::cta and bar.warp.sync: lanes 8i..8i+7 give the
 * addresses of the 8 rows (16 bytes each) of matrix i; each lane gives one
 * 32-bit register per matrix, `values[i]`: row lane/4, elements
 * 2*(lane%4) and 2*(lane%4)+1 of matrix i (low half first). `matrices` is
 * 1, 2 or 4; the addresses of lanes beyond 8*matrices are not read.
 * Collective like __hlo_host_mma_sync. */
void __hlo_host_stmatrix(HloHostThread *thread, uint32_t matrices, void *rowAddress,
                         const uint32_t *values);

/* PTX's cp.async.bulk.tensor.Nd.global.shared::cta.bulk_group and
 * cp.async.bulk.commit_group: the box at `source` in the block's shared
 * memory (box order, the map's swizzle applied as for a TMA load) into
 * the map's tensor at element coordinates `coordinates` (most minor
 * first); elements outside the tensor are not written. The box is written
 * when a wait retires the store's group; its shared bytes changing before
 * then, or the thread ending with stores in flight, is a fault.
 * __hlo_host_tma_store_wait is cp.async.bulk.wait_group[.read]: it
 * returns once at most `pending` of the thread's groups are in flight. */
void __hlo_host_tma_store(HloHostThread *thread, const HloHostTensorMap *map,
                          const void *source, const int32_t *coordinates);
void __hlo_host_tma_store_wait(HloHostThread *thread, uint32_t pending);

/* Thread-block clusters (the kernel's blocks in clusters of the
 * manifest's "cluster" shape, which run together): __hlo_host_cluster_sync
 * is barrier.cluster.arrive + barrier.cluster.wait (every thread of every
 * block of the cluster arrives, or has exited);
 * __hlo_host_mbarrier_arrive_cluster is one arrival (mapa, then
 * mbarrier.arrive.release.cluster.shared::cluster) at the mbarrier at
 * `barrier`'s offset in the shared memory of block `rank` of the cluster
 * (%cluster_ctarank); __hlo_host_tma_load_multicast is
 * __hlo_host_tma_load with .multicast::cluster: the box lands at
 * `destination`'s offset in every block of the cluster whose rank bit is
 * set in `mask`, its bytes completing on the mbarrier at `barrier`'s
 * offset in each. Reaching a block that has exited is a fault. */
void __hlo_host_cluster_sync(HloHostThread *thread);
void __hlo_host_mbarrier_arrive_cluster(HloHostThread *thread, void *barrier, uint32_t rank);
void __hlo_host_tma_load_multicast(HloHostThread *thread, const HloHostTensorMap *map,
                                   void *destination, void *barrier,
                                   const int32_t *coordinates, uint32_t mask);

/* PTX's setmaxnreg.{inc,dec}.sync.aligned.u32 (`increase` non-zero:
 * .inc): the calling warpgroup's registers per thread become `count`,
 * given back to the block's pool or taken from it (waiting until other
 * warpgroups have given back enough). Every thread of the warpgroup runs
 * the same one; the count starts at the kernel's register bound (the
 * manifest's max_registers), and without one setmaxnreg is a fault. */
void __hlo_host_setmaxnreg(HloHostThread *thread, uint32_t count, uint32_t increase);

/* What an out-of-bounds access was. */
enum HloHostAccessKind {
  HLO_HOST_ACCESS_LOAD = 0,
  HLO_HOST_ACCESS_STORE = 1,
  HLO_HOST_ACCESS_ATOMIC = 2
};
/* Which memory: a kernel parameter (>= 0, its position in `buffers`), or: */
#define HLO_HOST_BUFFER_SHARED (-1) /* the block's shared memory */
#define HLO_HOST_BUFFER_OTHER (-2)  /* any other memory (a callee's argument, a local) */

/* Called by a kernel compiled with bounds checks (the default) instead of
 * an access whose index `index` in dimension `dimension` is outside
 * [0, extent) (a vector access: its last element). Does not return: the
 * launch stops with a fault naming the buffer, index and thread. */
void __hlo_host_out_of_bounds(HloHostThread *thread, uint32_t access, int32_t buffer,
                              uint32_t dimension, int64_t index, int64_t extent);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HLO_ABI_HOSTKERNELABI_H */
