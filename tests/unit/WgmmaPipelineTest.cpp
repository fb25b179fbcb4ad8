//===- WgmmaPipelineTest.cpp - Asynchronous wgmma on the host --------------===//
//
// The host runtime's model of wgmma groups in flight (WgmmaPipeline.h)
// against the PTX ISA's rules, each with the bug it must expose:
//  - a product reads its tiles when its group retires: a tile overwritten
//    before the wait (a pipeline one stage too short) gives the product of
//    the new data;
//  - the accumulators hold a NaN marker until a wait leaves no group in
//    flight: reading them after wait_group 1 (a missing final wait_group
//    0) reads NaN;
//  - a chain accumulates its groups in order; accumulators partly in
//    flight, a fresh chain while another is in flight, or a continued chain
//    of another width are faults.
//
//===----------------------------------------------------------------------===//
#include "host/WgmmaPipeline.h"

#include "abi/HostKernelAbi.h"

#include "hlo_parser/FloatFormat.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

using namespace hlo;
using namespace hlo::runtime;

namespace {

constexpr uint32_t kWidth = 8;
constexpr uint32_t kValues = kWidth / 2;
constexpr size_t kBStart = 4096;

/// A (64 x 16) and B (8 x 16) bf16 operands, packed core matrices
/// (leading 128, stride 256), all elements `a` and `b`.
struct Tiles {
  std::vector<uint8_t> shared = std::vector<uint8_t>(8192, 0);
  void fill(double a, double b) {
    auto put = [&](size_t start, int rows, double value) {
      auto bits = static_cast<uint16_t>(encodeFloatBits(value, PrimitiveType::BF16));
      for (int r = 0; r < rows; ++r)
        for (int k = 0; k < 16; ++k)
          std::memcpy(&shared[start + r / 8 * 256 + k / 8 * 128 + r % 8 * 16 + k % 8 * 2],
                      &bits, 2);
    };
    put(0, 64, a);
    put(kBStart, int(kWidth), b);
  }
  WgmmaOperands operands() {
    return {shared.data(), 128, 256, shared.data() + kBStart, 128, 256, 0, nullptr};
  }
};

struct Threads {
  std::vector<std::vector<float>> d =
      std::vector<std::vector<float>>(kThreadsPerWarpgroup, std::vector<float>(kValues, 0.0f));
  WgmmaPipeline::Accumulators pointers() {
    WgmmaPipeline::Accumulators result;
    for (size_t t = 0; t < kThreadsPerWarpgroup; ++t)
      result[t] = d[t].data();
    return result;
  }
  bool all(float value) const {
    for (const std::vector<float> &thread : d)
      for (float v : thread)
        if (v != value)
          return false;
    return true;
  }
  bool allInFlight() const {
    for (const std::vector<float> &thread : d)
      for (float v : thread)
        if (!WgmmaPipeline::isInFlight(v) || !std::isnan(v))
          return false;
    return true;
  }
};

TEST(WgmmaPipeline, ChainsAccumulateInOrderAndRetireAtTheWait) {
  Tiles tiles;
  Threads threads;
  WgmmaPipeline pipeline;
  tiles.fill(1.0, 2.0); // each product adds 16 * 2 = 32
  ASSERT_TRUE(pipeline.issue(HLO_HOST_WGMMA_M64K16_F32_BF16, kWidth, tiles.operands(),
                             threads.pointers()));
  pipeline.commit();
  EXPECT_TRUE(threads.allInFlight());
  ASSERT_TRUE(pipeline.issue(HLO_HOST_WGMMA_M64K16_F32_BF16, kWidth, tiles.operands(),
                             threads.pointers()));
  pipeline.commit();
  EXPECT_EQ(pipeline.inFlight(), 2u);
  // wait_group 1: the first group retires, the accumulators stay in flight.
  ASSERT_TRUE(pipeline.wait(1, threads.pointers()));
  EXPECT_EQ(pipeline.inFlight(), 1u);
  EXPECT_TRUE(threads.allInFlight()) << "a read after wait_group 1 must see the marker";
  ASSERT_TRUE(pipeline.wait(0, threads.pointers()));
  EXPECT_EQ(pipeline.inFlight(), 0u);
  EXPECT_TRUE(threads.all(64.0f));
}

TEST(WgmmaPipeline, ATileOverwrittenInFlightGivesTheNewProduct) {
  // The planted bug of a pipeline one stage too short: the next tile's
  // copies land in the buffer the group in flight reads.
  Tiles tiles;
  Threads threads;
  WgmmaPipeline pipeline;
  tiles.fill(1.0, 2.0);
  ASSERT_TRUE(pipeline.issue(HLO_HOST_WGMMA_M64K16_F32_BF16, kWidth, tiles.operands(),
                             threads.pointers()));
  pipeline.commit();
  tiles.fill(3.0, 2.0); // before the wait
  ASSERT_TRUE(pipeline.wait(0, threads.pointers()));
  EXPECT_TRUE(threads.all(96.0f)) << "the product must read the tile at retirement";
  // Overwritten after the wait: the product stands.
  Threads later;
  tiles.fill(1.0, 2.0);
  ASSERT_TRUE(pipeline.issue(HLO_HOST_WGMMA_M64K16_F32_BF16, kWidth, tiles.operands(),
                             later.pointers()));
  pipeline.commit();
  ASSERT_TRUE(pipeline.wait(0, later.pointers()));
  tiles.fill(5.0, 5.0);
  EXPECT_TRUE(later.all(32.0f));
}

TEST(WgmmaPipeline, MisusesAreFaults) {
  Tiles tiles;
  tiles.fill(1.0, 1.0);
  {
    // A fresh chain while another is in flight (its registers in use).
    WgmmaPipeline pipeline;
    Threads first, second;
    ASSERT_TRUE(pipeline.issue(HLO_HOST_WGMMA_M64K16_F32_BF16, kWidth, tiles.operands(),
                               first.pointers()));
    pipeline.commit();
    EXPECT_FALSE(pipeline.issue(HLO_HOST_WGMMA_M64K16_F32_BF16, kWidth, tiles.operands(),
                                second.pointers()));
  }
  {
    // Accumulators partly in flight (one thread's mixed with others').
    WgmmaPipeline pipeline;
    Threads threads;
    ASSERT_TRUE(pipeline.issue(HLO_HOST_WGMMA_M64K16_F32_BF16, kWidth, tiles.operands(),
                               threads.pointers()));
    pipeline.commit();
    threads.d[5][1] = 0.0f;
    Status mixed = pipeline.issue(HLO_HOST_WGMMA_M64K16_F32_BF16, kWidth, tiles.operands(),
                                  threads.pointers());
    ASSERT_FALSE(mixed);
    EXPECT_NE(mixed.error().find("partly in flight"), std::string::npos) << mixed.error();
  }
  {
    // The marker without a chain.
    WgmmaPipeline pipeline;
    Threads threads;
    float marker;
    uint32_t bits = WgmmaPipeline::kInFlightBits;
    std::memcpy(&marker, &bits, 4);
    for (std::vector<float> &thread : threads.d)
      std::fill(thread.begin(), thread.end(), marker);
    EXPECT_FALSE(pipeline.issue(HLO_HOST_WGMMA_M64K16_F32_BF16, kWidth, tiles.operands(),
                                threads.pointers()));
  }
}

} // namespace
