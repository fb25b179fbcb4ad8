//===- GpuContext.cpp - One GPU, its code and buffers ---------------------===//
#include "GpuContext.h"
#include "LaunchLimits.h"

#include "hlo_parser/SourceFile.h"

#include <algorithm>

namespace hlo::runtime {

std::unique_ptr<GpuContext> GpuContext::open(int ordinal, std::string &error) {
  std::unique_ptr<GpuContext> gpu(new GpuContext());
  Expected<std::unique_ptr<CudaDriver>> driver = CudaDriver::load();
  if (!driver) {
    error = driver.error();
    return nullptr;
  }
  gpu->driver = std::move(*driver);
  CudaDriver &d = *gpu->driver;
  CUresult initialized = d.init(0);
  if (initialized == CUDA_ERROR_NO_DEVICE) {
    error = "no CUDA device (the driver is present but sees no GPU)";
    return nullptr;
  }
  int count = 0;
  if (!gpu->check(initialized, "cuInit", error) ||
      !gpu->check(d.deviceGetCount(&count), "cuDeviceGetCount", error))
    return nullptr;
  if (ordinal < 0 || ordinal >= count) {
    error = "no CUDA device " + std::to_string(ordinal) + " (" + std::to_string(count) +
            " present)";
    return nullptr;
  }
  char deviceName[256] = {0};
  int major = 0, minor = 0;
  if (!gpu->check(d.deviceGet(&gpu->device, ordinal), "cuDeviceGet", error) ||
      !gpu->check(d.deviceGetName(deviceName, sizeof deviceName, gpu->device),
                  "cuDeviceGetName", error) ||
      !gpu->check(d.deviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                       gpu->device),
                  "cuDeviceGetAttribute", error) ||
      !gpu->check(d.deviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                                       gpu->device),
                  "cuDeviceGetAttribute", error) ||
      !gpu->check(d.driverGetVersion(&gpu->driverVersion), "cuDriverGetVersion", error) ||
      !gpu->check(d.primaryCtxRetain(&gpu->context, gpu->device), "cuDevicePrimaryCtxRetain",
                  error) ||
      !gpu->check(d.ctxSetCurrent(gpu->context), "cuCtxSetCurrent", error))
    return nullptr;
  gpu->name = deviceName;
  gpu->archName = "sm_" + std::to_string(major * 10 + minor);
  // The launch limits as this device reports them (the table's for its
  // architecture where an attribute cannot be read).
  gpu->limits = launchLimitsFor(gpu->archName);
  auto attribute = [&](CUdevice_attribute which, int64_t &limit) {
    int value = 0;
    if (d.deviceGetAttribute(&value, which, gpu->device) == CUDA_SUCCESS && value > 0)
      limit = value;
  };
  attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, gpu->limits.threadsPerBlock);
  attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, gpu->limits.block[0]);
  attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, gpu->limits.block[1]);
  attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, gpu->limits.block[2]);
  attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, gpu->limits.grid[0]);
  attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, gpu->limits.grid[1]);
  attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, gpu->limits.grid[2]);
  attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
            gpu->limits.sharedMemoryPerBlock);
  return gpu;
}

GpuContext::~GpuContext() {
  cublasLt.reset(); // its handle belongs to the context
  if (!driver)
    return;
  for (CUdeviceptr pointer : allocations)
    driver->memFree(pointer);
  if (module)
    driver->moduleUnload(module);
  if (context)
    driver->primaryCtxRelease(device);
}

std::string GpuContext::description() const {
  return name + " (" + archName + "), driver " + std::to_string(driverVersion / 1000) + "." +
         std::to_string(driverVersion % 1000 / 10);
}

bool GpuContext::check(CUresult result, const char *what, std::string &error) const {
  if (result == CUDA_SUCCESS)
    return true;
  error = std::string(what) + " failed: " + driver->describe(result);
  if (CudaDriver::isSticky(result) && stickyError.empty())
    stickyError = error;
  return false;
}

bool GpuContext::usable(std::string &error) const {
  if (stickyError.empty())
    return true;
  error = "the CUDA context is unusable after an earlier error (" + stickyError +
          "); nothing more runs on this device";
  return false;
}

bool GpuContext::loadCode(const std::string &path, std::string &error) {
  if (!usable(error))
    return false;
  std::shared_ptr<SourceFile> code = SourceFile::read(path, error);
  return code && loadImage(std::string(code->text()), error);
}

bool GpuContext::loadImage(const std::string &image, std::string &error) {
  // PTX must be NUL-terminated; the JIT log explains rejected PTX.
  std::string data = image;
  data.push_back('\0');
  std::vector<char> log(16384, 0);
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log.data(), reinterpret_cast<void *>(log.size())};
  CUresult result = driver->moduleLoadDataEx(&module, data.data(), 2, options, values);
  if (result != CUDA_SUCCESS) {
    check(result, "loading the PTX/cubin", error);
    if (log[0])
      error += "\n" + std::string(log.data());
    module = nullptr;
    return false;
  }
  return true;
}

