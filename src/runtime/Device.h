//===- Device.h - Where hlo-run runs kernels -------------------*- C++ -*-===//
//
// Owns the interface the kernel check (KernelCheckCommand.cpp) runs
// kernels through, so that one check serves both targets: a GPU through the
// CUDA driver (GpuContext) and this CPU through the host launcher
// (host/HostDevice), chosen by the manifest's "target". Buffers are
// addresses in the device's memory; a launch either completes, faults (the
// kernel did something a GPU reports or corrupts: an access outside a
// buffer, a barrier not all threads reach, a launch the device rejects), or
// fails for another reason.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_DEVICE_H
#define HLO_RUNTIME_DEVICE_H

#include "ManifestTypes.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hlo::runtime {

/// A buffer: its address in the device's memory.
using DeviceBuffer = uint64_t;
/// A kernel loaded on the device.
using DeviceKernel = void *;

struct LaunchResult {
  enum Status { Ok, Fault, Error } status = Ok;
  /// For Fault and Error: what happened (for a fault: where, and which
  /// thread).
  std::string message;
  bool ok() const { return status == Ok; }
};

class Device {
public:
  virtual ~Device() = default;

  /// "NVIDIA H100 80GB HBM3 (sm_90), driver 13.0", "host CPU (...)".
  virtual std::string description() const = 0;
  /// The device's architecture ("sm_90"); empty when it runs code compiled
  /// for any (the host).
  virtual std::string arch() const = 0;
  /// What times are measured on: "GPU" or "CPU".
  virtual const char *timeDomain() const = 0;
  /// How timeKernel and timeCopy turn `iterations` runs into one time.
  virtual std::string timingMethod(int iterations) const {
    return "median of " + std::to_string(iterations);
  }

  /// Loads the compiled code (PTX or cubin, or a host shared object).
  virtual bool loadCode(const std::string &path, std::string &error) = 0;
  virtual bool findKernel(const KernelSpec &kernel, DeviceKernel &handle,
                          std::string &error) = 0;

  virtual bool allocate(size_t bytes, DeviceBuffer &buffer, std::string &error) = 0;
  /// Frees a buffer `allocate` gave (every buffer is freed with the device
  /// otherwise).
  virtual void release(DeviceBuffer buffer) = 0;
  virtual bool upload(DeviceBuffer buffer, const std::vector<uint8_t> &bytes,
                      std::string &error) = 0;
  virtual bool download(DeviceBuffer buffer, std::vector<uint8_t> &bytes,
                        std::string &error) = 0;
  /// Fills a buffer with a byte (so unwritten outputs are visible).
  virtual bool fill(DeviceBuffer buffer, size_t bytes, unsigned char value,
                    std::string &error) = 0;

  /// Runs `kernel` with one pointer per buffer and waits for it.
  virtual LaunchResult launch(DeviceKernel handle, const KernelSpec &kernel,
                              const std::vector<DeviceBuffer> &buffers) = 0;
  /// Median milliseconds of `iterations` launches after `warmup` ones.
  virtual bool timeKernel(DeviceKernel handle, const KernelSpec &kernel,
                          const std::vector<DeviceBuffer> &buffers, int warmup,
                          int iterations, double &medianMs, std::string &error) = 0;
  /// Median milliseconds of a copy of `bytes` within the device's memory.
  virtual bool timeCopy(size_t bytes, int warmup, int iterations, double &medianMs,
                        std::string &error) = 0;

  enum class LibraryOutcome { Ran, NotHere, Failed };
  /// Runs library step `step` (a cuBLAS GEMM, ...) on the device over its
  /// argument and result buffers, as the library it names would, and waits
  /// for it. NotHere, with `message` saying why (empty: nothing to say),
  /// where the device cannot: the caller computes it another way (the
  /// interpreter). Failed: an error, in `message`.
  virtual LibraryOutcome runLibraryStep(const ProgramStep &step,
                                        const std::vector<DeviceBuffer> &arguments,
                                        const std::vector<DeviceBuffer> &results,
                                        std::string &message) {
    (void)step, (void)arguments, (void)results;
    message.clear();
    return LibraryOutcome::NotHere;
  }
};

} // namespace hlo::runtime

#endif // HLO_RUNTIME_DEVICE_H
