//===- BlockRunner.cpp - One block of GPU threads on a host thread --------===//
#include "host/BlockRunner.h"

#include "host/ClusterRunner.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace hlo::runtime {
namespace {

constexpr unsigned kWarpSize = 32;
/// Each fiber's stack (reserved, committed as touched).
constexpr size_t kFiberStackBytes = 256 * 1024;
/// The poison pattern of fresh shared memory (NaN for every float type).
constexpr uint8_t kSharedMemoryPoison = 0xff;

BlockRunner &runnerOf(HloHostThread *thread) {
  return *static_cast<BlockRunner *>(thread->block);
}

const char *accessName(uint32_t access) {
  switch (access) {
  case HLO_HOST_ACCESS_LOAD:
    return "load";
  case HLO_HOST_ACCESS_STORE:
    return "store";
  default:
    return "atomic update";
  }
}

std::string hex(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", value);
  return text;
}

} // namespace

BlockRunner::BlockRunner() = default;

BlockRunner::~BlockRunner() {
  for (ThreadState &thread : threads)
    destroyFiber(thread.context);
  destroyFiber(scheduler);
}

size_t BlockRunner::indexOf(const HloHostThread *thread) const {
  const auto &[x, y, z] = thread->threadId;
  return x + size_t(launch->block[0]) * (y + size_t(launch->block[1]) * z);
}

BlockRunner::ThreadState &BlockRunner::stateOf(HloHostThread *thread) {
  return threads[indexOf(thread)];
}

std::string BlockRunner::describeThread(const HloHostThread &thread) const {
  char text[128];
  std::snprintf(text, sizeof text, "thread (%u, %u, %u) of block (%u, %u, %u)",
                thread.threadId[0], thread.threadId[1], thread.threadId[2], blockId[0],
                blockId[1], blockId[2]);
  return text;
}

bool BlockRunner::run(const GridLaunch &grid, std::array<uint32_t, 3> id) {
  if (!start(grid, id, nullptr, 0))
    return false;
  if (sequential)
    return runSequential();
  while (true) {
    switch (sweep()) {
    case Sweep::Done:
      return true;
    case Sweep::Faulted:
      return false;
    case Sweep::Progressed:
      continue;
    case Sweep::Waiting:
      break;
    }
    // A block alone is a cluster of one: its cluster barrier waits for
    // its own threads.
    if (waitsAtClusterBarrier()) {
      releaseClusterBarrier();
      continue;
    }
    schedulerFault(deadlockReport());
    return false;
  }
}

bool BlockRunner::start(const GridLaunch &grid, std::array<uint32_t, 3> id,
                        ClusterRunner *owner, unsigned rank) {
  launch = &grid;
  blockId = id;
  cluster = owner;
  clusterRank = rank;
  faulted = false;
  finished = false;
  message.clear();
  if (grid.sharedMemoryBytes > 0) {
    if (sharedMemory.size() < grid.sharedMemoryBytes)
      sharedMemory.resize(grid.sharedMemoryBytes);
    std::memset(sharedMemory.data(), kSharedMemoryPoison, grid.sharedMemoryBytes);
  }
  sequential = !grid.concurrentThreads;
  return sequential || startThreads();
}

bool BlockRunner::runSequential() {
  HloHostThread &record = sequentialRecord;
  record = HloHostThread{};
  for (int i = 0; i < 3; ++i) {
    record.blockId[i] = blockId[i];
    record.blockDim[i] = launch->block[i];
    record.gridDim[i] = launch->grid[i];
  }
  record.sharedMemory = sharedMemory.data();
  record.block = this;
  // A fault jumps back here from inside the kernel (kernels hold nothing
  // that needs unwinding).
  if (setjmp(sequentialAbort) != 0)
    return false;
  for (uint32_t z = 0; z < launch->block[2]; ++z)
    for (uint32_t y = 0; y < launch->block[1]; ++y)
      for (uint32_t x = 0; x < launch->block[0]; ++x) {
        record.threadId[0] = x;
        record.threadId[1] = y;
        record.threadId[2] = z;
        launch->kernel(launch->buffers, &record);
      }
  return true;
}

void BlockRunner::prepareThreads(size_t count) {
  if (threads.size() < count)
    threads.resize(count);
  while (stacks.size() < count) {
    stacks.push_back(std::make_unique<FiberStack>(kFiberStackBytes));
    if (!stacks.back()->valid()) {
      stacks.pop_back();
      return;
    }
  }
}

