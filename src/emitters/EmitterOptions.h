//===- EmitterOptions.h - Choices the user makes for the emitters -*- C++ -*-===//
//
// What the driver's command line asks of the emitters beyond the device
// (analysis/DeviceInfo.h): choices that change the kernels but not what
// they compute. Defaults are XLA's behaviour.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_EMITTEROPTIONS_H
#define HLO_EMITTERS_EMITTEROPTIONS_H

#include "abi/GemmTuning.h"

#include <string>

namespace hlo {

struct EmitterOptions {
  /// XLA's Triton GEMM fusions with the GEMM emitter's own tiles, warps and
  /// stages (chosen by the dot's shape, as for plain dots) instead of
  /// their config's (--gemm-tiles=own).
  bool ownGemmTiles = false;
  /// Hopper GEMM kernels whose operands both load by TMA split into a
  /// producer warpgroup and consumer warpgroups
  /// (--gemm-warp-specialization=on|off).
  bool warpSpecializedGemms = true;
  /// Their large tiles by persistent blocks, one an SM, each taking tile
  /// after tile (--gemm-persistent-tiles=on|off).
  bool persistentGemms = true;
  /// Their 16-bit outputs written through shared memory: stmatrix, then
  /// TMA stores (--gemm-tma-store=on|off).
  bool tmaStoreGemmEpilogues = true;
  /// Their blocks in thread-block clusters of this many along M (1 or 2;
  /// --gemm-cluster): the two blocks of a cluster compute vertically
  /// adjacent tiles and each loads half of their shared B tile, multicast
  /// into both.
  int64_t gemmClusterBlocks = 1;
  /// Tuned GEMM configs (--gemm-configs): a GEMM kernel whose architecture
  /// and key the table names is built as its entry says, over XLA's
  /// config and the emitter's own choice (and over the two switches
  /// above). Null: none.
  const abi::GemmTuningTable *gemmConfigs = nullptr;
  /// A known bug to plant on purpose, so that a test can show the checks
  /// catch it (--plant-bug, hidden): "wgmma-copy-early" (the in-flight
  /// wgmma loop copies the next tile into the buffer the product in flight
  /// reads), "wgmma-no-final-wait" (the loop's last product is never
  /// waited for), "tma-wrong-parity" (the K loop waits for the other
  /// phase of a stage's mbarrier), "tma-no-final-wait" (the TMA loads past
  /// the loop are never waited for), "ws-no-empty-wait" (the
  /// warp-specialized producer loads into a stage without waiting for
  /// its empty barrier), "ws-early-release" (its consumers release a
  /// stage before the product reading it retired), "setmaxnreg-overask"
  /// (its consumers ask for more registers than the producer gives back),
  /// "persistent-phase-reset" (a persistent block counts each tile's
  /// mbarrier phases from 0, forgetting its earlier tiles'),
  /// "tf32x3-no-rest" (3xTF32 on wgmma drops the rests: TF32 alone),
  /// "tma-store-early-reuse" (the epilogue writes a buffer whose TMA store
  /// may still read it), "tma-store-no-final-wait" (the last TMA stores
  /// are never waited for), "cluster-no-peer-release" (a cluster's
  /// consumers release a stage on their own block's empty barrier only,
  /// not on the block whose producer multicasts into it),
  /// "cluster-no-init-sync" (a block barrier, not the cluster's, after
  /// the mbarriers' initialization), "cluster-no-final-sync" (a cluster's
  /// blocks exit without meeting first). Empty: none.
  std::string plantedBug;
};

} // namespace hlo

#endif // HLO_EMITTERS_EMITTEROPTIONS_H
