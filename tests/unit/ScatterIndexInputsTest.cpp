// Generated indices keep what a scatter promises (unique_indices: no two
// update windows overlap; indices_are_sorted: index vectors in order).
#include "interpreter/InputGenerator.h"

#include "hlo_parser/HloComputation.h"
#include "hlo_parser/Parser.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace hlo;
using namespace hlo::interp;

namespace {

std::unique_ptr<HloModule> parse(const std::string &text) {
  auto [module, errors] = parseHloModuleText(text);
  EXPECT_TRUE(module) << errors;
  return std::move(module);
}

/// A 1-D scatter of `slices` windows of `window` into f32[size], its
/// indices passed through a fusion, with the given promises.
std::string scatter1d(int size, int slices, int window, const std::string &promises,
                      const std::string &indexType = "s32") {
  std::string updates = "f32[" + std::to_string(slices) + "," + std::to_string(window) + "]";
  std::string indices = indexType + "[" + std::to_string(slices) + ",1]";
  std::string operand = "f32[" + std::to_string(size) + "]";
  return "HloModule m\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
         "  ROOT s = f32[] add(a, b)\n}\nfused {\n  o = " + operand + " parameter(0)\n"
         "  i = " + indices + " parameter(1)\n  u = " + updates + " parameter(2)\n"
         "  ROOT s = " + operand + " scatter(o, i, u), update_window_dims={1}, "
         "inserted_window_dims={}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, " +
         promises + " to_apply=add\n}\nENTRY e {\n  o = " + operand + " parameter(0)\n"
         "  i = " + indices + " parameter(1)\n  u = " + updates + " parameter(2)\n"
         "  ROOT f = " + operand + " fusion(o, i, u), kind=kInput, calls=fused\n}\n";
}

} // namespace

TEST(ScatterIndexInputs, UniqueWindowsDoNotOverlapAndSortedStaySorted) {
  // The corpus's scatter_sorted_unique_indices: 10 windows of 32 in 10000.
  auto module = parse(scatter1d(10000, 10, 32, "indices_are_sorted=true, unique_indices=true,"));
  ASSERT_TRUE(module);
  const HloInstruction &indices = *module->entry()->parameter(1);
  for (uint64_t seed = 0; seed < 20; ++seed) {
    Literal value = generateInputFor(indices, indices.shape(), seed);
    std::vector<int64_t> starts = value.intData();
    ASSERT_EQ(starts.size(), 10u);
    EXPECT_TRUE(std::is_sorted(starts.begin(), starts.end()));
    for (size_t i = 1; i < starts.size(); ++i)
      EXPECT_GE(starts[i] - starts[i - 1], 32) << "seed " << seed;
    EXPECT_GE(starts.front(), 0);
    EXPECT_LE(starts.back(), 10000 - 32);
  }
}

TEST(ScatterIndexInputs, UniqueButUnsortedIsShuffled) {
  auto module = parse(scatter1d(1000, 50, 4, "unique_indices=true,"));
  ASSERT_TRUE(module);
  const HloInstruction &indices = *module->entry()->parameter(1);
  std::vector<int64_t> starts = generateInputFor(indices, indices.shape(), 3).intData();
  EXPECT_FALSE(std::is_sorted(starts.begin(), starts.end()));
  std::sort(starts.begin(), starts.end());
  for (size_t i = 1; i < starts.size(); ++i)
    EXPECT_GE(starts[i] - starts[i - 1], 4);
}

TEST(ScatterIndexInputs, SlicesPastTheSlotsAreOutOfBounds) {
  // 4 windows of 4 fit in 16: the other 4 start at 13, past 16 - 4
  // (skipped).
  auto module = parse(scatter1d(16, 8, 4, "indices_are_sorted=true, unique_indices=true,"));
  ASSERT_TRUE(module);
  const HloInstruction &indices = *module->entry()->parameter(1);
  std::vector<int64_t> starts = generateInputFor(indices, indices.shape(), 1).intData();
  EXPECT_TRUE(std::is_sorted(starts.begin(), starts.end()));
  EXPECT_EQ(std::count_if(starts.begin(), starts.end(), [](int64_t s) { return s > 12; }), 4);
}

TEST(ScatterIndexInputs, SeveralComponentsTakeDistinctSlots) {
  auto module = parse(R"(HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  o = f32[8,12] parameter(0)
  i = s64[6,2] parameter(1)
  u = f32[6,2,3] parameter(2)
  ROOT s = f32[8,12] scatter(o, i, u), update_window_dims={1,2}, inserted_window_dims={},
    scatter_dims_to_operand_dims={0,1}, index_vector_dim=1, unique_indices=true, to_apply=add
}
)");
  ASSERT_TRUE(module);
  const HloInstruction &indices = *module->entry()->parameter(1);
  std::vector<int64_t> data = generateInputFor(indices, indices.shape(), 5).intData();
  std::vector<std::pair<int64_t, int64_t>> windows;
  for (size_t s = 0; s < 6; ++s)
    windows.emplace_back(data[2 * s], data[2 * s + 1]);
  for (size_t a = 0; a < windows.size(); ++a) {
    EXPECT_EQ(windows[a].first % 2, 0);
    EXPECT_EQ(windows[a].second % 3, 0);
    for (size_t b = a + 1; b < windows.size(); ++b)
      EXPECT_NE(windows[a], windows[b]);
  }
}

TEST(ScatterIndexInputs, SortedOnlyKeepsTheDefaultRangeInOrder) {
  auto module = parse(scatter1d(100, 30, 2, "indices_are_sorted=true,"));
  ASSERT_TRUE(module);
  const HloInstruction &indices = *module->entry()->parameter(1);
  std::vector<int64_t> starts = generateInputFor(indices, indices.shape(), 9).intData();
  EXPECT_TRUE(std::is_sorted(starts.begin(), starts.end()));
  EXPECT_LE(starts.back(), 16);
  EXPECT_GT(starts.back(), starts.front());
}

TEST(ScatterIndexInputs, OtherParametersKeepTheirRange) {
  auto module = parse(scatter1d(100, 3, 2, "unique_indices=true,"));
  ASSERT_TRUE(module);
  const HloInstruction &operand = *module->entry()->parameter(0);
  Literal value = generateInputFor(operand, operand.shape(), 2);
  EXPECT_EQ(value.realData(), generateInput(operand.shape(), inputRangeFor(operand), 2).realData());
}
