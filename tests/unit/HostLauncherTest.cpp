//===- HostLauncherTest.cpp - The CPU launcher's GPU semantics ------------===//
//
// Kernels written in C++ against abi/HostKernelAbi.h, launched by the host
// launcher: every block and thread runs, blocks see their own shared memory
// (poisoned at start), barriers order shared-memory traffic, shuffles
// follow CUDA's __shfl_*_sync with widths below 32 (checked against
// CUDA's documented rules, not the launcher's PTX formula), and what a GPU
// would report is a fault: a barrier not all threads reach, shuffles that
// read exited lanes or run outside their member mask, out-of-bounds
// reports, launches over the device's limits; tensor maps reach kernels
// in their host form, and a TMA load completes on its mbarrier's phase.
//
//===----------------------------------------------------------------------===//
#include "LaunchLimits.h"
#include "host/HostLauncher.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <vector>

using namespace hlo::runtime;

namespace {

KernelSpec spec(std::array<unsigned, 3> grid, std::array<unsigned, 3> block,
                bool concurrent, unsigned shared = 0) {
  KernelSpec kernel;
  kernel.name = "test";
  kernel.grid = grid;
  kernel.block = block;
  kernel.concurrentThreads = concurrent;
  kernel.sharedMemoryBytes = shared;
  return kernel;
}

unsigned linearThread(const HloHostThread *t) {
  return t->threadId[0] + t->blockDim[0] * (t->threadId[1] + t->blockDim[1] * t->threadId[2]);
}
unsigned linearBlock(const HloHostThread *t) {
  return t->blockId[0] + t->gridDim[0] * (t->blockId[1] + t->gridDim[1] * t->blockId[2]);
}
unsigned threadsPerBlock(const HloHostThread *t) {
  return t->blockDim[0] * t->blockDim[1] * t->blockDim[2];
}

// Every thread of a 3-D grid of 3-D blocks writes its global id.
void writeGlobalId(void *const *buffers, HloHostThread *t) {
  auto *out = static_cast<uint32_t *>(buffers[0]);
  unsigned global = linearBlock(t) * threadsPerBlock(t) + linearThread(t);
  out[global] = global + 1;
}

TEST(HostLauncher, EveryThreadOfEveryBlockRuns) {
  for (bool concurrent : {false, true}) {
    HostLauncher launcher(2);
    std::vector<uint32_t> out(3 * 2 * 2 * 4 * 2 * 3, 0);
    LaunchResult result = launcher.launch(writeGlobalId, spec({3, 2, 2}, {4, 2, 3}, concurrent),
                                          {out.data()}, "sm_90");
    ASSERT_TRUE(result.ok()) << result.message;
    for (size_t i = 0; i < out.size(); ++i)
      ASSERT_EQ(out[i], i + 1) << "element " << i << (concurrent ? " (fibers)" : "");
  }
}

// A cluster only groups blocks, which the launcher runs anyway.
TEST(HostLauncher, ClustersRun) {
  HostLauncher launcher(2);
  std::vector<uint32_t> out(4 * 8, 0);
  KernelSpec clustered = spec({4, 1, 1}, {8, 1, 1}, false);
  clustered.cluster = std::array<unsigned, 3>{2, 1, 1};
  LaunchResult result = launcher.launch(writeGlobalId, clustered, {out.data()}, "sm_90");
  ASSERT_TRUE(result.ok()) << result.message;
  EXPECT_EQ(out.back(), 32u);
}

// A TMA pipeline of one stage: thread 0 initializes the mbarrier, every
// thread meets at a barrier, thread 0 expects the box's bytes and loads
// it, every thread waits for phase 0 (`parity`) and copies its element
// of the 16 x 8 u16 box at (8, 4) of a [32][24] tensor out. Parameter 0 is
// the tensor map, 1 the output.
template <uint32_t parity, uint32_t expectedBytes>
void tmaOneStage(void *const *buffers, HloHostThread *t) {
  auto *map = static_cast<const HloHostTensorMap *>(buffers[0]);
  auto *out = static_cast<uint16_t *>(buffers[1]);
  auto *shared = static_cast<uint8_t *>(t->sharedMemory);
  void *barrier = shared;
  unsigned i = linearThread(t);
  if (i == 0)
    __hlo_host_mbarrier_init(t, barrier, 1);
  __hlo_host_barrier(t);
  if (i == 0) {
    __hlo_host_mbarrier_arrive(t, barrier, expectedBytes);
    int32_t coordinates[2] = {8, 4};
    __hlo_host_tma_load(t, map, shared + 128, barrier, coordinates);
  }
  __hlo_host_mbarrier_wait(t, barrier, parity);
  uint16_t value;
  std::memcpy(&value, shared + 128 + 2 * i, 2);
  out[i] = value;
}

KernelSpec tmaSpec() {
  KernelSpec kernel = spec({1, 1, 1}, {128, 1, 1}, true, 128 + 256);
  kernel.parameters.resize(2);
  kernel.parameters[0].shape = hlo::abi::ArrayShape::rowMajor("u16", {32, 24});
  kernel.parameters[0].tensorMap = hlo::abi::TensorMapSpec{{16, 8}, 0};
  return kernel;
}

TEST(HostLauncher, TensorMapsReachKernelsAndTmaLoadsCompleteOnTheirMbarrier) {
  std::vector<uint16_t> tensor(32 * 24);
  for (size_t i = 0; i < tensor.size(); ++i)
    tensor[i] = static_cast<uint16_t>(i);
  HostLauncher launcher(2);
  std::vector<uint16_t> out(128, 0);
  LaunchResult result =
      launcher.launch(tmaOneStage<0, 256>, tmaSpec(), {tensor.data(), out.data()}, "sm_90");
  ASSERT_TRUE(result.ok()) << result.message;
  for (unsigned i = 0; i < 128; ++i)
    ASSERT_EQ(out[i], (4 + i / 16) * 24 + 8 + i % 16) << "element " << i;
}

TEST(HostLauncher, TmaPipelineBugsShowOrFault) {
  std::vector<uint16_t> tensor(32 * 24, 7);
  HostLauncher launcher(2);
  std::vector<uint16_t> out(128, 0);
  // The wrong parity: the wait returns at once, the tile not there yet
  // (poison), and the block ends with the load never completed.
  LaunchResult result =
      launcher.launch(tmaOneStage<1, 256>, tmaSpec(), {tensor.data(), out.data()}, "sm_90");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.message.find("exited with 1 TMA loads in flight"), std::string::npos)
      << result.message;
  EXPECT_EQ(out[5], 0xffff) << "a wait on the wrong parity must not see the tile";
  // expect_tx for more bytes than come: the phase never completes.
  result = launcher.launch(tmaOneStage<0, 512>, tmaSpec(), {tensor.data(), out.data()},
                           "sm_90");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.message.find("mbarrier wait whose phase never completes"), std::string::npos)
      << result.message;
}