void BlockRunner::fiberEntry(void *argument) {
  auto &state = *static_cast<ThreadState *>(argument);
  BlockRunner &runner = runnerOf(&state.record);
  runner.launch->kernel(runner.launch->buffers, &state.record);
  // A TMA store still in flight may not have read its tile: a GPU would
  // write whatever the block's next use left there.
  if (size_t stores = state.tmaStores.inFlight())
    runner.fault(&state.record, "exited with " + std::to_string(stores) +
                                    " TMA store(s) in flight (no cp.async.bulk.wait_group "
                                    "retired them)");
  state.status = Status::Exited;
  // Lanes of this warp waiting in a shuffle no longer wait for this one.
  size_t index = runner.indexOf(&state.record);
  size_t warpBase = index - index % kWarpSize;
  size_t warpEnd = std::min(warpBase + kWarpSize, runner.threads.size());
  for (size_t i = warpBase; i < warpEnd && !runner.faulted; ++i) {
    if (runner.threads[i].status == Status::AtShuffle)
      runner.tryCompleteShuffle(runner.threads[i]);
    else if (runner.threads[i].status == Status::AtCollective)
      runner.tryCompleteCollective(runner.threads[i]);
  }
  switchFiber(state.context, runner.scheduler); // never resumed
  __builtin_trap();
}

bool BlockRunner::startThreads() {
  size_t count = blockThreads();
  prepareThreads(count);
  if (stacks.size() < count) {
    schedulerFault("cannot reserve stacks for " + std::to_string(count) + " threads");
    return false;
  }
  for (size_t i = 0; i < count; ++i) {
    ThreadState &state = threads[i];
    state.record = HloHostThread{};
    state.record.threadId[0] = static_cast<uint32_t>(i % launch->block[0]);
    state.record.threadId[1] = static_cast<uint32_t>(i / launch->block[0] % launch->block[1]);
    state.record.threadId[2] =
        static_cast<uint32_t>(i / (size_t(launch->block[0]) * launch->block[1]));
    for (int d = 0; d < 3; ++d) {
      state.record.blockId[d] = blockId[d];
      state.record.blockDim[d] = launch->block[d];
      state.record.gridDim[d] = launch->grid[d];
    }
    state.record.sharedMemory = sharedMemory.data();
    state.record.block = this;
    state.status = Status::Ready;
    // A previous block's copies never done (its threads ended first).
    state.copies.clear();
    state.tmaStores.clear();
    makeFiber(state.context, *stacks[i], &BlockRunner::fiberEntry, &state);
  }
  wgmmaPipelines.resize((count + kThreadsPerWarpgroup - 1) / kThreadsPerWarpgroup);
  for (WgmmaPipeline &pipeline : wgmmaPipelines)
    pipeline.clear();
  tmaBarriers.reset(sharedMemory.data(), sharedMemory.size());
  registerPool.reset(wgmmaPipelines.size(), launch->registersPerThread);
  return true;
}

BlockRunner::Sweep BlockRunner::sweep() {
  size_t count = blockThreads();
  bool ran = false;
  for (size_t i = 0; i < count; ++i) {
    if (threads[i].status != Status::Ready)
      continue;
    ran = true;
    switchFiber(scheduler, threads[i].context);
    if (faulted)
      return Sweep::Faulted;
  }
  size_t ready = 0, atBarrier = 0, exited = 0;
  for (size_t i = 0; i < count; ++i) {
    Status status = threads[i].status;
    // An mbarrier waiter tries again once anything has changed (a block of
    // its cluster may have changed it too).
    if (status == Status::AtMbarrier && threads[i].mbarrierProgress != tmaBarriers.progress())
      threads[i].status = status = Status::Ready;
    ready += status == Status::Ready;
    atBarrier += status == Status::AtBarrier;
    exited += status == Status::Exited;
  }
  if (exited == count && tmaBarriers.loadsInFlight() > 0) {
    schedulerFault("the block exited with " + std::to_string(tmaBarriers.loadsInFlight()) +
                   " TMA loads in flight (no mbarrier wait completed them)");
    return Sweep::Faulted;
  }
  if (exited == count) {
    for (size_t g = 0; g < wgmmaPipelines.size(); ++g)
      if (size_t products = wgmmaPipelines[g].inFlight()) {
        schedulerFault("warpgroup " + std::to_string(g) + " exited with " +
                       std::to_string(products) +
                       " wgmma products in flight (no wgmma.wait_group retired them)");
        return Sweep::Faulted;
      }
    finished = true;
    return Sweep::Done;
  }
  if (ready > 0)
    return Sweep::Progressed; // made ready by a shuffle that completed behind the sweep
  if (atBarrier == count) {
    for (size_t i = 0; i < count; ++i)
      threads[i].status = Status::Ready;
    return Sweep::Progressed;
  }
  return ran ? Sweep::Progressed : Sweep::Waiting;
}

