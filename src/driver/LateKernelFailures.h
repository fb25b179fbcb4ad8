//===- LateKernelFailures.h - Failures after emission, per kernel -*- C++ -*-===//
//
// Owns what becomes of a module whose kernels all emitted but whose code
// generation failed later (the MLIR pipeline, LLVM, the back end): those
// stages run on the module as a whole, so their error names no kernel, or
// only an internal function. Each kernel is then compiled alone to find
// the ones that fail; they are reported at their HLO instruction as
// emission errors are, and dropped, so that --keep-going writes the others
// (EmitCode.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DRIVER_LATEKERNELFAILURES_H
#define HLO_DRIVER_LATEKERNELFAILURES_H

#include "emitters/FusionEmitter.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <set>
#include <string>

namespace hlo::driver {

/// Code generation from emitted MLIR to machine code: its error, if any.
using GenerateCode = llvm::function_ref<llvm::Error(mlir::ModuleOp module)>;

/// The plan kernels of `emitted` whose code generation fails when each is
/// compiled alone from a copy of `pristine` (the emitted module before any
/// pass), with the error of each.
std::map<int64_t, std::string> findFailingKernels(mlir::ModuleOp pristine,
                                                  const EmittedModule &emitted,
                                                  GenerateCode generate);

/// Removes the plan kernels `failed` from `emitted`: their functions (and
/// helpers no other kernel calls) from `module`, their launch records (the
/// others renumbered, in records and functions), and lists each in
/// `emitted.failed` with `errors`' message at its instruction.
void dropFailedKernels(mlir::ModuleOp module, EmittedModule &emitted, const KernelPlan &plan,
                       const std::map<int64_t, std::string> &errors);

} // namespace hlo::driver

#endif // HLO_DRIVER_LATEKERNELFAILURES_H
