//===- CublasLt.h - GEMM library steps through cuBLASLt ---------*- C++ -*-===//
//
// Owns hlo-run's use of cuBLASLt: the library is opened at run time with
// dlopen (HLO_RUN_LIBCUBLASLT, else libcublasLt.so.13/.12 on the loader's
// path or under $CUDA_HOME/lib64), so hlo-run starts and checks kernels on
// machines without it and runs GEMM steps on the host instead. A GemmPlan
// (GemmPlan.h) runs as one cublasLtMatmul on the legacy default stream.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_CUBLASLT_H
#define HLO_RUNTIME_CUBLASLT_H

#include "Device.h"
#include "GemmPlan.h"
#include "support/ErrorOr.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace hlo::runtime {

class CublasLt {
public:
  /// Opens the library and creates a handle (the caller's CUDA context
  /// current), or says what is missing.
  static ErrorOr<std::unique_ptr<CublasLt>> load();
  ~CublasLt();
  CublasLt(const CublasLt &) = delete;
  CublasLt &operator=(const CublasLt &) = delete;

  /// "cuBLASLt 13.1.0 (/usr/local/cuda/lib64/libcublasLt.so.13)".
  const std::string &description() const { return name; }

  enum class Outcome { Ran, Unsupported, Failed };
  /// What `run` did; for Unsupported and Failed, `message` says why.
  struct [[nodiscard]] RunResult {
    Outcome outcome = Outcome::Ran;
    std::string message;
  };
  /// Runs what enqueues the GEMM as often as it likes (a timing loop).
  using Repeater = std::function<Status(const std::function<Status()> &enqueue)>;
  /// Enqueues `plan` over the step's argument and result buffers (through
  /// `repeat` when given: descriptors and algorithm chosen once). Unsupported
  /// where cuBLASLt has no algorithm for it: the caller computes the step
  /// another way. Failed: a library error.
  RunResult run(const GemmPlan &plan, const std::vector<DeviceBuffer> &arguments,
                const std::vector<DeviceBuffer> &results, const Repeater *repeat = nullptr);

private:
  CublasLt() = default;
  struct Api;
  std::unique_ptr<Api> api;
  void *library = nullptr;
  void *handle = nullptr;
  std::string name;
};

} // namespace hlo::runtime

#endif // HLO_RUNTIME_CUBLASLT_H
