//===- KernelReport.h - hlo-run's per-kernel report rows --------*- C++ -*-===//
//
// Owns what hlo-run records per kernel (checked, passed, its largest
// error, its time and bandwidth) and the --report file those rows are
// appended to, as tab-separated values with a header when the file is new.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_KERNELREPORT_H
#define HLO_RUNTIME_KERNELREPORT_H

#include <string>
#include <vector>

namespace hlo::runtime {

/// One kernel's line in the report.
struct KernelRow {
  std::string kernel, emitter;
  bool checked = false, passed = true;
  double maxAbsoluteError = 0;
  double microseconds = -1, gigabytesPerSecond = 0, fractionOfCopy = 0;
  /// --xla-kernels: XLA's kernel for the same fusion on the same inputs
  /// (empty name: none ran), its check ("PASS", "FAIL", or why it did not
  /// run) and time.
  std::string xlaKernel, xlaStatus;
  double xlaMicroseconds = -1;
};

/// Appends `rows` of `module` to `path`; false (reported) if it cannot.
/// `withXla`: four more columns, XLA's kernel, its status, its time and
/// ours over XLA's.
bool appendKernelReport(const std::string &path, const std::string &module,
                        const std::vector<KernelRow> &rows, bool withXla = false);

} // namespace hlo::runtime

#endif // HLO_RUNTIME_KERNELREPORT_H
