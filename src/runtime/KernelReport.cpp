//===- KernelReport.cpp - hlo-run's per-kernel report rows ----------------===//
#include "KernelReport.h"

#include "Commands.h"

#include <fstream>
#include <iostream>

namespace hlo::runtime {

bool appendKernelReport(const std::string &path, const std::string &module,
                        const std::vector<KernelRow> &rows, bool withXla) {
  // A header row when the file is new (or empty): rows are appended.
  bool fresh = true;
  {
    std::ifstream existing(path);
    fresh = !existing || existing.peek() == std::ifstream::traits_type::eof();
  }
  std::ofstream out(path, std::ios::app);
  if (fresh)
    out << "module\tkernel\temitter\tmax_abs_error\tstatus\tus\tGB/s\t%_of_copy"
        << (withXla ? "\txla_kernel\txla_status\txla_us\tours/xla" : "") << "\n";
  for (const KernelRow &row : rows) {
    out << module << '\t' << row.kernel << '\t' << row.emitter << '\t'
        << (row.checked ? formatNumber(row.maxAbsoluteError) : "-") << '\t'
        << (!row.checked ? "-" : row.passed ? "PASS" : "FAIL") << '\t'
        << (row.microseconds >= 0 ? formatNumber(row.microseconds) : "-") << '\t'
        << (row.microseconds >= 0 ? formatNumber(row.gigabytesPerSecond) : "-") << '\t'
        << (row.microseconds >= 0 ? formatNumber(100 * row.fractionOfCopy, 3) : "-");
    if (withXla) {
      bool timed = row.microseconds > 0 && row.xlaMicroseconds > 0;
      out << '\t' << (row.xlaKernel.empty() ? "-" : row.xlaKernel) << '\t'
          << (row.xlaStatus.empty() ? "-" : row.xlaStatus) << '\t'
          << (row.xlaMicroseconds >= 0 ? formatNumber(row.xlaMicroseconds) : "-") << '\t'
          << (timed ? formatNumber(row.microseconds / row.xlaMicroseconds, 3) : "-");
    }
    out << '\n';
  }
  if (!out) {
    std::cerr << "hlo-run: error: cannot write " << path << "\n";
    return false;
  }
  return true;
}

} // namespace hlo::runtime
