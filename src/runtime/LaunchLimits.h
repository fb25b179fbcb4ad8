//===- LaunchLimits.h - What a launch may ask of a GPU ---------*- C++ -*-===//
//
// Owns the limits CUDA puts on a launch (threads per block, block and grid
// extents, shared memory per block for the architecture) and the check of a
// manifest's kernel against them, so that both devices reject what a GPU
// would reject, with the same words.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_LAUNCHLIMITS_H
#define HLO_RUNTIME_LAUNCHLIMITS_H

#include "ManifestTypes.h"

#include <array>
#include <cstdint>
#include <string>

namespace hlo::runtime {

struct LaunchLimits {
  int64_t threadsPerBlock = 1024;
  std::array<int64_t, 3> block = {1024, 1024, 64};
  std::array<int64_t, 3> grid = {(int64_t(1) << 31) - 1, 65535, 65535};
  /// Shared memory one block may use (with the opt-in attribute).
  int64_t sharedMemoryPerBlock = 48 * 1024;
  /// Static shared memory (a kernel's `.shared` globals) one block may use
  /// on every architecture; only dynamic shared memory may go past it.
  int64_t staticSharedMemoryPerBlock = 48 * 1024;
};

/// The limits of `arch` ("sm_90", "sm_90a", ...); CUDA's defaults for
/// architectures it does not know.
LaunchLimits launchLimitsFor(const std::string &arch);

/// Empty when `kernel`'s launch fits `limits`, else what exceeds which
/// limit.
std::string checkLaunch(const KernelSpec &kernel, const LaunchLimits &limits,
                        const std::string &arch);

} // namespace hlo::runtime

#endif // HLO_RUNTIME_LAUNCHLIMITS_H
