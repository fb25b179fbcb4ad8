//===- EmitterFactory.h - The emitter for a fusion --------------*- C++ -*-===//
//
// Owns the one place where an analysed fusion meets its emitter class:
// loop (also for concatenate and in-place dynamic-update-slice fusions,
// which it emits elementally), and the four reduction variants. Kinds
// without an emitter yet are reported by kind. A new hero adds one case
// here.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_EMITTERFACTORY_H
#define HLO_EMITTERS_EMITTERFACTORY_H

#include "emitters/EmitterBase.h"

#include <memory>
#include <string>

namespace hlo {

/// The emitter for `fused`, or null with `unsupported` saying why.
std::unique_ptr<EmitterBase> createEmitter(const FusionAnalysis &analysis,
                                           const HloComputation &fused,
                                           const GpuDeviceInfo &device,
                                           std::string &unsupported);

} // namespace hlo

#endif // HLO_EMITTERS_EMITTERFACTORY_H
