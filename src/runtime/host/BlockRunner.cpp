//===- BlockRunner.cpp - One block of GPU threads on a host thread --------===//
#include "host/BlockRunner.h"

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
  launch = &grid;
  blockId = id;
  faulted = false;
  message.clear();
  if (grid.sharedMemoryBytes > 0) {
    if (sharedMemory.size() < grid.sharedMemoryBytes)
      sharedMemory.resize(grid.sharedMemoryBytes);
    std::memset(sharedMemory.data(), kSharedMemoryPoison, grid.sharedMemoryBytes);
  }
  sequential = !grid.concurrentThreads;
  return sequential ? runSequential() : runConcurrent();
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

bool BlockRunner::runConcurrent() {
  size_t count = size_t(launch->block[0]) * launch->block[1] * launch->block[2];
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
  while (true) {
    for (size_t i = 0; i < count; ++i) {
      if (threads[i].status != Status::Ready)
        continue;
      switchFiber(scheduler, threads[i].context);
      if (faulted)
        return false;
    }
    size_t ready = 0, atBarrier = 0, exited = 0;
    for (size_t i = 0; i < count; ++i) {
      Status status = threads[i].status;
      // An mbarrier waiter tries again once anything has changed.
      if (status == Status::AtMbarrier &&
          threads[i].mbarrierProgress != tmaBarriers.progress())
        threads[i].status = status = Status::Ready;
      ready += status == Status::Ready;
      atBarrier += status == Status::AtBarrier;
      exited += status == Status::Exited;
    }
    if (exited == count && tmaBarriers.loadsInFlight() > 0) {
      schedulerFault("the block exited with " + std::to_string(tmaBarriers.loadsInFlight()) +
                     " TMA loads in flight (no mbarrier wait completed them)");
      return false;
    }
    if (exited == count) {
      for (size_t g = 0; g < wgmmaPipelines.size(); ++g)
        if (size_t products = wgmmaPipelines[g].inFlight()) {
          schedulerFault("warpgroup " + std::to_string(g) + " exited with " +
                         std::to_string(products) +
                         " wgmma products in flight (no wgmma.wait_group retired them)");
          return false;
        }
      return true;
    }
    if (ready > 0)
      continue; // made ready by a shuffle that completed behind the sweep
    if (atBarrier == count) {
      for (size_t i = 0; i < count; ++i)
        threads[i].status = Status::Ready;
      continue;
    }
    schedulerFault(deadlockReport());
    return false;
  }
}

std::string BlockRunner::deadlockReport() const {
  size_t count = size_t(launch->block[0]) * launch->block[1] * launch->block[2];
  size_t atBarrier = 0, atShuffle = 0, atCollective = 0, atMbarrier = 0, exited = 0;
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
    } else if (state.status == Status::Exited) {
      ++exited;
      firstExited = firstExited ? firstExited : &state;
    }
  }
  char collectives[128] = "";
  if (atCollective > 0 || atMbarrier > 0)
    std::snprintf(collectives, sizeof collectives,
                  ", %zu in an mma.sync, ldmatrix, wgmma or setmaxnreg, %zu at an mbarrier wait whose "
                  "phase never completes",
                  atCollective, atMbarrier);
  char text[300];
  std::snprintf(text, sizeof text, "of %zu threads, %zu wait at a barrier, %zu in a warp "
                "shuffle%s, %zu exited", count, atBarrier, atShuffle, collectives, exited);
  std::string report;
  if (atBarrier > 0 && atShuffle == 0 && atCollective == 0 && atMbarrier == 0 && firstExited)
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

void BlockRunner::barrier(HloHostThread *thread) {
  if (sequential)
    fault(thread, "reached a barrier, but the manifest says the kernel's threads need not "
                  "run concurrently (\"concurrent_threads\": false)");
  ThreadState &state = stateOf(thread);
  state.status = Status::AtBarrier;
  switchFiber(state.context, scheduler);
}

