//===- KernelPlan.h - Which kernels a module launches -----------*- C++ -*-===//
//
// Decides, for a whole HLO module, which computations become GPU kernels:
// every fusion instruction of the computations that run on the host side
// (the entry, while bodies and conditions, conditional branches, called
// computations), and every instruction there that XLA would run as a
// one-instruction loop fusion (its FusionWrapper pass). Those are wrapped
// here into a fused computation of their own, so the emitters only ever see
// fusions. Instructions that move no data (parameter, tuple, bitcast, ...)
// need no kernel; library calls and runtime operations (dot, custom-call,
// collectives, ...) are listed so the driver can warn that no kernel is
// emitted for them; anything else is unsupported.
//
// A module without any fusion instruction is a bare fused computation, as
// in XLA's tests and corpus: its entry is the one kernel, unless it has
// control flow (while, conditional, call), which runs on the host side.
//
// It lives in src/analysis, not src/partitioner: it analyses the whole
// module (which computations run where) before any fused computation is
// split into functions, and both the emitters and the driver's manifest
// read it, from one instance per compilation.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ANALYSIS_KERNELPLAN_H
#define HLO_ANALYSIS_KERNELPLAN_H

#include "hlo_parser/HloModule.h"

#include <memory>
#include <string>
#include <vector>

namespace hlo {

/// What a host-side computation does with an instruction.
enum class LaunchRole {
  Fusion,      ///< A fusion: one kernel.
  NoCode,      ///< Buffer plumbing or control flow: no kernel of its own.
  Wrapped,     ///< Becomes a one-instruction fusion.
  Library,     ///< Runs as a library call or runtime operation.
  Unsupported, ///< XLA emits a kernel for it, hlo-compile cannot.
};
LaunchRole launchRole(HloOpcode opcode);

struct KernelSource {
  /// Kernel name: the fusion's (or wrapped instruction's) name.
  std::string name;
  /// The fused computation.
  const HloComputation *computation = nullptr;
  /// The fusion instruction, null for a wrapped instruction or a bare entry.
  const HloInstruction *fusion = nullptr;
  /// Where diagnostics about the kernel point.
  const HloInstruction *origin = nullptr;
};

class KernelPlan {
public:
  explicit KernelPlan(const HloModule &module);
  KernelPlan(const KernelPlan &) = delete;
  KernelPlan &operator=(const KernelPlan &) = delete;

  const std::vector<KernelSource> &kernels() const { return kernelList; }
  /// Library calls and runtime operations, in module order.
  const std::vector<const HloInstruction *> &notEmitted() const {
    return libraryOps;
  }
  /// Instructions no emitter can turn into a kernel, in module order.
  const std::vector<const HloInstruction *> &unsupported() const {
    return unsupportedOps;
  }

  /// Keeps only the kernels named in `names` (hlo-compile --kernel), in
  /// plan order; what runs between them no longer matters. False, with
  /// `error` naming what is missing and what there is, if a name is not a
  /// kernel of the module.
  bool retainKernels(const std::vector<std::string> &names, std::string &error);

private:
  void planComputation(const HloComputation &computation);
  void wrap(const HloInstruction &instruction);

  std::vector<KernelSource> kernelList;
  std::vector<const HloInstruction *> libraryOps;
  std::vector<const HloInstruction *> unsupportedOps;
  std::vector<std::unique_ptr<HloComputation>> wrappedComputations;
};

} // namespace hlo

#endif // HLO_ANALYSIS_KERNELPLAN_H
