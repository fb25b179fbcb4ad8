//===- GpuContext.cpp - One GPU, its code and buffers ---------------------===//
#include "GpuContext.h"
#include "LaunchLimits.h"
#include "TensorMapLayout.h"

#include "hlo_parser/SourceFile.h"

#include <algorithm>

namespace hlo::runtime {

ErrorOr<std::unique_ptr<GpuContext>> GpuContext::open(int ordinal) {
  std::unique_ptr<GpuContext> gpu(new GpuContext());
  ErrorOr<std::unique_ptr<CudaDriver>> driver = CudaDriver::load();
  if (!driver)
    return driver.status();
  gpu->driver = std::move(*driver);
  CudaDriver &d = *gpu->driver;
  CUresult initialized = d.init(0);
  if (initialized == CUDA_ERROR_NO_DEVICE)
    return Status::failure("no CUDA device (the driver is present but sees no GPU)");
  int count = 0;
  Status status = gpu->check(initialized, "cuInit");
  if (status)
    status = gpu->check(d.deviceGetCount(&count), "cuDeviceGetCount");
  if (!status)
    return status;
  if (ordinal < 0 || ordinal >= count)
    return Status::failure("no CUDA device " + std::to_string(ordinal) + " (" +
                           std::to_string(count) + " present)");
  char deviceName[256] = {0};
  int major = 0, minor = 0;
  // Each driver call in turn, up to the first that fails.
  status = gpu->check(d.deviceGet(&gpu->device, ordinal), "cuDeviceGet");
  if (status)
    status = gpu->check(d.deviceGetName(deviceName, sizeof deviceName, gpu->device),
                        "cuDeviceGetName");
  if (status)
    status = gpu->check(
        d.deviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, gpu->device),
        "cuDeviceGetAttribute");
  if (status)
    status = gpu->check(
        d.deviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, gpu->device),
        "cuDeviceGetAttribute");
  if (status)
    status = gpu->check(d.driverGetVersion(&gpu->driverVersion), "cuDriverGetVersion");
  if (status)
    status = gpu->check(d.primaryCtxRetain(&gpu->context, gpu->device),
                        "cuDevicePrimaryCtxRetain");
  if (status)
    status = gpu->check(d.ctxSetCurrent(gpu->context), "cuCtxSetCurrent");
  if (!status)
    return status;
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
  for (CUmodule other : otherModules)
    driver->moduleUnload(other);
  if (context)
    driver->primaryCtxRelease(device);
}

std::string GpuContext::description() const {
  return name + " (" + archName + "), driver " + std::to_string(driverVersion / 1000) + "." +
         std::to_string(driverVersion % 1000 / 10);
}

Status GpuContext::check(CUresult result, const char *what) const {
  if (result == CUDA_SUCCESS)
    return Status::success();
  std::string error = std::string(what) + " failed: " + driver->describe(result);
  if (CudaDriver::isSticky(result) && stickyError.empty())
    stickyError = error;
  return Status::failure(std::move(error));
}

Status GpuContext::usable() const {
  if (stickyError.empty())
    return Status::success();
  return Status::failure("the CUDA context is unusable after an earlier error (" +
                         stickyError + "); nothing more runs on this device");
}

Status GpuContext::loadCode(const std::string &path) {
  if (Status status = usable(); !status)
    return status;
  ErrorOr<std::shared_ptr<SourceFile>> code = SourceFile::read(path);
  if (!code)
    return code.status();
  return loadImage(std::string((*code)->text()), module);
}

ErrorOr<DeviceKernel> GpuContext::loadKernel(const std::string &path, const KernelSpec &kernel) {
  if (Status status = usable(); !status)
    return status;
  ErrorOr<std::shared_ptr<SourceFile>> code = SourceFile::read(path);
  if (!code)
    return code.status();
  CUmodule loaded = nullptr;
  if (Status status = loadImage(std::string((*code)->text()), loaded); !status)
    return Status::failure(path + ": " + status.error());
  otherModules.push_back(loaded);
  return functionIn(loaded, kernel);
}

Status GpuContext::loadImage(const std::string &image, CUmodule &module) {
  // PTX must be NUL-terminated; the JIT log explains rejected PTX.
  std::string data = image;
  data.push_back('\0');
  std::vector<char> log(16384, 0);
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log.data(), reinterpret_cast<void *>(log.size())};
  CUresult result = driver->moduleLoadDataEx(&module, data.data(), 2, options, values);
  if (result != CUDA_SUCCESS) {
    std::string error = check(result, "loading the PTX/cubin").error();
    if (log[0])
      error += "\n" + std::string(log.data());
    module = nullptr;
    return Status::failure(std::move(error));
  }
  return Status::success();
}

