//===- Manifest.h - The launch manifest from the emitters' records -*- C++ -*-===//
//
// Fills the launch manifest (abi/LaunchManifest.h, the schema hlo-run
// reads) for a module compiled into a code file: per kernel of the
// KernelPlan, in execution order, the emitter's launch record (name,
// emitter, whether threads synchronize) with the launch and shared memory
// of its compiled kernel (pipeline/Compile.h), checked against each
// other, and each parameter's binding, shape and layout; then what runs
// between kernels that is not generated.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DRIVER_MANIFEST_H
#define HLO_DRIVER_MANIFEST_H

#include "abi/LaunchManifest.h"
#include "analysis/KernelPlan.h"
#include "emitters/FusionEmitter.h"
#include "pipeline/Compile.h"

#include <string>
#include <vector>

namespace hlo::driver {

/// Checks each launch record against its compiled kernel (the launch, the
/// shared memory and the thread synchronization of its code): an emitter
/// whose record disagrees with its code is an internal error. Returns the
/// first mismatch, or "".
std::string checkLaunchRecords(const std::vector<KernelLaunchRecord> &records,
                               const std::vector<pipeline::CompiledKernel> &kernels);

/// The manifest for `module` (planned as `plan`) compiled for `gpuArch`
/// and `target` ("nvptx" or "host") into `codeFile`: the launches of
/// `emitted` with the launch and shared memory of their compiled kernels,
/// and (--keep-going) the kernels that failed, each with its first error.
abi::LaunchManifest buildManifest(const HloModule &module, const KernelPlan &plan,
                                  const EmittedModule &emitted,
                                  const std::vector<pipeline::CompiledKernel> &compiled,
                                  const std::string &gpuArch, const std::string &target,
                                  const std::string &codeFile);

} // namespace hlo::driver

#endif // HLO_DRIVER_MANIFEST_H
