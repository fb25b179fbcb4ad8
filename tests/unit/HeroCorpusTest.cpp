//===- HeroCorpusTest.cpp - Hero emitters' modules to cubins --------------===//
//
// Every reduction, transpose, concatenate, in-place dynamic-update-slice,
// scatter and sort module the compiler claims (scripts/gpu-check.sh's list: those
// categories and tests/claimed-modules.txt) compiles for
// sm_80 and sm_90, ptxas accepts the PTX, and no kernel spills; each
// kernel's launch record agrees with the code (what the driver checks).
// That the kernels compute the right values is the host suite's part
// (ctest -L host).
//
//===----------------------------------------------------------------------===//
#include "PipelineTestUtils.h"
#include "TestUtils.h"

#include "emitters/FusionEmitter.h"
#include "pipeline/Pipeline.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace hlo;

namespace {

using testing_utils::cudaPath;
using testing_utils::haveToolkit;

class HeroCorpus
    : public testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(HeroCorpus, AssemblesWithoutSpills) {
  if (!haveToolkit())
    GTEST_SKIP() << "no CUDA toolkit at " << cudaPath();
  auto [file, arch] = GetParam();
  std::string errors;
  auto module = testing_utils::parseCorpusModule(file, errors);
  ASSERT_NE(module, nullptr) << errors;
  mlir::MLIRContext context;
  context.disableMultithreading();
  DiagnosticEngine diagnostics(module->source());
  diagnostics.setWarningPolicy(WarningPolicy::Ignore);
  KernelPlan plan(*module);
  std::optional<EmittedModule> emitted =
      emitKernels(*module, plan, deviceInfoForArch(arch).value(), context, diagnostics);
  // A module the host suite expects the compiler to refuse (tests/host/
  // expected-skips.txt, "unsupported: ...") must be refused for that reason.
  std::optional<std::string> reason = testing_utils::expectedSkipReason(file);
  if (reason && reason->rfind("unsupported:", 0) == 0) {
    EXPECT_FALSE(emitted) << file << " now compiles: drop it from expected-skips.txt";
    EXPECT_NE(diagnostics.rendered().find(*reason), std::string::npos)
        << diagnostics.rendered();
    GTEST_SKIP() << *reason;
  }
  ASSERT_TRUE(emitted) << diagnostics.rendered();
  // Every emitter but the plain loop one is a hero's (no list of heroes
  // here to keep up to date).
  bool anyHero = false;
  for (const KernelLaunchRecord &record : emitted->launches)
    anyHero |= record.emitter != "kLoop/LoopFusion";
  EXPECT_TRUE(anyHero) << file << " has no hero kernel";
  std::vector<pipeline::KernelResourceUsage> usage;
  std::string error = testing_utils::assembleForArch(*emitted->module, arch, &usage);
  ASSERT_EQ(error, "");
  EXPECT_EQ(usage.size(), emitted->functionCount());
  for (const pipeline::KernelResourceUsage &kernel : usage) {
    EXPECT_EQ(kernel.spillStoreBytes, 0) << kernel.name << " spills";
    EXPECT_EQ(kernel.spillLoadBytes, 0) << kernel.name << " spills";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, HeroCorpus,
    testing::Combine(testing::ValuesIn(testing_utils::claimedHeroModules()),
                     testing::Values("sm_80", "sm_90")),
    [](const testing::TestParamInfo<std::tuple<std::string, std::string>> &info) {
      return testing_utils::gtestName(std::get<0>(info.param) + "_" +
                                      std::get<1>(info.param));
    });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(HeroCorpus);

} // namespace
