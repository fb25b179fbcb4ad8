//===- HostLauncher.cpp - A kernel's grid on the host CPU -----------------===//
#include "host/HostLauncher.h"

#include "LaunchLimits.h"
#include "TensorMapLayout.h"
#include "host/ClusterRunner.h"
#include "host/KernelCrashHandler.h"

#include <atomic>
#include <mutex>
#include <thread>

namespace hlo::runtime {

HostLauncher::HostLauncher(unsigned hostThreads)
    : threadCount(hostThreads ? hostThreads
                              : std::max(1u, std::thread::hardware_concurrency())) {
  for (unsigned i = 0; i < threadCount; ++i)
    runners.push_back(std::make_unique<ClusterRunner>());
}

HostLauncher::~HostLauncher() = default;

LaunchResult HostLauncher::launch(HloHostKernel kernel, const KernelSpec &spec,
                                  const std::vector<void *> &buffers,
                                  const std::string &arch) {
  std::string rejected = checkLaunch(spec, launchLimitsFor(arch), arch);
  if (!rejected.empty())
    return {LaunchResult::Fault, "the launch is invalid: " + rejected};
  // A tensor map parameter reaches the kernel as a pointer to its host
  // form (abi/HostKernelAbi.h), encoded from the same fields a GPU's
  // cuTensorMapEncodeTiled gets.
  std::vector<HloHostTensorMap> maps(spec.parameters.size());
  std::vector<void *> arguments = buffers;
  for (size_t i = 0; i < spec.parameters.size() && i < buffers.size(); ++i) {
    if (!spec.parameters[i].tensorMap)
      continue;
    ErrorOr<TensorMapLayout> layout = tensorMapLayout(spec.parameters[i]);
    if (!layout)
      return {LaunchResult::Error, "kernel " + spec.name + " parameter " + std::to_string(i) +
                                       ": " + layout.error()};
    HloHostTensorMap &map = maps[i];
    map.base = buffers[i];
    map.rank = static_cast<uint32_t>(layout->rank);
    map.elementBytes = static_cast<uint32_t>(layout->elementBytes);
    map.swizzle = static_cast<uint32_t>(layout->swizzleBytes);
    for (int d = 0; d < layout->rank; ++d) {
      map.dims[d] = layout->dims[d];
      map.strides[d] = d == 0 ? map.elementBytes : layout->strides[d - 1];
      map.box[d] = layout->box[d];
    }
    arguments[i] = &map;
  }
  GridLaunch grid;
  grid.kernel = kernel;
  grid.buffers = arguments.data();
  for (int i = 0; i < 3; ++i) {
    grid.grid[i] = spec.grid[i];
    grid.block[i] = spec.block[i];
  }
  // The block's shared memory: the static tiles, then the dynamic part.
  grid.sharedMemoryBytes = spec.sharedMemoryBytes + spec.dynamicSharedMemoryBytes;
  grid.concurrentThreads = spec.concurrentThreads;
  grid.registersPerThread = spec.maxRegisters;
  // A cluster's blocks run together (ClusterRunner.h), one cluster at a
  // time per host thread; without clusters, each block alone.
  std::array<uint32_t, 3> clusters = {spec.grid[0], spec.grid[1], spec.grid[2]};
  if (spec.cluster)
    for (int i = 0; i < 3; ++i) {
      grid.cluster[i] = (*spec.cluster)[i];
      clusters[i] /= grid.cluster[i]; // whole clusters (checkLaunch)
    }
  bool clustered = grid.cluster[0] * grid.cluster[1] * grid.cluster[2] > 1;

  uint64_t blocks = uint64_t(clusters[0]) * clusters[1] * clusters[2];
  std::atomic<uint64_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex faultMutex;
  uint64_t faultBlock = UINT64_MAX;
  std::string faultMessage;
  // Blocks (or clusters) are taken in increasing order; after a fault no
  // new one starts but those already running finish, so the fault
  // reported is that of the lowest block that faults, whatever the timing.
  auto work = [&](ClusterRunner &runner) {
    KernelCrashScope crashScope(spec.name);
    while (!stop.load(std::memory_order_relaxed)) {
      uint64_t block = next.fetch_add(1, std::memory_order_relaxed);
      if (block >= blocks)
        return;
      std::array<uint32_t, 3> id = {
          static_cast<uint32_t>(block % clusters[0]),
          static_cast<uint32_t>(block / clusters[0] % clusters[1]),
          static_cast<uint32_t>(block / (uint64_t(clusters[0]) * clusters[1]))};
      if (clustered ? runner.run(grid, id) : runner.member(0).run(grid, id))
        continue;
      stop = true;
      std::lock_guard<std::mutex> lock(faultMutex);
      if (block < faultBlock) {
        faultBlock = block;
        faultMessage = clustered ? runner.faultMessage() : runner.member(0).faultMessage();
      }
    }
  };
  unsigned workers = static_cast<unsigned>(std::min<uint64_t>(threadCount, blocks));
  std::vector<std::thread> helpers;
  for (unsigned i = 1; i < workers; ++i)
    helpers.emplace_back(work, std::ref(*runners[i]));
  work(*runners[0]);
  for (std::thread &helper : helpers)
    helper.join();
  if (faultBlock != UINT64_MAX)
    return {LaunchResult::Fault, faultMessage};
  return {};
}

} // namespace hlo::runtime