bool BlockRunner::waitsAtClusterBarrier() const {
  size_t count = blockThreads();
  for (size_t i = 0; i < count; ++i)
    if (threads[i].status != Status::AtClusterBarrier && threads[i].status != Status::Exited)
      return false;
  return true;
}

void BlockRunner::releaseClusterBarrier() {
  size_t count = blockThreads();
  for (size_t i = 0; i < count; ++i)
    if (threads[i].status == Status::AtClusterBarrier)
      threads[i].status = Status::Ready;
}

std::string BlockRunner::deadlockReport() const {
  size_t count = blockThreads();
  size_t atBarrier = 0, atShuffle = 0, atCollective = 0, atMbarrier = 0, atClusterBarrier = 0,
         exited = 0;
  const ThreadState *firstExited = nullptr, *firstBarrier = nullptr, *firstShuffle = nullptr;
  for (size_t i = 0; i < count; ++i) {
    const ThreadState &state = threads[i];
    if (state.status == Status::AtBarrier) {
      ++atBarrier;
      firstBarrier = firstBarrier ? firstBarrier : &state;
    } else if (state.status == Status::AtShuffle) {
      ++atShuffle;
      firstShuffle = firstShuffle ? firstShuffle : &state;
    } else if (state.status == Status::AtCollective) {
      ++atCollective;
    } else if (state.status == Status::AtMbarrier) {
      ++atMbarrier;
    } else if (state.status == Status::AtClusterBarrier) {
      ++atClusterBarrier;
    } else if (state.status == Status::Exited) {
      ++exited;
      firstExited = firstExited ? firstExited : &state;
    }
  }
  char collectives[192] = "";
  if (atCollective > 0 || atMbarrier > 0)
    std::snprintf(collectives, sizeof collectives,
                  ", %zu in an mma.sync, ldmatrix, wgmma or setmaxnreg, %zu at an mbarrier wait whose "
                  "phase never completes",
                  atCollective, atMbarrier);
  if (atClusterBarrier > 0) {
    size_t used = std::strlen(collectives);
    std::snprintf(collectives + used, sizeof collectives - used,
                  ", %zu at a cluster barrier", atClusterBarrier);
  }
  char text[360];
  std::snprintf(text, sizeof text, "of %zu threads, %zu wait at a barrier, %zu in a warp "
                "shuffle%s, %zu exited", count, atBarrier, atShuffle, collectives, exited);
  std::string report;
  if (atBarrier > 0 && atShuffle == 0 && atCollective == 0 && atMbarrier == 0 &&
      atClusterBarrier == 0 && firstExited)
    report = "a barrier not all threads of the block reach (" + std::string(text) +
             "; e.g. " + describeThread(firstExited->record) + " exited, " +
             describeThread(firstBarrier->record) + " waits)";
  else
    report = "the block's threads wait for each other forever (" + std::string(text) +
             (firstShuffle ? "; e.g. " + describeThread(firstShuffle->record) +
                                 " waits in a shuffle with member mask " +
                                 hex(firstShuffle->shuffle.memberMask)
                           : std::string()) +
             ")";
  return report;
}

void BlockRunner::fault(HloHostThread *thread, std::string what) {
  message = describeThread(*thread) + ": " + std::move(what);
  faulted = true;
  if (sequential)
    std::longjmp(sequentialAbort, 1);
  ThreadState &state = stateOf(thread);
  state.status = Status::Faulted;
  switchFiber(state.context, scheduler); // never resumed
  __builtin_trap();
}