ErrorOr<DeviceKernel> GpuContext::findKernel(const KernelSpec &kernel) {
  return functionIn(module, kernel);
}

ErrorOr<DeviceKernel> GpuContext::functionIn(CUmodule module, const KernelSpec &kernel) {
  CUfunction function = nullptr;
  Status status = usable();
  if (status)
    status = check(driver->moduleGetFunction(&function, module, kernel.name.c_str()),
                   ("finding kernel " + kernel.name).c_str());
  if (!status)
    return status;
  // What the loaded code says must agree with the manifest the launch
  // follows: the threads a block may have (registers and .maxntid/.reqntid
  // bound it) and the static shared memory the manifest reports.
  int maxThreads = 0, staticShared = 0, registers = 0;
  status = check(
      driver->funcGetAttribute(&maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, function),
      "cuFuncGetAttribute");
  if (status)
    status = check(
        driver->funcGetAttribute(&staticShared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function),
        "cuFuncGetAttribute");
  if (status)
    status = check(driver->funcGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, function),
                   "cuFuncGetAttribute");
  if (!status)
    return status;
  int64_t threads = int64_t(kernel.block[0]) * kernel.block[1] * kernel.block[2];
  if (threads > maxThreads)
    return Status::failure("kernel " + kernel.name + ": the manifest's block of " +
                           std::to_string(threads) + " threads exceeds the " +
                           std::to_string(maxThreads) +
                           " the loaded code allows (its .reqntid or .maxntid, or its " +
                           std::to_string(registers) + " registers per thread)");
  if (kernel.maxRegisters && registers > static_cast<int>(kernel.maxRegisters))
    return Status::failure("kernel " + kernel.name + ": the loaded code uses " +
                           std::to_string(registers) + " registers per thread, more than " +
                           "the manifest's bound of " + std::to_string(kernel.maxRegisters));
  // The manifest counts every tile the emitter allocated; the code may
  // have less (LLVM drops unused tiles, ptxas packs scalars), never more.
  if (static_cast<int64_t>(staticShared) > kernel.sharedMemoryBytes)
    return Status::failure("kernel " + kernel.name + ": the loaded code has " +
                           std::to_string(staticShared) +
                           " bytes of static shared memory, more than the manifest's " +
                           std::to_string(kernel.sharedMemoryBytes));
  return DeviceKernel(function);
}

ErrorOr<DeviceBuffer> GpuContext::allocate(size_t bytes) {
  // Zero-size buffers still get an address.
  CUdeviceptr pointer = 0;
  Status status = usable();
  if (status)
    status = check(driver->memAlloc(&pointer, std::max<size_t>(bytes, 256)), "cuMemAlloc");
  if (!status)
    return status;
  allocations.push_back(pointer);
  return DeviceBuffer(pointer);
}

std::optional<int64_t> GpuContext::memoryInUse() {
  size_t free = 0, total = 0;
  if (!driver->memGetInfo || !usable() || driver->memGetInfo(&free, &total) != CUDA_SUCCESS)
    return std::nullopt;
  return static_cast<int64_t>(total - free);
}

void GpuContext::release(DeviceBuffer buffer) {
  auto found = std::find(allocations.begin(), allocations.end(), buffer);
  if (found == allocations.end())
    return;
  allocations.erase(found);
  if (stickyError.empty()) // a dead context frees nothing more
    driver->memFree(buffer);
}

Status GpuContext::upload(DeviceBuffer pointer, const std::vector<uint8_t> &bytes) {
  if (Status status = usable(); !status || bytes.empty())
    return status;
  return check(driver->memcpyHtoD(pointer, bytes.data(), bytes.size()), "cuMemcpyHtoD");
}

Status GpuContext::download(DeviceBuffer pointer, std::vector<uint8_t> &bytes) {
  if (Status status = usable(); !status || bytes.empty())
    return status;
  return check(driver->memcpyDtoH(bytes.data(), pointer, bytes.size()), "cuMemcpyDtoH");
}

Status GpuContext::fill(DeviceBuffer pointer, size_t bytes, unsigned char value) {
  if (Status status = usable(); !status || bytes == 0)
    return status;
  return check(driver->memsetD8(pointer, value, bytes), "cuMemsetD8");
}

