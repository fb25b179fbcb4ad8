//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//
#include "CudaDriver.h"

#include <cstdlib>
#include <dlfcn.h>

namespace hlo::runtime {
namespace {

template <typename Function>
bool lookUp(void *library, Function &function, const char *name,
            const char *fallback, std::string &error) {
  void *symbol = dlsym(library, name);
  if (!symbol && fallback)
    symbol = dlsym(library, fallback);
  if (!symbol) {
    error = std::string("the CUDA driver lacks ") + name;
    return false;
  }
  function = reinterpret_cast<Function>(symbol);
  return true;
}

} // namespace

std::unique_ptr<CudaDriver> CudaDriver::load(std::string &error) {
  const char *override = std::getenv("HLO_RUN_LIBCUDA");
  const char *path = override && *override ? override : "libcuda.so.1";
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *reason = dlerror();
    error = std::string("no NVIDIA driver: cannot load ") + path + " (" +
            (reason ? reason : "unknown reason") + ")";
    return nullptr;
  }
  auto driver = std::make_unique<CudaDriver>();
  driver->library = library;
  CudaDriver &d = *driver;
  bool ok = lookUp(library, d.init, "cuInit", nullptr, error) &&
            lookUp(library, d.driverGetVersion, "cuDriverGetVersion", nullptr, error) &&
            lookUp(library, d.deviceGetCount, "cuDeviceGetCount", nullptr, error) &&
            lookUp(library, d.deviceGet, "cuDeviceGet", nullptr, error) &&
            lookUp(library, d.deviceGetName, "cuDeviceGetName", nullptr, error) &&
            lookUp(library, d.deviceGetAttribute, "cuDeviceGetAttribute", nullptr, error) &&
            lookUp(library, d.primaryCtxRetain, "cuDevicePrimaryCtxRetain", nullptr, error) &&
            lookUp(library, d.primaryCtxRelease, "cuDevicePrimaryCtxRelease_v2",
                   "cuDevicePrimaryCtxRelease", error) &&
            lookUp(library, d.ctxSetCurrent, "cuCtxSetCurrent", nullptr, error) &&
            lookUp(library, d.ctxSynchronize, "cuCtxSynchronize", nullptr, error) &&
            lookUp(library, d.moduleLoadDataEx, "cuModuleLoadDataEx", nullptr, error) &&
            lookUp(library, d.moduleGetFunction, "cuModuleGetFunction", nullptr, error) &&
            lookUp(library, d.moduleUnload, "cuModuleUnload", nullptr, error) &&
            lookUp(library, d.memAlloc, "cuMemAlloc_v2", nullptr, error) &&
            lookUp(library, d.memFree, "cuMemFree_v2", nullptr, error) &&
            lookUp(library, d.memcpyHtoD, "cuMemcpyHtoD_v2", nullptr, error) &&
            lookUp(library, d.memcpyDtoH, "cuMemcpyDtoH_v2", nullptr, error) &&
            lookUp(library, d.memcpyDtoD, "cuMemcpyDtoD_v2", nullptr, error) &&
            lookUp(library, d.memsetD8, "cuMemsetD8_v2", nullptr, error) &&
            lookUp(library, d.launchKernel, "cuLaunchKernel", nullptr, error) &&
            lookUp(library, d.funcGetAttribute, "cuFuncGetAttribute", nullptr, error) &&
            lookUp(library, d.funcSetAttribute, "cuFuncSetAttribute", nullptr, error) &&
            lookUp(library, d.eventCreate, "cuEventCreate", nullptr, error) &&
            lookUp(library, d.eventRecord, "cuEventRecord", nullptr, error) &&
            lookUp(library, d.eventSynchronize, "cuEventSynchronize", nullptr, error) &&
            lookUp(library, d.eventElapsedTime, "cuEventElapsedTime_v2",
                   "cuEventElapsedTime", error) &&
            lookUp(library, d.eventDestroy, "cuEventDestroy_v2", nullptr, error) &&
            lookUp(library, d.getErrorString, "cuGetErrorString", nullptr, error);
  if (!ok) {
    dlclose(library);
    return nullptr;
  }
  return driver;
}

std::string CudaDriver::describe(CUresult result) const {
  const char *text = nullptr;
  if (getErrorString && getErrorString(result, &text) == CUDA_SUCCESS && text)
    return std::string(text) + " (CUresult " + std::to_string(static_cast<int>(result)) + ")";
  return "CUresult " + std::to_string(static_cast<int>(result));
}

bool CudaDriver::isSticky(CUresult result) {
  switch (result) {
  case CUDA_ERROR_ECC_UNCORRECTABLE:
  case CUDA_ERROR_CONTAINED:
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_LAUNCH_FAILED:
  case CUDA_ERROR_TENSOR_MEMORY_LEAK:
  case CUDA_ERROR_EXTERNAL_DEVICE:
    return true;
  default:
    return false;
  }
}

} // namespace hlo::runtime
