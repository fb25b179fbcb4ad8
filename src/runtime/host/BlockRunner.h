//===- BlockRunner.h - One block of GPU threads on a host thread -*- C++ -*-===//
//
// Owns running the threads of one block of a host-compiled kernel on the
// calling host thread, and the kernel-facing side of the runtime interface
// (abi/HostKernelAbi.h: barrier, shuffle, the warp-collective matrix
// operations, out-of-bounds report), which calls back into the runner of
// the block the calling thread belongs to.
//
// Threads of a kernel without barriers or shuffles run one after another
// on the host thread's own stack. Otherwise each thread runs on a fiber;
// the scheduler resumes every ready thread in order until it blocks or
// exits, releases a barrier once every thread of the block waits at one,
// completes a shuffle as soon as every lane of its member mask has
// arrived or exited, a warp-collective operation (mma.sync, ldmatrix:
// WarpMatrixOps.h computes them) once all 32 lanes of the warp have, and
// a warpgroup-collective one (wgmma: WarpgroupMma.h) once all 128 threads
// of the warpgroup have (setmaxnreg too, once the block's register pool
// holds what it asks: RegisterPool.h), and an mbarrier wait (TmaBarriers.h) once its
// phase has completed (its waiters try again whenever any mbarrier or TMA
// load has changed). When nothing can run and not everything has
// exited, the block is deadlocked: that is a fault, with each thread's
// state.
//
// A block of a thread-block cluster (ClusterRunner.h) runs the same way,
// one sweep over its ready threads at a time, interleaved with the other
// blocks of its cluster on the same host thread: a cluster barrier waits
// for every thread of the cluster, and an mbarrier arrival or a multicast
// TMA load may reach another block's shared memory at the same offset
// (PTX's mapa), never one that has exited.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_HOST_BLOCKRUNNER_H
#define HLO_RUNTIME_HOST_BLOCKRUNNER_H

#include "host/Fiber.h"
#include "host/WarpMatrixOps.h"
#include "host/AsyncCopies.h"
#include "host/RegisterPool.h"
#include "host/TmaBarriers.h"
#include "host/TmaStores.h"
#include "host/WarpgroupMma.h"
#include "host/WgmmaPipeline.h"

#include "abi/HostKernelAbi.h"

#include <array>
#include <csetjmp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hlo::runtime {

class ClusterRunner;

/// What every block of one launch shares.
struct GridLaunch {
  HloHostKernel kernel = nullptr;
  void *const *buffers = nullptr;
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::array<uint32_t, 3> block = {1, 1, 1};
  size_t sharedMemoryBytes = 0;
  /// The block's threads must run concurrently (fibers).
  bool concurrentThreads = true;
  /// The registers a thread launches with (the kernel's bound; 0:
  /// unknown), where setmaxnreg moves them (RegisterPool.h).
  uint32_t registersPerThread = 0;
  /// The thread-block clusters' shape (blocks of one run together).
  std::array<uint32_t, 3> cluster = {1, 1, 1};
};

class BlockRunner {
public:
  BlockRunner();
  ~BlockRunner();
  BlockRunner(const BlockRunner &) = delete;
  BlockRunner &operator=(const BlockRunner &) = delete;

  /// Runs block `blockId` of `launch` (alone: a cluster of one). False on
  /// a fault, described by faultMessage().
  bool run(const GridLaunch &launch, std::array<uint32_t, 3> blockId);
  const std::string &faultMessage() const { return message; }

  /// As the block of rank `rank` of `cluster` (ClusterRunner.h): start()
  /// prepares the block (its shared memory poisoned, its threads' fibers;
  /// false on a fault), then each sweep() resumes its ready threads until
  /// each blocks or exits.
  bool start(const GridLaunch &launch, std::array<uint32_t, 3> blockId, ClusterRunner *cluster,
             unsigned rank);
  enum class Sweep : uint8_t {
    /// Threads ran or became ready.
    Progressed,
    /// Every thread waits for something no thread of the block can give.
    Waiting,
    /// Every thread has exited (and left nothing in flight).
    Done,
    Faulted
  };
  Sweep sweep();
  /// Whether every thread waits at the cluster barrier or has exited.
  bool waitsAtClusterBarrier() const;
  void releaseClusterBarrier();
  /// Why the block's threads wait (after a sweep that found them Waiting).
  std::string deadlockReport() const;
  /// Every thread has exited since start() (Sweep::Done).
  bool hasExited() const { return finished; }

