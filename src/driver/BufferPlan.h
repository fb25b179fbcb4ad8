//===- BufferPlan.h - The module program's memory plan ----------*- C++ -*-===//
//
// Owns where every buffer of a module's program lives on the device, as
// XLA's buffer assignment decides it: which values are one buffer
// (colocation), and where in one allocation each buffer sits so that
// buffers live at the same time never overlap (sharing by live range, over
// the whole program: loop bodies, conditions, branches and the entry
// alike, on abi/ProgramLiveness's time line). It works on the finished
// manifest (the program's steps and every binding's name and size are
// there, and nowhere earlier) and writes its "allocations".
//
// One buffer, always: an in-place output and its operand (the kernel
// writes into what it reads); a while loop's state as its condition and
// body read it and the loop's result. One buffer where that is safe, else
// the runtime copies (XLA's copy insertion):
//   - a loop's initial state element, when nothing reads it after the loop
//     starts (not a parameter or constant, which must not be written);
//   - a body's result element, when nothing in the body reads the state
//     element it replaces once that result is first written, and it is
//     neither another element nor the state of another;
//   - a branch's result leaf and the conditional's, when it is made in
//     the branch;
//   - a branch's parameter leaf and its operand, when the branch only
//     reads it, or nothing reads the operand after the branch starts.
// Module parameters and constants keep their own memory, and so do outputs
// updated in place in a donated parameter.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DRIVER_BUFFERPLAN_H
#define HLO_DRIVER_BUFFERPLAN_H

#include "abi/LaunchManifest.h"

namespace hlo::driver {

/// Fills `manifest.allocations` with the whole plan: one allocation whose
/// buffers are placed largest first, each at the lowest offset (256-byte
/// aligned; 16 for a buffer under 256 bytes) free of every placed buffer
/// live at the same time.
void planModuleBuffers(abi::LaunchManifest &manifest);

} // namespace hlo::driver

#endif // HLO_DRIVER_BUFFERPLAN_H