// The way out: every thread writes element i of a 16 x 8 u16 box in
// shared memory, thread 0 stores it at (8, 4) of a [32][24] output passed
// as a tensor map (parameter 1; parameter 0 an input) and, `wait`ing,
// retires it.
template <bool wait>
void tmaStoreOneBox(void *const *buffers, HloHostThread *t) {
  auto *map = static_cast<const HloHostTensorMap *>(buffers[1]);
  auto *shared = static_cast<uint16_t *>(t->sharedMemory);
  unsigned i = linearThread(t);
  shared[i] = static_cast<uint16_t>(1000 + i);
  __hlo_host_barrier(t);
  if (i == 0) {
    int32_t coordinates[2] = {8, 4};
    __hlo_host_tma_store(t, map, shared, coordinates);
    if (wait)
      __hlo_host_tma_store_wait(t, 0);
  }
}

TEST(HostLauncher, TmaStoresReachOutputTensorMapsAndMustBeWaitedFor) {
  KernelSpec kernel = spec({1, 1, 1}, {128, 1, 1}, true, 256);
  kernel.parameters.resize(2);
  kernel.parameters[1].shape = hlo::abi::ArrayShape::rowMajor("u16", {32, 24});
  kernel.parameters[1].isOutput = true;
  kernel.parameters[1].tensorMap = hlo::abi::TensorMapSpec{{16, 8}, 0};
  HostLauncher launcher(2);
  std::vector<uint16_t> input(1), output(32 * 24, 7);
  LaunchResult result = launcher.launch(tmaStoreOneBox<true>, kernel,
                                        {input.data(), output.data()}, "sm_90a");
  ASSERT_TRUE(result.ok()) << result.message;
  for (unsigned row = 0; row < 32; ++row)
    for (unsigned column = 0; column < 24; ++column) {
      bool inBox = row >= 4 && row < 12 && column >= 8;
      unsigned i = (row - 4) * 16 + (column - 8);
      ASSERT_EQ(output[row * 24 + column], inBox ? 1000 + i : 7)
          << "row " << row << " column " << column;
    }
  result = launcher.launch(tmaStoreOneBox<false>, kernel, {input.data(), output.data()},
                           "sm_90a");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.message.find("exited with 1 TMA store(s) in flight"), std::string::npos)
      << result.message;
}

