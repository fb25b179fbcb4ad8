//===- TmaBarriers.h - mbarriers and TMA loads of one block -----*- C++ -*-===//
//
// Owns the host target's model of Hopper's asynchronous copy pipeline for
// one block: PTX's mbarrier objects (init, arrive with expected
// transaction bytes, phases and their parity) and the TMA loads
// (cp.async.bulk.tensor from a tensor map) whose bytes complete on them.
// Made to expose the misuses a GPU forgives only by luck:
//  - a load's destination holds the poison pattern from its issue until a
//    wait on its barrier's current phase completes it: a tile read before
//    the wait for its phase, or a stage overwritten while a product still
//    reads it (the product reads at its retirement, WgmmaPipeline.h), is
//    wrong;
//  - a wait for the parity of the phase that already completed returns at
//    once (as try_wait.parity does), so a wrong parity reads stale tiles;
//  - an arrival beyond a phase's count, or a barrier used uninitialized,
//    is a fault; a wait that can never complete is the block's deadlock.
// A plain class of addresses and bytes, tested without a kernel
// (TmaBarriersTest); BlockRunner keeps one per block and calls it.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_HOST_TMABARRIERS_H
#define HLO_RUNTIME_HOST_TMABARRIERS_H

#include "abi/HostKernelAbi.h"
#include "support/ErrorOr.h"

#include <array>
#include <cstdint>
#include <map>
#include <vector>

namespace hlo::runtime {

/// The byte offset in the box of `map` (box order, dimension 0 fastest)
/// of the element at box position `position`, with the map's swizzle
/// applied to its address in shared memory (`destinationOffset`: the
/// box's offset from the block's shared memory base), as wgmma reads it.
uint64_t tmaBoxOffset(const HloHostTensorMap &map, const std::array<uint32_t, 5> &position,
                      uint64_t destinationOffset);

/// The bytes one load of `map`'s box moves (what expect_tx counts).
uint64_t tmaBoxBytes(const HloHostTensorMap &map);

/// Whether the host models `map`'s boxes: rank 1 to 5, and a swizzled
/// box's rows the swizzle's bytes.
Status checkTmaBox(const HloHostTensorMap &map);

/// Calls `visit(sharedOffset, globalOffset, inside)` for every element of
/// `map`'s box at `coordinates`: its byte offset from the box's start in
/// shared memory (swizzled, the box at `boxOffset` of the block's shared
/// memory), its byte offset in the tensor, and whether it lies in it.
template <typename Visit>
void forEachTmaBoxElement(const HloHostTensorMap &map, const int32_t *coordinates,
                          uint64_t boxOffset, Visit visit) {
  std::array<uint32_t, 5> position{};
  uint64_t elements = tmaBoxBytes(map) / map.elementBytes;
  for (uint64_t e = 0; e < elements; ++e) {
    uint64_t rest = e;
    bool inside = true;
    uint64_t global = 0;
    for (uint32_t d = 0; d < map.rank; ++d) {
      position[d] = static_cast<uint32_t>(rest % map.box[d]);
      rest /= map.box[d];
      int64_t at = int64_t(coordinates[d]) + position[d];
      inside = inside && at >= 0 && uint64_t(at) < map.dims[d];
      global += uint64_t(at) * (d == 0 ? map.elementBytes : map.strides[d]);
    }
    visit(tmaBoxOffset(map, position, boxOffset), global, inside);
  }
}

/// Copies the box of `map` at `coordinates` to `destination` now (zeros
/// outside the tensor); `sharedBase` anchors the swizzle.
Status copyTmaBox(const HloHostTensorMap &map, const int32_t *coordinates, uint8_t *destination,
                  const uint8_t *sharedBase);

class TmaBarriers {
public:
  /// The block's shared memory (for the swizzle and the checks).
  void reset(uint8_t *sharedBase, size_t sharedBytes);

  Status init(void *barrier, uint32_t count);
  /// One arrival, `transactionBytes` more awaited by the current phase.
  Status arrive(void *barrier, uint32_t transactionBytes);
  /// Issues a load completing on `barrier` (its destination poisoned now).
  Status load(const HloHostTensorMap &map, void *destination, void *barrier,
              const int32_t *coordinates);
  /// Whether the phase of parity `parity` has completed, completing the
  /// loads pending on the barrier first where the wait is for its current
  /// phase.
  ErrorOr<bool> tryWait(void *barrier, uint32_t parity);
  /// Counts every change of state (a deadlock is waits without any).
  uint64_t progress() const { return changes; }
  /// Loads issued and not yet completed (a block must not exit with any).
  size_t loadsInFlight() const;

private:
  struct Load {
    HloHostTensorMap map;
    std::array<int32_t, 5> coordinates{};
    uint8_t *destination = nullptr;
  };
  struct Barrier {
    uint32_t count = 0, pending = 0;
    /// Bytes the current phase still awaits (negative: came first).
    int64_t transactionBytes = 0;
    uint64_t phase = 0;
    std::vector<Load> loads;
  };
  ErrorOr<Barrier *> find(void *barrier, const char *operation);
  Status checkShared(const void *address, size_t bytes, const char *what) const;

  std::map<void *, Barrier> barriers;
  uint8_t *sharedBase = nullptr;
  size_t sharedBytes = 0;
  uint64_t changes = 0;
};

} // namespace hlo::runtime

#endif // HLO_RUNTIME_HOST_TMABARRIERS_H
