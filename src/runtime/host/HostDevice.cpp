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

/// Median milliseconds of `iterations` runs of `work` after `warmup`.
template <typename Work>
bool timeRepeated(Work work, int warmup, int iterations, double &medianMs) {
  for (int i = 0; i < warmup; ++i)
    if (!work())
      return false;
  std::vector<double> times;
  for (int i = 0; i < iterations; ++i) {
    auto start = std::chrono::steady_clock::now();
    if (!work())
      return false;
    times.push_back(std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count());
  }
  std::sort(times.begin(), times.end());
  medianMs = times.empty() ? 0 : times[times.size() / 2];
  return true;
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

bool HostDevice::loadCode(const std::string &path, std::string &error) {
  // dlopen searches the library path for names without a slash.
  std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  library = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *why = dlerror();
    error = "cannot load the host kernels: " + std::string(why ? why : "dlopen failed");
    return false;
  }
  return true;
}

bool HostDevice::findKernel(const KernelSpec &kernel, DeviceKernel &handle,
                            std::string &error) {
  handle = library ? dlsym(library, kernel.name.c_str()) : nullptr;
  if (!handle) {
    error = "finding kernel " + kernel.name + " failed: the shared object does not export it";
    return false;
  }
  return true;
}

void HostDevice::release(DeviceBuffer buffer) {
  auto found = std::find(allocations.begin(), allocations.end(),
                         reinterpret_cast<void *>(static_cast<uintptr_t>(buffer)));
  if (found == allocations.end())
    return;
  std::free(*found);
  allocations.erase(found);
}

bool HostDevice::allocate(size_t bytes, DeviceBuffer &buffer, std::string &error) {
  // Zero-size buffers still get an address; 64-byte alignment covers the
  // kernel ABI's 16.
  size_t size = std::max<size_t>((bytes + 63) / 64 * 64, 64);
  void *memory = std::aligned_alloc(64, size);
  if (!memory) {
    error = "cannot allocate " + std::to_string(bytes) + " bytes";
    return false;
  }
  allocations.push_back(memory);
  buffer = reinterpret_cast<uintptr_t>(memory);
  return true;
}

bool HostDevice::upload(DeviceBuffer buffer, const std::vector<uint8_t> &bytes,
                        std::string &) {
  if (!bytes.empty())
    std::memcpy(reinterpret_cast<void *>(static_cast<uintptr_t>(buffer)), bytes.data(),
                bytes.size());
  return true;
}

bool HostDevice::download(DeviceBuffer buffer, std::vector<uint8_t> &bytes, std::string &) {
  if (!bytes.empty())
    std::memcpy(bytes.data(), reinterpret_cast<void *>(static_cast<uintptr_t>(buffer)),
                bytes.size());
  return true;
}

bool HostDevice::fill(DeviceBuffer buffer, size_t bytes, unsigned char value, std::string &) {
  std::memset(reinterpret_cast<void *>(static_cast<uintptr_t>(buffer)), value, bytes);
  return true;
}

LaunchResult HostDevice::launch(DeviceKernel handle, const KernelSpec &kernel,
                                const std::vector<DeviceBuffer> &buffers) {
  return launcher.launch(reinterpret_cast<HloHostKernel>(handle), kernel, pointersOf(buffers),
                         compiledArch);
}

bool HostDevice::timeKernel(DeviceKernel handle, const KernelSpec &kernel,
                            const std::vector<DeviceBuffer> &buffers, int warmup,
                            int iterations, double &medianMs, std::string &error) {
  return timeRepeated(
      [&] {
        LaunchResult result = launch(handle, kernel, buffers);
        error = result.message;
        return result.ok();
      },
      warmup, iterations, medianMs);
}

bool HostDevice::timeCopy(size_t bytes, int warmup, int iterations, double &medianMs,
                          std::string &error) {
  std::vector<uint8_t> source(bytes, 1), target(bytes);
  return timeRepeated(
      [&] {
        std::memcpy(target.data(), source.data(), bytes);
        return true;
      },
      warmup, iterations, medianMs);
}

} // namespace hlo::runtime
