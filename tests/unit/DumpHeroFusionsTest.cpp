//===- DumpHeroFusionsTest.cpp - Hero fusions of XLA's dumps --------------===//
//
// Every reduction, transpose, concatenate, in-place dynamic-update-slice,
// scatter and sort fusion of XLA's own after-optimizations dumps of real models
// (corpus/dumps/*.native/module.hlo), and every block-level normalization
// fusion of the default (Triton) dumps, for sm_80 and sm_90, compiles: the plan keeps those kernels (what `hlo-compile --kernel` does; the modules'
// other kinds may still be refused until their emitters land), they are
// emitted, lowered to PTX for sm_90 and assembled by ptxas with no spills.
// Fusions that are one structure under different names (XLA's dumps
// repeat a layer's fusions per layer) are compiled once.
//
//===----------------------------------------------------------------------===//
#include "PipelineTestUtils.h"
#include "TestUtils.h"

#include "analysis/FusionAnalysis.h"
#include "analysis/KernelPlan.h"
#include "emitters/FusionEmitter.h"
#include "hlo_parser/Printer.h"
#include "pipeline/Pipeline.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <regex>
#include <set>

using namespace hlo;

namespace {

using testing_utils::cudaPath;
using testing_utils::haveToolkit;

/// The native dumps with a reduce, transpose, concatenate or
/// dynamic-update-slice anywhere (the others have
/// no hero fusion to compile).
std::vector<std::string> nativeDumpsWithHeroes() {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto &entry :
       std::filesystem::directory_iterator(testing_utils::kCorpus / "dumps", error))
    if (entry.path().extension() == ".native") {
      std::string text = testing_utils::readFile(entry.path() / "module.hlo");
      if (text.find(" reduce(") != std::string::npos ||
          text.find(" transpose(") != std::string::npos ||
          text.find(" concatenate(") != std::string::npos ||
          text.find(" dynamic-update-slice(") != std::string::npos ||
          text.find(" scatter(") != std::string::npos || text.find(" sort(") != std::string::npos)
        names.push_back(entry.path().filename().string());
    }
  std::sort(names.begin(), names.end());
  return names;
}

/// The fused computation's text, and that of the computations it calls,
/// with names and metadata left out: equal for one fusion repeated.
std::string structureOf(const HloComputation &computation) {
  std::string text;
  std::vector<const HloComputation *> pending = {&computation};
  std::set<const HloComputation *> seen;
  while (!pending.empty()) {
    const HloComputation *next = pending.back();
    pending.pop_back();
    if (!seen.insert(next).second)
      continue;
    printComputation(text, *next, /*isEntry=*/false);
    for (const auto &instruction : next->instructions())
      for (const HloComputation *called : instruction->calledComputations())
        pending.push_back(called);
  }
  static const std::regex metadata(R"(, metadata=\{[^}]*\})");
  static const std::regex names(R"([A-Za-z_][\w.\-]*\.\d+|%[\w.\-]+)");
  text = std::regex_replace(text, metadata, "");
  return std::regex_replace(text, names, "_");
}

/// Compiles the fusions of `dump`'s module that `selected` picks (one per
/// structure) for `arch` and checks that ptxas assembles them with no
/// spills; counts them by kind. False (after a gtest failure or skip) when
/// nothing was compiled.
bool assembleSelectedFusions(const std::string &dump, const std::string &arch,
                             const std::function<bool(const FusionAnalysis &)> &selected,
                             std::map<EmitterKind, size_t> &kinds,
                             std::map<FusionVariant, size_t> &fusions, size_t &distinct) {
  std::filesystem::path file = testing_utils::kCorpus / "dumps" / dump / "module.hlo";
  auto [module, errors] = parseHloModuleText(testing_utils::readFile(file), file.string());
  EXPECT_NE(module, nullptr) << errors;
  if (!module)
    return false;
  const GpuDeviceInfo device = deviceInfoForArch(arch).value();

  KernelPlan plan(*module);
  std::vector<std::string> heroKernels;
  std::set<std::string> structures;
  for (const KernelSource &kernel : plan.kernels()) {
    FusionAnalysis analysis = analyzeFusion(*kernel.computation, kernel.fusion, device);
    if (!selected(analysis))
      continue;
    ++kinds[analysis.kind];
    ++fusions[analysis.variant];
    if (structures.insert(structureOf(*kernel.computation)).second)
      heroKernels.push_back(kernel.name);
  }
  distinct = heroKernels.size();
  if (heroKernels.empty())
    return false;
  if (llvm::Error error = plan.retainKernels(heroKernels))
    ADD_FAILURE() << llvm::toString(std::move(error));

  mlir::MLIRContext context;
  context.disableMultithreading();
  DiagnosticEngine diagnostics(module->source());
  diagnostics.setWarningPolicy(WarningPolicy::Ignore);
  std::optional<EmittedModule> emitted =
      emitKernels(*module, plan, device, context, diagnostics);
  EXPECT_TRUE(emitted) << diagnostics.rendered();
  if (!emitted)
    return false;
  // A kernel of several launches (a sort's stages, a scatter after the copy
  // of its operand) has a record per launch.
  size_t kernelsEmitted = 0;
  for (const KernelLaunchRecord &record : emitted->launches)
    kernelsEmitted += record.launchIndex == 0;
  EXPECT_EQ(kernelsEmitted, heroKernels.size());

  std::vector<pipeline::KernelResourceUsage> usage;
  std::string error = testing_utils::assembleForArch(*emitted->module, arch, &usage);
  EXPECT_EQ(error, "");
  EXPECT_EQ(usage.size(), emitted->functionCount());
  for (const pipeline::KernelResourceUsage &kernel : usage) {
    EXPECT_EQ(kernel.spillStoreBytes, 0) << kernel.name << " spills";
    EXPECT_EQ(kernel.spillLoadBytes, 0) << kernel.name << " spills";
  }
  return true;
}

