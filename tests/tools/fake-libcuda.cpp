//===- fake-libcuda.cpp - A CUDA driver stand-in for hlo-run's tests ------===//
//
// Implements the driver entry points hlo-run looks up, on host memory, so
// that the runner's GPU path (driver loading, module and kernel lookup,
// buffer layout, launch arguments, comparison, timing, reports) is tested
// on machines without a GPU (HLO_RUN_LIBCUDA points hlo-run at it). A
// "launch" executes no code: it checks that every argument is a buffer it
// allocated and copies the first argument's buffer into the last one, so a
// module whose output equals its input passes and any other fails. PTX without ".entry" is rejected with a JIT log.
//
//===----------------------------------------------------------------------===//
#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

namespace {
std::map<CUdeviceptr, size_t> allocations;
std::string image;
int contextToken;
/// Each kernel's parameter count, from its PTX signature; a CUfunction
/// points at its entry.
std::map<std::string, size_t> parameterCounts;
} // namespace

extern "C" {
CUresult cuInit(unsigned) { return CUDA_SUCCESS; }
CUresult cuDriverGetVersion(int *version) { *version = 13000; return CUDA_SUCCESS; }
CUresult cuDeviceGetCount(int *count) { *count = 1; return CUDA_SUCCESS; }
CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  *device = ordinal;
  return ordinal == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}
CUresult cuDeviceGetName(char *name, int length, CUdevice) {
  std::strncpy(name, "Fake GPU", static_cast<size_t>(length));
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attribute, CUdevice) {
  *value = attribute == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ? 9 : 0;
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice) {
  *context = reinterpret_cast<CUcontext>(&contextToken);
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice) { return CUDA_SUCCESS; }
CUresult cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }
CUresult cuCtxSynchronize() { return CUDA_SUCCESS; }
CUresult cuModuleLoadDataEx(CUmodule *module, const void *data, unsigned count,
                            CUjit_option *options, void **values) {
  image = static_cast<const char *>(data);
  if (image.find(".entry") == std::string::npos) {
    for (unsigned i = 0; i < count; ++i)
      if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
        std::strcpy(static_cast<char *>(values[i]), "fake ptxas: no kernel in this PTX");
    return CUDA_ERROR_INVALID_PTX;
  }
  *module = reinterpret_cast<CUmodule>(&image);
  return CUDA_SUCCESS;
}
CUresult cuModuleGetFunction(CUfunction *function, CUmodule, const char *name) {
  size_t entry = image.find(".entry " + std::string(name) + "(");
  if (entry == std::string::npos)
    return CUDA_ERROR_NOT_FOUND;
  size_t end = image.find(')', entry);
  size_t count = 0;
  for (size_t at = image.find(".param", entry); at < end; at = image.find(".param", at + 1))
    ++count;
  auto inserted = parameterCounts.insert({name, count}).first;
  *function = reinterpret_cast<CUfunction>(&*inserted);
  return CUDA_SUCCESS;
}
CUresult cuModuleUnload(CUmodule) { return CUDA_SUCCESS; }
CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes) {
  *pointer = reinterpret_cast<CUdeviceptr>(std::malloc(bytes));
  allocations[*pointer] = bytes;
  return CUDA_SUCCESS;
}
CUresult cuMemFree_v2(CUdeviceptr pointer) {
  allocations.erase(pointer);
  std::free(reinterpret_cast<void *>(pointer));
  return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr target, const void *source, size_t bytes) {
  std::memcpy(reinterpret_cast<void *>(target), source, bytes);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoH_v2(void *target, CUdeviceptr source, size_t bytes) {
  std::memcpy(target, reinterpret_cast<void *>(source), bytes);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoD_v2(CUdeviceptr target, CUdeviceptr source, size_t bytes) {
  std::memcpy(reinterpret_cast<void *>(target), reinterpret_cast<void *>(source), bytes);
  return CUDA_SUCCESS;
}
CUresult cuMemsetD8_v2(CUdeviceptr target, unsigned char value, size_t bytes) {
  std::memset(reinterpret_cast<void *>(target), value, bytes);
  return CUDA_SUCCESS;
}
CUresult cuLaunchKernel(CUfunction function, unsigned, unsigned, unsigned, unsigned, unsigned,
                        unsigned, unsigned, CUstream, void **parameters, void **) {
  // hlo-run passes one pointer per buffer; the last one is an output.
  size_t count = reinterpret_cast<std::pair<const std::string, size_t> *>(function)->second;
  for (size_t i = 0; i < count; ++i)
    if (!allocations.count(*static_cast<CUdeviceptr *>(parameters[i])))
      return CUDA_ERROR_INVALID_VALUE;
  if (count < 2) // an output alone: nothing to copy
    return CUDA_SUCCESS;
  CUdeviceptr first = *static_cast<CUdeviceptr *>(parameters[0]);
  CUdeviceptr last = *static_cast<CUdeviceptr *>(parameters[count - 1]);
  std::memcpy(reinterpret_cast<void *>(last), reinterpret_cast<void *>(first),
              std::min(allocations[first], allocations[last]));
  return CUDA_SUCCESS;
}
CUresult cuFuncSetAttribute(CUfunction, CUfunction_attribute, int) { return CUDA_SUCCESS; }
CUresult cuEventCreate(CUevent *event, unsigned) {
  *event = reinterpret_cast<CUevent>(new double(0));
  return CUDA_SUCCESS;
}
CUresult cuEventRecord(CUevent event, CUstream) {
  *reinterpret_cast<double *>(event) =
      std::chrono::duration<double, std::milli>(
          std::chrono::steady_clock::now().time_since_epoch())
          .count();
  return CUDA_SUCCESS;
}
CUresult cuEventSynchronize(CUevent) { return CUDA_SUCCESS; }
CUresult cuEventElapsedTime_v2(float *ms, CUevent start, CUevent stop) {
  *ms = static_cast<float>(*reinterpret_cast<double *>(stop) -
                           *reinterpret_cast<double *>(start));
  return CUDA_SUCCESS;
}
CUresult cuEventDestroy_v2(CUevent event) {
  delete reinterpret_cast<double *>(event);
  return CUDA_SUCCESS;
}
CUresult cuGetErrorString(CUresult result, const char **text) {
  *text = result == CUDA_ERROR_INVALID_PTX ? "a PTX JIT compilation failed" : "fake error";
  return CUDA_SUCCESS;
}
}
