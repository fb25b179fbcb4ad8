//===- TmaStoresTest.cpp - TMA stores and their bulk groups on the host ----===//
//
// The host runtime's model of TMA stores (TmaStores.h) against the PTX
// ISA, each with the bug it must expose:
//  - a box leaves shared memory in box order, through the 128-byte
//    swizzle exactly as a TMA load puts it there, and lands in the tensor
//    with the elements outside it not written;
//  - the tensor holds the box only once a wait retires its group, and a
//    wait leaving `pending` groups retires only the older ones;
//  - the box's shared bytes written before that wait, a box outside
//    shared memory or misaligned for its swizzle, are faults.
//
//===----------------------------------------------------------------------===//
#include "host/TmaBarriers.h"
#include "host/TmaStores.h"
#include "TensorMapFixture.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace hlo;
using namespace hlo::runtime;

namespace {

/// A row-major [rows][columns] u16 tensor of 0xffff, and a map of it with
/// a `boxColumns` x `boxRows` box.
struct Output {
  std::vector<uint16_t> values;
  HloHostTensorMap map{};
  Output(uint32_t rows, uint32_t columns, uint32_t boxColumns, uint32_t boxRows,
         uint32_t swizzle)
      : values(size_t(rows) * columns, 0xffff),
        map(test::rowMajorU16Map(values.data(), rows, columns, boxColumns, boxRows,
                                    swizzle)) {}
  uint16_t at(uint32_t row, uint32_t column) const {
    return values[size_t(row) * map.dims[0] + column];
  }
};

struct Block {
  alignas(1024) uint8_t shared[8192];
  Block() { std::memset(shared, 0, sizeof shared); }
  uint16_t *box(size_t offset) { return reinterpret_cast<uint16_t *>(shared + offset); }
};

TEST(TmaStores, BoxLandsAtItsCoordinatesClippedToTheTensor) {
  Block block;
  Output output(10, 12, 8, 4, 0);
  // Box element (r, c) = 100 r + c, stored at (row 8, column 8): rows 8-9
  // and columns 8-11 are inside.
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 8; ++c)
      block.box(0)[r * 8 + c] = static_cast<uint16_t>(100 * r + c);
  TmaStoreQueue stores;
  int32_t at[2] = {8, 8};
  ASSERT_TRUE(stores.issue(output.map, block.shared, at, block.shared, sizeof block.shared));
  EXPECT_EQ(output.at(8, 8), 0xffff) << "written before a wait retired the store";
  ASSERT_TRUE(stores.wait(0));
  EXPECT_EQ(stores.inFlight(), 0u);
  for (uint32_t r = 0; r < 10; ++r)
    for (uint32_t c = 0; c < 12; ++c) {
      bool inBox = r >= 8 && c >= 8;
      EXPECT_EQ(output.at(r, c), inBox ? 100 * (r - 8) + (c - 8) : 0xffff)
          << "row " << r << " column " << c;
    }
}

TEST(TmaStores, Swizzle128ReadsTheBoxWhereALoadPutsIt) {
  // A 64-column (128-byte) x 8-row box loaded into shared memory by the
  // TMA load model, then stored back to another tensor: the same values.
  std::vector<uint16_t> source(8 * 64);
  for (size_t i = 0; i < source.size(); ++i)
    source[i] = static_cast<uint16_t>(7 * i + 3);
  Output loaded(8, 64, 64, 8, 128), stored(8, 64, 64, 8, 128);
  loaded.values = source;
  loaded.map.base = loaded.values.data();
  Block block;
  int32_t origin[2] = {0, 0};
  ASSERT_TRUE(copyTmaBox(loaded.map, origin, block.shared + 1024, block.shared));
  // The swizzle moved chunks: row 1's first 16 bytes are not at its start.
  EXPECT_NE(std::memcmp(block.shared + 1024 + 128, source.data() + 64, 16), 0);
  TmaStoreQueue stores;
  ASSERT_TRUE(stores.issue(stored.map, block.shared + 1024, origin, block.shared,
                           sizeof block.shared));
  ASSERT_TRUE(stores.wait(0));
  EXPECT_EQ(stored.values, source);
}

TEST(TmaStores, AWaitRetiresOnlyTheOlderGroups) {
  Block block;
  Output output(2, 8, 8, 1, 0);
  for (int c = 0; c < 8; ++c) {
    block.box(0)[c] = static_cast<uint16_t>(c);
    block.box(128)[c] = static_cast<uint16_t>(10 + c);
  }
  TmaStoreQueue stores;
  int32_t first[2] = {0, 0}, second[2] = {0, 1};
  ASSERT_TRUE(stores.issue(output.map, block.shared, first, block.shared, sizeof block.shared));
  ASSERT_TRUE(
      stores.issue(output.map, block.shared + 128, second, block.shared, sizeof block.shared));
  ASSERT_TRUE(stores.wait(1));
  EXPECT_EQ(stores.inFlight(), 1u);
  EXPECT_EQ(output.at(0, 3), 3);
  EXPECT_EQ(output.at(1, 3), 0xffff) << "the newer group retired by a wait that left one";
  // The first box's shared bytes are free now, the second's not yet.
  block.box(0)[0] = 99;
  ASSERT_TRUE(stores.wait(0));
  EXPECT_EQ(output.at(1, 3), 13);
}

TEST(TmaStores, MisuseIsAFault) {
  Block block;
  Output output(4, 8, 8, 4, 0);
  TmaStoreQueue stores;
  int32_t at[2] = {0, 0};
  // The tile written while its store is in flight.
  ASSERT_TRUE(stores.issue(output.map, block.shared, at, block.shared, sizeof block.shared));
  block.box(0)[5] = 42;
  Status early = stores.wait(0);
  ASSERT_FALSE(early);
  EXPECT_NE(early.error().find("was written before a cp.async.bulk.wait_group retired"),
            std::string::npos)
      << early.error();
  // A box past the end of shared memory, and a swizzled one misaligned.
  Status outside = stores.issue(output.map, block.shared + 8192 - 32, at, block.shared,
                                sizeof block.shared);
  ASSERT_FALSE(outside);
  EXPECT_NE(outside.error().find("is not in the block's shared memory"), std::string::npos);
  Output swizzled(8, 64, 64, 8, 128);
  Status misaligned =
      stores.issue(swizzled.map, block.shared + 512, at, block.shared, sizeof block.shared);
  ASSERT_FALSE(misaligned);
  EXPECT_NE(misaligned.error().find("not a multiple of 1024 bytes"), std::string::npos)
      << misaligned.error();
}

} // namespace