void BlockRunner::schedulerFault(std::string what) {
  char text[64];
  std::snprintf(text, sizeof text, "block (%u, %u, %u): ", blockId[0], blockId[1], blockId[2]);
  message = text + std::move(what);
  faulted = true;
}

void BlockRunner::waitAtBarrier(HloHostThread *thread, Status status, const char *name) {
  if (sequential)
    fault(thread, "reached " + std::string(name) +
                      ", but the manifest says the kernel's threads need not run concurrently "
                      "(\"concurrent_threads\": false)");
  ThreadState &state = stateOf(thread);
  state.status = status;
  switchFiber(state.context, scheduler);
}

void BlockRunner::barrier(HloHostThread *thread) {
  waitAtBarrier(thread, Status::AtBarrier, "a barrier");
}

void BlockRunner::tmaStore(HloHostThread *thread, const HloHostTensorMap *map,
                           const void *source, const int32_t *coordinates) {
  if (sequential)
    fault(thread, "issued a TMA store, but the manifest says the kernel's threads need not "
                  "run concurrently");
  if (hlo::Status issued = stateOf(thread).tmaStores.issue(*map, source, coordinates,
                                                           sharedMemory.data(),
                                                           launch->sharedMemoryBytes);
      !issued)
    fault(thread, issued.error());
}

void BlockRunner::tmaStoreWait(HloHostThread *thread, uint32_t pending) {
  if (sequential)
    fault(thread, "waited for TMA stores, but the manifest says the kernel's threads need not "
                  "run concurrently");
  if (hlo::Status done = stateOf(thread).tmaStores.wait(pending); !done)
    fault(thread, done.error());
}

void BlockRunner::asyncCopy(HloHostThread *thread, void *destination, const void *source,
                            uint32_t bytes, uint32_t sourceBytes) {
  auto base = reinterpret_cast<uintptr_t>(sharedMemory.data());
  auto address = reinterpret_cast<uintptr_t>(destination);
  if ((bytes != 4 && bytes != 8 && bytes != 16) || sourceBytes > bytes)
    fault(thread, "ran cp.async of " + std::to_string(bytes) + " bytes, " +
                      std::to_string(sourceBytes) + " from its source (PTX copies 4, 8 or 16)");
  if (address < base || address + bytes > base + launch->sharedMemoryBytes || address % bytes ||
      (sourceBytes > 0 && reinterpret_cast<uintptr_t>(source) % bytes))
    fault(thread, "ran cp.async of " + std::to_string(bytes) + " bytes to " +
                      std::to_string(int64_t(address - base)) +
                      " bytes from the start of shared memory, not an aligned place inside its " +
                      std::to_string(launch->sharedMemoryBytes) + " bytes (or from an "
                      "unaligned source)");
  // Threads that run one at a time have no one to overlap with.
  if (sequential) {
    AsyncCopyQueue::copy(destination, source, bytes, sourceBytes);
    return;
  }
  stateOf(thread).copies.issue(destination, source, bytes, sourceBytes);
}

void BlockRunner::asyncCommit(HloHostThread *thread) {
  if (!sequential)
    stateOf(thread).copies.commit();
}

void BlockRunner::asyncWait(HloHostThread *thread, uint32_t pending) {
  if (!sequential)
    stateOf(thread).copies.wait(pending);
}

void BlockRunner::mbarrierInit(HloHostThread *thread, void *barrier, uint32_t count) {
  if (sequential)
    fault(thread, "initialized an mbarrier, but the manifest says the kernel's threads need "
                  "not run concurrently");
  if (hlo::Status done = tmaBarriers.init(barrier, count); !done)
    fault(thread, done.error());
}

void BlockRunner::mbarrierArrive(HloHostThread *thread, void *barrier,
                                 uint32_t transactionBytes) {
  if (sequential)
    fault(thread, "arrived at an mbarrier, but the manifest says the kernel's threads need "
                  "not run concurrently");
  if (hlo::Status done = tmaBarriers.arrive(barrier, transactionBytes); !done)
    fault(thread, done.error());
}

void BlockRunner::mbarrierWait(HloHostThread *thread, void *barrier, uint32_t parity) {
  if (sequential)
    fault(thread, "waited at an mbarrier, but the manifest says the kernel's threads need "
                  "not run concurrently");
  ThreadState &state = stateOf(thread);
  while (true) {
    ErrorOr<bool> done = tmaBarriers.tryWait(barrier, parity);
    if (!done)
      fault(thread, done.error());
    if (*done)
      return;
    state.mbarrierProgress = tmaBarriers.progress();
    state.status = Status::AtMbarrier;
    switchFiber(state.context, scheduler);
  }
}

