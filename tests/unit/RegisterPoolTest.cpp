//===- RegisterPoolTest.cpp - setmaxnreg's registers on the host ----------===//
//
// The host runtime's model of setmaxnreg (RegisterPool.h) against the PTX
// ISA: counts a multiple of 8 from 24 to 256; .dec only lowers and .inc
// only raises a warpgroup's count; .inc waits until .dec of other
// warpgroups has given back what it asks, so a split that asks for more
// than the block launched with never completes (the planted bug
// setmaxnreg-overask is that deadlock in a kernel); and without the
// launch's count, setmaxnreg is a fault.
//
//===----------------------------------------------------------------------===//
#include "host/RegisterPool.h"

#include <gtest/gtest.h>

using namespace hlo::runtime;

namespace {

TEST(RegisterPool, CutlassSplitOfTwoConsumersAndAProducerFits) {
  // 384 threads at 168: the producer gives back 128 a thread, 64 for each
  // consumer (232).
  RegisterPool pool;
  pool.reset(3, 168);
  // A consumer that asks first waits for the producer's .dec.
  EXPECT_EQ(*pool.request(0, 232, true), false);
  EXPECT_EQ(pool.registersPerThread(0), 168u);
  EXPECT_EQ(*pool.request(2, 40, false), true);
  EXPECT_EQ(pool.pooled(), 128u * 128);
  EXPECT_EQ(*pool.request(0, 232, true), true);
  EXPECT_EQ(*pool.request(1, 232, true), true);
  EXPECT_EQ(pool.pooled(), 0u);
  EXPECT_EQ(pool.registersPerThread(1), 232u);
}

TEST(RegisterPool, AskingForMoreThanWasGivenBackWaitsForever) {
  RegisterPool pool;
  pool.reset(3, 168);
  ASSERT_TRUE(*pool.request(2, 40, false));
  ASSERT_TRUE(*pool.request(0, 240, true)); // 72 more: 9216 of 16384
  EXPECT_FALSE(*pool.request(1, 240, true)); // 9216 more, 7168 left
  EXPECT_EQ(pool.registersPerThread(1), 168u);
}

TEST(RegisterPool, CountsOutsideThePtxRangeAreFaults) {
  RegisterPool pool;
  pool.reset(2, 128);
  for (uint32_t count : {16u, 236u, 264u}) {
    auto result = pool.request(0, count, false);
    ASSERT_FALSE(result) << count;
    EXPECT_NE(result.error().find("multiple of 8 from 24 to 256"), std::string::npos);
  }
}

TEST(RegisterPool, DecCannotRaiseAndIncCannotLower) {
  RegisterPool pool;
  pool.reset(2, 128);
  auto raise = pool.request(0, 136, false);
  ASSERT_FALSE(raise);
  EXPECT_NE(raise.error().find(".dec may not raise them"), std::string::npos);
  auto lower = pool.request(0, 120, true);
  ASSERT_FALSE(lower);
  EXPECT_NE(lower.error().find(".inc may not lower them"), std::string::npos);
}

TEST(RegisterPool, UnknownLaunchCountIsAFault) {
  RegisterPool pool;
  pool.reset(2, 0);
  auto result = pool.request(0, 40, false);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().find("no register bound"), std::string::npos);
}

} // namespace
