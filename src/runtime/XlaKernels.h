//===- XlaKernels.h - XLA's own kernels beside ours -------------*- C++ -*-===//
//
// Owns what hlo-run needs to run XLA's kernel for a fusion beside ours
// (--xla-kernels DIR): the kernels of an XLA dump (DIR/xla_kernels.tsv:
// kernel, fusion, grid, block, dynamic shared memory, ptxas figures; its PTX
// in DIR/xla_ptx/), the parameters each PTX entry declares, and the launch
// of XLA's kernel on our kernel's buffers.
//
// Binding: XLA passes a fusion kernel one pointer per operand leaf, then
// one per result leaf, in order, with no deduplication (in the corpus
// dumps, 1400 of 1400 XLA kernels beside one of ours declare exactly as
// many parameters as our kernel has non-scratch buffers); an in-place
// result gets its operand's buffer, as XLA's buffer assignment gives it.
// Our manifest lists the same buffers in the same order, so XLA's launch is
// ours with XLA's name, grid, block and shared memory, without our scratch
// buffers and tensor maps. A count that differs from the PTX's is refused:
// a wrong binding must not run.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_XLAKERNELS_H
#define HLO_RUNTIME_XLAKERNELS_H

#include "ManifestTypes.h"
#include "support/ErrorOr.h"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace hlo::runtime {

/// One kernel of an XLA dump, as its xla_kernels.tsv describes it.
struct XlaKernel {
  std::string name;
  /// The fusion (or other instruction) it computes.
  std::string hloInstruction;
  std::array<unsigned, 3> grid = {1, 1, 1}, block = {1, 1, 1};
  unsigned dynamicSharedMemoryBytes = 0, staticSharedMemoryBytes = 0;
  int registers = -1;
  /// The PTX file (its entry's parameters are read from it), absolute or
  /// relative to the working directory.
  std::string ptxPath;
  /// The same kernel assembled for the device (a `cubin_file` column, as
  /// scripts/gpu-perf.sh bundles it: no JIT on the GPU machine); empty:
  /// the PTX is loaded.
  std::string cubinPath;
};

/// XLA's kernels of a dump directory by fusion name; several kernels of
/// one fusion (a sort's passes) are not listed (no one-to-one binding).
class XlaKernelTable {
public:
  /// Reads DIR/xla_kernels.tsv (header row; columns found by name).
  static ErrorOr<XlaKernelTable> read(const std::string &dumpDir);
  /// XLA's kernel for fusion `instruction`, or null.
  const XlaKernel *find(const std::string &instruction) const;
  size_t size() const { return byInstruction.size(); }

private:
  std::map<std::string, XlaKernel> byInstruction;
};

/// The alignment of each parameter entry `entry` of `ptx` declares
/// (`.param .u64 .ptr .align 256 NAME`: 256; no .align: 1), in order; a
/// failure when the PTX has no such entry.
ErrorOr<std::vector<int64_t>> ptxEntryParameters(const std::string &ptx,
                                                 const std::string &entry);

/// XLA's launch of the fusion `ours` computes: XLA's name, grid, block
/// and shared memory; our parameters without scratch buffers, as plain
/// pointers with the alignment XLA's PTX declares. `declared` is the PTX's
/// parameter list (ptxEntryParameters); a count that differs is an error.
/// `kept` receives, per XLA parameter, the index of our parameter it binds.
ErrorOr<KernelSpec> xlaLaunchSpec(const KernelSpec &ours, const XlaKernel &xla,
                                  const std::vector<int64_t> &declared,
                                  std::vector<size_t> &kept);

} // namespace hlo::runtime

#endif // HLO_RUNTIME_XLAKERNELS_H