void BlockRunner::tmaLoad(HloHostThread *thread, const HloHostTensorMap *map, void *destination,
                          void *barrier, const int32_t *coordinates) {
  if (sequential)
    fault(thread, "issued a TMA load, but the manifest says the kernel's threads need not run "
                  "concurrently");
  if (hlo::Status done = tmaBarriers.load(*map, destination, barrier, coordinates); !done)
    fault(thread, done.error());
}

void BlockRunner::clusterSync(HloHostThread *thread) {
  waitAtBarrier(thread, Status::AtClusterBarrier, "a cluster barrier");
}

BlockRunner::PeerAddress BlockRunner::peerOf(HloHostThread *thread, uint32_t rank,
                                             const void *address, const char *what) {
  unsigned size = cluster ? cluster->size() : 1;
  if (rank >= size)
    fault(thread, std::string(what) + " names block " + std::to_string(rank) +
                      " of its cluster, which has " + std::to_string(size));
  BlockRunner &peer = rank == clusterRank ? *this : cluster->member(rank);
  auto offset = reinterpret_cast<uintptr_t>(address) -
                reinterpret_cast<uintptr_t>(sharedMemory.data());
  if (reinterpret_cast<uintptr_t>(address) < reinterpret_cast<uintptr_t>(sharedMemory.data()) ||
      offset >= launch->sharedMemoryBytes)
    fault(thread, std::string(what) + " at an address outside the block's shared memory");
  // A block that has exited has no shared memory left to write.
  if (peer.finished)
    fault(thread, std::string(what) + " reaches block " + std::to_string(rank) +
                      " of its cluster, which has exited (a cluster barrier before the end "
                      "keeps every block's shared memory alive while others use it)");
  return {peer, peer.sharedMemory.data() + offset};
}

void BlockRunner::mbarrierArrivePeer(HloHostThread *thread, void *barrier, uint32_t rank) {
  if (sequential)
    fault(thread, "arrived at a cluster's mbarrier, but the manifest says the kernel's threads "
                  "need not run concurrently");
  PeerAddress remote = peerOf(thread, rank, barrier, "an mbarrier arrival");
  if (hlo::Status done = remote.block.tmaBarriers.arrive(remote.address, 0); !done)
    fault(thread, "at block " + std::to_string(rank) + " of its cluster: " + done.error());
}

void BlockRunner::tmaLoadMulticast(HloHostThread *thread, const HloHostTensorMap *map,
                                   void *destination, void *barrier,
                                   const int32_t *coordinates, uint32_t mask) {
  if (sequential)
    fault(thread, "issued a TMA load, but the manifest says the kernel's threads need not run "
                  "concurrently");
  if (mask == 0 || mask >> 16)
    fault(thread, "issued a multicast TMA load with CTA mask " + std::to_string(mask) +
                      " (1 to 16 blocks of the cluster)");
  for (uint32_t rank = 0; rank < 16; ++rank) {
    if (!(mask >> rank & 1))
      continue;
    PeerAddress tile = peerOf(thread, rank, destination, "a multicast TMA load");
    PeerAddress remoteBarrier = peerOf(thread, rank, barrier, "a multicast TMA load's mbarrier");
    if (hlo::Status done =
            tile.block.tmaBarriers.load(*map, tile.address, remoteBarrier.address, coordinates);
        !done)
      fault(thread, "at block " + std::to_string(rank) + " of its cluster: " + done.error());
  }
}

void BlockRunner::outOfBounds(HloHostThread *thread, uint32_t access, int32_t buffer,
                              uint32_t dimension, int64_t index, int64_t extent) {
  std::string where = buffer >= 0 ? "kernel parameter " + std::to_string(buffer)
                      : buffer == HLO_HOST_BUFFER_SHARED ? std::string("shared memory")
                                                         : std::string("memory");
  fault(thread, "out-of-bounds " + std::string(accessName(access)) + " of " + where +
                    ": index " + std::to_string(index) + " in dimension " +
                    std::to_string(dimension) + " of extent " + std::to_string(extent));
}

} // namespace hlo::runtime
