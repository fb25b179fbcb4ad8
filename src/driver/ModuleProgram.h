//===- ModuleProgram.h - The manifest's program and buffers -----*- C++ -*-===//
//
// Describes a whole module for a runtime, beside the kernels: each host
// computation's steps in schedule order (kernel launches, device copies,
// library calls with their operands and backend_config, while loops with
// the buffer their condition leaves the predicate in, conditionals with
// their branch index, calls; where a kernel failed to compile, under
// --keep-going, a "failed" step), and the buffers it needs (parameters,
// outputs, constants with their literal, temporaries) with their sizes.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DRIVER_MODULEPROGRAM_H
#define HLO_DRIVER_MODULEPROGRAM_H

#include "abi/LaunchManifest.h"
#include "analysis/BufferAssignment.h"
#include "analysis/KernelPlan.h"
#include "emitters/EmitterBase.h"

#include <vector>

namespace hlo::driver {

/// Fills `manifest.program` and `manifest.buffers` for `module`, planned as
/// `plan` with its values in `buffers`, whose launches are `records`
/// (manifest.kernels, in order); an instruction in `manifest.failed` gets
/// a step of kind "failed".
void describeProgram(const HloModule &module, const KernelPlan &plan,
                     const BufferAssignment &buffers,
                     const std::vector<KernelLaunchRecord> &records,
                     abi::LaunchManifest &manifest);

/// What a library call runs: the custom-call target, the fusion's backend
/// kind ("__triton_gemm", "__custom_fusion", ...), or its opcode.
std::string libraryTarget(const HloInstruction &instruction);

} // namespace hlo::driver

#endif // HLO_DRIVER_MODULEPROGRAM_H
