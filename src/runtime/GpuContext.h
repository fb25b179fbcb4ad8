//===- GpuContext.h - One GPU, its code and buffers ------------*- C++ -*-===//
//
// Owns a device's primary context for the run, as hlo-run's Device: loading
// the PTX or cubin, device buffers (freed on destruction), copies,
// launching a kernel as the manifest describes it, checked against what the
// driver says of the loaded code (errors the kernel caused, such as an
// illegal address, are faults; after a sticky one nothing more runs), and
// timing with CUDA events
// (kernels, and the device-to-device copy that the achieved bandwidth is
// compared with).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_GPUCONTEXT_H
#define HLO_RUNTIME_GPUCONTEXT_H

#include "CublasLt.h"
#include "CudaDriver.h"
#include "Device.h"
#include "LaunchLimits.h"

#include <memory>
#include <string>
#include <vector>

namespace hlo::runtime {

class GpuContext : public Device {
public:
  /// Opens device `ordinal`, or says why not (no driver, no such device).
  static ErrorOr<std::unique_ptr<GpuContext>> open(int ordinal);
  ~GpuContext() override;
  GpuContext(const GpuContext &) = delete;
  GpuContext &operator=(const GpuContext &) = delete;

  /// "NVIDIA H100 80GB HBM3 (sm_90), driver 13.0".
  std::string description() const override;
  /// "sm_90".
  std::string arch() const override { return archName; }
  const char *timeDomain() const override { return "GPU"; }
  std::string timingMethod(int iterations) const override {
    return "mean of " + std::to_string(iterations) + " back-to-back launches, median of " +
           std::to_string(kTimingBatches) + " batches";
  }
  static constexpr int kTimingBatches = 5;

  /// Loads PTX (JIT-compiled by the driver) or a cubin from `path`.
  Status loadCode(const std::string &path) override;
  ErrorOr<DeviceKernel> findKernel(const KernelSpec &kernel) override;
  /// Loads the PTX or cubin at `path` as a module of its own (kept until
  /// the context closes) and finds `kernel` in it, checked as findKernel's.
  ErrorOr<DeviceKernel> loadKernel(const std::string &path, const KernelSpec &kernel) override;

  std::optional<int64_t> memoryInUse() override;
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
  /// GEMM custom-calls through cuBLASLt (opened on the first one); other
  /// library calls, GEMMs it cannot express and machines without it:
  /// NotHere, saying why.
  LibraryResult runLibraryStep(const ProgramStep &step,
                               const std::vector<DeviceBuffer> &arguments,
                               const std::vector<DeviceBuffer> &results) override;
  /// A GEMM step: its cublasLtMatmul (descriptors and algorithm chosen
  /// once) timed as kernels are.
  ErrorOr<double> timeLibraryStep(const ProgramStep &step,
                                  const std::vector<DeviceBuffer> &arguments,
                                  const std::vector<DeviceBuffer> &results, int warmup,
                                  int iterations) override;

private:
  GpuContext() = default;
  /// A GEMM step through cuBLASLt, enqueued once or through `repeat`.
  LibraryResult runGemm(const ProgramStep &step, const std::vector<DeviceBuffer> &arguments,
                        const std::vector<DeviceBuffer> &results,
                        const CublasLt::Repeater *repeat);
  /// A failure if `result` is an error; a sticky one (see
  /// CudaDriver::isSticky) also ends the context for every later call.
  Status check(CUresult result, const char *what) const;
  /// A failure once a sticky error has ended the context.
  Status usable() const;
  /// Loads PTX or a cubin image into `module`.
  Status loadImage(const std::string &image, CUmodule &module);
  /// `kernel` in `module`, its launch checked against what the driver
  /// says of the code (threads, registers, static shared memory).
  ErrorOr<DeviceKernel> functionIn(CUmodule module, const KernelSpec &kernel);
  /// A launch's kernel arguments: each buffer's address, or the tensor
  /// map of it the manifest asks for.
  struct LaunchArguments {
    std::vector<CUdeviceptr> addresses;
    std::vector<CUtensorMap> tensorMaps;
    std::vector<bool> byMap;
  };
  ErrorOr<LaunchArguments> launchArguments(const KernelSpec &kernel,
                                           const std::vector<DeviceBuffer> &buffers) const;
  Status enqueue(CUfunction function, const KernelSpec &kernel, LaunchArguments &arguments);
  /// The tensor map the manifest asks for of `buffer` (TensorMapLayout.h).
  ErrorOr<CUtensorMap> encodeTensorMap(const KernelParameter &parameter,
                                       DeviceBuffer buffer) const;
  /// Median milliseconds of `kTimingBatches` batches of `iterations` runs
  /// of `work` (returning a Status) after `warmup` ones.
  template <typename Work> ErrorOr<double> timeRepeated(Work work, int warmup, int iterations);

  std::unique_ptr<CudaDriver> driver;
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUmodule module = nullptr;
  /// Modules loadKernel loaded (XLA's kernels).
  std::vector<CUmodule> otherModules;
  std::vector<CUdeviceptr> allocations;
  std::string name, archName;
  /// The first sticky error; empty while the context is usable.
  mutable std::string stickyError;
  int driverVersion = 0;
  /// The device's launch limits (cuDeviceGetAttribute).
  LaunchLimits limits;
  /// Opened on the first GEMM step; its error if it could not be.
  std::unique_ptr<CublasLt> cublasLt;
  std::string cublasLtError;
  bool cublasLtTried = false;
};

} // namespace hlo::runtime

#endif // HLO_RUNTIME_GPUCONTEXT_H
