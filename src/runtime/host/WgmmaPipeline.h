//===- WgmmaPipeline.h - A warpgroup's wgmma groups in flight ---*- C++ -*-===//
//
// Owns the host target's model of asynchronous wgmma (PTX's wgmma.mma_async
// without a wait, wgmma.commit_group, wgmma.wait_group) for one warpgroup,
// made to expose the two misuses a GPU forgives only by luck:
//  - a product reads its shared tiles when its group retires (at the wait
//    that retires it), not when it is issued: a tile overwritten while its
//    group is in flight gives the product of the new data;
//  - while a chain of products is in flight, the threads' accumulators hold
//    a NaN marker (kInFlightBits): code that reads them before a wait for
//    all groups computes with NaN, and a product issued with them continues
//    the chain (the hardware accumulates into the same registers in order).
// A plain class of the operands and the threads' accumulators, so that it is
// tested without a kernel (WgmmaPipelineTest); BlockRunner gathers the
// warpgroup's 128 threads and calls it.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_HOST_WGMMAPIPELINE_H
#define HLO_RUNTIME_HOST_WGMMAPIPELINE_H

#include "host/WarpgroupMma.h"

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

namespace hlo::runtime {

class WgmmaPipeline {
public:
  /// The bits of the accumulators of an unfinished chain (a quiet NaN).
  static constexpr uint32_t kInFlightBits = 0x7fc1f117u;
  /// Whether `value` is the in-flight marker.
  static bool isInFlight(float value);

  using Accumulators = std::array<float *, kThreadsPerWarpgroup>;

  /// Queues D = A * B + D (a wgmma of `kind` and width `n`) into the open
  /// group. Each thread's `d` (n / 2 values) either holds the marker
  /// everywhere (the chain goes on) or nowhere (a chain starts from those
  /// values, which needs nothing in flight); it holds the marker after.
  Status issue(uint32_t kind, uint32_t n, const WgmmaOperands &operands, const Accumulators &d);
  /// Closes the open group (wgmma.commit_group; nothing open: an empty
  /// group).
  void commit();
  /// Retires the oldest committed groups, reading their tiles now, until
  /// at most `pending` remain; with none left (and none open), each
  /// thread's `d` that holds the marker receives the chain's accumulators.
  Status wait(uint32_t pending, const Accumulators &d);
  /// Products issued and not retired (open ones included).
  size_t inFlight() const;
  /// Forgets everything (a new block).
  void clear();

private:
  struct Product {
    uint32_t kind = 0, n = 0;
    WgmmaOperands operands;
  };
  std::deque<std::vector<Product>> committed;
  std::vector<Product> open;
  /// The chain's accumulators, per thread (n / 2 each).
  std::array<std::vector<float>, kThreadsPerWarpgroup> chain;
  uint32_t chainWidth = 0;
};

} // namespace hlo::runtime

#endif // HLO_RUNTIME_HOST_WGMMAPIPELINE_H