// Shared memory: poisoned (0xff) when the block starts, per block. Each
// thread reports what it found, then writes its block id.
void readThenWriteShared(void *const *buffers, HloHostThread *t) {
  auto *out = static_cast<uint32_t *>(buffers[0]);
  auto *shared = static_cast<uint32_t *>(t->sharedMemory);
  unsigned i = linearThread(t);
  out[linearBlock(t) * threadsPerBlock(t) + i] = shared[i];
  shared[i] = linearBlock(t);
}

TEST(HostLauncher, SharedMemoryStartsPoisonedInEveryBlock) {
  HostLauncher launcher(2);
  std::vector<uint32_t> out(8 * 16, 0);
  LaunchResult result = launcher.launch(readThenWriteShared, spec({8, 1, 1}, {16, 1, 1}, false,
                                                                  16 * 4),
                                        {out.data()}, "sm_90");
  ASSERT_TRUE(result.ok()) << result.message;
  for (uint32_t value : out)
    EXPECT_EQ(value, 0xffffffffu);
}

// A barrier orders writes and reads of shared memory: each thread writes
// its slot, waits, reads its neighbour's; twice, with the second round
// overwriting the first.
void neighbourThroughShared(void *const *buffers, HloHostThread *t) {
  auto *out = static_cast<uint32_t *>(buffers[0]);
  auto *shared = static_cast<uint32_t *>(t->sharedMemory);
  unsigned n = threadsPerBlock(t), i = linearThread(t);
  shared[i] = 100 * linearBlock(t) + i;
  __hlo_host_barrier(t);
  uint32_t first = shared[(i + 1) % n];
  __hlo_host_barrier(t);
  shared[i] = first * 2;
  __hlo_host_barrier(t);
  out[linearBlock(t) * n + i] = shared[(i + n - 1) % n];
}

TEST(HostLauncher, BarriersOrderSharedMemory) {
  HostLauncher launcher(2);
  const unsigned blocks = 5, threads = 96;
  std::vector<uint32_t> out(blocks * threads, 0);
  LaunchResult result =
      launcher.launch(neighbourThroughShared, spec({blocks, 1, 1}, {32, 3, 1}, true, threads * 4),
                      {out.data()}, "sm_90");
  ASSERT_TRUE(result.ok()) << result.message;
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned i = 0; i < threads; ++i)
      // Thread i reads what thread i-1 stored: 2 * (thread i's id).
      ASSERT_EQ(out[b * threads + i], 2 * (100 * b + i)) << "block " << b << " thread " << i;
}

// CUDA's __shfl_*_sync(0xffffffff, value, operand, width): the encoding of
// `c` that CUDA's headers use, and the result CUDA's guide describes.
struct CudaShuffle {
  uint32_t mode, operand, width;
};
uint32_t cudaClampAndSegment(const CudaShuffle &s) {
  uint32_t segment = (32 - s.width) << 8;
  return s.mode == HLO_HOST_SHUFFLE_UP ? segment : segment | 0x1f;
}
/// The source lane CUDA's programming guide gives, or -1 for "the thread's
/// own value".
int cudaSourceLane(const CudaShuffle &s, int lane) {
  int width = static_cast<int>(s.width), base = lane / width * width;
  int operand = static_cast<int>(s.operand);
  switch (s.mode) {
  case HLO_HOST_SHUFFLE_UP:
    return lane - operand >= base ? lane - operand : -1;
  case HLO_HOST_SHUFFLE_DOWN:
    return lane + operand < base + width ? lane + operand : -1;
  case HLO_HOST_SHUFFLE_XOR:
    // Earlier segments may be read; later ones give the own value.
    return (lane ^ operand) < base + width ? (lane ^ operand) : -1;
  default:
    return base + operand % width;
  }
}