uint64_t BlockRunner::shuffle(HloHostThread *thread, uint64_t value, uint32_t mode,
                              uint32_t laneOffset, uint32_t clampAndSegmentMask,
                              uint32_t memberMask, uint8_t *inRange) {
  if (sequential)
    fault(thread, "ran a warp shuffle, but the manifest says the kernel's threads need not "
                  "run concurrently (\"concurrent_threads\": false)");
  size_t index = indexOf(thread);
  unsigned lane = index % kWarpSize;
  if (!(memberMask >> lane & 1))
    fault(thread, "ran a warp shuffle with member mask " + hex(memberMask) +
                      ", which does not include its own lane " + std::to_string(lane));
  ThreadState &state = threads[index];
  state.shuffle = {value, mode, laneOffset, clampAndSegmentMask, memberMask, 0, false};
  state.status = Status::AtShuffle;
  tryCompleteShuffle(state);
  if (state.status == Status::AtShuffle)
    switchFiber(state.context, scheduler);
  *inRange = state.shuffle.inRange;
  return state.shuffle.result;
}

void BlockRunner::tryCompleteShuffle(ThreadState &requester) {
  size_t index = indexOf(&requester.record);
  size_t warpBase = index - index % kWarpSize;
  size_t lanes = std::min<size_t>(kWarpSize, threads.size() - warpBase);
  size_t count = size_t(launch->block[0]) * launch->block[1] * launch->block[2];
  lanes = std::min(lanes, count - warpBase);
  const ShuffleRequest &request = requester.shuffle;
  uint32_t mask = request.memberMask;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if (!(mask >> lane & 1))
      continue;
    if (lane >= lanes)
      fault(&requester.record,
            "ran a warp shuffle with member mask " + hex(mask) + ", which names lane " +
                std::to_string(lane) + " of a warp that has only " + std::to_string(lanes) +
                " threads");
    const ThreadState &other = threads[warpBase + lane];
    if (other.status == Status::Exited)
      continue;
    if (other.status != Status::AtShuffle)
      return; // still on its way
    if (other.shuffle.memberMask != mask || other.shuffle.mode != request.mode)
      fault(&requester.record,
            "ran a warp shuffle that lane " + std::to_string(lane) +
                " runs with another mode or member mask (" + hex(other.shuffle.memberMask) +
                " vs " + hex(mask) + ")");
  }
  // Everyone is here: PTX's shfl.sync, for each participating lane.
  uint64_t results[kWarpSize];
  bool inRange[kWarpSize];
  for (unsigned lane = 0; lane < lanes; ++lane) {
    const ThreadState &state = threads[warpBase + lane];
    if (!(mask >> lane & 1) || state.status != Status::AtShuffle)
      continue;
    const ShuffleRequest &own = state.shuffle;
    int b = static_cast<int>(own.laneOffset & 31);
    int clamp = static_cast<int>(own.clampAndSegmentMask & 31);
    int segmentMask = static_cast<int>(own.clampAndSegmentMask >> 8 & 31);
    int self = static_cast<int>(lane);
    int maxLane = (self & segmentMask) | (clamp & ~segmentMask);
    int minLane = self & segmentMask;
    int source = self;
    bool valid = false;
    switch (own.mode) {
    case HLO_HOST_SHUFFLE_UP:
      source = self - b;
      valid = source >= maxLane;
      break;
    case HLO_HOST_SHUFFLE_DOWN:
      source = self + b;
      valid = source <= maxLane;
      break;
    case HLO_HOST_SHUFFLE_XOR:
      source = self ^ b;
      valid = source <= maxLane;
      break;
    default:
      source = minLane | (b & ~segmentMask);
      valid = source <= maxLane;
      break;
    }
    if (!valid)
      source = self;
    if (static_cast<size_t>(source) >= lanes || !(mask >> source & 1) ||
        threads[warpBase + source].status != Status::AtShuffle)
      fault(&requester.record,
            "lane " + std::to_string(lane) + " of a warp shuffle reads lane " +
                std::to_string(source) + ", which " +
                (static_cast<size_t>(source) >= lanes ? "the block does not have"
                 : !(mask >> source & 1) ? "is not in the member mask " + hex(mask)
                                         : std::string("has exited")));
    results[lane] = threads[warpBase + source].shuffle.value;
    inRange[lane] = valid;
  }
  for (unsigned lane = 0; lane < lanes; ++lane) {
    ThreadState &state = threads[warpBase + lane];
    if (!(mask >> lane & 1) || state.status != Status::AtShuffle)
      continue;
    state.shuffle.result = results[lane];
    state.shuffle.inRange = inRange[lane];
    state.status = Status::Ready;
  }
}

