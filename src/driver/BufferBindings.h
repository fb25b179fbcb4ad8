//===- BufferBindings.h - Which buffer a value lives in ---------*- C++ -*-===//
//
// Owns the rule that names the buffer an HLO value lives in, for the
// manifest: a module parameter, a module output, or an intermediate buffer
// named after the instruction that produces it ("name", or "name#leaf" for
// an element of a tuple result). Kernel parameters, and the arguments and
// results of the program's copies and library calls, bind by it, so that a
// runtime connects them by name alone.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DRIVER_BUFFERBINDINGS_H
#define HLO_DRIVER_BUFFERBINDINGS_H

#include "abi/LaunchManifest.h"
#include "hlo_parser/HloModule.h"

#include <vector>

namespace hlo::driver {

/// Array leaves of a (possibly nested tuple) shape, in order.
void arrayLeaves(const Shape &shape, std::vector<const Shape *> &leaves);

/// An unbound parameter of `shape` (its layout made explicit) and its bytes.
abi::KernelParameter bufferParameter(bool isOutput, const Shape &shape);

/// What an input reading `operand` binds to: a module parameter, a module
/// output an earlier step wrote (the entry's root, or an array element of
/// its tuple), or the buffer of the instruction that produced it; bitcasts
/// bind to their operand's buffer, a get-tuple-element of a tuple result
/// (a multi-output fusion's, a library call's, a sort's) to that leaf.
void bindInput(abi::KernelParameter &parameter, const HloInstruction *operand);

/// What output leaf `leaf` (of `leafCount`) of the step computing `origin`
/// binds to.
void bindOutput(abi::KernelParameter &parameter, const HloModule &module,
                const HloInstruction *origin, size_t leaf, size_t leafCount);

} // namespace hlo::driver

#endif // HLO_DRIVER_BUFFERBINDINGS_H