CudaShuffle currentShuffle;
void cudaStyleShuffle(void *const *buffers, HloHostThread *t) {
  auto *out = static_cast<int64_t *>(buffers[0]);
  unsigned i = linearThread(t);
  uint64_t value = 1000 + i;
  uint8_t inRange = 0;
  uint64_t result = __hlo_host_shuffle(t, value, currentShuffle.mode, currentShuffle.operand,
                                       cudaClampAndSegment(currentShuffle), 0xffffffffu,
                                       &inRange);
  out[2 * i] = static_cast<int64_t>(result);
  out[2 * i + 1] = inRange;
}

TEST(HostLauncher, ShufflesFollowCudaForEveryModeAndWidth) {
  HostLauncher launcher(1);
  std::vector<CudaShuffle> cases;
  for (uint32_t width : {32u, 16u, 8u, 4u, 2u})
    for (uint32_t mode : {HLO_HOST_SHUFFLE_UP, HLO_HOST_SHUFFLE_DOWN, HLO_HOST_SHUFFLE_XOR,
                          HLO_HOST_SHUFFLE_IDX})
      for (uint32_t operand : {0u, 1u, 3u, 7u, 16u, 31u})
        cases.push_back({mode, operand, width});
  for (const CudaShuffle &shuffle : cases) {
    currentShuffle = shuffle;
    const unsigned threads = 64; // two warps
    std::vector<int64_t> out(2 * threads, -1);
    LaunchResult result = launcher.launch(cudaStyleShuffle, spec({1, 1, 1}, {threads, 1, 1}, true),
                                          {out.data()}, "sm_90");
    ASSERT_TRUE(result.ok()) << result.message;
    for (unsigned i = 0; i < threads; ++i) {
      int lane = static_cast<int>(i % 32), warp = static_cast<int>(i / 32);
      int source = cudaSourceLane(shuffle, lane);
      int64_t expected = 1000 + (source < 0 ? i : warp * 32 + source);
      ASSERT_EQ(out[2 * i], expected)
          << "mode " << shuffle.mode << " operand " << shuffle.operand << " width "
          << shuffle.width << " thread " << i;
      if (shuffle.mode != HLO_HOST_SHUFFLE_IDX) {
        EXPECT_EQ(out[2 * i + 1], source >= 0 ? 1 : 0);
      }
    }
  }
}

// Two halves of a warp shuffle separately (member masks 0x0000ffff and
// 0xffff0000): each half exchanges among itself.
void halfWarpShuffles(void *const *buffers, HloHostThread *t) {
  auto *out = static_cast<uint64_t *>(buffers[0]);
  unsigned lane = linearThread(t) % 32;
  uint32_t mask = lane < 16 ? 0x0000ffffu : 0xffff0000u;
  uint8_t inRange = 0;
  // idx: every lane reads the first lane of its half.
  out[lane] = __hlo_host_shuffle(t, 500 + lane, HLO_HOST_SHUFFLE_IDX, lane < 16 ? 0 : 16, 31,
                                 mask, &inRange);
}

TEST(HostLauncher, ShufflesWithDisjointMemberMasks) {
  HostLauncher launcher(1);
  std::vector<uint64_t> out(32, 0);
  LaunchResult result = launcher.launch(halfWarpShuffles, spec({1, 1, 1}, {32, 1, 1}, true),
                                        {out.data()}, "sm_90");
  ASSERT_TRUE(result.ok()) << result.message;
  for (unsigned lane = 0; lane < 32; ++lane)
    EXPECT_EQ(out[lane], lane < 16 ? 500u : 516u) << "lane " << lane;
}

// --- What a GPU would report ---------------------------------------------

void barrierInFirstHalf(void *const *, HloHostThread *t) {
  if (linearThread(t) < 16)
    __hlo_host_barrier(t);
}

TEST(HostLauncher, BarrierNotReachedByAllThreadsIsAFaultNotAHang) {
  HostLauncher launcher(2);
  LaunchResult result =
      launcher.launch(barrierInFirstHalf, spec({4, 1, 1}, {32, 1, 1}, true), {}, "sm_90");
  ASSERT_EQ(result.status, LaunchResult::Fault);
  EXPECT_NE(result.message.find("block (0, 0, 0): a barrier not all threads of the block reach "
                                "(of 32 threads, 16 wait at a barrier, 0 in a warp shuffle, 16 "
                                "exited; e.g. thread (16, 0, 0) of block (0, 0, 0) exited, thread "
                                "(0, 0, 0) of block (0, 0, 0) waits)"),
            std::string::npos)
      << result.message;
}

