//===- ReductionTilingTest.cpp - Launch figures of the reduction variants -===//
//
// The figures emitters/ReductionTiling.h computes, against
//  - the notes' formulas as INDEX.tsv's `emu:` column evaluates them for
//    every reduction module of the corpus (XLA's test device, an RTX A6000
//    with 84 SMs): variant, normal form, threads, blocks, vector size,
//    shared rows, warps per row;
//  - what XLA's own compiler (jax 0.10.2, H100 target, through
//    shared/tools/xla-gpu-reference) launched for the same fusions;
//  - the rules themselves on chosen shapes (vector sizes, race freedom);
// and the reduction groups of the corpus' group tests.
//
//===----------------------------------------------------------------------===//
#include "analysis/FusionAnalysis.h"
#include "analysis/KernelPlan.h"
#include "analysis/ReductionGroups.h"
#include "emitters/ReductionTiling.h"

#include "TestUtils.h"

#include <gtest/gtest.h>

#include <regex>

using namespace hlo;
using testing_utils::kCorpus;

namespace {

/// The analysis of the module's first kernel (the fusion its test means).
struct AnalysedModule {
  std::unique_ptr<HloModule> module;
  std::unique_ptr<KernelPlan> plan;
  FusionAnalysis analysis;
  /// The reduction emitter's tiling of it (what the emitter computes when
  /// it is built).
  std::optional<ReductionTiling> tiling;
};

AnalysedModule analyse(const std::string &file, const GpuDeviceInfo &device) {
  AnalysedModule result;
  std::string errors;
  result.module = testing_utils::parseCorpusModule(file, errors);
  EXPECT_NE(result.module, nullptr) << errors;
  if (!result.module)
    return result;
  result.plan = std::make_unique<KernelPlan>(*result.module);
  for (const KernelSource &kernel : result.plan->kernels()) {
    result.analysis = analyzeFusion(*kernel.computation, kernel.fusion, device);
    if (result.analysis.kind == EmitterKind::Reduction) {
      result.tiling = computeReductionTiling(*result.analysis.reduction,
                                             result.analysis.elementBits, device);
      break;
    }
  }
  return result;
}

const char *variantName(ReductionKind kind) {
  switch (kind) {
  case ReductionKind::Row:
    return "RowReductionFusion";
  case ReductionKind::MultiRow:
    return "MultiRowReductionFusion";
  case ReductionKind::Column:
    return "ColumnReductionFusion";
  case ReductionKind::SmallColumn:
    return "SmallColumnReductionFusion";
  }
  return "";
}

struct EmulatedRow {
  std::string file, figures;
};

std::vector<EmulatedRow> emulatedRows() {
  std::vector<EmulatedRow> rows;
  for (const auto &fields : testing_utils::corpusIndexRows()) {
    size_t at = fields[4].find("emu: ");
    if (fields[3].rfind("kReduction", 0) == 0 && at != std::string::npos &&
        (fields[4].compare(at + 5, 4, "row[") == 0 || fields[4].compare(at + 5, 4, "col[") == 0))
      rows.push_back({fields[0], fields[4].substr(at + 5)});
  }
  return rows;
}

int64_t field(const std::string &text, const std::string &name) {
  std::smatch match;
  std::regex pattern("\\b" + name + "=([0-9]+)");
  return std::regex_search(text, match, pattern) ? std::stoll(match[1]) : -1;
}

class NotesFormulas : public testing::TestWithParam<EmulatedRow> {};

// "row[1, 8, 2048] -> RowReductionFusion threads=256 (kept=2,reduced=128)
// blocks=4 vec=2 warps_per_row=4"
TEST_P(NotesFormulas, MatchTheCorpusShapes) {
  const EmulatedRow &row = GetParam();
  AnalysedModule analysed = analyse(row.file, rtxA6000DeviceInfo());
  ASSERT_TRUE(analysed.tiling) << row.file;
  const ReductionTiling &tiling = *analysed.tiling;
  // The variant the analysis chose is the one the tiling is for.
  EXPECT_STREQ(fusionVariantName(analysed.analysis.variant), variantName(tiling.kind))
      << row.file;
  std::string expected = row.figures;
  EXPECT_EQ(expected.substr(0, expected.find(" ->")), tiling.dimensions.toString());
  EXPECT_NE(expected.find(std::string("-> ") + variantName(tiling.kind) + " "),
            std::string::npos)
      << expected << " vs " << variantName(tiling.kind);
  EXPECT_EQ(field(expected, "threads"), tiling.threadsPerBlock()) << expected;
  EXPECT_EQ(field(expected, "blocks"), tiling.blockCount()) << expected;
  EXPECT_EQ(field(expected, "vec"), tiling.vectorSize) << expected;
  if (field(expected, "kept") >= 0) {
    EXPECT_EQ(field(expected, "kept"), tiling.threads[0]) << expected;
    EXPECT_EQ(field(expected, "reduced"), tiling.threads[1]) << expected;
  }
  if (field(expected, "shared_rows") >= 0) {
    EXPECT_EQ(field(expected, "shared_rows"), tiling.sharedRows) << expected;
  }
  if (field(expected, "warps_per_row") >= 0) {
    EXPECT_EQ(field(expected, "warps_per_row"), tiling.warpsPerRow()) << expected;
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, NotesFormulas, testing::ValuesIn(emulatedRows()),
                         [](const testing::TestParamInfo<EmulatedRow> &info) {
                           return testing_utils::gtestName(info.param.file);
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(NotesFormulas);

// What XLA's compiler launched on an H100 for the same fusions (blocks,
// threads), from shared/tools/xla-gpu-reference's kernels.tsv. XLA
// re-fuses some test modules; those are left out.
TEST(ReductionTiling, MatchesXlasH100Launches) {
  if (!std::filesystem::exists(kCorpus))
    GTEST_SKIP() << "no corpus";
  const struct {
    const char *file;
    int64_t blocks, threads;
  } launches[] = {
      {"reduce_row/epilogue.hlo", 4, 256},
      {"reduce_row/layout.hlo", 41, 256},
      {"reduce_row/minor_and_major.hlo", 13, 256},
      {"reduce_row/mof_epilogue.hlo", 2, 256},
      {"reduce_row/mof_scalar_variadic.hlo", 1, 32},
      {"reduce_row/small_f64.hlo", 13, 256},
      {"reduce_row/small_s32.hlo", 13, 256},
      {"reduce_row/variadic_f32.hlo", 3, 256},
      {"reduce_row/side_output_s4.hlo", 8, 256},
      {"reduce_row/inefficient_codegen.hlo", 1, 4},
      {"reduce_multirow/f16_v4.hlo", 256, 256},
      {"reduce_multirow/f32_x8.hlo", 16, 256},
      {"reduce_multirow/maximum_vector_size.hlo", 300, 256},
      {"reduce_multirow/pred_mof_x2_v4.hlo", 240, 256},
      {"reduce_column/horizontal_fusion_two_groups.hlo", 20, 1024},
      {"reduce_column/odd_sizes.hlo", 143, 1024},
      {"reduce_column/vectorize_x1_c64.hlo", 2, 1024},
      {"reduce_column/vectorize_x1_f64.hlo", 2, 1024},
      {"reduce_column/vectorize_x2_f32.hlo", 1, 1024},
      {"reduce_column/vectorize_x4_s16.hlo", 1, 1024},
      {"reduce_column/small.hlo", 3, 128},
      {"reduce_column_small/f32_2.hlo", 100, 64},
      {"reduce_column_small/f32_32_v2.hlo", 10240, 128},
      {"reduce_column_small/f32_8_v2.hlo", 11, 128},
      {"reduce_column_small/s8_f32_32_v4.hlo", 10240, 128},
  };
  GpuDeviceInfo h100 = deviceInfoForArch("sm_90").value();
  for (const auto &launch : launches) {
    AnalysedModule analysed = analyse(launch.file, h100);
    ASSERT_TRUE(analysed.tiling) << launch.file;
    EXPECT_EQ(analysed.tiling->blockCount(), launch.blocks) << launch.file;
    EXPECT_EQ(analysed.tiling->threadsPerBlock(), launch.threads)
        << launch.file;
  }
}

TEST(ReductionTiling, VectorSizes) {
  FusionElementBits f32{32, 32, false}, f16{16, 16, false}, f64{64, 64, false};
  FusionElementBits c64{64, 64, true}, none{};
  EXPECT_EQ(reductionVectorSize(2048, 128, f32), 2);
  EXPECT_EQ(reductionVectorSize(2048, 128, f16), 4);
  EXPECT_EQ(reductionVectorSize(2050, 128, f16), 2); // not a multiple of 4
  EXPECT_EQ(reductionVectorSize(300, 128, f16), 2);  // too few for 4 each
  EXPECT_EQ(reductionVectorSize(2049, 128, f16), 1); // odd
  EXPECT_EQ(reductionVectorSize(200, 128, f16), 1);  // threads would idle
  EXPECT_EQ(reductionVectorSize(2048, 128, f64), 1);
  EXPECT_EQ(reductionVectorSize(2048, 128, c64), 1);
  EXPECT_EQ(reductionVectorSize(2048, 128, none), 1); // no inputs: as 64-bit
}

// A row longer than XLA's race-free bound (XLA splits it first) still gets
// one block per row: its threads loop over all of it.
TEST(ReductionTiling, LongRowsStayInOneBlock) {
  GpuDeviceInfo h100 = deviceInfoForArch("sm_90").value();
  FusionElementBits f32{32, 32, false};
  ReductionDimensions row{true, {1, 3, 1 << 20}};
  ReductionTiling tiling = computeReductionTiling(row, f32, h100);
  EXPECT_EQ(tiling.kind, ReductionKind::Row);
  EXPECT_EQ(tiling.blocks[1], 1);
  EXPECT_GE(tiling.tilePerThread * tiling.threads[1] * tiling.vectorSize, 1 << 20);
  ReductionDimensions column{false, {2, 100000, 70}};
  ReductionTiling columns = computeReductionTiling(column, f32, h100);
  EXPECT_EQ(columns.kind, ReductionKind::Column);
  EXPECT_GE(columns.tilePerThread * columns.threads[0], 100000);
}

TEST(ReductionGroups, CorpusGroups) {
  if (!std::filesystem::exists(kCorpus))
    GTEST_SKIP() << "no corpus";
  const std::pair<const char *, size_t> cases[] = {
      {"hero_analysis/reduction_base__TwoGroups.hlo", 2},
      {"hero_analysis/reduction_base__OneGroup.hlo", 1},
      {"reduce_row/reduction_groups.hlo", 2},
      {"reduce_row/reduction_groups_two_in_same_group.hlo", 1},
      {"reduce_column/horizontal_fusion_two_groups.hlo", 2},
      {"reduce_row/mof_epilogue.hlo", 1},
  };
  for (const auto &[file, count] : cases) {
    AnalysedModule analysed = analyse(file, rtxA6000DeviceInfo());
    ASSERT_EQ(analysed.analysis.kind, EmitterKind::Reduction) << file;
    ReductionGroups groups = groupDisjointReductions(analysed.analysis);
    EXPECT_EQ(groups.groupedRoots.size(), count) << file;
    size_t roots = 0;
    for (const auto &group : groups.groupedRoots)
      roots += group.size();
    EXPECT_EQ(roots, analysed.analysis.roots.size()) << file;
  }
}

} // namespace

// Issue 29: warp shuffles name a full warp in row, column and small-column
// reductions, so their blocks must be whole warps for every shape (only
// multi-row reductions have a partial last warp, and compute its member
// mask: lit regressions/partial-last-warp.test). A sweep of odd and even
// sizes and element widths.
TEST(ReductionTiling, ShufflingVariantsLaunchWholeWarps) {
  GpuDeviceInfo h100 = deviceInfoForArch("sm_90").value();
  const int64_t sizes[] = {1, 2, 3, 5, 7, 8, 9, 13, 16, 31, 32, 33, 63, 64, 65, 100, 127,
                           128, 129, 255, 256, 1000, 1024, 4095, 4097, 16385, 100000};
  int checked = 0;
  for (int64_t bits : {8, 16, 32, 64})
    for (bool row : {true, false})
      for (int64_t major : {1, 3})
        for (int64_t middle : sizes)
          for (int64_t minor : sizes) {
            FusionElementBits elementBits{bits, bits, false};
            ReductionDimensions dimensions{row, {major, middle, minor}};
            ReductionTiling tiling = computeReductionTiling(dimensions, elementBits, h100);
            if (tiling.kind == ReductionKind::MultiRow)
              continue;
            ++checked;
            EXPECT_EQ(tiling.threadsPerBlock() % 32, 0)
                << (row ? "row" : "column") << " [" << major << ", " << middle << ", "
                << minor << "] of " << bits << "-bit elements: "
                << tiling.threadsPerBlock() << " threads";
          }
  EXPECT_GT(checked, 2000);
}
