//===- GemmTuningTest.cpp - Tuning files, GEMM keys, autotune candidates ---===//
//
// The GEMM tuning file (abi/GemmTuning.h) both ways -- what hlo-run
// --autotune writes hlo-compile --gemm-configs reads back unchanged --
// and its errors at the line and column; the manifest's "gemm" record;
// the GEMM key's fields as the autotuner reads them, and the candidates
// it times per architecture (runtime/GemmAutotune.h).
//
//===----------------------------------------------------------------------===//
#include "GemmAutotune.h"

#include "abi/GemmTuning.h"
#include "abi/LaunchManifest.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace hlo;
using namespace hlo::abi;

namespace {

GemmTuning wideTile() {
  GemmTuning t;
  t.blockM = 128;
  t.blockN = 256;
  t.blockK = 64;
  t.warps = 8;
  t.stages = 4;
  t.warpSpecialized = true;
  t.persistent = true;
  return t;
}

TEST(GemmTuningFile, WhatIsWrittenReadsBackUnchanged) {
  GemmTuningEntry entry{"sm_90a", "bf16,bf16->bf16 m4096 n4096 k4096 a:k b:n", wideTile(),
                        172.5};
  GemmTuningEntry other{"sm_80", "f8e4m3fn,f8e5m2->f32 b3 m40 n24 k100 a:k b:k", wideTile(),
                        std::nullopt};
  other.tuning.warpSpecialized = other.tuning.persistent = false;
  other.tuning.stages = 2;
  std::string text = "# a comment\n\n" + gemmTuningLine(entry) + "\n  " +
                     gemmTuningLine(other) + "\n";
  ErrorOr<GemmTuningTable> table = parseGemmTuningFile(text, "t.jsonl");
  ASSERT_TRUE(table) << table.error();
  ASSERT_EQ(table->size(), 2u);
  const GemmTuningEntry *found = table->find("sm_90a", entry.gemm);
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->tuning, entry.tuning);
  ASSERT_TRUE(found->microseconds);
  EXPECT_DOUBLE_EQ(*found->microseconds, 172.5);
  const GemmTuningEntry *mixed = table->find("sm_80", other.gemm);
  ASSERT_NE(mixed, nullptr);
  EXPECT_EQ(mixed->tuning, other.tuning);
  EXPECT_FALSE(mixed->microseconds);
  // Keyed by architecture too.
  EXPECT_EQ(table->find("sm_90a", other.gemm), nullptr);
  // A later line for the same GEMM replaces the earlier one.
  GemmTuningEntry retuned = entry;
  retuned.tuning.stages = 3;
  ErrorOr<GemmTuningTable> again =
      parseGemmTuningFile(text + gemmTuningLine(retuned) + "\n", "t.jsonl");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->size(), 2u);
  EXPECT_EQ(again->find("sm_90a", entry.gemm)->tuning.stages, 3);
  // A cluster of two is written (and only then) and read back.
  GemmTuningEntry paired = entry;
  paired.tuning.cluster = 2;
  EXPECT_EQ(gemmTuningLine(entry).find("cluster"), std::string::npos);
  EXPECT_NE(gemmTuningLine(paired).find("\"persistent\": true, \"cluster\": 2"), std::string::npos);
  ErrorOr<GemmTuningTable> clustered = parseGemmTuningFile(gemmTuningLine(paired), "t.jsonl");
  ASSERT_TRUE(clustered) << clustered.error();
  EXPECT_EQ(clustered->find("sm_90a", entry.gemm)->tuning, paired.tuning);
}

TEST(GemmTuningFile, ErrorsNameTheLineAndColumn) {
  auto error = [](const std::string &text) {
    ErrorOr<GemmTuningTable> table = parseGemmTuningFile(text, "t.jsonl");
    return table ? std::string("(read)") : table.error();
  };
  std::string good = gemmTuningLine({"sm_90a", "bf16,bf16->f32 m1 n1 k1 a:k b:k", wideTile(),
                                     std::nullopt});
  // A syntax error: where the JSON reader stopped.
  EXPECT_EQ(error(good + "\n{\"arch\": \"sm_90a\",, }\n").rfind("t.jsonl:2:", 0), 0u)
      << error(good + "\n{\"arch\": \"sm_90a\",, }\n");
  EXPECT_NE(error("\n\n  {\"arch\": \n").find("t.jsonl:3:"), std::string::npos);
  // What the line means: at its first character.
  std::string badWarps = good;
  badWarps.replace(badWarps.find("\"warps\": 8"), 10, "\"warps\": 33");
  EXPECT_EQ(error("# c\n" + badWarps + "\n"), "t.jsonl:2:1: error: warps must be from 1 to 32");
  std::string noArch = good;
  noArch.replace(noArch.find("\"sm_90a\""), 8, "\"\"");
  EXPECT_EQ(error(noArch), "t.jsonl:1:1: error: \"arch\" must be a non-empty string");
  std::string lonely = good;
  lonely.replace(lonely.find("\"warp_specialized\": true"), 24, "\"warp_specialized\": false");
  EXPECT_EQ(error(lonely), "t.jsonl:1:1: error: persistent blocks need warp specialization");
  EXPECT_EQ(error(good.substr(0, good.size() - 1) + ", \"cluster\": 3}"),
            "t.jsonl:1:1: error: a cluster must be 1 or 2 blocks");
  std::string shortTile = good;
  shortTile.replace(shortTile.find("[128, 256, 64]"), 14, "[128, 256]");
  EXPECT_EQ(error(shortTile), "t.jsonl:1:1: error: \"tile\" must be [rows, columns, K step]");
  EXPECT_EQ(error("[1, 2]\n"), "t.jsonl:1:1: error: expected an object per line");
  ErrorOr<GemmTuningTable> missing = readGemmTuningFile("/nonexistent/t.jsonl");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error(), "/nonexistent/t.jsonl: error: cannot read the GEMM tuning file");
}

