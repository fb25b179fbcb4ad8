//===- ClusterRunnerTest.cpp - Thread-block clusters on the host launcher -===//
//
// Kernels written in C++ against abi/HostKernelAbi.h, launched in clusters
// of two: the cluster barrier waits for both blocks; a multicast TMA load
// lands in both blocks' shared memory and completes on both barriers; a
// remote mbarrier arrival counts at the other block's barrier. Each
// misuse a GPU forgives only by luck is a fault: no cluster barrier
// between the mbarriers' initialization and a peer's first use, no
// cluster barrier before a block exits while its peer still reaches in, a
// rank outside the cluster, and a cluster whose blocks wait forever.
//
//===----------------------------------------------------------------------===//
#include "TensorMapFixture.h"
#include "host/HostLauncher.h"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

using namespace hlo::runtime;

namespace {

KernelSpec clusterSpec(unsigned clusters, unsigned threads, unsigned shared) {
  KernelSpec kernel;
  kernel.name = "test";
  kernel.grid = {2 * clusters, 1, 1};
  kernel.block = {threads, 1, 1};
  kernel.cluster = std::array<unsigned, 3>{2, 1, 1};
  kernel.concurrentThreads = true;
  kernel.sharedMemoryBytes = shared;
  return kernel;
}

// Every thread counts itself in, meets the other block at the cluster
// barrier, then reads the count: both blocks' threads, whatever order the
// blocks run in.
void countThenClusterSync(void *const *buffers, HloHostThread *t) {
  auto *counts = static_cast<std::atomic<uint32_t> *>(buffers[0]);
  auto *seen = static_cast<uint32_t *>(buffers[1]);
  unsigned cluster = t->blockId[0] / 2;
  counts[cluster].fetch_add(1);
  __hlo_host_cluster_sync(t);
  seen[t->blockId[0] * t->blockDim[0] + t->threadId[0]] = counts[cluster].load();
}

TEST(ClusterRunner, ClusterBarrierWaitsForEveryThreadOfBothBlocks) {
  HostLauncher launcher(2);
  std::vector<std::atomic<uint32_t>> counts(3);
  std::vector<uint32_t> seen(6 * 64, 0);
  LaunchResult result = launcher.launch(countThenClusterSync, clusterSpec(3, 64, 0),
                                        {counts.data(), seen.data()}, "sm_90a");
  ASSERT_TRUE(result.ok()) << result.message;
  for (uint32_t value : seen)
    EXPECT_EQ(value, 128u);
}

// A u16 [16][8] tensor, one row 16 bytes: each block of the pair loads
// half of it (8 rows) multicast into both, so each block's tile ends up
// whole. Then each block's first thread releases the tile on its own and
// its peer's `empty` barrier (as a GEMM's consumers free a stage the
// peer's producer multicasts into).
struct PairShared {
  uint64_t full;
  uint64_t empty;
  uint8_t pad[112];
  uint16_t tile[16 * 8]; // at offset 128, as a TMA destination must be
};

enum class Bug { None, NoInitClusterSync, NoFinalClusterSync, RankOutsideCluster };

template <Bug kBug>
void multicastHalves(void *const *buffers, HloHostThread *t) {
  auto *map = static_cast<const HloHostTensorMap *>(buffers[0]);
  auto *out = static_cast<uint16_t *>(buffers[1]);
  auto *shared = static_cast<PairShared *>(t->sharedMemory);
  uint32_t rank = t->blockId[0] % 2, peer = rank ^ 1;
  unsigned i = t->threadId[0];
  if (i == 0) {
    __hlo_host_mbarrier_init(t, &shared->full, 1);
    __hlo_host_mbarrier_init(t, &shared->empty, 2);
  }
  if (kBug == Bug::NoInitClusterSync)
    __hlo_host_barrier(t);
  else
    __hlo_host_cluster_sync(t);
  if (i == 0) {
    __hlo_host_mbarrier_arrive(t, &shared->full, sizeof shared->tile);
    int32_t coordinates[2] = {0, int32_t(8 * rank)};
    __hlo_host_tma_load_multicast(t, map, shared->tile + 64 * rank, &shared->full, coordinates,
                                  3);
  }
  __hlo_host_mbarrier_wait(t, &shared->full, 0);
  for (unsigned e = i; e < 128; e += t->blockDim[0])
    out[t->blockId[0] * 128 + e] = shared->tile[e];
  __hlo_host_barrier(t);
  if (i == 0) {
    __hlo_host_mbarrier_arrive(t, &shared->empty, 0);
    __hlo_host_mbarrier_arrive_cluster(t, &shared->empty,
                                       kBug == Bug::RankOutsideCluster ? 2 : peer);
  }
  if (kBug != Bug::NoFinalClusterSync)
    __hlo_host_cluster_sync(t);
}

KernelSpec pairSpec() {
  KernelSpec kernel = clusterSpec(2, 32, sizeof(PairShared));
  kernel.parameters.resize(2);
  kernel.parameters[0].shape = hlo::abi::ArrayShape::rowMajor("u16", {16, 8});
  kernel.parameters[0].tensorMap = hlo::abi::TensorMapSpec{{8, 8}, 0};
  return kernel;
}

TEST(ClusterRunner, MulticastLoadFillsBothBlocksAndCompletesOnBothBarriers) {
  std::vector<uint16_t> input(16 * 8), output(4 * 128, 0);
  for (unsigned i = 0; i < input.size(); ++i)
    input[i] = static_cast<uint16_t>(1000 + i);
  HostLauncher launcher(2);
  LaunchResult result = launcher.launch(multicastHalves<Bug::None>, pairSpec(),
                                        {input.data(), output.data()}, "sm_90a");
  ASSERT_TRUE(result.ok()) << result.message;
  for (unsigned block = 0; block < 4; ++block)
    for (unsigned i = 0; i < 128; ++i)
      ASSERT_EQ(output[block * 128 + i], input[i]) << "block " << block << " element " << i;
}

TEST(ClusterRunner, PeerUseBeforeTheClusterBarrierAfterInitFaults) {
  std::vector<uint16_t> input(16 * 8, 1), output(4 * 128, 0);
  HostLauncher launcher(2);
  LaunchResult result = launcher.launch(multicastHalves<Bug::NoInitClusterSync>, pairSpec(),
                                        {input.data(), output.data()}, "sm_90a");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.message.find("that mbarrier.init never initialized"), std::string::npos)
      << result.message;
  EXPECT_NE(result.message.find("at block 0 of its cluster"), std::string::npos)
      << result.message;
}

