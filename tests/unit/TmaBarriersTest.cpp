//===- TmaBarriersTest.cpp - mbarriers and TMA loads on the host -----------===//
//
// The host runtime's model of Hopper's copy pipeline (TmaBarriers.h)
// against the PTX ISA and the CUDA driver's tensor-map rules, each with
// the bug it must expose:
//  - a box lands in box order with zeros outside the tensor, and with the
//    128-byte swizzle exactly where wgmma's descriptors read it;
//  - a phase completes once its arrivals and awaited bytes have come, and
//    try_wait.parity on the completed phase's parity returns at once: a
//    wait on the wrong parity reads the poisoned (stale) tile;
//  - a load's destination is poisoned from its issue: a stage reused
//    before its readers are done shows it;
//  - too many arrivals, uninitialized barriers and misaligned swizzled
//    destinations are faults.
//
//===----------------------------------------------------------------------===//
#include "host/TmaBarriers.h"
#include "TensorMapFixture.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace hlo;
using namespace hlo::runtime;

namespace {

/// A row-major [rows][columns] u16 tensor whose element (r, c) is
/// r * 1000 + c, and a map of it with a `boxColumns` x `boxRows` box.
struct Tensor {
  std::vector<uint16_t> values;
  HloHostTensorMap map{};
  Tensor(uint32_t rows, uint32_t columns, uint32_t boxColumns, uint32_t boxRows,
         uint32_t swizzle) {
    for (uint32_t r = 0; r < rows; ++r)
      for (uint32_t c = 0; c < columns; ++c)
        values.push_back(static_cast<uint16_t>(r * 1000 + c));
    map = test::rowMajorU16Map(values.data(), rows, columns, boxColumns, boxRows, swizzle);
  }
};

struct Block {
  alignas(1024) uint8_t shared[16384];
  TmaBarriers barriers;
  Block() {
    std::memset(shared, 0x11, sizeof shared);
    barriers.reset(shared, sizeof shared);
  }
  void *barrier(size_t index) { return shared + 8 * index; }
  /// One thread's expect_tx of `bytes` on barrier 0 and a load of the box
  /// of `map` at the origin into shared offset 1024, completing on it.
  void arriveAndLoad(const HloHostTensorMap &map, uint32_t bytes) {
    int32_t origin[2] = {0, 0};
    ASSERT_TRUE(barriers.arrive(barrier(0), bytes).ok());
    ASSERT_TRUE(barriers.load(map, shared + 1024, barrier(0), origin).ok());
  }
  uint16_t at(size_t offset, size_t element) const {
    uint16_t value;
    std::memcpy(&value, shared + offset + 2 * element, 2);
    return value;
  }
};

TEST(TmaBarriers, BoxLandsInBoxOrderWithZerosOutsideTheTensor) {
  Tensor tensor(10, 20, 8, 4, 0);
  Block block;
  int32_t coordinates[2] = {16, 8}; // columns 16..23, rows 8..11: half outside
  ASSERT_TRUE(copyTmaBox(tensor.map, coordinates, block.shared + 1024, block.shared).ok());
  for (uint32_t r = 0; r < 4; ++r)
    for (uint32_t c = 0; c < 8; ++c) {
      bool inside = 8 + r < 10 && 16 + c < 20;
      EXPECT_EQ(block.at(1024, r * 8 + c), inside ? (8 + r) * 1000 + 16 + c : 0)
          << "row " << r << " column " << c;
    }
  int32_t negative[2] = {-4, 0};
  ASSERT_TRUE(copyTmaBox(tensor.map, negative, block.shared + 1024, block.shared).ok());
  EXPECT_EQ(block.at(1024, 3), 0);
  EXPECT_EQ(block.at(1024, 4), 0);
}

TEST(TmaBarriers, Swizzle128MovesEachRowsChunksByItsRowInTheGroup) {
  // Rows of 64 u16 = 128 bytes: chunk j of row r lands at chunk j ^ (r % 8).
  Tensor tensor(16, 64, 64, 16, 128);
  Block block;
  int32_t origin[2] = {0, 0};
  ASSERT_TRUE(copyTmaBox(tensor.map, origin, block.shared + 2048, block.shared).ok());
  for (uint32_t r = 0; r < 16; ++r)
    for (uint32_t chunk = 0; chunk < 8; ++chunk) {
      uint32_t landed = chunk ^ (r % 8);
      EXPECT_EQ(block.at(2048 + r * 128 + landed * 16, 0), r * 1000 + chunk * 8)
          << "row " << r << " chunk " << chunk;
    }
  // Only whole swizzle rows are modelled.
  Tensor narrow(16, 64, 32, 16, 128);
  EXPECT_FALSE(copyTmaBox(narrow.map, origin, block.shared + 2048, block.shared).ok());
}

TEST(TmaBarriers, PhaseCompletesWithItsArrivalsAndBytes) {
  Tensor tensor(8, 64, 64, 8, 128);
  Block block;
  void *full = block.barrier(0);
  ASSERT_TRUE(block.barriers.init(full, 1).ok());
  // Phase 0 in progress: a wait for parity 0 is not done; the completed
  // phase "-1" has parity 1, so a wait for parity 1 returns at once.
  EXPECT_FALSE(*block.barriers.tryWait(full, 0));
  EXPECT_TRUE(*block.barriers.tryWait(full, 1));
  block.arriveAndLoad(tensor.map, 1024);
  // Poisoned until the wait completes the load.
  EXPECT_EQ(block.at(1024, 0), 0xffff);
  EXPECT_EQ(block.barriers.loadsInFlight(), 1u);
  EXPECT_TRUE(*block.barriers.tryWait(full, 0));
  EXPECT_EQ(block.at(1024, 0), 0);
  EXPECT_EQ(block.at(1024, 1), 1);
  EXPECT_EQ(block.barriers.loadsInFlight(), 0u);
  // Phase 1 now: parity 0 done, parity 1 awaited.
  EXPECT_TRUE(*block.barriers.tryWait(full, 0));
  EXPECT_FALSE(*block.barriers.tryWait(full, 1));
}

TEST(TmaBarriers, MissingBytesOrArrivalsKeepThePhaseOpen) {
  Tensor tensor(8, 64, 64, 8, 128);
  Block block;
  void *full = block.barrier(0);
  ASSERT_TRUE(block.barriers.init(full, 2).ok());
  // expect_tx says two boxes, one comes: never complete (a deadlock).
  block.arriveAndLoad(tensor.map, 2048);
  EXPECT_FALSE(*block.barriers.tryWait(full, 0));
  ASSERT_TRUE(block.barriers.arrive(full, 0).ok());
  EXPECT_FALSE(*block.barriers.tryWait(full, 0));
  uint64_t before = block.barriers.progress();
  EXPECT_FALSE(*block.barriers.tryWait(full, 0));
  EXPECT_EQ(block.barriers.progress(), before) << "a wait that changes nothing is no progress";
}

TEST(TmaBarriers, WrongParityReadsTheStaleTile) {
  // Planted bug: a consumer waits on parity 1 for phase 0.
  Tensor tensor(8, 64, 64, 8, 128);
  Block block;
  void *full = block.barrier(0);
  ASSERT_TRUE(block.barriers.init(full, 1).ok());
  block.arriveAndLoad(tensor.map, 1024);
  EXPECT_TRUE(*block.barriers.tryWait(full, 1));
  EXPECT_EQ(block.at(1024, 1), 0xffff) << "the tile must not have arrived";
}

TEST(TmaBarriers, StageReusedTooEarlyIsPoisoned) {
  // Planted bug: one stage too few. The load of the next K tile into the
  // stage a product still reads poisons it at once.
  Tensor tensor(8, 64, 64, 8, 128);
  Block block;
  void *full = block.barrier(0);
  ASSERT_TRUE(block.barriers.init(full, 1).ok());
  block.arriveAndLoad(tensor.map, 1024);
  ASSERT_TRUE(*block.barriers.tryWait(full, 0));
  ASSERT_EQ(block.at(1024, 3), 3);
  block.arriveAndLoad(tensor.map, 1024);
  EXPECT_EQ(block.at(1024, 3), 0xffff) << "a reader of the old tile must see the poison";
}

TEST(TmaBarriers, MisuseIsAFault) {
  Tensor tensor(8, 64, 64, 8, 128);
  Block block;
  int32_t origin[2] = {0, 0};
  EXPECT_FALSE(block.barriers.arrive(block.barrier(1), 0).ok()) << "uninitialized";
  EXPECT_FALSE(block.barriers.tryWait(block.barrier(1), 0).ok());
  ASSERT_TRUE(block.barriers.init(block.barrier(0), 1).ok());
  ASSERT_TRUE(block.barriers.arrive(block.barrier(0), 0).ok());
  EXPECT_FALSE(block.barriers.arrive(block.barrier(0), 0).ok()) << "beyond the count";
  EXPECT_FALSE(block.barriers.init(block.shared + 4, 1).ok()) << "misaligned";
  EXPECT_FALSE(block.barriers.init(block.barrier(2), 0).ok()) << "no arrivals";
  // A 128-byte swizzled box must start on its 1024-byte pattern.
  ASSERT_TRUE(block.barriers.init(block.barrier(3), 1).ok());
  EXPECT_FALSE(block.barriers.load(tensor.map, block.shared + 1024 + 128, block.barrier(3),
                                   origin)
                   .ok());
  uint8_t outside[1024];
  EXPECT_FALSE(block.barriers.load(tensor.map, outside, block.barrier(3), origin).ok());
}

} // namespace
