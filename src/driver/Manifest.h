//===- Manifest.h - The launch manifest (JSON) ------------------*- C++ -*-===//
//
// Writes the JSON that tells a runtime how to launch the kernels of a PTX
// or cubin file, or of the host target's shared object, without reading
// hlo-compile's code: the target, then per kernel, in execution order, its
// name, emitter, grid and block, shared memory (and on the host whether the
// block's threads must run concurrently), and each parameter (what it binds
// to, shape, element type, bytes, alignment); then the instructions that
// run between kernels but are not generated (library calls, collectives).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DRIVER_MANIFEST_H
#define HLO_DRIVER_MANIFEST_H

#include "hlo_parser/HloModule.h"

#include "mlir/IR/BuiltinOps.h"

#include <array>
#include <map>
#include <string>

namespace hlo::driver {

struct KernelLaunch {
  /// The kernel's symbol (its name in the PTX or shared object).
  std::string name;
  std::string emitter;
  std::array<int64_t, 3> grid = {1, 1, 1};
  std::array<int64_t, 3> block = {1, 1, 1};
  int64_t sharedMemoryBytes = 0;
  /// Host target: the kernel reaches a barrier or a warp shuffle.
  bool concurrentThreads = false;
};

/// The launch of every kernel function in a module lowered to the LLVM
/// dialect (either target), by the kernel's index in the KernelPlan.
std::map<int64_t, KernelLaunch> collectLaunches(mlir::ModuleOp emitted);

/// The manifest for `module` compiled for `gpuArch` and `target` ("nvptx"
/// or "host") into `codeFile`.
std::string writeManifest(const HloModule &module,
                          const std::map<int64_t, KernelLaunch> &launches,
                          const std::string &gpuArch, const std::string &target,
                          const std::string &codeFile);

} // namespace hlo::driver

#endif // HLO_DRIVER_MANIFEST_H
