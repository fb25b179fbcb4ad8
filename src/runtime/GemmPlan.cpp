//===- GemmPlan.cpp - XLA's cuBLAS custom-calls as cuBLASLt problems ------===//
//
// Reads the gemm_backend_config and the operands' layouts into GemmPlan
// (GemmPlan.h). Each operand's batch, free and contracting dimensions must
// collapse into one batch and one 2-D matrix of its buffer (each group
// contiguous, the matrix's minor group stride 1); anything else is left to
// the interpreter, with the reason.
//
//===----------------------------------------------------------------------===//
#include "GemmPlan.h"

#include "support/BackendConfig.h"
#include "interpreter/ArrayUtils.h"

#include <algorithm>

namespace hlo::runtime {
namespace {

/// A number XLA writes as a JSON number or a string ("2").
std::optional<double> numberOf(const JsonValue &value) {
  if (value.kind() == JsonValue::Kind::Number)
    return value.number();
  if (value.kind() == JsonValue::Kind::String) {
    try {
      return std::stod(value.string());
    } catch (const std::exception &) {
    }
  }
  return std::nullopt;
}

std::vector<int64_t> dimensionList(const JsonValue &numbers, const std::string &key) {
  std::vector<int64_t> dims;
  if (const JsonValue *list = numbers.find(key))
    for (const JsonValue &value : list->array())
      if (std::optional<double> number = numberOf(value))
        dims.push_back(static_cast<int64_t>(*number));
  return dims;
}

/// Elements between neighbours along each logical dimension of the buffer.
std::vector<int64_t> stridesOf(const Shape &shape) {
  std::vector<int64_t> strides(static_cast<size_t>(shape.rank()), 0);
  int64_t stride = 1;
  for (int64_t d : shape.layoutOrDefault().minorToMajor) {
    strides[static_cast<size_t>(d)] = stride;
    stride *= shape.dimension(d);
  }
  return strides;
}

/// Dimensions `dims` (in this order, outer to inner) as one dimension:
/// its size and stride (0 when its size is 1); nullopt when they are not
/// contiguous in that order.
struct Group {
  int64_t size = 1, stride = 0;
};
std::optional<Group> groupOf(const Shape &shape, const std::vector<int64_t> &dims) {
  std::vector<int64_t> strides = stridesOf(shape);
  std::vector<int64_t> kept; // size-1 dimensions have any stride
  for (int64_t d : dims)
    if (shape.dimension(d) != 1)
      kept.push_back(d);
  Group group;
  for (size_t i = 0; i < kept.size(); ++i) {
    group.size *= shape.dimension(kept[i]);
    if (i + 1 < kept.size() &&
        strides[kept[i]] != strides[kept[i + 1]] * shape.dimension(kept[i + 1]))
      return std::nullopt;
  }
  if (!kept.empty())
    group.stride = strides[kept.back()];
  return group;
}

/// A logical rows x cols matrix in a buffer: row-major (cols contiguous)
/// or column-major, `ld` elements between its rows (columns).
struct Matrix {
  bool rowMajor = true;
  int64_t rows = 1, cols = 1, ld = 1;
};
std::optional<Matrix> matrixOf(const Group &rows, const Group &cols) {
  if ((cols.size == 1 || cols.stride == 1) && (rows.size == 1 || rows.stride >= cols.size))
    return Matrix{true, rows.size, cols.size, rows.size == 1 ? cols.size : rows.stride};
  if ((rows.size == 1 || rows.stride == 1) && (cols.size == 1 || cols.stride >= rows.size))
    return Matrix{false, rows.size, cols.size, cols.size == 1 ? rows.size : cols.stride};
  return std::nullopt;
}

std::vector<int64_t> range(int64_t first, int64_t count) {
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < count; ++i)
    dims.push_back(first + i);
  return dims;
}

bool isFp8(PrimitiveType type) {
  return type == PrimitiveType::F8E4M3FN || type == PrimitiveType::F8E5M2;
}

bool isPlainFloat(PrimitiveType type) {
  return type == PrimitiveType::F32 || type == PrimitiveType::F64 ||
         type == PrimitiveType::BF16 || type == PrimitiveType::F16;
}

/// X (rows x cols, as `matrix` stores it) as cuBLASLt's operand op(X):
/// a column-major buffer matrix, transposed where X is row-major.
GemmMatrix operandOf(const Matrix &matrix, PrimitiveType type, size_t argument,
                     int64_t batchStride, bool wantTransposeOfX) {
  GemmMatrix result;
  result.type = type;
  result.argument = argument;
  result.ld = matrix.ld;
  result.batchStride = batchStride;
  // A row-major X is the column-major buffer matrix X^T (cols x rows).
  result.rows = matrix.rowMajor ? matrix.cols : matrix.rows;
  result.cols = matrix.rowMajor ? matrix.rows : matrix.cols;
  // op(buffer matrix) must be X (or X^T when wanted).
  result.transposed = matrix.rowMajor != wantTransposeOfX;
  return result;
}

} // namespace

