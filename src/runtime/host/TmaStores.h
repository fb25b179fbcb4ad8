//===- TmaStores.h - One thread's TMA stores on the host ---------*- C++ -*-===//
//
// Owns the host target's model of PTX's TMA stores
// (cp.async.bulk.tensor.Nd.global.shared::cta.bulk_group) and their bulk
// groups (cp.async.bulk.commit_group, cp.async.bulk.wait_group[.read]) for
// one thread. Each store is committed as its own group, as the GEMM
// epilogue's `tma_store` does, and is made to expose what a GPU forgives
// only by luck:
//  - the box is taken from shared memory at the issue, but written to the
//    global tensor only when a wait retires its group: an output read
//    before that wait is stale;
//  - the box's shared bytes must not change before that wait (the copy
//    engine may read them at any time until then): a change is a fault;
//  - a thread that ends with stores in flight is a fault (the caller
//    asks `inFlight()`).
// Elements of the box outside the tensor are not written. A plain class
// of addresses and bytes, tested without a kernel (TmaStoresTest).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_HOST_TMASTORES_H
#define HLO_RUNTIME_HOST_TMASTORES_H

#include "abi/HostKernelAbi.h"
#include "support/ErrorOr.h"

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

namespace hlo::runtime {

/// Copies the box held at `source` (box order, with the map's swizzle as
/// it applies at byte `sourceOffset` of the block's shared memory) into
/// `map`'s tensor at `coordinates` now, skipping the elements outside the
/// tensor.
Status storeTmaBox(const HloHostTensorMap &map, const int32_t *coordinates,
                   const uint8_t *source, uint64_t sourceOffset);

class TmaStoreQueue {
public:
  /// Issues and commits a store of `map`'s box from `source` (in the
  /// block's shared memory, `sharedBase` and `sharedBytes`).
  Status issue(const HloHostTensorMap &map, const void *source, const int32_t *coordinates,
               const uint8_t *sharedBase, size_t sharedBytes);
  /// Retires the oldest groups until at most `pending` are in flight,
  /// writing their boxes; a box whose shared bytes changed is a fault.
  Status wait(uint32_t pending);
  size_t inFlight() const { return stores.size(); }
  /// Drops everything in flight (a new block).
  void clear() { stores.clear(); }

private:
  struct Store {
    HloHostTensorMap map;
    std::array<int32_t, 5> coordinates{};
    const uint8_t *source = nullptr;
    const uint8_t *sharedBase = nullptr;
    /// The box's shared bytes at the issue.
    std::vector<uint8_t> bytes;
  };
  std::deque<Store> stores;
};

} // namespace hlo::runtime

#endif // HLO_RUNTIME_HOST_TMASTORES_H
