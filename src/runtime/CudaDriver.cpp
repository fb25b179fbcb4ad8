//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//
#include "CudaDriver.h"

#include <cstdlib>
#include <dlfcn.h>

namespace hlo::runtime {
namespace {

/// Looks the driver's entry points up in turn; after the first that is
/// missing (its failure in `status`) looks nothing more up.
struct EntryPoints {
  void *library;
  Status status = Status::success();

  template <typename Function>
  void lookUp(Function &function, const char *name, const char *fallback = nullptr) {
    if (!status)
      return;
    void *symbol = dlsym(library, name);
    if (!symbol && fallback)
      symbol = dlsym(library, fallback);
    if (!symbol) {
      status = Status::failure(std::string("the CUDA driver lacks ") + name);
      return;
    }
    function = reinterpret_cast<Function>(symbol);
  }
};

} // namespace

ErrorOr<std::unique_ptr<CudaDriver>> CudaDriver::load() {
  const char *override = std::getenv("HLO_RUN_LIBCUDA");
  const char *path = override && *override ? override : "libcuda.so.1";
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *reason = dlerror();
    return Status::failure(std::string("no NVIDIA driver: cannot load ") + path + " (" +
                           (reason ? reason : "unknown reason") + ")");
  }
  auto driver = std::make_unique<CudaDriver>();
  driver->library = library;
  CudaDriver &d = *driver;
  EntryPoints entryPoints{library};
  entryPoints.lookUp(d.init, "cuInit");
  entryPoints.lookUp(d.driverGetVersion, "cuDriverGetVersion");
  entryPoints.lookUp(d.deviceGetCount, "cuDeviceGetCount");
  entryPoints.lookUp(d.deviceGet, "cuDeviceGet");
  entryPoints.lookUp(d.deviceGetName, "cuDeviceGetName");
  entryPoints.lookUp(d.deviceGetAttribute, "cuDeviceGetAttribute");
  entryPoints.lookUp(d.primaryCtxRetain, "cuDevicePrimaryCtxRetain");
  entryPoints.lookUp(d.primaryCtxRelease, "cuDevicePrimaryCtxRelease_v2",
                     "cuDevicePrimaryCtxRelease");
  entryPoints.lookUp(d.ctxSetCurrent, "cuCtxSetCurrent");
  entryPoints.lookUp(d.ctxSynchronize, "cuCtxSynchronize");
  entryPoints.lookUp(d.moduleLoadDataEx, "cuModuleLoadDataEx");
  entryPoints.lookUp(d.moduleGetFunction, "cuModuleGetFunction");
  entryPoints.lookUp(d.moduleUnload, "cuModuleUnload");
  entryPoints.lookUp(d.memAlloc, "cuMemAlloc_v2");
  entryPoints.lookUp(d.memFree, "cuMemFree_v2");
  entryPoints.lookUp(d.memcpyHtoD, "cuMemcpyHtoD_v2");
  entryPoints.lookUp(d.memcpyDtoH, "cuMemcpyDtoH_v2");
  entryPoints.lookUp(d.memcpyDtoD, "cuMemcpyDtoD_v2");
  entryPoints.lookUp(d.memsetD8, "cuMemsetD8_v2");
  entryPoints.lookUp(d.launchKernel, "cuLaunchKernel");
  entryPoints.lookUp(d.launchKernelEx, "cuLaunchKernelEx");
  entryPoints.lookUp(d.tensorMapEncodeTiled, "cuTensorMapEncodeTiled");
  d.memGetInfo = reinterpret_cast<decltype(d.memGetInfo)>(dlsym(library, "cuMemGetInfo_v2"));
  entryPoints.lookUp(d.funcGetAttribute, "cuFuncGetAttribute");
  entryPoints.lookUp(d.funcSetAttribute, "cuFuncSetAttribute");
  entryPoints.lookUp(d.eventCreate, "cuEventCreate");
  entryPoints.lookUp(d.eventRecord, "cuEventRecord");
  entryPoints.lookUp(d.eventSynchronize, "cuEventSynchronize");
  entryPoints.lookUp(d.eventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime");
  entryPoints.lookUp(d.eventDestroy, "cuEventDestroy_v2");
  entryPoints.lookUp(d.getErrorString, "cuGetErrorString");
  if (!entryPoints.status) {
    dlclose(library);
    return entryPoints.status;
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
