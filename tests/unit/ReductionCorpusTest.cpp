//===- ReductionCorpusTest.cpp - Reduction modules to cubins --------------===//
//
// Every reduction module the compiler claims (scripts/gpu-check.sh's list:
// the reduce_* categories and tests/claimed-modules.txt) compiles for
// sm_80 and sm_90, ptxas accepts the PTX, and no kernel spills; each
// kernel's launch record agrees with the code (what the driver checks).
// That the kernels compute the right values is the host suite's part
// (ctest -L host).
//
//===----------------------------------------------------------------------===//
#include "TestUtils.h"

#include "emitters/FusionEmitter.h"
#include "pipeline/Pipeline.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace hlo;

namespace {

std::string cudaPath() {
  const char *home = std::getenv("CUDA_HOME");
  return home && *home ? home : "/usr/local/cuda";
}

bool haveToolkit() {
  return std::filesystem::exists(cudaPath() + "/bin/ptxas") &&
         std::filesystem::exists(cudaPath() + "/nvvm/libdevice/libdevice.10.bc");
}

class ReductionCorpus
    : public testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(ReductionCorpus, AssemblesWithoutSpills) {
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
  ASSERT_TRUE(emitted) << diagnostics.rendered();
  bool anyReduction = false;
  for (const KernelLaunchRecord &record : emitted->launches)
    anyReduction |= record.emitter.rfind("kReduction/", 0) == 0;
  EXPECT_TRUE(anyReduction) << file << " has no reduction kernel";
  pipeline::PipelineOptions options;
  options.gpuArch = arch;
  options.cudaPath = cudaPath();
  pipeline::PassDumper dumper(options);
  std::string error;
  ASSERT_TRUE(pipeline::lowerToLlvmDialect(*emitted->module, options, dumper, error)) << error;
  llvm::LLVMContext llvmContext;
  auto llvmModule = pipeline::translateToLlvmIr(*emitted->module, llvmContext, options,
                                                dumper, error);
  ASSERT_TRUE(llvmModule) << error;
  std::optional<std::string> ptx =
      pipeline::emitOutput(*llvmModule, pipeline::OutputKind::Ptx, options, error);
  ASSERT_TRUE(ptx) << error;
  std::vector<pipeline::KernelResourceUsage> usage;
  ASSERT_TRUE(pipeline::assembleCubin(*ptx, options, error, &usage)) << error;
  EXPECT_EQ(usage.size(), emitted->launches.size());
  for (const pipeline::KernelResourceUsage &kernel : usage) {
    EXPECT_EQ(kernel.spillStoreBytes, 0) << kernel.name << " spills";
    EXPECT_EQ(kernel.spillLoadBytes, 0) << kernel.name << " spills";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, ReductionCorpus,
    testing::Combine(testing::ValuesIn(testing_utils::claimedReductionModules()),
                     testing::Values("sm_80", "sm_90")),
    [](const testing::TestParamInfo<std::tuple<std::string, std::string>> &info) {
      return testing_utils::gtestName(std::get<0>(info.param) + "_" +
                                      std::get<1>(info.param));
    });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ReductionCorpus);

} // namespace
