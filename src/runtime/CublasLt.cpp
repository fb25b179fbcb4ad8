//===- CublasLt.cpp - GEMM library steps through cuBLASLt -----------------===//
//
// dlopen'ed cuBLASLt entry points and one cublasLtMatmul per GemmPlan: the
// matmul descriptor (compute type, scale type, transposes, epilogue, bias
// and f8 scale pointers), one layout per matrix (rows, cols, ld, batch
// count and stride), the first heuristic algorithm within the step's
// workspace. See CublasLt.h.
//
//===----------------------------------------------------------------------===//
#include "CublasLt.h"

#ifdef HLO_RUN_NO_CUBLASLT
namespace hlo::runtime {
struct CublasLt::Api {};
ErrorOr<std::unique_ptr<CublasLt>> CublasLt::load() {
  return Status::failure("hlo-run was built without cublasLt.h");
}
CublasLt::~CublasLt() = default;
CublasLt::RunResult CublasLt::run(const GemmPlan &, const std::vector<DeviceBuffer> &,
                                  const std::vector<DeviceBuffer> &, const Repeater *) {
  return {Outcome::Unsupported, "hlo-run was built without cublasLt.h"};
}
} // namespace hlo::runtime
#else
#include <cublasLt.h>

#include <cstdlib>
#include <dlfcn.h>

namespace hlo::runtime {

struct CublasLt::Api {
  decltype(&cublasLtCreate) create = nullptr;
  decltype(&cublasLtDestroy) destroy = nullptr;
  decltype(&cublasLtGetVersion) getVersion = nullptr;
  decltype(&cublasLtMatmulDescCreate) descCreate = nullptr;
  decltype(&cublasLtMatmulDescDestroy) descDestroy = nullptr;
  decltype(&cublasLtMatmulDescSetAttribute) descSet = nullptr;
  decltype(&cublasLtMatrixLayoutCreate) layoutCreate = nullptr;
  decltype(&cublasLtMatrixLayoutDestroy) layoutDestroy = nullptr;
  decltype(&cublasLtMatrixLayoutSetAttribute) layoutSet = nullptr;
  decltype(&cublasLtMatmulPreferenceCreate) preferenceCreate = nullptr;
  decltype(&cublasLtMatmulPreferenceDestroy) preferenceDestroy = nullptr;
  decltype(&cublasLtMatmulPreferenceSetAttribute) preferenceSet = nullptr;
  decltype(&cublasLtMatmulAlgoGetHeuristic) heuristic = nullptr;
  decltype(&cublasLtMatmul) matmul = nullptr;
};

namespace {

/// Looks cuBLASLt's entry points up in turn; after the first that is
/// missing (its failure in `status`) looks nothing more up.
struct EntryPoints {
  void *library;
  Status status = Status::success();