void barrierWithoutConcurrency(void *const *, HloHostThread *t) { __hlo_host_barrier(t); }

TEST(HostLauncher, BarrierInAKernelLaunchedSequentiallyIsAFault) {
  HostLauncher launcher(1);
  LaunchResult result = launcher.launch(barrierWithoutConcurrency,
                                        spec({1, 1, 1}, {8, 1, 1}, false), {}, "sm_90");
  ASSERT_EQ(result.status, LaunchResult::Fault);
  EXPECT_NE(result.message.find("reached a barrier, but the manifest says the kernel's threads "
                                "need not run concurrently"),
            std::string::npos)
      << result.message;
}

void lastLaneExitsThenShuffle(void *const *, HloHostThread *t) {
  unsigned lane = linearThread(t) % 32;
  if (lane == 31)
    return;
  uint8_t inRange = 0;
  // Lane 30 reads lane 31, which has exited: undefined on a GPU.
  __hlo_host_shuffle(t, lane, HLO_HOST_SHUFFLE_DOWN, 1, 31, 0xffffffffu, &inRange);
}

TEST(HostLauncher, ShuffleReadingAnExitedLaneIsAFault) {
  HostLauncher launcher(1);
  LaunchResult result = launcher.launch(lastLaneExitsThenShuffle,
                                        spec({1, 1, 1}, {32, 1, 1}, true), {}, "sm_90");
  ASSERT_EQ(result.status, LaunchResult::Fault);
  EXPECT_NE(result.message.find("lane 30 of a warp shuffle reads lane 31, which has exited"),
            std::string::npos)
      << result.message;
}

void shuffleOutsideOwnMask(void *const *, HloHostThread *t) {
  uint8_t inRange = 0;
  __hlo_host_shuffle(t, 0, HLO_HOST_SHUFFLE_XOR, 1, 31, 0x0000ffffu, &inRange);
}

TEST(HostLauncher, ShuffleOutsideItsMemberMaskIsAFault) {
  HostLauncher launcher(1);
  LaunchResult result = launcher.launch(shuffleOutsideOwnMask, spec({1, 1, 1}, {32, 1, 1}, true),
                                        {}, "sm_90");
  ASSERT_EQ(result.status, LaunchResult::Fault);
  EXPECT_NE(result.message.find("thread (16, 0, 0) of block (0, 0, 0): ran a warp shuffle with "
                                "member mask 0x0000ffff, which does not include its own lane 16"),
            std::string::npos)
      << result.message;
}

void shuffleWaitsForLaneAtBarrier(void *const *, HloHostThread *t) {
  uint8_t inRange = 0;
  if (linearThread(t) == 0)
    __hlo_host_barrier(t);
  __hlo_host_shuffle(t, 0, HLO_HOST_SHUFFLE_XOR, 1, 31, 0xffffffffu, &inRange);
  if (linearThread(t) != 0)
    __hlo_host_barrier(t);
}

TEST(HostLauncher, ShuffleAndBarrierWaitingForEachOtherIsAFault) {
  HostLauncher launcher(1);
  LaunchResult result = launcher.launch(shuffleWaitsForLaneAtBarrier,
                                        spec({1, 1, 1}, {32, 1, 1}, true), {}, "sm_90");
  ASSERT_EQ(result.status, LaunchResult::Fault);
  EXPECT_NE(result.message.find("the block's threads wait for each other forever (of 32 threads, "
                                "1 wait at a barrier, 31 in a warp shuffle, 0 exited"),
            std::string::npos)
      << result.message;
}

// Out-of-bounds reports from blocks 5 and 9: the lowest faulting block is
// reported, however the host threads interleave.
void faultInBlocks5And9(void *const *, HloHostThread *t) {
  unsigned block = linearBlock(t);
  if ((block == 5 || block == 9) && linearThread(t) == 3)
    __hlo_host_out_of_bounds(t, HLO_HOST_ACCESS_STORE, 1, 0, 70, 64);
}