void BlockRunner::mmaSync(HloHostThread *thread, uint32_t kind, const void *a,
                          const void *b, const void *c, void *d) {
  CollectiveRequest request;
  request.op = CollectiveRequest::Op::Mma;
  request.kind = kind;
  request.mma = {a, b, c, d};
  arriveAtCollective(thread, request);
}

void BlockRunner::checkMatrixRow(HloHostThread *thread, const char *name, uint32_t matrices,
                                 const void *rowAddress) {
  if (matrices != 1 && matrices != 2 && matrices != 4)
    fault(thread, "ran " + std::string(name) + " of " + std::to_string(matrices) +
                      " matrices (PTX has .x1, .x2 and .x4)");
  size_t lane = indexOf(thread) % kWarpSize;
  if (lane >= 8 * matrices)
    return; // its address is not used
  // The row is 16 bytes of the block's shared memory, 16-byte aligned.
  auto address = reinterpret_cast<uintptr_t>(rowAddress);
  auto base = reinterpret_cast<uintptr_t>(sharedMemory.data());
  if (address < base || address + 16 > base + launch->sharedMemoryBytes || address % 16)
    fault(thread, "ran " + std::string(name) + " with row address " +
                      std::to_string(static_cast<int64_t>(address - base)) +
                      " bytes from the start of shared memory, which is not a 16-byte "
                      "aligned row inside its " +
                      std::to_string(launch->sharedMemoryBytes) + " bytes");
}

void BlockRunner::ldmatrix(HloHostThread *thread, uint32_t matrices, uint32_t transpose,
                           const void *rowAddress, uint32_t *result) {
  checkMatrixRow(thread, "ldmatrix", matrices, rowAddress);
  CollectiveRequest request;
  request.op = CollectiveRequest::Op::Ldmatrix;
  request.kind = matrices | (transpose ? 1u : 0u) << 8;
  request.ldmatrix = {rowAddress, result};
  arriveAtCollective(thread, request);
}

