//===- BufferSharing.h - Temporaries that share an allocation ---*- C++ -*-===//
//
// Owns which temporaries of a module's program share memory: two buffers
// whose lives in the entry's schedule do not overlap get one allocation,
// as XLA's buffer assignment reuses the memory of dead values. It works on
// the finished manifest (the program's step order and every binding's name
// and size are there, and nowhere earlier) and writes its "allocations".
//
// Shared: the entry's temporaries and kernels' scratch buffers. Kept on
// their own: parameters, outputs and constants; anything a while loop or
// conditional binds or a kernel of a nested computation reads (their
// lives repeat with the loop). An in-place output and its input are one
// buffer (the runtime binds the output to its input's memory): one live
// range, the union of theirs, along whole chains of updates, and kept on
// its own if any member is (an in-place update whose result is a module
// output keeps its temporary input out of sharing).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DRIVER_BUFFERSHARING_H
#define HLO_DRIVER_BUFFERSHARING_H

#include "abi/LaunchManifest.h"

namespace hlo::driver {

/// Fills `manifest.allocations` (groups of two or more buffers). Buffers
/// are placed largest first into the first allocation none of whose
/// buffers is live at the same time; an allocation is as large as its
/// first (largest) buffer and every buffer sits at offset 0.
void shareTemporaryBuffers(abi::LaunchManifest &manifest);

} // namespace hlo::driver

#endif // HLO_DRIVER_BUFFERSHARING_H