bool GpuContext::findKernel(const KernelSpec &kernel, DeviceKernel &handle,
                            std::string &error) {
  CUfunction function = nullptr;
  if (!usable(error) ||
      !check(driver->moduleGetFunction(&function, module, kernel.name.c_str()),
             ("finding kernel " + kernel.name).c_str(), error))
    return false;
  // What the loaded code says must agree with the manifest the launch
  // follows: the threads a block may have (registers and .maxntid/.reqntid
  // bound it) and the static shared memory the manifest reports.
  int maxThreads = 0, staticShared = 0, registers = 0;
  if (!check(driver->funcGetAttribute(&maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                      function),
             "cuFuncGetAttribute", error) ||
      !check(driver->funcGetAttribute(&staticShared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                                      function),
             "cuFuncGetAttribute", error) ||
      !check(driver->funcGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, function),
             "cuFuncGetAttribute", error))
    return false;
  int64_t threads = int64_t(kernel.block[0]) * kernel.block[1] * kernel.block[2];
  if (threads > maxThreads) {
    error = "kernel " + kernel.name + ": the manifest's block of " + std::to_string(threads) +
            " threads exceeds the " + std::to_string(maxThreads) +
            " the loaded code allows (its .reqntid or .maxntid, or its " +
            std::to_string(registers) + " registers per thread)";
    return false;
  }
  // The manifest counts every tile the emitter allocated; the code may
  // have less (LLVM drops unused tiles, ptxas packs scalars), never more.
  if (static_cast<int64_t>(staticShared) > kernel.sharedMemoryBytes) {
    error = "kernel " + kernel.name + ": the loaded code has " + std::to_string(staticShared) +
            " bytes of static shared memory, more than the manifest's " +
            std::to_string(kernel.sharedMemoryBytes);
    return false;
  }
  handle = function;
  return true;
}

bool GpuContext::allocate(size_t bytes, DeviceBuffer &buffer, std::string &error) {
  // Zero-size buffers still get an address.
  CUdeviceptr pointer = 0;
  if (!usable(error) || !check(driver->memAlloc(&pointer, std::max<size_t>(bytes, 256)), "cuMemAlloc", error))
    return false;
  allocations.push_back(pointer);
  buffer = pointer;
  return true;
}

void GpuContext::release(DeviceBuffer buffer) {
  auto found = std::find(allocations.begin(), allocations.end(), buffer);
  if (found == allocations.end())
    return;
  allocations.erase(found);
  if (stickyError.empty()) // a dead context frees nothing more
    driver->memFree(buffer);
}

bool GpuContext::upload(DeviceBuffer pointer, const std::vector<uint8_t> &bytes,
                        std::string &error) {
  return usable(error) && (bytes.empty() ||
         check(driver->memcpyHtoD(pointer, bytes.data(), bytes.size()), "cuMemcpyHtoD", error));
}

bool GpuContext::download(DeviceBuffer pointer, std::vector<uint8_t> &bytes,
                          std::string &error) {
  return usable(error) && (bytes.empty() ||
         check(driver->memcpyDtoH(bytes.data(), pointer, bytes.size()), "cuMemcpyDtoH", error));
}

bool GpuContext::fill(DeviceBuffer pointer, size_t bytes, unsigned char value,
                      std::string &error) {
  return usable(error) &&
         (bytes == 0 || check(driver->memsetD8(pointer, value, bytes), "cuMemsetD8", error));
}

bool GpuContext::enqueue(CUfunction function, const KernelSpec &kernel,
                         const std::vector<DeviceBuffer> &buffers, std::string &error) {
  std::vector<CUdeviceptr> arguments(buffers.begin(), buffers.end());
  std::vector<void *> pointers;
  for (CUdeviceptr &argument : arguments)
    pointers.push_back(&argument);
  // The manifest's shared memory is the kernel's static shared memory (the
  // .shared variables of its code, which the driver reserves by itself):
  // the launch asks for no dynamic shared memory. Passing it here again
  // would reserve it twice and fail above 24 KB of tiles.
  constexpr unsigned kDynamicSharedBytes = 0;
  return check(driver->launchKernel(function, kernel.grid[0], kernel.grid[1], kernel.grid[2],
                                    kernel.block[0], kernel.block[1], kernel.block[2],
                                    kDynamicSharedBytes, nullptr, pointers.data(), nullptr),
               ("launching " + kernel.name).c_str(), error);
}

/// Errors that the kernel caused rather than the runner: what it did while
/// running (every sticky error), and a launch the device refuses for the
/// kernel's resources.
static bool isKernelFault(CUresult result) {
  return CudaDriver::isSticky(result) || result == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
}

