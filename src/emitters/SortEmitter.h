//===- SortEmitter.h - Sorting networks for kSort fusions -------*- C++ -*-===//
//
// XLA's sort (not one of its MLIR emitters; shared/notes/xla-reference.md):
// a bitonic sorting network along the sort dimension, every other
// dimension a row sorted on its own. The network is the one whose
// comparisons all put the smaller element first: stage s compares each
// element with its mirror in its block of 2^(s+1) (xor 2^(s+1)-1), then
// with the element 2^j away for j = s-1 .. 0. The dimension is padded to a
// power of two P by skipping every pair whose upper element lies past the
// end, which sorts as if the padding were larger than everything.
//
// Launches. The comparisons with strides below a tile of T elements (the
// largest power of two <= 4096 whose operand tiles fit 48 KiB of shared
// memory) run in shared memory, a block per tile, T/4 threads exchanging
// two pairs each per step (XLA's shape: 1024 threads for T = 4096), with a
// barrier between steps; a global step runs 128 threads per block, four
// pairs each:
//   - P <= T: one launch, a block per row, the whole network;
//   - P > T: a launch sorting each tile, then per later stage a launch per
//     stride >= T working on the outputs in global memory, and one
//     shared-memory launch for the strides below T.
// The first launch reads the operands (through the fused computation); the
// others sort the outputs in place. The manifest lists the launches in
// order.
//
// Stable sorts (is_stable=true) carry each element's original position
// beside it (a shared tile of s32) and break comparator ties by it; between
// launches the positions live in a scratch buffer of the kernel's (the
// manifest's "scratch" binding), so a stable sort of any size is emitted.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_SORTEMITTER_H
#define HLO_EMITTERS_SORTEMITTER_H

#include "emitters/EmitterBase.h"

#include <memory>

namespace hlo {

/// The sort emitter for `analysis` (a sort root): every sort has one.
std::unique_ptr<EmitterBase> createSortEmitter(const FusionAnalysis &analysis,
                                               const HloComputation &fused,
                                               const GpuDeviceInfo &device);

} // namespace hlo

#endif // HLO_EMITTERS_SORTEMITTER_H