  template <typename Function> void resolve(const char *symbol, Function &function) {
    if (!status)
      return;
    function = reinterpret_cast<Function>(dlsym(library, symbol));
    if (!function)
      status = Status::failure(std::string("cuBLASLt has no ") + symbol);
  }
};

std::optional<cudaDataType_t> dataTypeOf(PrimitiveType type) {
  switch (type) {
  case PrimitiveType::F32: return CUDA_R_32F;
  case PrimitiveType::F64: return CUDA_R_64F;
  case PrimitiveType::BF16: return CUDA_R_16BF;
  case PrimitiveType::F16: return CUDA_R_16F;
  case PrimitiveType::F8E4M3FN: return CUDA_R_8F_E4M3;
  case PrimitiveType::F8E5M2: return CUDA_R_8F_E5M2;
  default: return std::nullopt;
  }
}

cublasLtEpilogue_t epilogueOf(GemmPlan::Epilogue epilogue) {
  switch (epilogue) {
  case GemmPlan::Epilogue::Default: return CUBLASLT_EPILOGUE_DEFAULT;
  case GemmPlan::Epilogue::Relu: return CUBLASLT_EPILOGUE_RELU;
  case GemmPlan::Epilogue::Gelu: return CUBLASLT_EPILOGUE_GELU;
  case GemmPlan::Epilogue::Bias: return CUBLASLT_EPILOGUE_BIAS;
  case GemmPlan::Epilogue::BiasRelu: return CUBLASLT_EPILOGUE_RELU_BIAS;
  case GemmPlan::Epilogue::BiasGelu: return CUBLASLT_EPILOGUE_GELU_BIAS;
  }
  return CUBLASLT_EPILOGUE_DEFAULT;
}

} // namespace

ErrorOr<std::unique_ptr<CublasLt>> CublasLt::load() {
  std::vector<std::string> candidates;
  if (const char *path = std::getenv("HLO_RUN_LIBCUBLASLT"); path && *path) {
    candidates.push_back(path);
  } else {
    candidates = {"libcublasLt.so.13", "libcublasLt.so.12"};
    const char *cuda = std::getenv("CUDA_HOME");
    std::string home = cuda && *cuda ? cuda : "/usr/local/cuda";
    candidates.push_back(home + "/lib64/libcublasLt.so.13");
    candidates.push_back(home + "/lib64/libcublasLt.so.12");
  }
  void *library = nullptr;
  std::string opened;
  for (const std::string &candidate : candidates)
    if ((library = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL))) {
      opened = candidate;
      break;
    }
  if (!library)
    return Status::failure("no cuBLASLt (tried " + candidates.front() +
                           (candidates.size() > 1 ? ", ..." : "") + "; set HLO_RUN_LIBCUBLASLT)");
  std::unique_ptr<CublasLt> lt(new CublasLt());
  lt->library = library;
  lt->api = std::make_unique<Api>();
  Api &a = *lt->api;
  EntryPoints entryPoints{library};
  entryPoints.resolve("cublasLtCreate", a.create);
  entryPoints.resolve("cublasLtDestroy", a.destroy);
  entryPoints.resolve("cublasLtGetVersion", a.getVersion);
  entryPoints.resolve("cublasLtMatmulDescCreate", a.descCreate);
  entryPoints.resolve("cublasLtMatmulDescDestroy", a.descDestroy);
  entryPoints.resolve("cublasLtMatmulDescSetAttribute", a.descSet);
  entryPoints.resolve("cublasLtMatrixLayoutCreate", a.layoutCreate);
  entryPoints.resolve("cublasLtMatrixLayoutDestroy", a.layoutDestroy);
  entryPoints.resolve("cublasLtMatrixLayoutSetAttribute", a.layoutSet);
  entryPoints.resolve("cublasLtMatmulPreferenceCreate", a.preferenceCreate);
  entryPoints.resolve("cublasLtMatmulPreferenceDestroy", a.preferenceDestroy);
  entryPoints.resolve("cublasLtMatmulPreferenceSetAttribute", a.preferenceSet);
  entryPoints.resolve("cublasLtMatmulAlgoGetHeuristic", a.heuristic);
  entryPoints.resolve("cublasLtMatmul", a.matmul);
  if (!entryPoints.status)
    return entryPoints.status;
  cublasLtHandle_t handle = nullptr;
  if (cublasStatus_t status = a.create(&handle); status != CUBLAS_STATUS_SUCCESS)
    return Status::failure("cublasLtCreate failed (status " + std::to_string(status) + ")");
  lt->handle = handle;
  size_t version = a.getVersion();
  lt->name = "cuBLASLt " + std::to_string(version / 10000) + "." +
             std::to_string(version / 100 % 100) + "." + std::to_string(version % 100) + " (" +
             opened + ")";
  return lt;
}

CublasLt::~CublasLt() {
  if (handle && api)
    api->destroy(static_cast<cublasLtHandle_t>(handle));
  if (library)
    dlclose(library);
}