TEST(HostLauncher, TheLowestFaultingBlockIsReported) {
  for (bool concurrent : {false, true}) {
    HostLauncher launcher(2);
    for (int run = 0; run < 20; ++run) {
      LaunchResult result = launcher.launch(faultInBlocks5And9,
                                            spec({16, 1, 1}, {8, 1, 1}, concurrent), {}, "sm_90");
      ASSERT_EQ(result.status, LaunchResult::Fault);
      ASSERT_EQ(result.message, "thread (3, 0, 0) of block (5, 0, 0): out-of-bounds store of "
                                "kernel parameter 1: index 70 in dimension 0 of extent 64");
    }
  }
}

void nothing(void *const *, HloHostThread *) {}

TEST(HostLauncher, LaunchesOverTheDeviceLimitsAreFaults) {
  HostLauncher launcher(1);
  LaunchResult tooManyThreads =
      launcher.launch(nothing, spec({1, 1, 1}, {64, 32, 1}, false), {}, "sm_90");
  EXPECT_EQ(tooManyThreads.status, LaunchResult::Fault);
  EXPECT_EQ(tooManyThreads.message,
            "the launch is invalid: a block of 2048 threads exceeds the limit of 1024");
  LaunchResult tooTall = launcher.launch(nothing, spec({1, 1, 1}, {1, 1, 65}, false), {}, "sm_90");
  EXPECT_EQ(tooTall.message, "the launch is invalid: block z of 65 exceeds the limit of 64");
  LaunchResult gridY = launcher.launch(nothing, spec({1, 70000, 1}, {1, 1, 1}, false), {}, "sm_90");
  EXPECT_EQ(gridY.message, "the launch is invalid: grid y of 70000 exceeds the limit of 65535");
  // The manifest's shared memory is static: 48 KiB on every architecture
  // (ptxas refuses more), though sm_90 blocks may have 227 KiB in all.
  EXPECT_TRUE(
      launcher.launch(nothing, spec({1, 1, 1}, {1, 1, 1}, false, 48 * 1024), {}, "sm_90").ok());
  for (const char *arch : {"sm_90", "sm_86", "sm_80"}) {
    LaunchResult shared =
        launcher.launch(nothing, spec({1, 1, 1}, {1, 1, 1}, false, 0xc180), {}, arch);
    EXPECT_EQ(shared.status, LaunchResult::Fault);
    EXPECT_EQ(shared.message, "the launch is invalid: 49536 bytes of static shared memory "
                              "exceed the limit of 49152 per block");
  }
  // Past the static limit, the architecture's limit on all shared memory.
  LaunchLimits sm86 = launchLimitsFor("sm_86");
  sm86.staticSharedMemoryPerBlock = 1 << 30;
  KernelSpec big = spec({1, 1, 1}, {1, 1, 1}, false, 100 * 1024);
  EXPECT_EQ(checkLaunch(big, sm86, "sm_86"), "102400 bytes of shared memory exceed the "
                                             "limit of 101376 per block on sm_86");
  // Dynamic shared memory comes on top of the static 48 KiB, up to the
  // opt-in limit (227 KiB on sm_90, 99 KiB on sm_86).
  KernelSpec dynamic = spec({1, 1, 1}, {1, 1, 1}, false, 48 * 1024);
  dynamic.dynamicSharedMemoryBytes = 179 * 1024;
  EXPECT_EQ(checkLaunch(dynamic, launchLimitsFor("sm_90"), "sm_90"), "");
  EXPECT_EQ(checkLaunch(dynamic, launchLimitsFor("sm_86"), "sm_86"),
            "232448 bytes of shared memory exceed the limit of 101376 per block on sm_86");
  dynamic.dynamicSharedMemoryBytes = 180 * 1024;
  EXPECT_EQ(checkLaunch(dynamic, launchLimitsFor("sm_90"), "sm_90"),
            "233472 bytes of shared memory exceed the limit of 232448 per block on sm_90");
}

// Blocks run in parallel on host threads: atomics are real.
void countAtomically(void *const *buffers, HloHostThread *) {
  static_cast<std::atomic<uint64_t> *>(buffers[0])->fetch_add(1, std::memory_order_relaxed);
}

TEST(HostLauncher, BlocksRunOnSeveralHostThreads) {
  HostLauncher launcher(2);
  std::atomic<uint64_t> counter{0};
  LaunchResult result = launcher.launch(countAtomically, spec({1000, 1, 1}, {256, 1, 1}, false),
                                        {&counter}, "sm_90");
  ASSERT_TRUE(result.ok()) << result.message;
  EXPECT_EQ(counter.load(), 256000u);
}

} // namespace