class DumpHeroFusions : public testing::TestWithParam<std::string> {};

TEST_P(DumpHeroFusions, EveryHeroFusionAssembles) {
  if (!haveToolkit())
    GTEST_SKIP() << "no CUDA toolkit at " << cudaPath();
  std::map<EmitterKind, size_t> kinds;
  std::map<FusionVariant, size_t> fusions;
  size_t distinct = 0;
  // Every hero but the block-level ones (their own test below).
  auto hero = [](const FusionAnalysis &analysis) {
    return analysis.hasHeroEmitter() && analysis.kind != EmitterKind::BlockLevel;
  };
  if (!assembleSelectedFusions(GetParam(), "sm_90", hero, kinds, fusions, distinct)) {
    if (!HasFailure())
      GTEST_SKIP() << GetParam() << " has those ops only outside hero fusions";
    return;
  }
  std::string counts;
  for (const auto &[variant, count] : fusions) {
    FusionAnalysis named;
    named.variant = variant;
    named.kind = emitterKindOf(variant);
    counts += std::to_string(count) + " " + named.kindString() + ", ";
  }
  std::printf("%s: %s%zu distinct, compiled\n", GetParam().c_str(), counts.c_str(), distinct);
}

/// The default (Triton) dumps with block-level normalization fusions.
std::vector<std::string> defaultDumpsWithBlockLevelFusions() {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto &entry :
       std::filesystem::directory_iterator(testing_utils::kCorpus / "dumps", error))
    if (entry.path().extension() == ".default" &&
        testing_utils::readFile(entry.path() / "module.hlo").find("\"kind\":\"__triton\"") !=
            std::string::npos)
      names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Every block-level normalization fusion (XLA's Triton softmax / norms) of
// the default dumps, for sm_80 and sm_90.
class DumpBlockLevelFusions : public testing::TestWithParam<std::string> {};

TEST_P(DumpBlockLevelFusions, EveryNormalizationFusionAssembles) {
  if (!haveToolkit())
    GTEST_SKIP() << "no CUDA toolkit at " << cudaPath();
  for (const char *arch : {"sm_80", "sm_90"}) {
    std::map<EmitterKind, size_t> kinds;
    std::map<FusionVariant, size_t> fusions;
    size_t distinct = 0;
    auto blockLevel = [](const FusionAnalysis &analysis) {
      return analysis.kind == EmitterKind::BlockLevel;
    };
    ASSERT_TRUE(assembleSelectedFusions(GetParam(), arch, blockLevel, kinds, fusions, distinct))
        << GetParam() << ": no normalization fusion compiled for " << arch;
    std::printf("%s %s: %zu normalization fusions, %zu distinct, compiled\n", GetParam().c_str(),
                arch, kinds[EmitterKind::BlockLevel], distinct);
  }
}

INSTANTIATE_TEST_SUITE_P(Dumps, DumpBlockLevelFusions,
                         testing::ValuesIn(defaultDumpsWithBlockLevelFusions()),
                         [](const testing::TestParamInfo<std::string> &info) {
                           return testing_utils::gtestName(info.param);
                         });

INSTANTIATE_TEST_SUITE_P(Dumps, DumpHeroFusions, testing::ValuesIn(nativeDumpsWithHeroes()),
                         [](const testing::TestParamInfo<std::string> &info) {
                           return testing_utils::gtestName(info.param);
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(DumpHeroFusions);

} // namespace
