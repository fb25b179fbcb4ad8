//===- PipelineCorpusTest.cpp - Corpus modules to PTX, checked by ptxas ---===//
//
// Every corpus module the emitters claim (loop, input_slices, convert and
// the loop-kind dynamic_update_slice modules) goes through the whole
// pipeline for sm_80 and sm_90, and ptxas must accept the PTX; a module
// that cannot be compiled must say "unsupported: ..." (never an internal
// or verifier error). At least 90% must produce PTX.
//
//===----------------------------------------------------------------------===//
#include "PipelineTestUtils.h"
#include "TestUtils.h"

#include "analysis/DeviceInfo.h"
#include "emitters/FusionEmitter.h"
#include "hlo_parser/Parser.h"
#include "pipeline/Pipeline.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <cctype>

using namespace hlo;
using testing_utils::kCorpus;

namespace {

using testing_utils::claimedLoopModules;

using testing_utils::cudaPath;
using testing_utils::haveToolkit;

/// Compiles one module for `arch`: "" when ptxas accepted the PTX, else
/// the error.
std::string compile(const std::string &file, const std::string &arch) {
  std::string errors;
  auto module = testing_utils::parseCorpusModule(file, errors);
  if (!module)
    return "PARSE: " + errors;
  mlir::MLIRContext context;
  context.disableMultithreading();
  DiagnosticEngine diagnostics(module->source());
  diagnostics.setWarningPolicy(WarningPolicy::Ignore);
  auto emitted = emitModuleFusions(*module, deviceInfoForArch(arch).value(),
                                   context, diagnostics);
  if (!emitted)
    return diagnostics.rendered();
  return testing_utils::assembleForArch(*emitted, arch);
}

class PipelineCorpus
    : public testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(PipelineCorpus, PtxassAcceptsOrUnsupportedIsNamed) {
  if (!haveToolkit())
    GTEST_SKIP() << "no CUDA toolkit at " << cudaPath();
  auto [file, arch] = GetParam();
  std::string error = compile(file, arch);
  if (!error.empty()) {
    EXPECT_NE(error.find("unsupported: "), std::string::npos) << error;
    EXPECT_EQ(error.find("internal error"), std::string::npos) << error;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, PipelineCorpus,
    testing::Combine(testing::ValuesIn(claimedLoopModules()),
                     testing::Values("sm_80", "sm_90")),
    [](const testing::TestParamInfo<std::tuple<std::string, std::string>> &info) {
      return testing_utils::gtestName(std::get<0>(info.param) + "_" +
                                      std::get<1>(info.param));
    });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(PipelineCorpus);

TEST(PipelineCorpusSummary, AtLeastNinetyPercentAssemble) {
  std::vector<std::string> files = claimedLoopModules();
  if (files.empty() || !haveToolkit())
    GTEST_SKIP() << "no corpus or no CUDA toolkit";
  int assembled = 0;
  std::string failures;
  for (const std::string &file : files) {
    std::string error = compile(file, "sm_90");
    if (error.empty())
      ++assembled;
    else
      failures += file + ": " + error.substr(0, 160) + "\n";
  }
  RecordProperty("assembled", assembled);
  RecordProperty("modules", static_cast<int>(files.size()));
  EXPECT_GE(assembled * 10, static_cast<int>(files.size()) * 9)
      << assembled << " of " << files.size() << " assemble:\n" << failures;
}

} // namespace
