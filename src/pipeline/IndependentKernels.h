//===- IndependentKernels.h - Each kernel's code its own --------*- C++ -*-===//
//
// Owns making the kernels of one LLVM module independent of each other, so
// that each kernel's machine code is the same whatever else the module
// holds (the kernel cache stores and reuses code per kernel, and a cached
// kernel must be byte for byte what a compile without the cache writes).
//
// Before the optimization pipeline, every function and global a kernel
// reaches (its helpers, the libdevice functions linked in, their tables)
// is copied for that kernel alone, named after it: as it is for names
// that start with the kernel's (its shared tiles), `name$kernel` for
// libdevice's `__` names, `f<N>$kernel` / `g<N>$kernel` for the others,
// N in the order the kernel first reaches them. The originals are left to
// the pipeline's dead-code elimination. With no function or global
// shared, inlining, constant merging and the back end see each kernel as
// they would see it alone.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_INDEPENDENTKERNELS_H
#define HLO_PIPELINE_INDEPENDENTKERNELS_H

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Module.h"

namespace hlo::pipeline {

/// Gives each function of `module` named in `kernels` private copies of
/// everything it reaches.
void makeKernelsIndependent(llvm::Module &module, const llvm::StringSet<> &kernels);

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_INDEPENDENTKERNELS_H
