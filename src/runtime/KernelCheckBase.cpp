//===- KernelCheckBase.cpp - What hlo-run's check modes share -------------===//
#include "KernelCheckBase.h"
#include "ReferenceCases.h"

#include "interpreter/Npy.h"

#include "hlo_parser/HloComputation.h"

#include <algorithm>
#include <iostream>

#include <unistd.h>

namespace hlo::runtime {

int KernelCheckBase::fail(const std::string &message) {
  std::cerr << "hlo-run: error: " << message << "\n";
  return kExitError;
}

void KernelCheckBase::printKernel(size_t k) const {
  const KernelSpec &kernel = manifest.kernels[k];
  std::cout << rows[k].kernel << " (" << kernel.emitter << "): grid [" << kernel.grid[0] << ", "
            << kernel.grid[1] << ", " << kernel.grid[2] << "], block [" << kernel.block[0]
            << ", " << kernel.block[1] << ", " << kernel.block[2] << "]\n";
}

bool KernelCheckBase::checkOutput(const std::string &label, const Literal &expected,
                                  const Literal &actual, KernelRow &row,
                                  const ReductionDepth &depth, const Literal *magnitudes) {
  ComparisonResult result = reportComparison(label, expected, actual, options, depth, magnitudes);
  row.checked = true;
  row.passed = row.passed && result.passed();
  row.maxAbsoluteError = std::max(row.maxAbsoluteError, result.maxAbsoluteError);
  return result.passed();
}

void KernelCheckBase::reportLaunchedOnly(const std::string &label, const Shape &shape) const {
  std::cout << "  " << label << " " << shape.toString(/*printLayout=*/false)
            << ": written, not checked (" << (options.timeOnly ? "--time-only" : "--launch-only")
            << ")\n";
}

std::vector<ReductionDepth> KernelCheckBase::kernelOutputDepths(const KernelSpec &kernel) const {
  bool inOneThread = emitterReducesInOneThread(kernel.emitter);
  if (kernel.hloInstruction.empty())
    return reductionDepths(*module.entry(), {}, inOneThread);
  const HloInstruction *instruction = findKernelInstruction(module, kernel);
  if (!instruction)
    return {};
  if (instruction->opcode() == HloOpcode::Fusion && instruction->fusedComputation())
    return reductionDepths(*instruction->fusedComputation(), {}, inOneThread);
  return {reductionDepthOf(*instruction)};
}

bool KernelCheckBase::save(const std::string &name, const Literal &array) {
  if (options.saveDir.empty())
    return true;
  Status written = interp::writeNpyFile(options.saveDir + "/" + name + ".npy", array);
  if (written)
    return true;
  std::cerr << "hlo-run: error: " << written.error() << "\n";
  return false;
}

bool KernelCheckBase::launch(DeviceKernel handle, const KernelSpec &kernel, KernelRow &row,
                             const std::vector<DeviceBuffer> &buffers) {
  // The kernel was compiled assuming each buffer's alignment (vector
  // loads and stores): a view into another buffer must keep it.
  for (size_t i = 0; i < kernel.parameters.size() && i < buffers.size(); ++i) {
    int64_t alignment = kernel.parameters[i].alignment;
    if (alignment > 1 && buffers[i] % static_cast<uint64_t>(alignment) != 0) {
      std::cerr << "hlo-run: error: kernel " << kernel.name << ": parameter " << i
                << "'s buffer is not " << alignment
                << "-byte aligned, as the kernel assumes (offset "
                << buffers[i] % static_cast<uint64_t>(alignment) << ")\n";
      return false;
    }
  }
  LaunchResult result = device.launch(handle, kernel, buffers);
  if (result.ok())
    return true;
  if (result.status == LaunchResult::Fault) {
    std::cout << row.kernel << ": kernel fault: " << result.message << "\n";
    row.checked = true;
    row.passed = false;
    faulted = true;
  } else {
    std::cerr << "hlo-run: error: " << result.message << "\n";
  }
  return false;
}

bool KernelCheckBase::bench(DeviceKernel handle, const KernelSpec &kernel, KernelRow &row,
                            const std::vector<DeviceBuffer> &buffers,
                            const std::string &progress) {
  if (!options.bench)
    return true;
  int64_t bytes = 0;
  for (const KernelParameter &parameter : kernel.parameters)
    bytes += parameter.bytes;
  // A copy of bytes/2 reads and writes `bytes` in all, like the kernel.
  size_t copyBytes = static_cast<size_t>(std::max<int64_t>(bytes / 2, 1));
  // On a terminal, what is being timed (host kernels take seconds).
  bool terminal = ::isatty(STDERR_FILENO);
  if (terminal)
    std::cerr << "hlo-run: timing " << row.kernel << " (" << progress << "): " << options.warmup
              << " + " << options.iterations << " launches, then a copy as many times..."
              << std::flush;
  // The copy is timed once the kernel was; either's failure ends here.
  ErrorOr<double> kernelTime =
      device.timeKernel(handle, kernel, buffers, options.warmup, options.iterations);
  ErrorOr<double> copyTime =
      kernelTime ? device.timeCopy(copyBytes, options.warmup, options.iterations) : kernelTime;
  if (!copyTime) {
    std::cerr << "hlo-run: error: " << copyTime.error() << "\n";
    return false;
  }
  double kernelMs = *kernelTime, copyMs = *copyTime;
  if (terminal)
    std::cerr << "\r\033[K" << std::flush;
  row.microseconds = kernelMs * 1e3;
  row.gigabytesPerSecond = kernelMs > 0 ? bytes / (kernelMs * 1e-3) / 1e9 : 0;
  double copyGigabytesPerSecond = copyMs > 0 ? 2.0 * copyBytes / (copyMs * 1e-3) / 1e9 : 0;
  row.fractionOfCopy =
      copyGigabytesPerSecond > 0 ? row.gigabytesPerSecond / copyGigabytesPerSecond : 0;
  std::cout << "  " << device.timeDomain() << " time " << formatNumber(row.microseconds)
            << " us (" << device.timingMethod(options.iterations) << "), "
            << formatNumber(row.gigabytesPerSecond) << " GB/s over " << formatNumber(bytes / 1e6)
            << " MB; device copy " << formatNumber(copyGigabytesPerSecond) << " GB/s: "
            << formatNumber(100 * row.fractionOfCopy, 3) << "% of copy bandwidth\n";
  return true;
}

} // namespace hlo::runtime
