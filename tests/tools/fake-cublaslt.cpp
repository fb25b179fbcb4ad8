// A cuBLASLt stand-in for hlo-run's GEMM library steps on machines without
// a GPU (used with tests/tools/fake-libcuda.cpp, whose device pointers are
// host memory). It computes what cublasLtMatmul computes, naively in
// double: D = epilogue(alpha op(A) op(B) + beta C + bias), column-major
// with leading dimensions, batched with strides; f32, f64, bf16, f16
// matrices. So a test checks hlo-run's mapping of XLA's GEMM custom-calls
// (GemmPlan) against the interpreter. f8 matrices get no algorithm (the
// step falls back to the interpreter), as do other types. With
// FAKE_CUBLASLT_LOG set, each matmul prints its problem to stderr; with
// FAKE_CUBLASLT_NO_COMPUTE set, it checks the problem and leaves D as it
// is (a dry run of GEMMs too large to compute naively: bench/gemm/).
#include <cublasLt.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

/// `value` (an f32) with its significand rounded to TF32's 10 fraction
/// bits, to nearest even.
double roundToTf32(double value) {
  float f = static_cast<float>(value);
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  if ((bits & 0x7f800000u) != 0x7f800000u) // finite
    bits = (bits + 0xfffu + ((bits >> 13) & 1u)) & ~0x1fffu;
  std::memcpy(&f, &bits, sizeof(bits));
  return f;
}

struct Desc {
  cublasComputeType_t compute;
  cudaDataType_t scaleType;
  int32_t transA = CUBLAS_OP_N, transB = CUBLAS_OP_N;
  uint32_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
  const void *bias = nullptr;
  int32_t biasType = -1;
};

struct Layout {
  cudaDataType_t type;
  uint64_t rows, cols;
  int64_t ld;
  int32_t batch = 1;
  int64_t stride = 0;
};

bool supported(cudaDataType_t type) {
  return type == CUDA_R_32F || type == CUDA_R_64F || type == CUDA_R_16BF || type == CUDA_R_16F;
}

double load(const void *base, cudaDataType_t type, int64_t index) {
  switch (type) {
  case CUDA_R_32F: return static_cast<const float *>(base)[index];
  case CUDA_R_64F: return static_cast<const double *>(base)[index];
  case CUDA_R_16BF: {
    uint32_t bits = static_cast<uint32_t>(static_cast<const uint16_t *>(base)[index]) << 16;
    float value;
    std::memcpy(&value, &bits, 4);
    return value;
  }
  case CUDA_R_16F: {
    uint16_t h = static_cast<const uint16_t *>(base)[index];
    int exponent = (h >> 10) & 31, mantissa = h & 1023;
    double value = exponent == 0    ? std::ldexp(mantissa, -24)
                   : exponent == 31 ? (mantissa ? NAN : INFINITY)
                                    : std::ldexp(1024 + mantissa, exponent - 25);
    return (h & 0x8000) ? -value : value;
  }
  default: return NAN;
  }
}

void store(void *base, cudaDataType_t type, int64_t index, double value) {
  switch (type) {
  case CUDA_R_32F: static_cast<float *>(base)[index] = static_cast<float>(value); break;
  case CUDA_R_64F: static_cast<double *>(base)[index] = value; break;
  case CUDA_R_16BF: {
    float f = static_cast<float>(value);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    bits += 0x7fff + ((bits >> 16) & 1); // round to nearest even
    static_cast<uint16_t *>(base)[index] = static_cast<uint16_t>(bits >> 16);
    break;
  }
  case CUDA_R_16F: { // via float, round to nearest (normal range)
    float f = static_cast<float>(value);
    int exponent;
    double mantissa = std::frexp(std::fabs(f), &exponent);
    uint16_t sign = std::signbit(f) ? 0x8000 : 0;
    uint16_t bits;
    if (f == 0)
      bits = 0;
    else if (exponent > 16)
      bits = 0x7c00;
    else if (exponent < -13) // subnormal
      bits = static_cast<uint16_t>(std::nearbyint(std::fabs(f) * 16777216.0));
    else
      bits = static_cast<uint16_t>(((exponent + 14) << 10) +
                                   std::nearbyint((mantissa * 2 - 1) * 1024));
    static_cast<uint16_t *>(base)[index] = sign | bits;
    break;
  }
  default: break;
  }
}

} // namespace