  // The runtime interface, for the threads of the running block.
  void barrier(HloHostThread *thread);
  uint64_t shuffle(HloHostThread *thread, uint64_t value, uint32_t mode, uint32_t laneOffset,
                   uint32_t clampAndSegmentMask, uint32_t memberMask, uint8_t *inRange);
  void mmaSync(HloHostThread *thread, uint32_t kind, const void *a, const void *b,
               const void *c, void *d);
  void ldmatrix(HloHostThread *thread, uint32_t matrices, uint32_t transpose,
                const void *rowAddress, uint32_t *result);
  void wgmma(HloHostThread *thread, uint32_t kind, uint32_t n, const WgmmaOperands &operands,
             float *d);
  /// Asynchronous wgmma (WgmmaPipeline.h): issue into the open group,
  /// commit it, wait for all but `pending` groups.
  void wgmmaIssue(HloHostThread *thread, uint32_t kind, uint32_t n,
                  const WgmmaOperands &operands, float *d);
  void wgmmaCommit(HloHostThread *thread);
  void wgmmaWait(HloHostThread *thread, uint32_t pending, float *d, uint32_t values);
  void asyncCopy(HloHostThread *thread, void *destination, const void *source, uint32_t bytes,
                 uint32_t sourceBytes);
  void asyncCommit(HloHostThread *thread);
  void asyncWait(HloHostThread *thread, uint32_t pending);
  /// mbarriers and TMA loads (TmaBarriers.h); a wait blocks the thread
  /// until its phase completes.
  void mbarrierInit(HloHostThread *thread, void *barrier, uint32_t count);
  void mbarrierArrive(HloHostThread *thread, void *barrier, uint32_t transactionBytes);
  void mbarrierWait(HloHostThread *thread, void *barrier, uint32_t parity);
  /// stmatrix (warp-collective, WarpMatrixOps.h), then the warp's fence
  /// and meeting.
  void stmatrix(HloHostThread *thread, uint32_t matrices, void *rowAddress,
                const uint32_t *values);
  /// A TMA store committed as the thread's own group, and the wait for
  /// its groups (TmaStores.h).
  void tmaStore(HloHostThread *thread, const HloHostTensorMap *map, const void *source,
                const int32_t *coordinates);
  void tmaStoreWait(HloHostThread *thread, uint32_t pending);
  void tmaLoad(HloHostThread *thread, const HloHostTensorMap *map, void *destination,
               void *barrier, const int32_t *coordinates);
  /// barrier.cluster.arrive + barrier.cluster.wait: until every thread
  /// of the cluster has arrived or exited.
  void clusterSync(HloHostThread *thread);
  /// An arrival at the mbarrier at `barrier`'s offset in the shared memory
  /// of block `rank` of the cluster (mapa, then mbarrier.arrive
  /// .shared::cluster).
  void mbarrierArrivePeer(HloHostThread *thread, void *barrier, uint32_t rank);
  /// A TMA load into `destination`'s offset of every block of the cluster
  /// whose rank `mask` names, completing on the mbarrier at `barrier`'s
  /// offset in each (.multicast::cluster).
  void tmaLoadMulticast(HloHostThread *thread, const HloHostTensorMap *map, void *destination,
                        void *barrier, const int32_t *coordinates, uint32_t mask);
  /// setmaxnreg (RegisterPool.h), warpgroup-collective: an `.inc` waits
  /// until the pool holds what it asks.
  void setMaxRegisters(HloHostThread *thread, uint32_t count, bool increase);
  [[noreturn]] void outOfBounds(HloHostThread *thread, uint32_t access, int32_t buffer,
                                uint32_t dimension, int64_t index, int64_t extent);

private:
  enum class Status : uint8_t {
    Ready,
    AtBarrier,
    AtShuffle,
    AtCollective,
    AtMbarrier,
    AtClusterBarrier,
    Exited,
    Faulted
  };

  struct ShuffleRequest {
    uint64_t value = 0;
    uint32_t mode = 0, laneOffset = 0, clampAndSegmentMask = 0, memberMask = 0;
    uint64_t result = 0;
    bool inRange = false;
  };

  /// A thread's part of a warp- (or, wgmma, warpgroup-) collective
  /// operation.
  struct CollectiveRequest {
    enum class Op : uint8_t {
      Mma,
      Ldmatrix,
      Stmatrix,
      Wgmma,
      WgmmaIssue,
      WgmmaCommit,
      WgmmaWait,
      SetMaxRegisters
    };
    Op op = Op::Mma;
    /// Mma: the HloHostMmaKind; Ldmatrix: matrices | transpose << 8;
    /// Stmatrix: matrices;
    /// Wgmma, WgmmaIssue: the HloHostWgmmaKind | N << 8; WgmmaWait: the
    /// groups left pending | the accumulator values << 8; SetMaxRegisters:
    /// the count | increase << 16.
    uint32_t kind = 0;
    MmaLane mma;
    LdmatrixLane ldmatrix;
    StmatrixLane stmatrix;
    WgmmaOperands wgmma;
    float *accumulator = nullptr;
    const char *name() const {
      switch (op) {
      case Op::Mma: return "mma.sync";
      case Op::Ldmatrix: return "ldmatrix";
      case Op::Stmatrix: return "stmatrix";
      case Op::Wgmma: return "wgmma";
      case Op::WgmmaIssue: return "wgmma.mma_async (in flight)";
      case Op::WgmmaCommit: return "wgmma.commit_group";
      case Op::WgmmaWait: return "wgmma.wait_group";
      case Op::SetMaxRegisters: return "setmaxnreg";
      }
      return "?";
    }
    /// The threads that run it together: a warp, or a warpgroup.
    unsigned groupSize() const {
      return op == Op::Mma || op == Op::Ldmatrix || op == Op::Stmatrix ? 32
                                                                       : kThreadsPerWarpgroup;
    }
  };

