//===- BufferBindings.h - The manifest's names of buffers -------*- C++ -*-===//
//
// Owns how the manifest names the buffer an HLO value lives in (which one
// that is, analysis/BufferAssignment decides): a module parameter, a module
// output, or an intermediate buffer named after the instruction that
// produces it ("name", or "name#leaf" for an element of a tuple result).
// Kernel parameters, and the arguments and results of the program's copies
// and library calls, bind by it, so that a runtime connects them by name
// alone.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DRIVER_BUFFERBINDINGS_H
#define HLO_DRIVER_BUFFERBINDINGS_H

#include "abi/LaunchManifest.h"
#include "analysis/BufferAssignment.h"
#include "hlo_parser/HloModule.h"

#include <vector>

namespace hlo::driver {

/// Array leaves of a (possibly nested tuple) shape, in order.
void arrayLeaves(const Shape &shape, std::vector<const Shape *> &leaves);

/// An unbound parameter of `shape` (its layout made explicit) and its bytes.
abi::KernelParameter bufferParameter(bool isOutput, const Shape &shape);

/// Binds `parameter` to the buffer `slot` names: a module parameter, a
/// module output, or an instruction's result leaf by its abi::BufferId
/// ("name", "name#leaf").
void bindSlot(abi::KernelParameter &parameter, const BufferSlot &slot);

} // namespace hlo::driver

#endif // HLO_DRIVER_BUFFERBINDINGS_H