extern "C" {

size_t cublasLtGetVersion() { return 130100; }

cublasStatus_t cublasLtCreate(cublasLtHandle_t *handle) {
  *handle = reinterpret_cast<cublasLtHandle_t>(new int(0));
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtDestroy(cublasLtHandle_t handle) {
  delete reinterpret_cast<int *>(handle);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *desc, cublasComputeType_t compute,
                                        cudaDataType_t scaleType) {
  *desc = reinterpret_cast<cublasLtMatmulDesc_t>(new Desc{compute, scaleType});
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t desc) {
  delete reinterpret_cast<Desc *>(desc);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t handle,
                                              cublasLtMatmulDescAttributes_t attribute,
                                              const void *value, size_t size) {
  Desc &desc = *reinterpret_cast<Desc *>(handle);
  switch (attribute) {
  case CUBLASLT_MATMUL_DESC_TRANSA: std::memcpy(&desc.transA, value, 4); break;
  case CUBLASLT_MATMUL_DESC_TRANSB: std::memcpy(&desc.transB, value, 4); break;
  case CUBLASLT_MATMUL_DESC_EPILOGUE: std::memcpy(&desc.epilogue, value, 4); break;
  case CUBLASLT_MATMUL_DESC_BIAS_POINTER: std::memcpy(&desc.bias, value, sizeof(void *)); break;
  case CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE: std::memcpy(&desc.biasType, value, 4); break;
  default: break; // scales, batch strides: accepted
  }
  (void)size;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *layout, cudaDataType type,
                                          uint64_t rows, uint64_t cols, int64_t ld) {
  if (ld < static_cast<int64_t>(rows > 0 ? rows : 1))
    return CUBLAS_STATUS_INVALID_VALUE; // cuBLASLt's rule for column-major
  *layout = reinterpret_cast<cublasLtMatrixLayout_t>(new Layout{type, rows, cols, ld});
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t layout) {
  delete reinterpret_cast<Layout *>(layout);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t handle,
                                                cublasLtMatrixLayoutAttribute_t attribute,
                                                const void *value, size_t size) {
  Layout &layout = *reinterpret_cast<Layout *>(handle);
  if (attribute == CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT)
    std::memcpy(&layout.batch, value, 4);
  else if (attribute == CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET)
    std::memcpy(&layout.stride, value, 8);
  (void)size;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *preference) {
  *preference = reinterpret_cast<cublasLtMatmulPreference_t>(new int(0));
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t preference) {
  delete reinterpret_cast<int *>(preference);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t,
                                                    cublasLtMatmulPreferenceAttributes_t,
                                                    const void *, size_t) {
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulAlgoGetHeuristic(
    cublasLtHandle_t, cublasLtMatmulDesc_t, cublasLtMatrixLayout_t a, cublasLtMatrixLayout_t b,
    cublasLtMatrixLayout_t c, cublasLtMatrixLayout_t d, cublasLtMatmulPreference_t, int requested,
    cublasLtMatmulHeuristicResult_t *results, int *found) {
  *found = 0;
  for (cublasLtMatrixLayout_t layout : {a, b, c, d})
    if (!supported(reinterpret_cast<Layout *>(layout)->type))
      return CUBLAS_STATUS_NOT_SUPPORTED;
  if (requested < 1)
    return CUBLAS_STATUS_INVALID_VALUE;
  std::memset(results, 0, sizeof(*results));
  results->state = CUBLAS_STATUS_SUCCESS;
  *found = 1;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmul(cublasLtHandle_t, cublasLtMatmulDesc_t descHandle,
                              const void *alphaPointer, const void *aData,
                              cublasLtMatrixLayout_t aHandle, const void *bData,
                              cublasLtMatrixLayout_t bHandle, const void *betaPointer,
                              const void *cData, cublasLtMatrixLayout_t cHandle, void *dData,
                              cublasLtMatrixLayout_t dHandle, const cublasLtMatmulAlgo_t *,
                              void *, size_t, cudaStream_t) {
  const Desc &desc = *reinterpret_cast<Desc *>(descHandle);
  const Layout &a = *reinterpret_cast<Layout *>(aHandle), &b = *reinterpret_cast<Layout *>(bHandle),
               &c = *reinterpret_cast<Layout *>(cHandle), &d = *reinterpret_cast<Layout *>(dHandle);
  bool f64 = desc.scaleType == CUDA_R_64F;
  double alpha = f64 ? *static_cast<const double *>(alphaPointer)
                     : *static_cast<const float *>(alphaPointer);
  double beta = f64 ? *static_cast<const double *>(betaPointer)
                    : *static_cast<const float *>(betaPointer);
  bool ta = desc.transA == CUBLAS_OP_T, tb = desc.transB == CUBLAS_OP_T;
  int64_t m = static_cast<int64_t>(d.rows), n = static_cast<int64_t>(d.cols);
  int64_t k = static_cast<int64_t>(ta ? a.rows : a.cols);
  // op(A) is m x k, op(B) k x n.
  if (static_cast<int64_t>(ta ? a.cols : a.rows) != m ||
      static_cast<int64_t>(tb ? b.cols : b.rows) != k ||
      static_cast<int64_t>(tb ? b.rows : b.cols) != n || c.rows != d.rows || c.cols != d.cols ||
      a.batch != d.batch || b.batch != d.batch)
    return CUBLAS_STATUS_INVALID_VALUE;
  bool tf32 = desc.compute == CUBLAS_COMPUTE_32F_FAST_TF32;
  if (std::getenv("FAKE_CUBLASLT_LOG"))
    std::fprintf(stderr,
                 "fake-cublasLt: m=%lld n=%lld k=%lld batch=%d transa=%c transb=%c lda=%lld "
                 "ldb=%lld ldd=%lld epilogue=%u alpha=%g beta=%g compute=%s\n",
                 (long long)m, (long long)n, (long long)k, d.batch, ta ? 'T' : 'N',
                 tb ? 'T' : 'N', (long long)a.ld, (long long)b.ld, (long long)d.ld,
                 desc.epilogue, alpha, beta,
                 tf32 ? "32F_FAST_TF32" : desc.compute == CUBLAS_COMPUTE_64F ? "64F" : "32F");
  if (std::getenv("FAKE_CUBLASLT_NO_COMPUTE"))
    return CUBLAS_STATUS_SUCCESS;
  bool bias = desc.epilogue & CUBLASLT_EPILOGUE_BIAS;
  uint32_t activation = desc.epilogue & ~static_cast<uint32_t>(CUBLASLT_EPILOGUE_BIAS);
  cudaDataType_t biasType = desc.biasType >= 0 ? static_cast<cudaDataType_t>(desc.biasType)
                                                 : d.type;
  std::vector<double> result(static_cast<size_t>(m * n));
  for (int32_t batch = 0; batch < d.batch; ++batch) {
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i) {
        double sum = 0;
        for (int64_t p = 0; p < k; ++p) {
          int64_t ai = ta ? p + i * a.ld : i + p * a.ld;
          int64_t bi = tb ? j + p * b.ld : p + j * b.ld;
          double x = load(aData, a.type, batch * a.stride + ai);
          double y = load(bData, b.type, batch * b.stride + bi);
          // FAST_TF32: each operand rounded to TF32 first, as tensor cores do.
          sum += tf32 ? roundToTf32(x) * roundToTf32(y) : x * y;
        }
        double value = alpha * sum;
        if (beta != 0)
          value += beta * load(cData, c.type, batch * c.stride + i + j * c.ld);
        if (bias)
          value += load(desc.bias, biasType, i);
        if (activation == CUBLASLT_EPILOGUE_RELU)
          value = value > 0 ? value : 0;
        else if (activation == CUBLASLT_EPILOGUE_GELU)
          value = 0.5 * value *
                  (1 + std::tanh(0.7978845608028654 * (value + 0.044715 * value * value * value)));
        result[static_cast<size_t>(i + j * m)] = value;
      }
    // Written after every read: D may be C.
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i)
        store(dData, d.type, batch * d.stride + i + j * d.ld, result[static_cast<size_t>(i + j * m)]);
  }
  return CUBLAS_STATUS_SUCCESS;
}

} // extern "C"