  struct ThreadState {
    HloHostThread record{};
    FiberContext context;
    Status status = Status::Ready;
    ShuffleRequest shuffle;
    CollectiveRequest collective;
    AsyncCopyQueue copies;
    TmaStoreQueue tmaStores;
    /// AtMbarrier: TmaBarriers::progress() when it last found its phase
    /// open (it tries again once anything has changed).
    uint64_t mbarrierProgress = 0;
  };

  bool runSequential();
  /// The threads of the running launch's block.
  size_t blockThreads() const {
    return size_t(launch->block[0]) * launch->block[1] * launch->block[2];
  }
  /// The running thread waits at a barrier (`status`: the block's or the
  /// cluster's) until the scheduler releases it; `name` for the fault in
  /// a kernel whose threads run one after another.
  void waitAtBarrier(HloHostThread *thread, Status status, const char *name);
  /// The threads' fibers, ready to run (false: a fault).
  bool startThreads();
  /// Block `rank` of the cluster, and `address`'s offset in the running
  /// block's shared memory as an address in that block's; faults where
  /// there is no such block, the address is not shared memory, or the
  /// block has exited. `what`: the operation, for the fault.
  struct PeerAddress {
    BlockRunner &block;
    void *address;
  };
  PeerAddress peerOf(HloHostThread *thread, uint32_t rank, const void *address,
                     const char *what);
  void prepareThreads(size_t count);
  static void fiberEntry(void *argument);

  /// The thread state of `thread` (concurrent mode).
  ThreadState &stateOf(HloHostThread *thread);
  size_t indexOf(const HloHostThread *thread) const;
  /// Completes the shuffle that `requester` waits in, if every lane of its
  /// member mask has arrived or exited.
  void tryCompleteShuffle(ThreadState &requester);
  /// A wgmma (synchronous or issued in flight) of the running thread.
  void arriveWithWgmma(HloHostThread *thread, CollectiveRequest::Op op, uint32_t kind,
                       uint32_t n, const WgmmaOperands &operands, float *d);
  /// `operands` with the block's shared memory as the swizzle's base;
  /// faults where they do not lie in it as wgmma reads them.
  WgmmaOperands checkedWgmmaOperands(HloHostThread *thread, uint32_t n,
                                     const WgmmaOperands &operands);
  /// Faults unless `matrices` is 1, 2 or 4 and, for a lane that names a
  /// row, `rowAddress` is a 16-byte aligned row in shared memory
  /// (ldmatrix's and stmatrix's rule).
  void checkMatrixRow(HloHostThread *thread, const char *name, uint32_t matrices,
                      const void *rowAddress);
  /// Waits in a warp-collective operation until its warp completes it.
  void arriveAtCollective(HloHostThread *thread, const CollectiveRequest &request);
  /// Completes the collective operation `requester` waits in, if every lane
  /// of its warp has arrived.
  void tryCompleteCollective(ThreadState &requester);
  /// Records a fault of `thread` and leaves it for good (never returns).
  [[noreturn]] void fault(HloHostThread *thread, std::string what);
  /// Records a fault the scheduler found (no thread to leave).
  void schedulerFault(std::string what);
  std::string describeThread(const HloHostThread &thread) const;

  const GridLaunch *launch = nullptr;
  std::array<uint32_t, 3> blockId = {0, 0, 0};
  /// The cluster the block runs in (none: alone) and its rank there.
  ClusterRunner *cluster = nullptr;
  unsigned clusterRank = 0;
  /// Every thread has exited (Sweep::Done).
  bool finished = false;
  std::vector<uint8_t> sharedMemory;
  bool sequential = true;
  // Sequential mode: one record, and where a fault jumps back to.
  HloHostThread sequentialRecord{};
  std::jmp_buf sequentialAbort;
  // Concurrent mode.
  std::vector<ThreadState> threads;
  /// Each warpgroup's asynchronous wgmma groups.
  std::vector<WgmmaPipeline> wgmmaPipelines;
  /// The block's mbarriers and TMA loads.
  TmaBarriers tmaBarriers;
  /// Each warpgroup's registers and the block's pool (setmaxnreg).
  RegisterPool registerPool;
  std::vector<std::unique_ptr<FiberStack>> stacks;
  FiberContext scheduler;
  bool faulted = false;
  std::string message;
};

} // namespace hlo::runtime

#endif // HLO_RUNTIME_HOST_BLOCKRUNNER_H
