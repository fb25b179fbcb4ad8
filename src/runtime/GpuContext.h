//===- GpuContext.h - One GPU, its code and buffers ------------*- C++ -*-===//
//
// Owns a device's primary context for the run: loading the PTX or cubin,
// device buffers (freed on destruction), copies, launching a kernel as the
// manifest describes it, and timing with CUDA events (kernels, and the
// device-to-device copy that the achieved bandwidth is compared with).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_GPUCONTEXT_H
#define HLO_RUNTIME_GPUCONTEXT_H

#include "CudaDriver.h"
#include "LaunchManifest.h"

#include <memory>
#include <string>
#include <vector>

namespace hlo::runtime {

class GpuContext {
public:
  /// Opens device `ordinal`; null with `error` set when there is no driver
  /// or no such device.
  static std::unique_ptr<GpuContext> open(int ordinal, std::string &error);
  ~GpuContext();
  GpuContext(const GpuContext &) = delete;
  GpuContext &operator=(const GpuContext &) = delete;

  /// "NVIDIA H100 80GB HBM3 (sm_90), driver 13.0".
  std::string description() const;
  /// "sm_90".
  const std::string &arch() const { return archName; }

  /// Loads PTX (JIT-compiled by the driver) or a cubin.
  bool loadCode(const std::string &image, std::string &error);
  bool findKernel(const std::string &name, CUfunction &function, std::string &error);

  bool allocate(size_t bytes, CUdeviceptr &pointer, std::string &error);
  bool upload(CUdeviceptr pointer, const std::vector<uint8_t> &bytes, std::string &error);
  bool download(CUdeviceptr pointer, std::vector<uint8_t> &bytes, std::string &error);
  /// Fills a buffer with a byte (so unwritten outputs are visible).
  bool fill(CUdeviceptr pointer, size_t bytes, unsigned char value, std::string &error);

  /// Launches `kernel` with one pointer argument per buffer and waits.
  bool launch(CUfunction function, const KernelSpec &kernel,
              const std::vector<CUdeviceptr> &buffers, std::string &error);
  /// Median milliseconds of `iterations` launches after `warmup` ones.
  bool timeKernel(CUfunction function, const KernelSpec &kernel,
                  const std::vector<CUdeviceptr> &buffers, int warmup, int iterations,
                  double &medianMs, std::string &error);
  /// Median milliseconds of a device-to-device copy of `bytes`.
  bool timeCopy(size_t bytes, int warmup, int iterations, double &medianMs,
                std::string &error);

private:
  GpuContext() = default;
  bool check(CUresult result, const char *what, std::string &error) const;
  bool enqueue(CUfunction function, const KernelSpec &kernel,
               const std::vector<CUdeviceptr> &buffers, std::string &error);
  template <typename Work>
  bool timeRepeated(Work work, int warmup, int iterations, double &medianMs,
                    std::string &error);

  std::unique_ptr<CudaDriver> driver;
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUmodule module = nullptr;
  std::vector<CUdeviceptr> allocations;
  std::string name, archName;
  int driverVersion = 0;
};

} // namespace hlo::runtime

#endif // HLO_RUNTIME_GPUCONTEXT_H