static CUtensorMapDataType driverElement(TensorMapElement element) {
  switch (element) {
  case TensorMapElement::U8: return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  case TensorMapElement::U16: return CU_TENSOR_MAP_DATA_TYPE_UINT16;
  case TensorMapElement::U32: return CU_TENSOR_MAP_DATA_TYPE_UINT32;
  case TensorMapElement::S32: return CU_TENSOR_MAP_DATA_TYPE_INT32;
  case TensorMapElement::U64: return CU_TENSOR_MAP_DATA_TYPE_UINT64;
  case TensorMapElement::S64: return CU_TENSOR_MAP_DATA_TYPE_INT64;
  case TensorMapElement::F16: return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case TensorMapElement::BF16: return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case TensorMapElement::F32: return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case TensorMapElement::F64: return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  }
  return CU_TENSOR_MAP_DATA_TYPE_UINT8;
}

static CUtensorMapSwizzle driverSwizzle(int bytes) {
  switch (bytes) {
  case 32: return CU_TENSOR_MAP_SWIZZLE_32B;
  case 64: return CU_TENSOR_MAP_SWIZZLE_64B;
  case 128: return CU_TENSOR_MAP_SWIZZLE_128B;
  default: return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

ErrorOr<CUtensorMap> GpuContext::encodeTensorMap(const KernelParameter &parameter,
                                                 DeviceBuffer buffer) const {
  ErrorOr<TensorMapLayout> layout = tensorMapLayout(parameter);
  if (!layout)
    return makeError(layout.error());
  CUtensorMap map;
  std::array<cuuint32_t, 5> elementStrides = {1, 1, 1, 1, 1};
  std::array<cuuint64_t, 5> dims;
  std::array<cuuint64_t, 4> strides;
  std::array<cuuint32_t, 5> box;
  for (int i = 0; i < 5; ++i) {
    dims[i] = layout->dims[i];
    box[i] = layout->box[i];
    if (i < 4)
      strides[i] = layout->strides[i];
  }
  // Boxes past the buffer's edge read zeros (FLOAT_OOB_FILL_NONE) and
  // write nothing; lines are promoted to L2 in 128-byte sectors.
  if (Status status = check(driver->tensorMapEncodeTiled(
                                &map, driverElement(layout->element),
                                static_cast<cuuint32_t>(layout->rank),
                                reinterpret_cast<void *>(static_cast<CUdeviceptr>(buffer)),
                                dims.data(), strides.data(), box.data(), elementStrides.data(),
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                driverSwizzle(layout->swizzleBytes),
                                CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
                            "cuTensorMapEncodeTiled");
      !status)
    return makeError(status.error());
  return map;
}

ErrorOr<GpuContext::LaunchArguments>
GpuContext::launchArguments(const KernelSpec &kernel,
                            const std::vector<DeviceBuffer> &buffers) const {
  // Each parameter is its buffer's address, or a tensor map of the buffer
  // passed by value (the kernel declares it `.param .align 64 .b8 [128]`),
  // encoded once for all the launches on these buffers.
  LaunchArguments arguments;
  arguments.addresses.assign(buffers.begin(), buffers.end());
  arguments.tensorMaps.resize(buffers.size());
  arguments.byMap.assign(buffers.size(), false);
  for (size_t i = 0; i < buffers.size() && i < kernel.parameters.size(); ++i) {
    if (!kernel.parameters[i].tensorMap)
      continue;
    ErrorOr<CUtensorMap> map = encodeTensorMap(kernel.parameters[i], buffers[i]);
    if (!map)
      return makeError("kernel " + kernel.name + " parameter " + std::to_string(i) + ": " +
                       map.error());
    arguments.tensorMaps[i] = *map;
    arguments.byMap[i] = true;
  }
  return arguments;
}

Status GpuContext::enqueue(CUfunction function, const KernelSpec &kernel,
                           LaunchArguments &arguments) {
  std::vector<void *> pointers;
  for (size_t i = 0; i < arguments.addresses.size(); ++i)
    pointers.push_back(arguments.byMap[i] ? static_cast<void *>(&arguments.tensorMaps[i])
                                          : static_cast<void *>(&arguments.addresses[i]));
  // The manifest's shared_memory_bytes is the kernel's static shared
  // memory (the .shared variables of its code, which the driver reserves
  // by itself); the launch asks only for the dynamic shared memory on top.
  // Past 48 KB in all, the kernel must opt in (checkLaunch keeps the total
  // within the device's opt-in limit).
  unsigned dynamicShared = kernel.dynamicSharedMemoryBytes;
  if (uint64_t(kernel.sharedMemoryBytes) + dynamicShared > 48 * 1024)
    if (Status status = check(driver->funcSetAttribute(
                                  function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                  static_cast<int>(dynamicShared)),
                              ("opting " + kernel.name + " into its dynamic shared memory").c_str());
        !status)
      return status;
  if (!kernel.cluster)
    return check(driver->launchKernel(function, kernel.grid[0], kernel.grid[1], kernel.grid[2],
                                      kernel.block[0], kernel.block[1], kernel.block[2],
                                      dynamicShared, nullptr, pointers.data(), nullptr),
                 ("launching " + kernel.name).c_str());
  // Thread-block clusters: more than 8 blocks (the portable size) only
  // where the kernel opts in.
  const std::array<unsigned, 3> &cluster = *kernel.cluster;
  if (uint64_t(cluster[0]) * cluster[1] * cluster[2] > 8)
    if (Status status = check(
            driver->funcSetAttribute(function, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED,
                                     1),
            ("opting " + kernel.name + " into clusters of more than 8 blocks").c_str());
        !status)
      return status;
  CUlaunchAttribute clusterShape;
  clusterShape.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  clusterShape.value.clusterDim.x = cluster[0];
  clusterShape.value.clusterDim.y = cluster[1];
  clusterShape.value.clusterDim.z = cluster[2];
  CUlaunchConfig config = {};
  config.gridDimX = kernel.grid[0];
  config.gridDimY = kernel.grid[1];
  config.gridDimZ = kernel.grid[2];
  config.blockDimX = kernel.block[0];
  config.blockDimY = kernel.block[1];
  config.blockDimZ = kernel.block[2];
  config.sharedMemBytes = dynamicShared;
  config.hStream = nullptr;
  config.attrs = &clusterShape;
  config.numAttrs = 1;
  return check(driver->launchKernelEx(&config, function, pointers.data(), nullptr),
               ("launching " + kernel.name + " in clusters").c_str());
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
  if (Status status = usable(); !status)
    return {LaunchResult::Error, status.error()};
  auto function = static_cast<CUfunction>(handle);
  // checkLaunch passed: a configuration the device still refuses is the
  // kernel's (its registers, its shared memory).
  ErrorOr<LaunchArguments> arguments = launchArguments(kernel, buffers);
  if (!arguments)
    return {LaunchResult::Error, arguments.error()};
  if (Status enqueued = enqueue(function, kernel, *arguments); !enqueued)
    return {LaunchResult::Fault, "the device refused the launch: " + enqueued.error()};
  CUresult result = driver->ctxSynchronize();
  if (result == CUDA_SUCCESS)
    return {};
  return {isKernelFault(result) ? LaunchResult::Fault : LaunchResult::Error,
          check(result, ("running " + kernel.name).c_str()).error()};
}

template <typename Work>
ErrorOr<double> GpuContext::timeRepeated(Work work, int warmup, int iterations) {
  for (int i = 0; i < warmup; ++i)
    if (Status status = work(); !status)
      return status;
  if (Status status = check(driver->ctxSynchronize(), "warm-up"); !status)
    return status;
  CUevent start = nullptr, stop = nullptr;
  Status status = check(driver->eventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate");
  if (status)
    status = check(driver->eventCreate(&stop, CU_EVENT_DEFAULT), "cuEventCreate");
  if (!status) {
    if (start)
      driver->eventDestroy(start);
    return status;
  }
  // Launches are queued back to back between two events, so the GPU never
  // waits for the host to submit the next one (one event pair per launch
  // would time the host's submission too: several microseconds on a kernel
  // of two). Each batch gives a mean; the median of the batches is kept.
  std::vector<double> times;
  for (int batch = 0; batch < kTimingBatches && status; ++batch) {
    float ms = 0;
    status = check(driver->eventRecord(start, nullptr), "cuEventRecord");
    for (int i = 0; i < iterations && status; ++i)
      status = work();
    if (status)
      status = check(driver->eventRecord(stop, nullptr), "cuEventRecord");
    if (status)
      status = check(driver->eventSynchronize(stop), "cuEventSynchronize");
    if (status)
      status = check(driver->eventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
    times.push_back(static_cast<double>(ms) / std::max(iterations, 1));
  }
  driver->eventDestroy(start);
  driver->eventDestroy(stop);
  if (!status)
    return status;
  std::sort(times.begin(), times.end());
  return times.empty() ? 0.0 : times[times.size() / 2];
}

ErrorOr<double> GpuContext::timeKernel(DeviceKernel handle, const KernelSpec &kernel,
                                        const std::vector<DeviceBuffer> &buffers, int warmup,
                                        int iterations) {
  if (Status status = usable(); !status)
    return status;
  auto function = static_cast<CUfunction>(handle);
  ErrorOr<LaunchArguments> arguments = launchArguments(kernel, buffers);
  if (!arguments)
    return makeError(arguments.error());
  return timeRepeated([&] { return enqueue(function, kernel, *arguments); }, warmup,
                      iterations);
}

ErrorOr<double> GpuContext::timeCopy(size_t bytes, int warmup, int iterations) {
  DeviceBuffer source = 0, target = 0;
  auto time = [&]() -> ErrorOr<double> {
    ErrorOr<DeviceBuffer> allocated = allocate(bytes);
    if (!allocated)
      return allocated.status();
    source = *allocated;
    allocated = allocate(bytes);
    if (!allocated)
      return allocated.status();
    target = *allocated;
    if (Status filled = fill(source, bytes, 1); !filled)
      return filled;
    return timeRepeated(
        [&] { return check(driver->memcpyDtoD(target, source, bytes), "cuMemcpyDtoD"); },
        warmup, iterations);
  };
  ErrorOr<double> medianMs = time();
  // Give the copy buffers back now, on every path: a bundle times many
  // kernels.
  release(source);
  release(target);
  return medianMs;
}

Device::LibraryResult GpuContext::runLibraryStep(const ProgramStep &step,
                                                 const std::vector<DeviceBuffer> &arguments,
                                                 const std::vector<DeviceBuffer> &results) {
  return runGemm(step, arguments, results, nullptr);
}

ErrorOr<double> GpuContext::timeLibraryStep(const ProgramStep &step,
                                            const std::vector<DeviceBuffer> &arguments,
                                            const std::vector<DeviceBuffer> &results, int warmup,
                                            int iterations) {
  ErrorOr<double> milliseconds = makeError("not timed");
  CublasLt::Repeater repeat = [&](const std::function<Status()> &enqueue) {
    milliseconds = timeRepeated(enqueue, warmup, iterations);
    return milliseconds.status();
  };
  LibraryResult ran = runGemm(step, arguments, results, &repeat);
  if (ran.outcome != LibraryOutcome::Ran)
    return makeError("library call '" + step.instruction + "' not timed: " + ran.message);
  return milliseconds;
}

Device::LibraryResult GpuContext::runGemm(const ProgramStep &step,
                                          const std::vector<DeviceBuffer> &arguments,
                                          const std::vector<DeviceBuffer> &results,
                                          const CublasLt::Repeater *repeat) {
  if (Status status = usable(); !status)
    return {LibraryOutcome::Failed, status.error()};
  if (!isGemmLibraryCall(step.target))
    return {LibraryOutcome::NotHere, "hlo-run runs no library for " + step.target + " on the GPU"};
  std::variant<GemmPlan, std::string> plan = planGemm(step);
  if (auto *reason = std::get_if<std::string>(&plan))
    return {LibraryOutcome::NotHere, "cuBLASLt cannot express " + *reason};
  if (!cublasLtTried) {
    cublasLtTried = true;
    ErrorOr<std::unique_ptr<CublasLt>> loaded = CublasLt::load();
    if (loaded)
      cublasLt = std::move(*loaded);
    else
      cublasLtError = loaded.error();
  }
  if (!cublasLt)
    return {LibraryOutcome::NotHere, cublasLtError};
  CublasLt::RunResult ran = cublasLt->run(std::get<GemmPlan>(plan), arguments, results, repeat);
  switch (ran.outcome) {
  case CublasLt::Outcome::Unsupported:
    return {LibraryOutcome::NotHere, ran.message};
  case CublasLt::Outcome::Failed:
    return {LibraryOutcome::Failed, ran.message};
  case CublasLt::Outcome::Ran:
    break;
  }
  if (Status status = check(driver->ctxSynchronize(), "running cublasLtMatmul"); !status)
    return {LibraryOutcome::Failed, status.error()};
  return {LibraryOutcome::Ran, "on the GPU by " + cublasLt->description()};
}

} // namespace hlo::runtime
