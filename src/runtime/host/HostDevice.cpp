//===- HostDevice.cpp - This CPU as the device hlo-run runs on ------------===//
#include "host/HostDevice.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>

namespace hlo::runtime {
namespace {

/// The CPU's name, from /proc/cpuinfo where there is one.
std::string cpuName() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos)
        return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  return "CPU";
}

/// Median milliseconds of `iterations` runs of `work` (returning a
/// Status) after `warmup`.
template <typename Work> ErrorOr<double> timeRepeated(Work work, int warmup, int iterations) {
  for (int i = 0; i < warmup; ++i)
    if (Status status = work(); !status)
      return status;
  std::vector<double> times;
  for (int i = 0; i < iterations; ++i) {
    auto start = std::chrono::steady_clock::now();
    if (Status status = work(); !status)
      return status;
    times.push_back(std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count());
  }
  std::sort(times.begin(), times.end());
  return times.empty() ? 0.0 : times[times.size() / 2];
}

std::vector<void *> pointersOf(const std::vector<DeviceBuffer> &buffers) {
  std::vector<void *> pointers;
  for (DeviceBuffer buffer : buffers)
    pointers.push_back(reinterpret_cast<void *>(static_cast<uintptr_t>(buffer)));
  return pointers;
}

} // namespace

HostDevice::HostDevice(std::string arch, unsigned hostThreads)
    : compiledArch(std::move(arch)), launcher(hostThreads) {}

HostDevice::~HostDevice() {
  for (void *allocation : allocations)
    std::free(allocation);
  if (library)
    dlclose(library);
}

std::string HostDevice::description() const {
  return "host CPU (" + cpuName() + "), " + std::to_string(launcher.hostThreads()) +
         " thread(s), running code for " + compiledArch;
}

Status HostDevice::loadCode(const std::string &path) {
  // dlopen searches the library path for names without a slash.
  std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  library = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *why = dlerror();
    return Status::failure("cannot load the host kernels: " +
                           std::string(why ? why : "dlopen failed"));
  }
  return Status::success();
}

ErrorOr<DeviceKernel> HostDevice::findKernel(const KernelSpec &kernel) {
  DeviceKernel handle = library ? dlsym(library, kernel.name.c_str()) : nullptr;
  if (!handle)
    return Status::failure("finding kernel " + kernel.name +
                           " failed: the shared object does not export it");
  return handle;
}

void HostDevice::release(DeviceBuffer buffer) {
  auto found = std::find(allocations.begin(), allocations.end(),
                         reinterpret_cast<void *>(static_cast<uintptr_t>(buffer)));
  if (found == allocations.end())
    return;
  std::free(*found);
  allocations.erase(found);
}

ErrorOr<DeviceBuffer> HostDevice::allocate(size_t bytes) {
  // Zero-size buffers still get an address; 64-byte alignment covers the
  // kernel ABI's 16.
  size_t size = std::max<size_t>((bytes + 63) / 64 * 64, 64);
  void *memory = std::aligned_alloc(64, size);
  if (!memory)
    return Status::failure("cannot allocate " + std::to_string(bytes) + " bytes");
  allocations.push_back(memory);
  return DeviceBuffer(reinterpret_cast<uintptr_t>(memory));
}

Status HostDevice::upload(DeviceBuffer buffer, const std::vector<uint8_t> &bytes) {
  if (!bytes.empty())
    std::memcpy(reinterpret_cast<void *>(static_cast<uintptr_t>(buffer)), bytes.data(),
                bytes.size());
  return Status::success();
}

Status HostDevice::download(DeviceBuffer buffer, std::vector<uint8_t> &bytes) {
  if (!bytes.empty())
    std::memcpy(bytes.data(), reinterpret_cast<void *>(static_cast<uintptr_t>(buffer)),
                bytes.size());
  return Status::success();
}

Status HostDevice::fill(DeviceBuffer buffer, size_t bytes, unsigned char value) {
  std::memset(reinterpret_cast<void *>(static_cast<uintptr_t>(buffer)), value, bytes);
  return Status::success();
}

LaunchResult HostDevice::launch(DeviceKernel handle, const KernelSpec &kernel,
                                const std::vector<DeviceBuffer> &buffers) {
  return launcher.launch(reinterpret_cast<HloHostKernel>(handle), kernel, pointersOf(buffers),
                         compiledArch);
}

ErrorOr<double> HostDevice::timeKernel(DeviceKernel handle, const KernelSpec &kernel,
                                        const std::vector<DeviceBuffer> &buffers, int warmup,
                                        int iterations) {
  return timeRepeated(
      [&] {
        LaunchResult result = launch(handle, kernel, buffers);
        return result.ok() ? Status::success() : Status::failure(result.message);
      },
      warmup, iterations);
}

ErrorOr<double> HostDevice::timeCopy(size_t bytes, int warmup, int iterations) {
  std::vector<uint8_t> source(bytes, 1), target(bytes);
  return timeRepeated(
      [&] {
        std::memcpy(target.data(), source.data(), bytes);
        return Status::success();
      },
      warmup, iterations);
}

} // namespace hlo::runtime