TEST(GemmTuningFile, TheManifestRecordsAGemmKernelsConfig) {
  LaunchManifest manifest;
  manifest.module = "m";
  KernelSpec kernel;
  kernel.name = "gemm_fusion";
  kernel.hloInstruction = "gemm_fusion";
  kernel.gemm = GemmKernel{"bf16,bf16->bf16 m8 n8 k8 a:k b:n", wideTile()};
  manifest.kernels.push_back(kernel);
  std::string json = printLaunchManifest(manifest);
  EXPECT_NE(json.find("\"gemm\": {\"key\": \"bf16,bf16->bf16 m8 n8 k8 a:k b:n\", \"tile\": "
                      "[128, 256, 64], \"warps\": 8, \"stages\": 4, \"warp_specialized\": "
                      "true, \"persistent\": true}"),
            std::string::npos)
      << json;
  ErrorOr<LaunchManifest> read = parseLaunchManifest(json);
  ASSERT_TRUE(read) << read.error();
  ASSERT_TRUE(read->kernels.at(0).gemm);
  EXPECT_EQ(read->kernels[0].gemm->key, kernel.gemm->key);
  EXPECT_EQ(read->kernels[0].gemm->tuning, wideTile());
}

TEST(GemmAutotune, ReadsTheKeysFields) {
  std::optional<runtime::GemmKeyFields> fields =
      runtime::parseGemmKey("f8e4m3fn,f8e5m2->bf16 b3 m40 n24 k100 a:k b:n");
  ASSERT_TRUE(fields);
  EXPECT_EQ(fields->typeA, "f8e4m3fn");
  EXPECT_EQ(fields->elementBytes, 1);
  EXPECT_EQ(fields->batch, 3);
  EXPECT_EQ(fields->m, 40);
  EXPECT_EQ(fields->n, 24);
  EXPECT_EQ(fields->k, 100);
  EXPECT_EQ(runtime::parseGemmKey("tf32,tf32->f32 m2 n3 k4 a:m b:k")->elementBytes, 4);
  EXPECT_FALSE(runtime::parseGemmKey("c64,c64->c64 m2 n3 k4 a:k b:k"));
  EXPECT_FALSE(runtime::parseGemmKey("bf16,bf16->bf16 m2 n3 a:k b:k"));
}

TEST(GemmAutotune, CandidatesStartWithTheCompiledConfigAndSuitTheArchitecture) {
  runtime::GemmKeyFields big = *runtime::parseGemmKey("bf16,bf16->bf16 m4096 n4096 k4096 a:k b:k");
  GemmTuning current = wideTile();
  current.stages = 3;
  std::vector<GemmTuning> hopper = runtime::gemmTuningCandidates("sm_90a", big, current, 100);
  ASSERT_GE(hopper.size(), 30u);
  EXPECT_EQ(hopper.front(), current);
  for (size_t i = 0; i < hopper.size(); ++i) {
    const GemmTuning &t = hopper[i];
    EXPECT_EQ(t.invalidity(), "");
    EXPECT_EQ(std::count(hopper.begin(), hopper.end(), t), 1) << i;
    if (i == 0)
      continue;
    // One warpgroup per 64 rows; 128-byte K steps.
    EXPECT_EQ(t.warps, t.blockM / 64 * 4);
    EXPECT_EQ(t.blockK, 64);
  }
  EXPECT_TRUE(std::any_of(hopper.begin(), hopper.end(),
                          [](const GemmTuning &t) { return !t.warpSpecialized; }));
  // Clusters of two beside each warp-specialized config alone.
  EXPECT_TRUE(std::any_of(hopper.begin(), hopper.end(), [](const GemmTuning &t) {
    return t.cluster == 2 && t.warpSpecialized && t.persistent && t.blockN == 256;
  }));
  EXPECT_EQ(runtime::gemmTuningCandidates("sm_90a", big, current, 5).size(), 5u);
  // 8-bit floats step K by 128 elements.
  runtime::GemmKeyFields fp8 = *runtime::parseGemmKey("f8e4m3fn,f8e4m3fn->bf16 m4096 n4096 k4096 a:k b:k");
  EXPECT_EQ(runtime::gemmTuningCandidates("sm_90a", fp8, current, 3).at(1).blockK, 128);
  // No wgmma before sm_90a: mma.sync tiles, no warp specialization.
  std::vector<GemmTuning> ampere = runtime::gemmTuningCandidates("sm_80", big, current, 100);
  ASSERT_GT(ampere.size(), 10u);
  for (size_t i = 1; i < ampere.size(); ++i)
    EXPECT_FALSE(ampere[i].warpSpecialized);
  // Tiles the GEMM would leave mostly empty are not timed.
  runtime::GemmKeyFields thin = *runtime::parseGemmKey("bf16,bf16->bf16 m16 n4096 k4096 a:k b:k");
  for (const GemmTuning &t : runtime::gemmTuningCandidates("sm_90a", thin, current, 100))
    if (!(t == current)) {
      EXPECT_EQ(t.blockM, 64);
      EXPECT_EQ(t.cluster, 1); // one tile row: no pair to share B
    }
}

} // namespace
