//===- AsyncCopiesTest.cpp - cp.async on the host ------------------------===//
//
// The host runtime's cp.async: copies are done only by the wait that
// covers their group (a tile read before it holds what it held), in
// commit order, with zeros past the source bytes; through the launcher,
// each thread's queue is its own, and a copy outside shared memory is a
// fault.
//
//===----------------------------------------------------------------------===//
#include "host/AsyncCopies.h"
#include "host/HostLauncher.h"
#include "LauncherTestSpec.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace hlo;
using namespace hlo::runtime;

namespace {

TEST(AsyncCopies, AreDoneByTheWaitThatCoversTheirGroup) {
  uint8_t source[32], tile[32];
  for (int i = 0; i < 32; ++i)
    source[i] = uint8_t(i + 1);
  std::memset(tile, 0xee, sizeof tile);
  AsyncCopyQueue queue;
  queue.issue(tile, source, 16, 16);
  queue.commit();
  queue.issue(tile + 16, source + 16, 16, 4); // 4 bytes read, 12 zeros
  queue.commit();
  queue.issue(tile, source + 16, 4, 4); // not committed
  EXPECT_EQ(tile[0], 0xee) << "issued is not done";
  queue.wait(1);
  EXPECT_EQ(tile[0], 1);
  EXPECT_EQ(tile[15], 16);
  EXPECT_EQ(tile[16], 0xee) << "the second group is still pending";
  queue.wait(0);
  EXPECT_EQ(tile[16], 17);
  EXPECT_EQ(tile[19], 20);
  EXPECT_EQ(tile[20], 0);
  EXPECT_EQ(tile[31], 0);
  EXPECT_EQ(tile[0], 1) << "the open group waits for its commit";
  queue.commit();
  queue.wait(0);
  EXPECT_EQ(tile[0], 17);
}


// Each of 64 threads copies 16 bytes of the input into shared memory and
// reads its neighbour's after a barrier: before the wait (the poison, or
// zeros where nothing was copied yet) and after wait + barrier.
void pipelined(void *const *buffers, HloHostThread *t) {
  auto *input = static_cast<const uint8_t *>(buffers[0]);
  auto *out = static_cast<uint8_t *>(buffers[1]);
  auto *shared = static_cast<uint8_t *>(t->sharedMemory);
  unsigned thread = t->threadId[0], other = (thread + 1) % 64;
  __hlo_host_cp_async(t, shared + 16 * thread, input + 16 * thread, 16, 16);
  __hlo_host_cp_async_commit(t);
  __hlo_host_barrier(t);
  out[2 * thread] = shared[16 * other]; // too early
  __hlo_host_barrier(t);
  __hlo_host_cp_async_wait(t, 0);
  __hlo_host_barrier(t);
  out[2 * thread + 1] = shared[16 * other];
}

TEST(AsyncCopies, ThroughTheLauncherEachThreadWaitsForItsOwn) {
  std::vector<uint8_t> input(64 * 16), out(128, 0);
  for (size_t i = 0; i < input.size(); ++i)
    input[i] = uint8_t(i / 16 + 1);
  HostLauncher launcher(1);
  LaunchResult result = launcher.launch(pipelined, concurrentBlockSpec(64, 1024), {input.data(), out.data()},
                                        "sm_80");
  ASSERT_TRUE(result.ok()) << result.message;
  for (unsigned thread = 0; thread < 64; ++thread) {
    unsigned other = (thread + 1) % 64;
    EXPECT_NE(out[2 * thread], uint8_t(other + 1)) << "thread " << thread << " read early";
    EXPECT_EQ(out[2 * thread + 1], uint8_t(other + 1)) << "thread " << thread;
  }
}

void outside(void *const *buffers, HloHostThread *t) {
  auto *shared = static_cast<uint8_t *>(t->sharedMemory);
  __hlo_host_cp_async(t, shared + 1024, buffers[0], 16, 16);
}

TEST(AsyncCopies, OutsideSharedMemoryIsAFault) {
  std::vector<uint8_t> input(16);
  HostLauncher launcher(1);
  LaunchResult result = launcher.launch(outside, concurrentBlockSpec(32, 1024), {input.data()}, "sm_80");
  EXPECT_FALSE(result.ok());
  EXPECT_NE(result.message.find("not an aligned place inside its 1024 bytes"), std::string::npos)
      << result.message;
}

} // namespace
