//===- OptimizeModule.h - The HLO optimization pipeline ---------*- C++ -*-===//
//
// Owns the pipeline that turns an unoptimized module (what JAX's
// `lower(...).as_text(dialect="hlo")`, XLA's *before_optimizations dumps
// or any HLO producer writes) into XLA-shaped HLO: every kernel a fusion
// instruction the emitters take. The passes, in order: call inlining,
// simplification, common subexpressions, sorts of one key merged, dead
// code, library calls, long scans in two levels, long reductions in two,
// GEMM fusion, priority fusion, multi-output fusion, dead code. And the
// decision whether a module needs it.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_OPT_OPTIMIZEMODULE_H
#define HLO_OPT_OPTIMIZEMODULE_H

#include "analysis/DeviceInfo.h"
#include "hlo_parser/HloModule.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <string>
#include <vector>

namespace hlo::opt {

/// Why `module` counts as unoptimized, or empty: it has no fusion and is
/// named as JAX (`jit_...`, `pmap_...`) or PyTorch/XLA (`SyncTensorsGraph`,
/// `IrToHlo`) name the programs they lower. A module without fusions is
/// otherwise one fused computation, as XLA's emitter tests write them
/// (its entry the kernel): --hlo-opt=on optimizes those.
std::string unoptimizedReason(const HloModule &module);

struct OptimizeOptions {
  const GpuDeviceInfo *device = nullptr;
  /// XLA's Triton GEMM fusions take the emitter's own tiles
  /// (--gemm-tiles=own): gemm-split-k considers them too.
  bool ownGemmTiles = false;
  /// Only these passes, in this order (their names; empty: the pipeline).
  std::vector<std::string> passes;
  /// Called after each pass with its name and the module.
  std::function<void(const std::string &pass, const HloModule &module)> afterPass;
};

/// The names of the pipeline's passes, in order.
std::vector<std::string> pipelinePassNames();

/// Runs the pipeline (or the passes `options` names) on `module`.
llvm::Error optimizeModule(HloModule &module, const OptimizeOptions &options);

} // namespace hlo::opt

#endif // HLO_OPT_OPTIMIZEMODULE_H