bool isGemmLibraryCall(const std::string &target) {
  return target == "__cublas$lt$matmul" || target == "__cublas$gemm" ||
         target == "__cublas$lt$matmul$f8";
}

bool gemmConfigAllowsTf32(const JsonValue &gemm) {
  const JsonValue *precision = gemm.find("precision_config");
  if (!precision)
    return true;
  const JsonValue *algorithm = precision->find("algorithm");
  if (algorithm && algorithm->kind() == JsonValue::Kind::String &&
      algorithm->string() != "ALG_UNSET")
    return algorithm->string().find("TF32") != std::string::npos;
  if (const JsonValue *operands = precision->find("operand_precision"))
    for (const JsonValue &operand : operands->array())
      if (operand.kind() != JsonValue::Kind::String || operand.string() != "DEFAULT")
        return false;
  return true;
}

std::variant<GemmPlan, std::string> planGemm(const abi::ProgramStep &step) {
  if (!isGemmLibraryCall(step.target))
    return "not a cuBLAS GEMM";
  std::optional<JsonValue> config = parseBackendConfig(step.backendConfig);
  const JsonValue *gemm = config ? config->find("gemm_backend_config") : nullptr;
  const JsonValue *numbers = gemm ? gemm->find("dot_dimension_numbers") : nullptr;
  if (!numbers)
    return "no gemm_backend_config with dot_dimension_numbers";
  GemmPlan plan;
  plan.fp8 = step.target == "__cublas$lt$matmul$f8";
  auto number = [&](const char *key, double fallback) {
    const JsonValue *value = gemm->find(key);
    std::optional<double> parsed = value ? numberOf(*value) : std::nullopt;
    return parsed.value_or(fallback);
  };
  plan.alpha = number("alpha_real", 1);
  plan.beta = number("beta", 0);
  if (number("alpha_imag", 0) != 0)
    return "a complex alpha";
  std::string epilogue = gemm->find("epilogue") ? gemm->find("epilogue")->string() : "DEFAULT";
  static const std::pair<const char *, GemmPlan::Epilogue> epilogues[] = {
      {"DEFAULT", GemmPlan::Epilogue::Default}, {"RELU", GemmPlan::Epilogue::Relu},
      {"GELU", GemmPlan::Epilogue::Gelu},       {"BIAS", GemmPlan::Epilogue::Bias},
      {"BIAS_RELU", GemmPlan::Epilogue::BiasRelu}, {"BIAS_GELU", GemmPlan::Epilogue::BiasGelu}};
  auto found = std::find_if(std::begin(epilogues), std::end(epilogues),
                            [&](const auto &entry) { return epilogue == entry.first; });
  if (found == std::end(epilogues))
    return "the epilogue " + epilogue;
  plan.epilogue = found->second;
  bool bias = epilogue.rfind("BIAS", 0) == 0;

  // Operands: a, b, [c], [a_scale, b_scale], [bias], [d_scale].
  if (step.results.empty())
    return "no result buffers";
  const Shape dShape = shapeOf(step.results[0].shape);
  PrimitiveType dType = dShape.elementType();
  bool fp8Output = plan.fp8 && isFp8(dType);
  size_t expected = 2 + (plan.beta != 0) + (plan.fp8 ? 2 : 0) + bias + fp8Output;
  if (step.arguments.size() != expected)
    return "expected " + std::to_string(expected) + " operands, the step has " +
           std::to_string(step.arguments.size());
  size_t next = 2;
  std::optional<size_t> cArgument;
  if (plan.beta != 0)
    cArgument = next++;
  if (plan.fp8) {
    plan.aScaleArgument = next++;
    plan.bScaleArgument = next++;
  }
  if (bias) {
    plan.biasArgument = next++;
    plan.biasType = shapeOf(step.arguments[*plan.biasArgument].shape).elementType();
  }
  if (fp8Output)
    plan.dScaleArgument = next++;
  if (plan.fp8 && gemm->find("damax_output") && gemm->find("damax_output")->boolean()) {
    if (step.results.size() < 3)
      return "damax_output without an amax result";
    plan.amaxResult = 1;
  }
  if (step.results.size() > 1 && step.results.back().shape.elementType == "s8") {
    plan.workspaceResult = step.results.size() - 1;
    plan.workspaceBytes = step.results.back().bytes;
  }

  const Shape lhs = shapeOf(step.arguments[0].shape), rhs = shapeOf(step.arguments[1].shape);
  PrimitiveType aType = lhs.elementType(), bType = rhs.elementType();
  if (plan.fp8 ? !(isFp8(aType) && isFp8(bType) && (isFp8(dType) || isPlainFloat(dType)))
               : !(isPlainFloat(aType) && aType == bType && isPlainFloat(dType)))
    return "operand types " + std::string(primitiveTypeName(aType)) + ", " +
           std::string(primitiveTypeName(bType)) + " -> " +
           std::string(primitiveTypeName(dType));
  if ((aType == PrimitiveType::F64) != (dType == PrimitiveType::F64))
    return "f64 mixed with other types";
  plan.tf32 = !plan.fp8 && aType == PrimitiveType::F32 && gemmConfigAllowsTf32(*gemm);

  std::vector<int64_t> lhsBatch = dimensionList(*numbers, "lhs_batch_dimensions");
  std::vector<int64_t> rhsBatch = dimensionList(*numbers, "rhs_batch_dimensions");
  std::vector<int64_t> lhsContracting = dimensionList(*numbers, "lhs_contracting_dimensions");
  std::vector<int64_t> rhsContracting = dimensionList(*numbers, "rhs_contracting_dimensions");
  std::vector<int64_t> lhsFree = interp::freeDimensions(lhs.rank(), lhsBatch, lhsContracting);
  std::vector<int64_t> rhsFree = interp::freeDimensions(rhs.rank(), rhsBatch, rhsContracting);
  int64_t batchRank = static_cast<int64_t>(lhsBatch.size());
  if (rhsBatch.size() != lhsBatch.size() || rhsContracting.size() != lhsContracting.size() ||
      dShape.rank() != batchRank + static_cast<int64_t>(lhsFree.size() + rhsFree.size()))
    return "dimension numbers that do not match the shapes";
  std::vector<int64_t> dLhsFree = range(batchRank, static_cast<int64_t>(lhsFree.size()));
  std::vector<int64_t> dRhsFree =
      range(batchRank + static_cast<int64_t>(lhsFree.size()), static_cast<int64_t>(rhsFree.size()));

  std::optional<Group> lb = groupOf(lhs, lhsBatch), rb = groupOf(rhs, rhsBatch),
                       db = groupOf(dShape, range(0, batchRank));
  std::optional<Group> lm = groupOf(lhs, lhsFree), lk = groupOf(lhs, lhsContracting);
  std::optional<Group> rk = groupOf(rhs, rhsContracting), rn = groupOf(rhs, rhsFree);
  std::optional<Group> dm = groupOf(dShape, dLhsFree), dn = groupOf(dShape, dRhsFree);
  if (!lb || !rb || !db || !lm || !lk || !rk || !rn || !dm || !dn)
    return "dimensions that do not collapse into one batch and one matrix (layouts)";
  std::optional<Matrix> left = matrixOf(*lm, *lk), right = matrixOf(*rk, *rn),
                        result = matrixOf(*dm, *dn);
  if (!left || !right || !result)
    return "a matrix whose minor dimension is not contiguous (layouts)";
  // The batch outside each matrix.
  auto batchFits = [](const Group &batch, const Matrix &matrix) {
    return batch.size == 1 || batch.stride >= matrix.rows * matrix.cols;
  };
  if (!batchFits(*lb, *left) || !batchFits(*rb, *right) || !batchFits(*db, *result))
    return "batch dimensions inside the matrices (layouts)";
  plan.batch = lb->size;
  int64_t m = lm->size, n = rn->size, k = lk->size;

  if (result->rowMajor) {
    // D^T (n x m) = R^T (n x k) L^T (k x m): A is the rhs, B the lhs.
    plan.swapped = true;
    plan.m = n;
    plan.n = m;
    plan.a = operandOf(*right, bType, 1, rb->stride, /*wantTransposeOfX=*/true);
    plan.b = operandOf(*left, aType, 0, lb->stride, /*wantTransposeOfX=*/true);
  } else {
    plan.m = m;
    plan.n = n;
    plan.a = operandOf(*left, aType, 0, lb->stride, false);
    plan.b = operandOf(*right, bType, 1, rb->stride, false);
  }
  plan.k = k;
  plan.d.type = dType;
  plan.d.argument = 0;
  plan.d.rows = plan.m;
  plan.d.cols = plan.n;
  plan.d.ld = result->ld;
  plan.d.batchStride = db->stride;
  if (plan.batch == 1)
    plan.a.batchStride = plan.b.batchStride = plan.d.batchStride = 0;
  if (cArgument) {
    const Shape cShape = shapeOf(step.arguments[*cArgument].shape);
    if (cShape.dimensions() != dShape.dimensions() ||
        cShape.layoutOrDefault().minorToMajor != dShape.layoutOrDefault().minorToMajor)
      return "c in another shape or layout than the result";
    plan.c = plan.d;
    plan.c->type = cShape.elementType();
    plan.c->argument = *cArgument;
  }
  if (bias && !plan.swapped && m > 1)
    return "a bias over the columns of a column-major result";
  if (plan.fp8 && !(plan.a.transposed && !plan.b.transposed))
    return "f8 operands that are not in cuBLASLt's TN form";
  return plan;
}

} // namespace hlo::runtime
