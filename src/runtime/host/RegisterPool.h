//===- RegisterPool.h - setmaxnreg's registers of one block -----*- C++ -*-===//
//
// Owns the host target's model of PTX's setmaxnreg for one block: each
// warpgroup's registers per thread (the launch's count at first), and the
// block's pool of registers that `.dec` gave back and `.inc` takes. As the
// PTX ISA says: the count is a multiple of 8 from 24 to 256, `.dec` may
// only lower a warpgroup's count and `.inc` only raise it, and `.inc`
// waits until the pool holds what it asks (so a kernel whose warpgroups
// ask for more than the block launched with deadlocks, on a GPU as here).
// The launch's count is the kernel's register bound (the manifest's
// max_registers, which ptxas honours as .maxnreg); without one the count
// is unknown and setmaxnreg is a fault. A plain class, tested without a
// kernel (RegisterPoolTest); BlockRunner keeps one per block.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_HOST_REGISTERPOOL_H
#define HLO_RUNTIME_HOST_REGISTERPOOL_H

#include "support/ErrorOr.h"

#include <cstdint>
#include <vector>

namespace hlo::runtime {

class RegisterPool {
public:
  /// A block of `warpgroups` warpgroups launched with `registersPerThread`
  /// (0: unknown) registers a thread, and an empty pool.
  void reset(size_t warpgroups, uint32_t registersPerThread);

  /// Warpgroup `warpgroup`'s setmaxnreg to `count` (`.inc` if `increase`,
  /// else `.dec`): true when done, false when an `.inc` must wait for the
  /// pool (try again after another warpgroup's `.dec`); an error for a
  /// misuse.
  ErrorOr<bool> request(size_t warpgroup, uint32_t count, bool increase);

  uint32_t registersPerThread(size_t warpgroup) const { return counts[warpgroup]; }
  uint64_t pooled() const { return pool; }

private:
  std::vector<uint32_t> counts;
  uint32_t launched = 0;
  uint64_t pool = 0;
};

} // namespace hlo::runtime

#endif // HLO_RUNTIME_HOST_REGISTERPOOL_H
