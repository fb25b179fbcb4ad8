//===- HostLauncher.h - A kernel's grid on the host CPU --------*- C++ -*-===//
//
// Owns running a host-compiled kernel (abi/HostKernelAbi.h) with the
// guarantees a GPU gives, and nothing more:
//  - every block of the grid runs, in any order, blocks spread over host
//    threads;
//  - a block's threads run one after another when the manifest says they
//    need not run concurrently (no barrier machinery at all), else each on
//    a fiber (Fiber.h) until it blocks at a barrier or a warp shuffle;
//  - shared memory is per block and starts as a poison pattern (0xff);
//  - the blocks of a thread-block cluster run together (ClusterRunner.h);
//  - a warp is 32 consecutive threads; shuffles follow PTX's shfl.sync;
//  - atomics are the host's atomics, across blocks too.
// What a GPU would report is reported as a fault, never a hang: an access
// outside a buffer (the kernel's bounds checks call in), a barrier that not
// all threads reach, a shuffle whose lanes disagree or read an exited lane,
// a launch over the device's limits. The first fault (of the lowest block
// that faults) stops the launch.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_HOST_HOSTLAUNCHER_H
#define HLO_RUNTIME_HOST_HOSTLAUNCHER_H

#include "Device.h"
#include "runtime/ManifestTypes.h"

#include "abi/HostKernelAbi.h"

#include <memory>
#include <vector>

namespace hlo::runtime {

class ClusterRunner;

class HostLauncher {
public:
  /// `hostThreads` = 0: one per hardware thread.
  explicit HostLauncher(unsigned hostThreads = 0);
  ~HostLauncher();

  /// Runs `kernel`'s whole grid as `spec` describes it, on `buffers` (one
  /// per kernel parameter, in manifest order); `arch` selects the launch
  /// limits ("sm_90"). Waits for every block.
  LaunchResult launch(HloHostKernel kernel, const KernelSpec &spec,
                      const std::vector<void *> &buffers, const std::string &arch);

  unsigned hostThreads() const { return threadCount; }

private:
  unsigned threadCount;
  /// One per host thread, kept across launches (fiber stacks, shared
  /// memory).
  std::vector<std::unique_ptr<ClusterRunner>> runners;
};

} // namespace hlo::runtime

#endif // HLO_RUNTIME_HOST_HOSTLAUNCHER_H
