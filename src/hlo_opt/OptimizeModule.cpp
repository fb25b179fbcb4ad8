//===- OptimizeModule.cpp - The HLO optimization pipeline -----------------===//
#include "OptimizeModule.h"

#include "HloPass.h"

#include "analysis/KernelPlan.h"

#include <algorithm>

namespace hlo::opt {

std::string unoptimizedReason(const HloModule &module) {
  if (!module.entry() || hasFusionInstruction(module) || !module.declarations().empty())
    return "";
  const std::string &name = module.name();
  for (const char *prefix : {"jit_", "pmap_", "xmap_", "SyncTensorsGraph", "IrToHlo"})
    if (name.rfind(prefix, 0) == 0)
      return "its name is that of a program '" + std::string(prefix) + "...'";
  return "";
}

namespace {

std::vector<std::unique_ptr<HloPass>> pipelinePasses() {
  std::vector<std::unique_ptr<HloPass>> passes;
  passes.push_back(createCallInlinerPass());
  passes.push_back(createSimplifierPass());
  passes.push_back(createScatterToDynamicUpdateSlicePass());
  passes.push_back(createCommonSubexpressionPass());
  passes.push_back(createMergeSortsPass());
  passes.push_back(createStableSortTieBreakPass());
  passes.push_back(createDeadCodePass());
  passes.push_back(createLibraryCallsPass());
  passes.push_back(createReduceWindowScanPass());
  passes.push_back(createTreeReductionPass());
  passes.push_back(createGemmFusionPass());
  passes.push_back(createPrivateUpdateOperandsPass());
  passes.push_back(createPriorityFusionPass());
  passes.push_back(createMultiOutputFusionPass());
  passes.push_back(createHorizontalLoopFusionPass());
  passes.push_back(createGemmSplitKPass());
  passes.push_back(createDeadCodePass());
  // For fused modules (nothing to do after the pipeline's tree-reduction).
  passes.push_back(createSplitFusedReductionsPass());
  return passes;
}

} // namespace

std::vector<std::string> pipelinePassNames() {
  std::vector<std::string> names;
  for (const auto &pass : pipelinePasses())
    if (std::find(names.begin(), names.end(), pass->name().str()) == names.end())
      names.push_back(pass->name().str());
  return names;
}

llvm::Error optimizeModule(HloModule &module, const OptimizeOptions &options) {
  static const GpuDeviceInfo defaultDevice;
  PassContext context(module, options.device ? *options.device : defaultDevice);
  context.ownGemmTiles = options.ownGemmTiles;
  std::vector<std::unique_ptr<HloPass>> passes = pipelinePasses();
  if (!options.passes.empty()) {
    std::vector<std::unique_ptr<HloPass>> chosen;
    for (const std::string &name : options.passes) {
      auto found = std::find_if(passes.begin(), passes.end(),
                                [&](const auto &pass) { return pass && pass->name() == name; });
      if (found == passes.end())
        return llvm::createStringError("no HLO pass '" + name + "'");
      chosen.push_back(std::move(*found));
      passes = pipelinePasses(); // a pass may be named twice
    }
    passes = std::move(chosen);
  }
  for (auto &pass : passes) {
    llvm::Expected<bool> changed = pass->run(module, context);
    if (!changed)
      return changed.takeError();
    module.sortComputations();
    if (options.afterPass)
      options.afterPass(pass->name().str(), module);
  }
  return llvm::Error::success();
}

} // namespace hlo::opt
