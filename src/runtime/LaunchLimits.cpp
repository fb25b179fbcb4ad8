//===- LaunchLimits.cpp - What a launch may ask of a GPU ------------------===//
#include "LaunchLimits.h"

#include <cstdlib>

namespace hlo::runtime {

LaunchLimits launchLimitsFor(const std::string &arch) {
  LaunchLimits limits;
  int capability = arch.rfind("sm_", 0) == 0 ? std::atoi(arch.c_str() + 3) : 0;
  // The most shared memory per block (CUDA's programming guide, compute
  // capabilities table), by architecture.
  switch (capability) {
  case 75:
    limits.sharedMemoryPerBlock = 64 * 1024;
    break;
  case 80:
  case 87:
    limits.sharedMemoryPerBlock = 163 * 1024;
    break;
  case 86:
  case 89:
  case 120:
  case 121:
    limits.sharedMemoryPerBlock = 99 * 1024;
    break;
  case 90:
  case 100:
  case 101:
  case 103:
  case 110:
    limits.sharedMemoryPerBlock = 227 * 1024;
    break;
  default:
    break;
  }
  return limits;
}

std::string checkLaunch(const KernelSpec &kernel, const LaunchLimits &limits,
                        const std::string &arch) {
  static const char *axes[] = {"x", "y", "z"};
  int64_t threads = 1;
  for (int i = 0; i < 3; ++i) {
    threads *= kernel.block[i];
    if (kernel.block[i] > limits.block[i])
      return "block " + std::string(axes[i]) + " of " + std::to_string(kernel.block[i]) +
             " exceeds the limit of " + std::to_string(limits.block[i]);
    if (kernel.grid[i] > limits.grid[i])
      return "grid " + std::string(axes[i]) + " of " + std::to_string(kernel.grid[i]) +
             " exceeds the limit of " + std::to_string(limits.grid[i]);
  }
  if (threads > limits.threadsPerBlock)
    return "a block of " + std::to_string(threads) + " threads exceeds the limit of " +
           std::to_string(limits.threadsPerBlock);
  // Thread-block clusters (CUDA's programming guide): sm_90 and later, a
  // grid of whole clusters, at most 16 blocks (more than 8 opt in).
  if (kernel.cluster) {
    const std::array<unsigned, 3> &cluster = *kernel.cluster;
    int capability = arch.rfind("sm_", 0) == 0 ? std::atoi(arch.c_str() + 3) : 0;
    if (capability != 0 && capability < 90)
      return "thread-block clusters need sm_90 or later, not " + arch;
    for (int i = 0; i < 3; ++i)
      if (cluster[i] == 0 || kernel.grid[i] % cluster[i] != 0)
        return "grid " + std::string(axes[i]) + " of " + std::to_string(kernel.grid[i]) +
               " is not a whole number of clusters of " + std::to_string(cluster[i]);
    if (uint64_t(cluster[0]) * cluster[1] * cluster[2] > 16)
      return "a cluster of " + std::to_string(uint64_t(cluster[0]) * cluster[1] * cluster[2]) +
             " blocks exceeds the limit of 16";
  }
  // The manifest's shared memory is the kernel's static shared memory
  // (its allocate_shared tiles): ptxas refuses more than 48 KB of it on
  // every architecture, so a launcher that accepted it would hide a kernel
  // no GPU can load.
  if (kernel.sharedMemoryBytes > limits.staticSharedMemoryPerBlock)
    return std::to_string(kernel.sharedMemoryBytes) +
           " bytes of static shared memory exceed the limit of " +
           std::to_string(limits.staticSharedMemoryPerBlock) + " per block";
  // Dynamic shared memory comes on top, up to the opt-in limit.
  int64_t shared = int64_t(kernel.sharedMemoryBytes) + kernel.dynamicSharedMemoryBytes;
  if (shared > limits.sharedMemoryPerBlock)
    return std::to_string(shared) + " bytes of shared memory exceed the limit of " +
           std::to_string(limits.sharedMemoryPerBlock) + " per block on " +
           (arch.empty() ? std::string("this device") : arch);
  return "";
}

} // namespace hlo::runtime
