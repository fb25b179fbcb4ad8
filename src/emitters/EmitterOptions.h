//===- EmitterOptions.h - Choices the user makes for the emitters -*- C++ -*-===//
//
// What the driver's command line asks of the emitters beyond the device
// (analysis/DeviceInfo.h): choices that change the kernels but not what
// they compute. Defaults are XLA's behaviour.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_EMITTEROPTIONS_H
#define HLO_EMITTERS_EMITTEROPTIONS_H

namespace hlo {

struct EmitterOptions {
  /// XLA's Triton GEMM fusions with the GEMM emitter's own tiles, warps and
  /// stages (chosen by the dot's shape, as for plain dots) instead of
  /// their config's (--gemm-tiles=own).
  bool ownGemmTiles = false;
};

} // namespace hlo

#endif // HLO_EMITTERS_EMITTEROPTIONS_H
