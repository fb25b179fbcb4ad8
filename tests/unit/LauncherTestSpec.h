//===- LauncherTestSpec.h - Kernel specs for the launcher's tests -*- C++ -*-===//
//
// The launch description the launcher tests of warp- and warpgroup-level
// operations share: one block of `threads` threads run concurrently (so
// that barriers and collectives work), with `shared` bytes of shared memory.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_TESTS_UNIT_LAUNCHERTESTSPEC_H
#define HLO_TESTS_UNIT_LAUNCHERTESTSPEC_H

#include "host/HostLauncher.h"

namespace hlo::runtime {

inline KernelSpec concurrentBlockSpec(unsigned threads, unsigned shared) {
  KernelSpec kernel;
  kernel.name = "test";
  kernel.block = {threads, 1, 1};
  kernel.concurrentThreads = true;
  kernel.sharedMemoryBytes = shared;
  return kernel;
}

} // namespace hlo::runtime

#endif // HLO_TESTS_UNIT_LAUNCHERTESTSPEC_H
