//===- EmitterCorpusTest.cpp - The loop emitter on the corpus -------------===//
//
// Every module of corpus/xla/{loop,input_slices,convert} and the loop-kind
// modules of dynamic_update_slice emits MLIR that verifies, or fails with
// a diagnostic naming what is unsupported; at least 90% emit.
//
//===----------------------------------------------------------------------===//
#include "emitters/FusionEmitter.h"
#include "hlo_parser/Parser.h"

#include "TestUtils.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using namespace hlo;
using testing_utils::kCorpus;

namespace {

using testing_utils::claimedLoopModules;

/// Emits one module: "" on success, else the diagnostics.
std::string emit(const std::string &file) {
  std::string errors;
  auto module = testing_utils::parseCorpusModule(file, errors);
  if (!module)
    return "PARSE: " + errors;
  mlir::MLIRContext context;
  DiagnosticEngine diagnostics(module->source());
  auto emitted = emitModuleFusions(*module, rtxA6000DeviceInfo(), context,
                                   diagnostics);
  return emitted ? std::string() : diagnostics.rendered();
}

class LoopCorpus : public testing::TestWithParam<std::string> {};

TEST_P(LoopCorpus, EmitsVerifiedMlirOrNamesWhatIsUnsupported) {
  std::string errors = emit(GetParam());
  if (!errors.empty()) {
    EXPECT_NE(errors.find(": error: unsupported: "), std::string::npos) << errors;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, LoopCorpus, testing::ValuesIn(claimedLoopModules()),
    [](const testing::TestParamInfo<std::string> &info) {
      return testing_utils::gtestName(info.param);
    });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(LoopCorpus);

TEST(LoopCorpusSummary, AtLeastNinetyPercentEmit) {
  std::vector<std::string> files = claimedLoopModules();
  if (files.empty())
    GTEST_SKIP() << "no corpus";
  int emitted = 0;
  for (const std::string &file : files)
    emitted += emit(file).empty();
  RecordProperty("emitted", emitted);
  RecordProperty("modules", static_cast<int>(files.size()));
  EXPECT_GE(emitted * 10, static_cast<int>(files.size()) * 9)
      << emitted << " of " << files.size() << " emit";
}

} // namespace
