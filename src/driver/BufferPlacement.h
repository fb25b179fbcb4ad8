//===- BufferPlacement.h - Offsets of the memory plan's buffers -*- C++ -*-===//
//
// Owns where the memory plan's buffers (BufferPlan.h decides which values
// each is and when it lives) sit: at offsets in one allocation of the
// plan's own, or in a module parameter's memory, so that buffers live at
// the same time never overlap. Each buffer in turn at the lowest aligned
// offset clear of the buffers already placed that live with it (first
// fit), in four orders (largest first, longest lived first, ...), keeping
// the smallest: XLA's heap simulator tries its orders so. A parameter the module
// donates to an output is memory the plan may also use while neither the
// parameter nor the output lives, as XLA fills a may-alias parameter's
// allocation.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DRIVER_BUFFERPLACEMENT_H
#define HLO_DRIVER_BUFFERPLACEMENT_H

#include "abi/LaunchManifest.h"

#include <vector>

namespace hlo::driver {

/// One buffer to place: its values' plan names, the ticks it lives, its
/// size and alignment; where it must be (`parameter`: that parameter's
/// memory, at offset 0), or -1 to place it.
struct PlanBuffer {
  std::vector<std::string> names;
  int64_t first = 0, last = 0, bytes = 0, alignment = 1;
  int64_t parameter = -1;
};

/// The allocations: the plan's own first (if it holds anything), then per
/// parameter whose memory holds more than the parameter, that parameter's.
/// Buffers may be placed in the memory of the parameters in `donated`.
std::vector<abi::AllocationSpec> placeBuffers(std::vector<PlanBuffer> buffers,
                                              const std::vector<int64_t> &donated);

} // namespace hlo::driver

#endif // HLO_DRIVER_BUFFERPLACEMENT_H
