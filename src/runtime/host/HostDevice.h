//===- HostDevice.h - This CPU as the device hlo-run runs on ---*- C++ -*-===//
//
// Owns the host side of hlo-run's Device interface: the kernels' shared
// object (dlopen; hlo-run exports the runtime interface it references),
// buffers in host memory, launches through the HostLauncher, and wall-clock
// timing (CPU times, not GPU ones).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_HOST_HOSTDEVICE_H
#define HLO_RUNTIME_HOST_HOSTDEVICE_H

#include "Device.h"
#include "host/HostLauncher.h"

#include <memory>

namespace hlo::runtime {

class HostDevice : public Device {
public:
  /// `arch`: the architecture the kernels were compiled for (the launch
  /// limits); `hostThreads` = 0: one per hardware thread.
  HostDevice(std::string arch, unsigned hostThreads);
  ~HostDevice() override;

  std::string description() const override;
  std::string arch() const override { return ""; }
  const char *timeDomain() const override { return "CPU"; }
  Status loadCode(const std::string &path) override;
  ErrorOr<DeviceKernel> findKernel(const KernelSpec &kernel) override;
  ErrorOr<DeviceBuffer> allocate(size_t bytes) override;
  void release(DeviceBuffer buffer) override;
  Status upload(DeviceBuffer buffer, const std::vector<uint8_t> &bytes) override;
  Status download(DeviceBuffer buffer, std::vector<uint8_t> &bytes) override;
  Status fill(DeviceBuffer buffer, size_t bytes, unsigned char value) override;
  LaunchResult launch(DeviceKernel handle, const KernelSpec &kernel,
                      const std::vector<DeviceBuffer> &buffers) override;
  ErrorOr<double> timeKernel(DeviceKernel handle, const KernelSpec &kernel,
                              const std::vector<DeviceBuffer> &buffers, int warmup,
                              int iterations) override;
  ErrorOr<double> timeCopy(size_t bytes, int warmup, int iterations) override;

private:
  std::string compiledArch;
  HostLauncher launcher;
  void *library = nullptr;
  std::vector<void *> allocations;
};

} // namespace hlo::runtime

#endif // HLO_RUNTIME_HOST_HOSTDEVICE_H
