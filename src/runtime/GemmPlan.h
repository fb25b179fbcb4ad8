//===- GemmPlan.h - XLA's cuBLAS custom-calls as cuBLASLt problems -*- C++ -*-===//
//
// Owns the mapping from a library step that XLA's GPU compiler writes for a
// GEMM (`__cublas$lt$matmul`, `__cublas$gemm`, `__cublas$lt$matmul$f8`:
// operands, result leaves with their layouts, the gemm_backend_config) to
// the column-major problem cuBLASLt solves: D (m x n) = epilogue(alpha *
// op(A) op(B) + beta * C + bias), batched with strides. A row-major result
// is computed transposed (D^T = B^T A^T), so the bias, over the rhs's free
// dimensions, runs along D^T's rows as cuBLASLt's bias does. Plain C++ (no
// CUDA): the plan is unit-tested on any machine; CublasLt.cpp runs it.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_GEMMPLAN_H
#define HLO_RUNTIME_GEMMPLAN_H

#include "ManifestTypes.h"
#include "support/Json.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace hlo::runtime {

/// One operand as cuBLASLt sees it: a column-major rows x cols matrix
/// with leading dimension `ld` (elements), `batchStride` elements apart.
struct GemmMatrix {
  PrimitiveType type = PrimitiveType::F32;
  int64_t rows = 0, cols = 0, ld = 0, batchStride = 0;
  bool transposed = false; ///< op(X) = X^T (A and B only)
  size_t argument = 0;     ///< the step argument (or result, for D) it is
};

struct GemmPlan {
  enum class Epilogue { Default, Relu, Gelu, Bias, BiasRelu, BiasGelu };
  int64_t m = 0, n = 0, k = 0, batch = 1;
  GemmMatrix a, b, d;
  std::optional<GemmMatrix> c;          ///< beta != 0: the addend
  std::optional<size_t> biasArgument;   ///< bias epilogues: M elements
  PrimitiveType biasType = PrimitiveType::F32;
  std::optional<size_t> aScaleArgument, bScaleArgument, dScaleArgument; ///< f8
  std::optional<size_t> amaxResult;     ///< f8 with damax_output
  std::optional<size_t> workspaceResult;
  int64_t workspaceBytes = 0;
  double alpha = 1, beta = 0;
  Epilogue epilogue = Epilogue::Default;
  bool fp8 = false;
  /// f32 operands multiplied as TF32 (CUBLAS_COMPUTE_32F_FAST_TF32), as
  /// XLA runs an f32 GEMM at default precision.
  bool tf32 = false;
  /// D^T was planned (the HLO result is row-major): A is the HLO rhs.
  bool swapped = false;
};

/// The plan for library step `step`, or why cuBLASLt cannot compute it as
/// the step asks (a layout it cannot express, a complex alpha, an
/// epilogue or type it lacks): then hlo-run runs the interpreter instead.
std::variant<GemmPlan, std::string> planGemm(const abi::ProgramStep &step);

/// Whether `target` is a GEMM custom-call planGemm reads.
bool isGemmLibraryCall(const std::string &target);

/// Whether a gemm_backend_config lets f32 operands be multiplied as TF32:
/// its precision_config's algorithm names TF32, or (no algorithm) every
/// operand precision is DEFAULT, as XLA decides for cuBLAS.
bool gemmConfigAllowsTf32(const JsonValue &gemmBackendConfig);

} // namespace hlo::runtime

#endif // HLO_RUNTIME_GEMMPLAN_H
