//===- FusionEmitter.h - A module's fusions as MLIR -------------*- C++ -*-===//
//
// Turns each kernel of an HLO module's KernelPlan (its fusions, the
// instructions wrapped into fusions of their own, or a bare fused entry)
// into MLIR with the emitter the factory picks (EmitterFactory.h), and
// returns each kernel's launch record for the manifest. Kernels whose code
// is the same as an earlier kernel's (KernelPlan::codeOwners) are not
// emitted again: their launches run the earlier kernel's functions.
// Fusions whose emitter is not implemented yet are reported by kind; ops no
// emitter handles are reported by name; library calls get a warning that no
// kernel is emitted for them.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_FUSIONEMITTER_H
#define HLO_EMITTERS_FUSIONEMITTER_H

#include "analysis/DeviceInfo.h"
#include "analysis/KernelPlan.h"
#include "emitters/EmitterBase.h"
#include "emitters/EmitterOptions.h"
#include "hlo_parser/HloModule.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/STLExtras.h"

#include <vector>

namespace hlo {

/// Loads every dialect the emitters produce.
void loadEmitterDialects(mlir::MLIRContext &context);

/// A kernel (or an instruction no kernel can run) that did not compile;
/// its errors were reported through the diagnostics.
struct FailedKernel {
  /// The instruction the kernel runs (a fusion or a wrapped instruction),
  /// or the unsupported instruction.
  const HloInstruction *instruction = nullptr;
  /// The plan kernel; -1 for an unsupported instruction.
  int64_t planKernel = -1;
  /// Where the first error is (an instruction of the fused computation
  /// when the emitter failed inside it), and what it says.
  uint32_t offset = kNoOffset;
  std::string message;
};

struct EmittedModule {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  /// One per launch, in order: a kernel of the plan has one or more
  /// (KernelLaunchRecord::planKernel says which).
  std::vector<KernelLaunchRecord> launches;

  /// Launches with a function of their own (the others run the function
  /// of an earlier kernel with the same code).
  size_t functionCount() const {
    return static_cast<size_t>(llvm::count_if(
        launches, [](const KernelLaunchRecord &launch) { return launch.sharesCodeOf < 0; }));
  }
  /// What did not compile, in plan order; `module` and `launches` hold
  /// every other kernel.
  std::vector<FailedKernel> failed;
};

/// Emits all kernels of `plan` (made from `module`). Every kernel is tried:
/// one that fails is reported through `diagnostics` at its instruction and
/// listed in `failed`, and the others are emitted (--keep-going writes
/// them). Nullopt only when the module as a whole does not verify.
std::optional<EmittedModule> emitKernels(const HloModule &module, const KernelPlan &plan,
                                         const GpuDeviceInfo &device,
                                         mlir::MLIRContext &context,
                                         DiagnosticEngine &diagnostics,
                                         const EmitterOptions &options = {});

/// emitKernels() with a plan of its own, for callers that need only the
/// MLIR; null if any kernel failed.
mlir::OwningOpRef<mlir::ModuleOp>
emitModuleFusions(const HloModule &module, const GpuDeviceInfo &device,
                  mlir::MLIRContext &context, DiagnosticEngine &diagnostics);

} // namespace hlo

#endif // HLO_EMITTERS_FUSIONEMITTER_H