void BlockRunner::stmatrix(HloHostThread *thread, uint32_t matrices, void *rowAddress,
                           const uint32_t *values) {
  checkMatrixRow(thread, "stmatrix", matrices, rowAddress);
  CollectiveRequest request;
  request.op = CollectiveRequest::Op::Stmatrix;
  request.kind = matrices;
  request.stmatrix = {rowAddress, values};
  arriveAtCollective(thread, request);
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

void BlockRunner::wgmma(HloHostThread *thread, uint32_t kind, uint32_t n,
                        const WgmmaOperands &operands, float *d) {
  arriveWithWgmma(thread, CollectiveRequest::Op::Wgmma, kind, n, operands, d);
}

void BlockRunner::wgmmaIssue(HloHostThread *thread, uint32_t kind, uint32_t n,
                             const WgmmaOperands &operands, float *d) {
  arriveWithWgmma(thread, CollectiveRequest::Op::WgmmaIssue, kind, n, operands, d);
}

void BlockRunner::arriveWithWgmma(HloHostThread *thread, CollectiveRequest::Op op,
                                  uint32_t kind, uint32_t n, const WgmmaOperands &operands,
                                  float *d) {
  CollectiveRequest request;
  request.op = op;
  request.kind = kind | n << 8;
  request.wgmma = checkedWgmmaOperands(thread, n, operands);
  request.accumulator = d;
  arriveAtCollective(thread, request);
}

void BlockRunner::wgmmaCommit(HloHostThread *thread) {
  CollectiveRequest request;
  request.op = CollectiveRequest::Op::WgmmaCommit;
  arriveAtCollective(thread, request);
}

void BlockRunner::wgmmaWait(HloHostThread *thread, uint32_t pending, float *d, uint32_t values) {
  CollectiveRequest request;
  request.op = CollectiveRequest::Op::WgmmaWait;
  request.kind = pending | values << 8;
  request.accumulator = d;
  arriveAtCollective(thread, request);
}

WgmmaOperands BlockRunner::checkedWgmmaOperands(HloHostThread *thread, uint32_t n,
                                                 const WgmmaOperands &operands) {
  // Both operands lie in the block's shared memory.
  auto base = reinterpret_cast<uintptr_t>(sharedMemory.data());
  auto inside = [&](const void *start, int64_t rows, uint32_t leading, uint32_t stride) {
    auto address = reinterpret_cast<uintptr_t>(start);
    if (address < base || address % 16 != 0 || leading % 16 != 0 || stride % 16 != 0 ||
        rows % 8 != 0 || !isWgmmaSwizzle(operands.swizzle))
      return false;
    auto [first, last] = wgmmaOperandSpan(start, rows, leading, stride, operands.swizzle,
                                          sharedMemory.data());
    return int64_t(address - base) + first >= 0 &&
           int64_t(address - base) + last <= int64_t(launch->sharedMemoryBytes);
  };
  // An MN-major operand: its atoms along M or N and 8-k groups (16-bit,
  // 16 k).
  auto insideTransposed = [&](const void *start, int64_t rows, uint32_t leading,
                              uint32_t stride) {
    auto address = reinterpret_cast<uintptr_t>(start);
    if (address < base || address % 16 != 0 || operands.swizzle == 0 ||
        rows % (operands.swizzle / 2) != 0)
      return false;
    auto [first, last] = wgmmaTransposedSpan(start, rows, 16, 2, leading, stride,
                                             operands.swizzle, sharedMemory.data());
    return int64_t(address - base) + first >= 0 &&
           int64_t(address - base) + last <= int64_t(launch->sharedMemoryBytes);
  };
  if (!(operands.aTransposed
            ? insideTransposed(operands.a, 64, operands.aLeading, operands.aStride)
            : inside(operands.a, 64, operands.aLeading, operands.aStride)) ||
      !(operands.bTransposed ? insideTransposed(operands.b, n, operands.bLeading, operands.bStride)
                             : inside(operands.b, n, operands.bLeading, operands.bStride)))
    fault(thread, "ran wgmma with an operand (A at byte " +
                      std::to_string(int64_t(reinterpret_cast<uintptr_t>(operands.a) - base)) +
                      ", B at " +
                      std::to_string(int64_t(reinterpret_cast<uintptr_t>(operands.b) - base)) +
                      ", stride " + std::to_string(operands.aStride) + "/" +
                      std::to_string(operands.bStride) + ", swizzle " +
                      std::to_string(operands.swizzle) +
                      ") that is not 16-byte aligned rows of its layout inside its " +
                      std::to_string(launch->sharedMemoryBytes) + " bytes of shared memory");
  WgmmaOperands checked = operands;
  checked.sharedBase = sharedMemory.data();
  return checked;
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

void BlockRunner::setMaxRegisters(HloHostThread *thread, uint32_t count, bool increase) {
  CollectiveRequest request;
  request.op = CollectiveRequest::Op::SetMaxRegisters;
  request.kind = (count & 0xffff) | uint32_t(increase) << 16;
  arriveAtCollective(thread, request);
}

void BlockRunner::arriveAtCollective(HloHostThread *thread, const CollectiveRequest &request) {
  const char *name = request.name();
  unsigned group = request.groupSize();
  if (sequential)
    fault(thread, "ran " + std::string(name) +
                      ", but the manifest says the kernel's threads need not run "
                      "concurrently (\"concurrent_threads\": false)");
  size_t index = indexOf(thread);
  size_t count = size_t(launch->block[0]) * launch->block[1] * launch->block[2];
  if (index - index % group + group > count)
    fault(thread, "ran " + std::string(name) + " in a " +
                      (group == kWarpSize ? "warp of fewer than 32"
                                          : "warpgroup of fewer than 128") +
                      " threads (the block has " + std::to_string(count) + ")");
  ThreadState &state = threads[index];
  state.collective = request;
  state.status = Status::AtCollective;
  tryCompleteCollective(state);
  if (state.status == Status::AtCollective)
    switchFiber(state.context, scheduler);
}

void BlockRunner::tryCompleteCollective(ThreadState &requester) {
  size_t index = indexOf(&requester.record);
  const CollectiveRequest &request = requester.collective;
  unsigned group = request.groupSize();
  size_t warpBase = index - index % group;
  const char *name = request.name();
  const char *unit = group == kWarpSize ? "warp" : "warpgroup";
  for (unsigned lane = 0; lane < group; ++lane) {
    const ThreadState &other = threads[warpBase + lane];
    if (other.status == Status::Exited)
      fault(&requester.record, "waits in " + std::string(name) + ", which lane " +
                                   std::to_string(lane) + " of its " + unit +
                                   " exited without running (all " + std::to_string(group) +
                                   " must)");
    if (other.status != Status::AtCollective)
      return; // still on its way
    if (other.collective.op != request.op || other.collective.kind != request.kind ||
        ((request.op == CollectiveRequest::Op::Wgmma ||
          request.op == CollectiveRequest::Op::WgmmaIssue) &&
         !(other.collective.wgmma == request.wgmma)))
      fault(&requester.record, "runs " + std::string(name) + " " +
                                   std::to_string(request.kind) + " while lane " +
                                   std::to_string(lane) + " of its " + unit +
                                   " runs another (" + std::to_string(other.collective.kind) +
                                   ")");
  }
  if (request.op == CollectiveRequest::Op::Mma) {
    std::array<MmaLane, kLanesPerWarp> lanes;
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      lanes[lane] = threads[warpBase + lane].collective.mma;
    if (hlo::Status done = warpMma(request.kind, lanes); !done)
      fault(&requester.record, done.error());
  } else if (request.op == CollectiveRequest::Op::Ldmatrix) {
    std::array<LdmatrixLane, kLanesPerWarp> lanes;
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      lanes[lane] = threads[warpBase + lane].collective.ldmatrix;
    warpLdmatrix(request.kind & 0xff, request.kind >> 8, lanes);
  } else if (request.op == CollectiveRequest::Op::Stmatrix) {
    std::array<StmatrixLane, kLanesPerWarp> lanes;
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      lanes[lane] = threads[warpBase + lane].collective.stmatrix;
    warpStmatrix(request.kind, lanes);
  } else if (request.op == CollectiveRequest::Op::SetMaxRegisters) {
    size_t warpgroup = warpBase / kThreadsPerWarpgroup;
    bool increase = request.kind >> 16;
    ErrorOr<bool> done = registerPool.request(warpgroup, request.kind & 0xffff, increase);
    if (!done)
      fault(&requester.record, done.error());
    if (!*done)
      return; // an .inc waits for another warpgroup's .dec
    if (!increase) {
      // Registers given back: the warpgroups waiting in an .inc try again.
      for (size_t other = 0; other < wgmmaPipelines.size(); ++other) {
        ThreadState &first = threads[other * kThreadsPerWarpgroup];
        if (other != warpgroup && first.status == Status::AtCollective &&
            first.collective.op == CollectiveRequest::Op::SetMaxRegisters)
          tryCompleteCollective(first);
      }
    }
  } else {
    std::array<float *, kThreadsPerWarpgroup> accumulators;
    for (unsigned thread = 0; thread < kThreadsPerWarpgroup; ++thread)
      accumulators[thread] = threads[warpBase + thread].collective.accumulator;
    WgmmaPipeline &pipeline = wgmmaPipelines[warpBase / kThreadsPerWarpgroup];
    hlo::Status done = hlo::Status::success();
    if (request.op == CollectiveRequest::Op::Wgmma) {
      if (pipeline.inFlight() != 0)
        fault(&requester.record, "ran a synchronous wgmma while " +
                                     std::to_string(pipeline.inFlight()) +
                                     " products are in flight");
      done = warpgroupMma(request.kind & 0xff, request.kind >> 8, request.wgmma, accumulators);
    } else if (request.op == CollectiveRequest::Op::WgmmaIssue) {
      done = pipeline.issue(request.kind & 0xff, request.kind >> 8, request.wgmma, accumulators);
    } else if (request.op == CollectiveRequest::Op::WgmmaCommit) {
      pipeline.commit();
    } else {
      done = pipeline.wait(request.kind & 0xff, accumulators);
    }
    if (!done)
      fault(&requester.record, done.error());
  }
  for (unsigned lane = 0; lane < group; ++lane)
    threads[warpBase + lane].status = Status::Ready;
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
