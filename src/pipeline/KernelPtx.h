//===- KernelPtx.h - A module's PTX cut into kernels and joined -*- C++ -*-===//
//
// Owns the PTX of one kernel as a unit of its own: cutting the PTX of
// kernels compiled independently (IndependentKernels.h) into one text per
// kernel, and joining such texts, from this compile or from the kernel
// cache, into one PTX module.
//
// A kernel's text holds its entry and every function and global it alone
// uses (their names carry the kernel's), in the order the back end wrote
// them, with the numbers the back end gives per function (`$L__BB12_3`,
// `__local_depot12`) renumbered from 0 within the kernel: the text is then
// the same whatever else the module held. Declarations every kernel may
// share (`.extern .shared` dynamic shared memory, external functions) are
// kept apart and written once, before the kernels.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_KERNELPTX_H
#define HLO_PIPELINE_KERNELPTX_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace hlo::pipeline {

/// One kernel's PTX.
struct KernelPtx {
  /// Its entry symbol; every name the text defines contains it.
  std::string symbol;
  /// The text: top-level statements, each ending in a newline.
  std::string text;
  /// The shared declarations the text needs (whole statements).
  std::vector<std::string> declarations;
};

/// A module's PTX cut into kernels.
struct CutPtx {
  /// `.version`, `.target`, `.address_size` and the comment before them.
  std::string header;
  /// One per symbol asked for, in that order.
  std::vector<KernelPtx> kernels;
};

/// Cuts `ptx` into the kernels `symbols`; an error when a statement names
/// two of them, or one of them has no entry.
llvm::Expected<CutPtx> cutPtxIntoKernels(llvm::StringRef ptx,
                                         const std::vector<std::string> &symbols);

/// One PTX module of `header`, the kernels' shared declarations (each
/// once, sorted) and the kernels in order, each renamed from its symbol to
/// `names[i]`.
std::string joinKernelPtx(llvm::StringRef header, const std::vector<const KernelPtx *> &kernels,
                          const std::vector<std::string> &names);

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_KERNELPTX_H
