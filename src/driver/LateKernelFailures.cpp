//===- LateKernelFailures.cpp - Failures after emission, per kernel -------===//
#include "LateKernelFailures.h"

#include "analysis/KernelPlan.h"
#include "dialect/KernelContract.h"
#include "dialect/XlaGpuDialect.h"
#include "pipeline/ParallelCompile.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <algorithm>

namespace hlo::driver {
namespace {

/// The launch index a kernel function carries, or -1 for a helper.
int64_t launchIndexOf(mlir::Operation &op) {
  return xla_gpu::getKernelIndex(&op).value_or(-1);
}

} // namespace

std::map<int64_t, std::string> findFailingKernels(mlir::ModuleOp pristine,
                                                  const EmittedModule &emitted,
                                                  GenerateCode generate) {
  const std::vector<KernelLaunchRecord> &launches = emitted.launches;
  // The plan kernels with functions of their own, in plan order.
  std::vector<int64_t> owners;
  for (const KernelLaunchRecord &launch : launches)
    if (launch.sharesCodeOf < 0 &&
        std::find(owners.begin(), owners.end(), launch.planKernel) == owners.end())
      owners.push_back(launch.planKernel);
  std::map<int64_t, std::string> failures;
  for (int64_t kernel : owners) {
    mlir::OwningOpRef<mlir::ModuleOp> alone = pristine.clone();
    pipeline::keepKernels(*alone,
                          [&](int64_t launch) { return launches[launch].planKernel == kernel; });
    if (llvm::Error failure = generate(*alone)) {
      std::string error = llvm::toString(std::move(failure));
      failures[kernel] = error.empty() ? "code generation failed" : error;
    }
  }
  // A kernel that runs a failed kernel's code fails with it.
  for (const KernelLaunchRecord &launch : launches)
    if (launch.sharesCodeOf >= 0) {
      auto owner = failures.find(launches[launch.sharesCodeOf].planKernel);
      if (owner != failures.end())
        failures.emplace(launch.planKernel, owner->second);
    }
  return failures;
}

void dropFailedKernels(mlir::ModuleOp module, EmittedModule &emitted, const KernelPlan &plan,
                       const std::map<int64_t, std::string> &errors) {
  std::vector<KernelLaunchRecord> &launches = emitted.launches;
  std::vector<int64_t> renumbered(launches.size(), -1);
  std::vector<KernelLaunchRecord> kept;
  for (size_t i = 0; i < launches.size(); ++i) {
    if (errors.count(launches[i].planKernel))
      continue;
    renumbered[i] = static_cast<int64_t>(kept.size());
    kept.push_back(launches[i]);
    if (kept.back().sharesCodeOf >= 0)
      kept.back().sharesCodeOf = renumbered[kept.back().sharesCodeOf];
  }
  pipeline::keepKernels(module, [&](int64_t launch) { return renumbered[launch] >= 0; });
  for (mlir::Operation &op : module.getBody()->getOperations())
    if (int64_t launch = launchIndexOf(op); launch >= 0)
      xla_gpu::setKernelIndex(&op, renumbered[launch]);
  launches = std::move(kept);
  for (const auto &[kernel, error] : errors) {
    const HloInstruction *origin = plan.kernels()[kernel].origin;
    emitted.failed.push_back({origin, kernel, origin ? origin->sourceOffset() : kNoOffset,
                              "kernel '" + plan.kernels()[kernel].name +
                                  "' failed in code generation: " + error});
  }
  std::stable_sort(emitted.failed.begin(), emitted.failed.end(),
                   [](const FailedKernel &a, const FailedKernel &b) {
                     return a.planKernel < b.planKernel;
                   });
}

} // namespace hlo::driver
