//===- KernelCheckBase.h - What hlo-run's check modes share -----*- C++ -*-===//
//
// Owns the state and steps every mode of the kernel check
// (KernelCheckCommand.cpp: module, kernels, replay) and the kernel-by-kernel
// case with XLA's kernel beside ours (KernelCaseCheck.cpp) share: the
// device and the loaded kernels, the report rows, launching one kernel on
// its buffers (a fault fails the check), timing it beside a copy of the same
// traffic, comparing one output with the interpreter, saving arrays.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_KERNELCHECKBASE_H
#define HLO_RUNTIME_KERNELCHECKBASE_H

#include "Commands.h"
#include "Device.h"
#include "KernelReport.h"
#include "ReductionTolerance.h"
#include "ReferenceCases.h"
#include "XlaKernels.h"

#include "interpreter/Evaluator.h"

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace hlo::runtime {

class KernelCheckBase {
protected:
  KernelCheckBase(const RunOptions &options, const HloModule &module,
                  const LaunchManifest &manifest, Device &device)
      : options(options), module(module), manifest(manifest), device(device),
        evaluator(module) {
    evaluator.setMaxWhileIterations(options.maxWhileIterations);
    evaluator.setMaxElements(options.maxElements);
  }

  /// Prints `message` as hlo-run's error; kExitError.
  int fail(const std::string &message);
  /// "NAME (EMITTER): grid [..], block [..]" of kernel `k`.
  void printKernel(size_t k) const;
  /// Compares and prints one output; records it in `row`.
  bool checkOutput(const std::string &label, const Literal &expected, const Literal &actual,
                   KernelRow &row, const ReductionDepth &depth, const Literal *magnitudes);
  /// --launch-only: an output the kernels wrote, not compared.
  void reportLaunchedOnly(const std::string &label, const Shape &shape) const;
  /// The reductions behind each output of a kernel run on fresh inputs:
  /// those of the HLO it computes.
  std::vector<ReductionDepth> kernelOutputDepths(const KernelSpec &kernel) const;
  /// Writes `array` as DIR/name.npy under --save-dir (if given).
  bool save(const std::string &name, const Literal &array);

  /// Runs `kernel` (loaded as `handle`) on `buffers`; false when it did not
  /// complete (reported; a fault marks `row` and the check failed).
  bool launch(DeviceKernel handle, const KernelSpec &kernel, KernelRow &row,
              const std::vector<DeviceBuffer> &buffers);
  /// The manifest's kernel `k`.
  bool launch(size_t k, const std::vector<DeviceBuffer> &buffers) {
    return launch(functions[k], manifest.kernels[k], rows[k], buffers);
  }
  /// --bench: times `kernel` on `buffers` and a copy of as many bytes,
  /// into `row`; prints the line. False after an error (reported).
  bool bench(DeviceKernel handle, const KernelSpec &kernel, KernelRow &row,
             const std::vector<DeviceBuffer> &buffers, const std::string &progress);
  bool bench(size_t k, const std::vector<DeviceBuffer> &buffers) {
    return bench(functions[k], manifest.kernels[k], rows[k], buffers,
                 std::to_string(k + 1) + "/" + std::to_string(manifest.kernels.size()));
  }

  // Kernels mode and the kernel case (KernelCaseCheck.cpp).

  /// One launch of a case: the loaded kernel, its launch, the row its
  /// fault and time go to, its progress label ("3/14"), and the prefix of
  /// its outputs' lines ("XLA ").
  struct CaseLaunch {
    DeviceKernel handle;
    const KernelSpec *kernel;
    KernelRow *row;
    std::string progress, outputPrefix;
  };
  /// Fills `kernel`'s buffers `arguments` (inputs from `check`, outputs
  /// poisoned), runs `launches` on them in order, compares the outputs with
  /// `check`'s into `row` and `passed`, times the launches (--bench).
  /// `label` names saved arrays. kExitPass, or the status after an error
  /// or a fault.
  int runCase(const KernelSpec &kernel, const std::vector<CaseLaunch> &launches,
              const KernelCase &check, KernelRow &row, bool &passed, const std::string &label,
              const std::vector<DeviceBuffer> &arguments);
  /// A case's device buffers, one per kernel parameter (an in-place
  /// output: its input's), freed with it.
  struct CaseBuffers {
    explicit CaseBuffers(Device &device) : device(device) {}
    ~CaseBuffers();
    CaseBuffers(const CaseBuffers &) = delete;
    CaseBuffers &operator=(const CaseBuffers &) = delete;
    Device &device;
    std::vector<DeviceBuffer> arguments, owned;
  };
  ErrorOr<std::unique_ptr<CaseBuffers>> allocateCase(const KernelSpec &kernel);
  /// Manifest kernel `k` (all its launches) on `check`; then XLA's kernel
  /// for its fusion (--xla-kernels).
  int checkKernelCase(size_t k, const KernelCase &check, bool &passed);
  /// XLA's kernel for kernel `k`'s fusion on `check`, on our kernel's
  /// `buffers`, into rows[k]'s XLA columns; what kept it from running is
  /// a note, not a failure.
  int checkXlaKernel(size_t k, const KernelCase &check,
                     const std::vector<DeviceBuffer> &buffers);
  /// Every kernel alone, on its own inputs; with --report, each kernel's
  /// rows appended as soon as it is done (a run cut short keeps them).
  int runKernels(const std::map<int64_t, Literal> &given);
  /// Appends the rows of kernel `k`'s `launches` to --report's file.
  bool reportKernel(size_t k, size_t launches);

  const RunOptions &options;
  const HloModule &module;
  const LaunchManifest &manifest;
  Device &device;
  interp::Evaluator evaluator;
  std::vector<DeviceKernel> functions;
  std::vector<KernelRow> rows;
  bool faulted = false;
  /// The report's rows were appended kernel by kernel (kernels mode).
  bool reportedAsItWent = false;
  /// --time-only (and --launch-only with --xla-kernels): the kernels
  /// (code and launch) run so far.
  std::set<std::string> timedLaunches;
  /// Kernels mode: kernels checked, and skipped by --skip-oversized.
  int checked = 0, skipped = 0;
  /// --xla-kernels: the dump's kernels (empty without the option), and
  /// how many of them passed, failed, or did not run.
  std::optional<XlaKernelTable> xlaKernels;
  int xlaPassedCount = 0, xlaFailedCount = 0, xlaLaunchedCount = 0, xlaSkipped = 0;
};

} // namespace hlo::runtime

#endif // HLO_RUNTIME_KERNELCHECKBASE_H
