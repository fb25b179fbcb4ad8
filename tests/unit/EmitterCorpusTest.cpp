//===- EmitterCorpusTest.cpp - The emitters on the claimed corpus ---------===//
//
// Every corpus module the compiler claims (scripts/gpu-check.sh modules:
// corpus/xla/{loop,input_slices,convert}, the dynamic_update_slice,
// reduce_*, transpose, concatenate and scatter categories, and
// tests/claimed-modules.txt) emits MLIR that verifies. A claimed module
// that fails, "unsupported" included, fails its test: only the modules
// tests/host/expected-skips.txt lists with an "unsupported: ..." reason may
// be refused, and then for that reason.
//
//===----------------------------------------------------------------------===//
#include "emitters/FusionEmitter.h"
#include "hlo_parser/Parser.h"

#include "TestUtils.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace hlo;
using testing_utils::kCorpus;

namespace {

/// scripts/gpu-check.sh's corpus modules, each once.
std::vector<std::string> claimedModules() {
  std::vector<std::string> files;
  std::set<std::string> seen;
  for (const std::vector<std::string> &list :
       {testing_utils::claimedLoopModules(), testing_utils::claimedHeroModules()})
    for (const std::string &file : list)
      if (seen.insert(file).second)
        files.push_back(file);
  return files;
}

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

class ClaimedCorpus : public testing::TestWithParam<std::string> {};

TEST_P(ClaimedCorpus, EmitsVerifiedMlir) {
  const std::string &file = GetParam();
  std::string errors = emit(file);
  std::optional<std::string> reason = testing_utils::expectedSkipReason(file);
  if (reason && reason->rfind("unsupported:", 0) == 0) {
    EXPECT_NE(errors, "") << file << " now emits: drop it from tests/host/expected-skips.txt";
    EXPECT_NE(errors.find(*reason), std::string::npos) << errors;
    GTEST_SKIP() << *reason;
  }
  EXPECT_EQ(errors, "") << file << " is claimed (scripts/gpu-check.sh modules) and does "
                        << "not emit";
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, ClaimedCorpus, testing::ValuesIn(claimedModules()),
    [](const testing::TestParamInfo<std::string> &info) {
      return testing_utils::gtestName(info.param);
    });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ClaimedCorpus);

TEST(ClaimedCorpusSummary, HasModules) {
  if (!fs::exists(kCorpus / "xla" / "INDEX.tsv"))
    GTEST_SKIP() << "no corpus at " << kCorpus.string();
  std::vector<std::string> files = claimedModules();
  RecordProperty("modules", static_cast<int>(files.size()));
  // The loop categories alone hold 52 modules: an empty or short list is
  // a broken INDEX.tsv or list, not a pass.
  EXPECT_GE(files.size(), 100u);
}

} // namespace