TEST(ClusterRunner, ReachingIntoAnExitedBlockFaults) {
  std::vector<uint16_t> input(16 * 8, 1), output(4 * 128, 0);
  HostLauncher launcher(2);
  LaunchResult result = launcher.launch(multicastHalves<Bug::NoFinalClusterSync>, pairSpec(),
                                        {input.data(), output.data()}, "sm_90a");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.message.find("which has exited"), std::string::npos) << result.message;
}

TEST(ClusterRunner, ARankOutsideTheClusterFaults) {
  std::vector<uint16_t> input(16 * 8, 1), output(4 * 128, 0);
  HostLauncher launcher(2);
  LaunchResult result = launcher.launch(multicastHalves<Bug::RankOutsideCluster>, pairSpec(),
                                        {input.data(), output.data()}, "sm_90a");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.message.find("names block 2 of its cluster, which has 2"), std::string::npos)
      << result.message;
}

// Each block expects the whole tile's bytes, but only block 0 loads its
// half: block 1's barrier (and block 0's) never completes.
void onlyOneHalf(void *const *buffers, HloHostThread *t) {
  auto *map = static_cast<const HloHostTensorMap *>(buffers[0]);
  auto *shared = static_cast<PairShared *>(t->sharedMemory);
  uint32_t rank = t->blockId[0] % 2;
  if (t->threadId[0] == 0)
    __hlo_host_mbarrier_init(t, &shared->full, 1);
  __hlo_host_cluster_sync(t);
  if (t->threadId[0] == 0) {
    __hlo_host_mbarrier_arrive(t, &shared->full, sizeof shared->tile);
    int32_t coordinates[2] = {0, 0};
    if (rank == 0)
      __hlo_host_tma_load_multicast(t, map, shared->tile, &shared->full, coordinates, 3);
  }
  __hlo_host_mbarrier_wait(t, &shared->full, 0);
  __hlo_host_cluster_sync(t);
}

TEST(ClusterRunner, BlocksWaitingForEachOtherForeverAreADeadlock) {
  std::vector<uint16_t> input(16 * 8, 1), output(4 * 128, 0);
  HostLauncher launcher(1);
  LaunchResult result = launcher.launch(onlyOneHalf, pairSpec(), {input.data(), output.data()},
                                        "sm_90a");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.message.find("cluster (0, 0, 0): its blocks wait forever"), std::string::npos)
      << result.message;
  EXPECT_NE(result.message.find("at an mbarrier wait whose phase never completes"),
            std::string::npos)
      << result.message;
}

} // namespace