LaunchResult GpuContext::launch(DeviceKernel handle, const KernelSpec &kernel,
                                const std::vector<DeviceBuffer> &buffers) {
  std::string rejected = checkLaunch(kernel, limits, archName);
  if (!rejected.empty())
    return {LaunchResult::Fault, "the launch is invalid: " + rejected};
  std::string error;
  if (!usable(error))
    return {LaunchResult::Error, error};
  auto function = static_cast<CUfunction>(handle);
  // checkLaunch passed: a configuration the device still refuses is the
  // kernel's (its registers, its shared memory).
  if (!enqueue(function, kernel, buffers, error))
    return {LaunchResult::Fault, "the device refused the launch: " + error};
  CUresult result = driver->ctxSynchronize();
  if (result == CUDA_SUCCESS)
    return {};
  check(result, ("running " + kernel.name).c_str(), error);
  return {isKernelFault(result) ? LaunchResult::Fault : LaunchResult::Error, error};
}

template <typename Work>
bool GpuContext::timeRepeated(Work work, int warmup, int iterations, double &medianMs,
                              std::string &error) {
  for (int i = 0; i < warmup; ++i)
    if (!work())
      return false;
  if (!check(driver->ctxSynchronize(), "warm-up", error))
    return false;
  CUevent start = nullptr, stop = nullptr;
  if (!check(driver->eventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate", error) ||
      !check(driver->eventCreate(&stop, CU_EVENT_DEFAULT), "cuEventCreate", error)) {
    if (start)
      driver->eventDestroy(start);
    return false;
  }
  // Launches are queued back to back between two events, so the GPU never
  // waits for the host to submit the next one (one event pair per launch
  // would time the host's submission too: several microseconds on a kernel
  // of two). Each batch gives a mean; the median of the batches is kept.
  std::vector<double> times;
  bool ok = true;
  for (int batch = 0; batch < kTimingBatches && ok; ++batch) {
    float ms = 0;
    ok = check(driver->eventRecord(start, nullptr), "cuEventRecord", error);
    for (int i = 0; i < iterations && ok; ++i)
      ok = work();
    ok = ok && check(driver->eventRecord(stop, nullptr), "cuEventRecord", error) &&
         check(driver->eventSynchronize(stop), "cuEventSynchronize", error) &&
         check(driver->eventElapsedTime(&ms, start, stop), "cuEventElapsedTime", error);
    times.push_back(static_cast<double>(ms) / std::max(iterations, 1));
  }
  driver->eventDestroy(start);
  driver->eventDestroy(stop);
  if (!ok)
    return false;
  std::sort(times.begin(), times.end());
  medianMs = times.empty() ? 0 : times[times.size() / 2];
  return true;
}

bool GpuContext::timeKernel(DeviceKernel handle, const KernelSpec &kernel,
                            const std::vector<DeviceBuffer> &buffers, int warmup,
                            int iterations, double &medianMs, std::string &error) {
  if (!usable(error))
    return false;
  auto function = static_cast<CUfunction>(handle);
  return timeRepeated([&] { return enqueue(function, kernel, buffers, error); }, warmup,
                      iterations, medianMs, error);
}

bool GpuContext::timeCopy(size_t bytes, int warmup, int iterations, double &medianMs,
                          std::string &error) {
  DeviceBuffer source = 0, target = 0;
  bool ok = allocate(bytes, source, error) && allocate(bytes, target, error) &&
            fill(source, bytes, 1, error) &&
            timeRepeated(
                [&] {
                  return check(driver->memcpyDtoD(target, source, bytes), "cuMemcpyDtoD",
                               error);
                },
                warmup, iterations, medianMs, error);
  // Give the copy buffers back now, on every path: a bundle times many
  // kernels.
  release(source);
  release(target);
  return ok;
}

Device::LibraryOutcome GpuContext::runLibraryStep(const ProgramStep &step,
                                                  const std::vector<DeviceBuffer> &arguments,
                                                  const std::vector<DeviceBuffer> &results,
                                                  std::string &message) {
  if (!usable(message))
    return LibraryOutcome::Failed;
  if (!isGemmLibraryCall(step.target)) {
    message = "hlo-run runs no library for " + step.target + " on the GPU";
    return LibraryOutcome::NotHere;
  }
  std::variant<GemmPlan, std::string> plan = planGemm(step);
  if (auto *reason = std::get_if<std::string>(&plan)) {
    message = "cuBLASLt cannot express " + *reason;
    return LibraryOutcome::NotHere;
  }
  if (!cublasLtTried) {
    cublasLtTried = true;
    Expected<std::unique_ptr<CublasLt>> loaded = CublasLt::load();
    if (loaded)
      cublasLt = std::move(*loaded);
    else
      cublasLtError = loaded.error();
  }
  if (!cublasLt) {
    message = cublasLtError;
    return LibraryOutcome::NotHere;
  }
  CublasLt::RunResult ran = cublasLt->run(std::get<GemmPlan>(plan), arguments, results);
  switch (ran.outcome) {
  case CublasLt::Outcome::Unsupported:
    message = ran.message;
    return LibraryOutcome::NotHere;
  case CublasLt::Outcome::Failed:
    message = ran.message;
    return LibraryOutcome::Failed;
  case CublasLt::Outcome::Ran:
    break;
  }
  if (!check(driver->ctxSynchronize(), "running cublasLtMatmul", message))
    return LibraryOutcome::Failed;
  message = "on the GPU by " + cublasLt->description();
  return LibraryOutcome::Ran;
}

} // namespace hlo::runtime
