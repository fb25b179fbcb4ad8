//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// Owns access to libcuda: hlo-run opens libcuda.so.1 with dlopen (or the
// file HLO_RUN_LIBCUDA names) instead of linking it, so that the binary
// starts on machines without a GPU and says so. Only the entry points the
// runner uses are looked up, by their versioned names. cuda.h supplies the
// types.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_CUDADRIVER_H
#define HLO_RUNTIME_CUDADRIVER_H

#include "support/ErrorOr.h"

#include <cuda.h>

#include <memory>
#include <string>

namespace hlo::runtime {

struct CudaDriver {
  CUresult (*init)(unsigned);
  CUresult (*driverGetVersion)(int *);
  CUresult (*deviceGetCount)(int *);
  CUresult (*deviceGet)(CUdevice *, int);
  CUresult (*deviceGetName)(char *, int, CUdevice);
  CUresult (*deviceGetAttribute)(int *, CUdevice_attribute, CUdevice);
  CUresult (*primaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*primaryCtxRelease)(CUdevice);
  CUresult (*ctxSetCurrent)(CUcontext);
  CUresult (*ctxSynchronize)();
  CUresult (*moduleLoadDataEx)(CUmodule *, const void *, unsigned, CUjit_option *, void **);
  CUresult (*moduleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*moduleUnload)(CUmodule);
  CUresult (*memAlloc)(CUdeviceptr *, size_t);
  CUresult (*memFree)(CUdeviceptr);
  /// Optional (null where the driver lacks it): free and total bytes.
  CUresult (*memGetInfo)(size_t *, size_t *) = nullptr;
  CUresult (*memcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*memcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*memcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
  CUresult (*memsetD8)(CUdeviceptr, unsigned char, size_t);
  CUresult (*launchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, CUstream, void **, void **);
  /// Launches with attributes (thread-block clusters).
  CUresult (*launchKernelEx)(const CUlaunchConfig *, CUfunction, void **, void **);
  /// Encodes a TMA tensor map (sm_90+).
  CUresult (*tensorMapEncodeTiled)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                                   const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                                   const cuuint32_t *, CUtensorMapInterleave,
                                   CUtensorMapSwizzle, CUtensorMapL2promotion,
                                   CUtensorMapFloatOOBfill);
  CUresult (*funcGetAttribute)(int *, CUfunction_attribute, CUfunction);
  CUresult (*funcSetAttribute)(CUfunction, CUfunction_attribute, int);
  CUresult (*eventCreate)(CUevent *, unsigned);
  CUresult (*eventRecord)(CUevent, CUstream);
  CUresult (*eventSynchronize)(CUevent);
  CUresult (*eventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*eventDestroy)(CUevent);
  CUresult (*getErrorString)(CUresult, const char **);

  /// Opens the driver library, or says why it cannot.
  static ErrorOr<std::unique_ptr<CudaDriver>> load();

  /// "CUDA_ERROR_...: description" for `result`.
  std::string describe(CUresult result) const;
  /// Whether `result` ends the context (cuda.h: "the process must be
  /// terminated and relaunched"): nothing more may run in it.
  static bool isSticky(CUresult result);

  void *library = nullptr;
};

} // namespace hlo::runtime

#endif // HLO_RUNTIME_CUDADRIVER_H