CublasLt::RunResult CublasLt::run(const GemmPlan &plan,
                                  const std::vector<DeviceBuffer> &arguments,
                                  const std::vector<DeviceBuffer> &results,
                                  const Repeater *repeat) {
  const Api &a = *api;
  bool f64 = plan.d.type == PrimitiveType::F64;
  cublasComputeType_t compute = f64         ? CUBLAS_COMPUTE_64F
                                : plan.tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32
                                            : CUBLAS_COMPUTE_32F;
  cudaDataType_t scaleType = f64 ? CUDA_R_64F : CUDA_R_32F;
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t layouts[4] = {};
  cublasLtMatmulPreference_t preference = nullptr;
  Outcome outcome = Outcome::Failed;
  std::string message;
  auto failed = [&](const char *what, cublasStatus_t status) {
    message = std::string(what) + " failed (cuBLAS status " + std::to_string(status) + ")";
    return status == CUBLAS_STATUS_SUCCESS;
  };
  auto argument = [&](size_t i) { return reinterpret_cast<void *>(arguments.at(i)); };
  auto setDesc = [&](cublasLtMatmulDescAttributes_t attribute, const auto &value) {
    cublasStatus_t status = a.descSet(desc, attribute, &value, sizeof(value));
    return status == CUBLAS_STATUS_SUCCESS || failed("cublasLtMatmulDescSetAttribute", status);
  };
  // Layouts: A, B, C, D.
  const GemmMatrix *matrices[4] = {&plan.a, &plan.b, plan.c ? &*plan.c : &plan.d, &plan.d};
  do {
    if (cublasStatus_t s = a.descCreate(&desc, compute, scaleType); s != CUBLAS_STATUS_SUCCESS) {
      failed("cublasLtMatmulDescCreate", s);
      break;
    }
    cublasOperation_t transA = plan.a.transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasOperation_t transB = plan.b.transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasLtEpilogue_t epilogue = epilogueOf(plan.epilogue);
    if (!setDesc(CUBLASLT_MATMUL_DESC_TRANSA, transA) ||
        !setDesc(CUBLASLT_MATMUL_DESC_TRANSB, transB) ||
        !setDesc(CUBLASLT_MATMUL_DESC_EPILOGUE, epilogue))
      break;
    if (plan.biasArgument) {
      void *bias = argument(*plan.biasArgument);
      std::optional<cudaDataType_t> biasType = dataTypeOf(plan.biasType);
      int32_t biasTypeValue = biasType ? *biasType : CUDA_R_32F;
      int64_t biasStride = 0; // one bias for every batch
      if (!setDesc(CUBLASLT_MATMUL_DESC_BIAS_POINTER, bias) ||
          !setDesc(CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, biasTypeValue) ||
          (plan.batch > 1 && !setDesc(CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, biasStride)))
        break;
    }
    if (plan.fp8) {
      void *aScale = argument(*plan.aScaleArgument), *bScale = argument(*plan.bScaleArgument);
      if (!setDesc(CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, aScale) ||
          !setDesc(CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, bScale))
        break;
      if (plan.dScaleArgument) {
        void *dScale = argument(*plan.dScaleArgument);
        if (!setDesc(CUBLASLT_MATMUL_DESC_D_SCALE_POINTER, dScale))
          break;
      }
      if (plan.amaxResult) {
        void *amax = reinterpret_cast<void *>(results.at(*plan.amaxResult));
        if (!setDesc(CUBLASLT_MATMUL_DESC_AMAX_D_POINTER, amax))
          break;
      }
    }
    bool layoutsMade = true;
    for (int i = 0; i < 4 && layoutsMade; ++i) {
      const GemmMatrix &matrix = *matrices[i];
      std::optional<cudaDataType_t> type = dataTypeOf(matrix.type);
      cublasStatus_t s = a.layoutCreate(&layouts[i], type.value_or(CUDA_R_32F),
                                        static_cast<uint64_t>(matrix.rows),
                                        static_cast<uint64_t>(matrix.cols), matrix.ld);
      int32_t count = static_cast<int32_t>(plan.batch);
      int64_t stride = matrix.batchStride;
      if (s == CUBLAS_STATUS_SUCCESS && plan.batch > 1) {
        s = a.layoutSet(layouts[i], CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof(count));
        if (s == CUBLAS_STATUS_SUCCESS)
          s = a.layoutSet(layouts[i], CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride,
                          sizeof(stride));
      }
      layoutsMade = s == CUBLAS_STATUS_SUCCESS || failed("cublasLtMatrixLayout", s);
    }
    if (!layoutsMade)
      break;
    uint64_t workspaceBytes =
        plan.workspaceResult ? static_cast<uint64_t>(plan.workspaceBytes) : 0;
    if (cublasStatus_t s = a.preferenceCreate(&preference); s != CUBLAS_STATUS_SUCCESS ||
        (s = a.preferenceSet(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                             &workspaceBytes, sizeof(workspaceBytes))) != CUBLAS_STATUS_SUCCESS) {
      failed("cublasLtMatmulPreference", s);
      break;
    }
    cublasLtMatmulHeuristicResult_t heuristic = {};
    int found = 0;
    cublasStatus_t s = a.heuristic(static_cast<cublasLtHandle_t>(handle), desc, layouts[0],
                                   layouts[1], layouts[2], layouts[3], preference, 1,
                                   &heuristic, &found);
    if (s != CUBLAS_STATUS_SUCCESS || found == 0) {
      message = "cuBLASLt has no algorithm for it (status " + std::to_string(s) + ")";
      outcome = Outcome::Unsupported;
      break;
    }
    double alpha64 = plan.alpha, beta64 = plan.beta;
    float alpha32 = static_cast<float>(plan.alpha), beta32 = static_cast<float>(plan.beta);
    const void *alpha = f64 ? static_cast<const void *>(&alpha64) : &alpha32;
    const void *beta = f64 ? static_cast<const void *>(&beta64) : &beta32;
    void *d = reinterpret_cast<void *>(results.at(0));
    void *c = plan.c ? argument(plan.c->argument) : d;
    void *workspace =
        plan.workspaceResult ? reinterpret_cast<void *>(results.at(*plan.workspaceResult))
                             : nullptr;
    auto enqueue = [&]() {
      cublasStatus_t status =
          a.matmul(static_cast<cublasLtHandle_t>(handle), desc, alpha, argument(plan.a.argument),
                   layouts[0], argument(plan.b.argument), layouts[1], beta, c, layouts[2], d,
                   layouts[3], &heuristic.algo, workspace, workspaceBytes, nullptr);
      if (status == CUBLAS_STATUS_SUCCESS)
        return Status::success();
      failed("cublasLtMatmul", status);
      return Status::failure(message);
    };
    if (Status ran = repeat ? (*repeat)(enqueue) : enqueue(); !ran) {
      message = ran.error();
      break;
    }
    outcome = Outcome::Ran;
  } while (false);
  if (preference)
    a.preferenceDestroy(preference);
  for (cublasLtMatrixLayout_t layout : layouts)
    if (layout)
      a.layoutDestroy(layout);
  if (desc)
    a.descDestroy(desc);
  return {outcome, message};
}

} // namespace hlo::runtime
#endif // HLO_RUN_NO_CUBLASLT
