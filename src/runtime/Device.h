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
#include "support/ErrorOr.h"

#include <cstdint>
#include <optional>
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
  virtual Status loadCode(const std::string &path) = 0;
  virtual ErrorOr<DeviceKernel> findKernel(const KernelSpec &kernel) = 0;
  /// Loads another compiler's code (XLA's PTX for one kernel) beside the
  /// loaded code and finds `kernel` in it. Only a GPU runs PTX.
  virtual ErrorOr<DeviceKernel> loadKernel(const std::string &path, const KernelSpec &kernel) {
    (void)path, (void)kernel;
    return makeError("only a GPU runs other compilers' PTX");
  }

  virtual ErrorOr<DeviceBuffer> allocate(size_t bytes) = 0;
  /// The device memory in use by everything on it (a GPU: cuMemGetInfo's
  /// total less free); absent where the device cannot tell.
  virtual std::optional<int64_t> memoryInUse() { return std::nullopt; }
  /// Frees a buffer `allocate` gave (every buffer is freed with the device
  /// otherwise).
  virtual void release(DeviceBuffer buffer) = 0;
  virtual Status upload(DeviceBuffer buffer, const std::vector<uint8_t> &bytes) = 0;
  /// Reads `bytes.size()` bytes of the buffer into `bytes`.
  virtual Status download(DeviceBuffer buffer, std::vector<uint8_t> &bytes) = 0;
  /// Fills a buffer with a byte (so unwritten outputs are visible).
  virtual Status fill(DeviceBuffer buffer, size_t bytes, unsigned char value) = 0;

  /// Runs `kernel` with one pointer per buffer and waits for it.
  virtual LaunchResult launch(DeviceKernel handle, const KernelSpec &kernel,
                              const std::vector<DeviceBuffer> &buffers) = 0;
  /// Median milliseconds of `iterations` launches after `warmup` ones.
  virtual ErrorOr<double> timeKernel(DeviceKernel handle, const KernelSpec &kernel,
                                      const std::vector<DeviceBuffer> &buffers, int warmup,
                                      int iterations) = 0;
  /// Median milliseconds of a copy of `bytes` within the device's memory.
  virtual ErrorOr<double> timeCopy(size_t bytes, int warmup, int iterations) = 0;

  enum class LibraryOutcome { Ran, NotHere, Failed };
  /// What runLibraryStep did, and `message`: for Ran, where it ran; for
  /// NotHere, why not (empty: nothing to say); for Failed, the error.
  struct [[nodiscard]] LibraryResult {
    LibraryOutcome outcome = LibraryOutcome::NotHere;
    std::string message;
  };
  /// Runs library step `step` (a cuBLAS GEMM, ...) on the device over its
  /// argument and result buffers, as the library it names would, and waits
  /// for it. NotHere where the device cannot: the caller computes it
  /// another way (the interpreter).
  virtual LibraryResult runLibraryStep(const ProgramStep &step,
                                       const std::vector<DeviceBuffer> &arguments,
                                       const std::vector<DeviceBuffer> &results) {
    (void)step, (void)arguments, (void)results;
    return {LibraryOutcome::NotHere, ""};
  }
  /// Milliseconds of library step `step` on the device, timed as
  /// timeKernel times a kernel; a failure where the device does not run it.
  virtual ErrorOr<double> timeLibraryStep(const ProgramStep &step,
                                          const std::vector<DeviceBuffer> &arguments,
                                          const std::vector<DeviceBuffer> &results, int warmup,
                                          int iterations) {
    (void)step, (void)arguments, (void)results, (void)warmup, (void)iterations;
    return makeError("library steps are timed on a GPU only");
  }
};

} // namespace hlo::runtime

#endif // HLO_RUNTIME_DEVICE_H
