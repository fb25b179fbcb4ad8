//===- BlockCollectives.cpp - A block's warp and warpgroup collectives ----===//
//
// The part of BlockRunner (BlockRunner.h) that gathers the lanes of a warp
// (shuffles, mma.sync, ldmatrix, stmatrix) or the threads of a warpgroup
// (wgmma, in flight or not, and setmaxnreg) and completes the operation
// once all have arrived, with the checks of each operand's place in
// shared memory.
//
//===----------------------------------------------------------------------===//
#include "host/BlockRunner.h"

#include <cstdio>

namespace hlo::runtime {
namespace {

constexpr unsigned kWarpSize = 32;

std::string hex(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", value);
  return text;
}

} // namespace

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
  size_t count = blockThreads();
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
  size_t count = blockThreads();
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

} // namespace hlo::runtime
