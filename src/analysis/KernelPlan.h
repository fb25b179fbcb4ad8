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

#include "llvm/Support/Error.h"

#include <map>
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

/// Whether any computation of `module` has a fusion instruction (a module
/// without one is unoptimized, or one bare fused computation).
bool hasFusionInstruction(const HloModule &module);

/// Whether `requested` names the kernel of instruction `name`: as the HLO
/// writes it ("input_concatenate_fusion.1") or as its symbol in the code,
/// the manifest and XLA's kernel lists ("input_concatenate_fusion_1").
bool namesKernel(const std::string &name, const std::string &requested);

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
  /// Copies between buffers of one layout, and slices (bare or a fusion of
  /// one slice of its parameter) whose elements are one contiguous run of
  /// their operand's: XLA runs them as device-to-device memcpy (its copy
  /// thunk), not as kernels.
  const std::vector<const HloInstruction *> &deviceCopies() const { return copyOps; }
  /// Where in its operand's buffer a device copy starts reading, in bytes
  /// (0 but for a slice).
  int64_t copySourceOffset(const HloInstruction &copy) const;
  /// The computations that run on the host side (entry first, then module
  /// order): the steps of the module's program.
  const std::vector<const HloComputation *> &hostComputations() const {
    return hostComputationList;
  }
  /// Instructions no emitter can turn into a kernel, in module order.
  const std::vector<const HloInstruction *> &unsupported() const {
    return unsupportedOps;
  }

  /// Keeps only the kernels named in `names` (hlo-compile --kernel), in
  /// plan order; what runs between them no longer matters. If a name is
  /// not a kernel of the module, an error naming what is missing and what
  /// there is, and the plan is unchanged.
  [[nodiscard]] llvm::Error retainKernels(const std::vector<std::string> &names);

  /// Whether `kernel` may write its output into the buffer of its input
  /// `parameter` (an in-place dynamic-update-slice): the buffer is the
  /// runtime's own (a parameter of a bare entry computation), a module
  /// parameter that the module's input_output_alias donates to this
  /// kernel's output, a while body's state element that this kernel
  /// alone reads and replaces, or an intermediate (a step's result, or a
  /// leaf of a multi-output fusion's) that nothing reads after this
  /// kernel (readers scheduled before it are done with it: XLA's buffer
  /// assignment decides by the same liveness);
  /// never a module parameter the caller still owns, nor a value read
  /// after this kernel.
  bool canReuseInputBuffer(const KernelSource &kernel, int64_t parameter) const;

  /// For each kernel, the first kernel in plan order whose code it can run
  /// (itself, if none before it has the same code): same fused computation
  /// up to names (ComputationFingerprint.h), same fusion kind and
  /// backend_config, and the same inputs whose buffers the output may take.
  /// XLA compiles each such group once; so does hlo-compile.
  std::vector<size_t> codeOwners() const;

private:
  void planComputation(const HloComputation &computation);
  /// The module's input_output_alias gives module parameter `parameter`'s
  /// buffer to the entry output that `value` is.
  bool isDonatedTo(int64_t parameter, const HloInstruction *value) const;
  /// `element` is a computation's state element that only `user` reads and
  /// whose new value `user` computes.
  bool isLoopStateUpdatedBy(const HloInstruction *element, const HloInstruction *user) const;
  void wrap(const HloInstruction &instruction);
  /// Plans `instruction` as a device copy when `slice` (itself, or the
  /// slice it fuses) reads one contiguous run of its operand.
  bool planAsSliceCopy(const HloInstruction &instruction, const HloInstruction &slice);
  /// Whether nothing reads the buffer `value` is in after `user` (in its
  /// computation's order, which is the steps' order): the value's other
  /// readers, through bitcasts and get-tuple-elements of the same leaf of
  /// a multi-output producer, all come before it, none is the
  /// computation's root, and `user` reads the value once.
  bool isLastReaderOf(const HloInstruction *value, const HloInstruction *user) const;

  std::vector<KernelSource> kernelList;
  std::vector<const HloInstruction *> libraryOps;
  std::vector<const HloInstruction *> unsupportedOps;
  std::vector<const HloInstruction *> copyOps;
  std::map<const HloInstruction *, int64_t> copyOffsets;
  /// Each host computation instruction's place in its computation.
  std::map<const HloInstruction *, size_t> schedulePosition;
  std::vector<const HloComputation *> hostComputationList;
  std::vector<std::unique_ptr<HloComputation>> wrappedComputations;
  const HloComputation *entry = nullptr;
};

} // namespace hlo

#endif // HLO_ANALYSIS_KERNELPLAN_H
