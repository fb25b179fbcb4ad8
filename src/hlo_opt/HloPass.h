//===- HloPass.h - One HLO-to-HLO pass --------------------------*- C++ -*-===//
//
// Owns the interface of the passes of the HLO optimization pipeline
// (OptimizeModule.h): a name (what --v and --dump-dir call it), and a run
// over the whole module that says whether it changed anything. Each pass
// lives in a file of its own, named after it.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_OPT_HLOPASS_H
#define HLO_OPT_HLOPASS_H

#include "HloRewriting.h"

#include "analysis/DeviceInfo.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace hlo::opt {

/// What every pass of one pipeline run shares.
struct PassContext {
  explicit PassContext(const HloModule &module, const GpuDeviceInfo &device)
      : names(module), device(device) {}
  NameUniquer names;
  const GpuDeviceInfo &device;
  /// OptimizeOptions::ownGemmTiles.
  bool ownGemmTiles = false;
};

class HloPass {
public:
  virtual ~HloPass() = default;
  virtual llvm::StringRef name() const = 0;
  /// Whether the module changed.
  virtual llvm::Expected<bool> run(HloModule &module, PassContext &context) = 0;
};

std::unique_ptr<HloPass> createCallInlinerPass();
std::unique_ptr<HloPass> createSimplifierPass();
std::unique_ptr<HloPass> createScatterToDynamicUpdateSlicePass();
std::unique_ptr<HloPass> createCommonSubexpressionPass();
std::unique_ptr<HloPass> createDeadCodePass();
std::unique_ptr<HloPass> createMergeSortsPass();
std::unique_ptr<HloPass> createStableSortTieBreakPass();
std::unique_ptr<HloPass> createLibraryCallsPass();
std::unique_ptr<HloPass> createReduceWindowScanPass();
std::unique_ptr<HloPass> createTreeReductionPass();
std::unique_ptr<HloPass> createSplitFusedReductionsPass();
std::unique_ptr<HloPass> createGemmFusionPass();
std::unique_ptr<HloPass> createGemmSplitKPass();
std::unique_ptr<HloPass> createPrivateUpdateOperandsPass();
std::unique_ptr<HloPass> createPriorityFusionPass();
std::unique_ptr<HloPass> createMultiOutputFusionPass();
std::unique_ptr<HloPass> createHorizontalLoopFusionPass();

} // namespace hlo::opt

#endif // HLO_OPT_HLOPASS_H
