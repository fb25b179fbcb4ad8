//===- OptimizeModule.h - The HLO optimization pipeline ---------*- C++ -*-===//
//
// Owns the pipeline that turns an unoptimized module (what JAX's
// `lower(...).as_text(dialect="hlo")`, XLA's *before_optimizations dumps
// or any HLO producer writes) into XLA-shaped HLO: every kernel a fusion
// instruction the emitters take. The passes, in order: call inlining,
// simplification, common subexpressions, dead code, GEMM fusion, priority
// fusion, dead code. And the decision whether a module needs it.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_OPT_OPTIMIZEMODULE_H
#define HLO_OPT_OPTIMIZEMODULE_H

#include "analysis/DeviceInfo.h"
#include "hlo_parser/HloModule.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <string>

namespace hlo::opt {

/// Whether `module` is unoptimized: it has no fusion, and its entry is not
/// one kernel as XLA's emitter tests write them (it calls computations,
/// loops, has dots, library calls, or a reduction whose value is read back
/// on its rows), or it is named as JAX (`jit_...`, `pmap_...`) or
/// PyTorch/XLA name the programs they lower. The reason, or empty.
std::string unoptimizedReason(const HloModule &module);

struct OptimizeOptions {
  const GpuDeviceInfo *device = nullptr;
  /// Called after each pass with its name and the module.
  std::function<void(const std::string &pass, const HloModule &module)> afterPass;
};

/// Runs the pipeline on `module`.
llvm::Error optimizeModule(HloModule &module, const OptimizeOptions &options);

} // namespace hlo::opt

#endif // HLO_OPT_OPTIMIZEMODULE_H
