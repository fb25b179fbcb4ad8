//===- LibraryCalls.cpp - Library custom-calls with an HLO meaning --------===//
//
// Owns what the library calls that XLA's GPU compiler writes into a module
// compute, so that an after-optimizations module (its dots rewritten to
// cuBLAS calls, its top-k to a TopK kernel) runs in the interpreter, and
// hlo-run can run those steps of a module's program on the host:
//  - `__cublas$lt$matmul`, `__cublas$gemm`: D = epilogue(alpha * dot(a, b)
//    + beta * c + bias) from the gemm_backend_config (dot_dimension_numbers,
//    alpha_real, beta, epilogue DEFAULT, RELU, GELU, BIAS, BIAS_RELU,
//    BIAS_GELU; GELU is cuBLAS's tanh approximation). Operands a, b, then c
//    when beta is not 0, then the bias (over the rhs's free dimensions).
//    The result is D, or (D, workspace) with a zero workspace.
//  - `__gpu$TopK`: the k largest elements of each row (the last dimension)
//    in descending order with their s32 indices; equal ones by index.
// The backend_config is read with abi's JSON reader: the interpreter links
// no LLVM.
//
//===----------------------------------------------------------------------===//
#include "ElementwiseOps.h"
#include "Ops.h"

#include "abi/Json.h"
#include "hlo_parser/FloatFormat.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace hlo::interp {
namespace {

bool isGemmTarget(std::string_view target) {
  return target == "__cublas$lt$matmul" || target == "__cublas$gemm";
}

/// The JSON object at `key` of `object`, or a failure naming it.
const abi::JsonValue &member(const HloInstruction &instruction, const abi::JsonValue &object,
                             const std::string &key) {
  const abi::JsonValue *value = object.find(key);
  if (!value)
    fail(instruction, "backend_config has no \"" + key + "\"");
  return *value;
}

/// A number XLA writes as a JSON number or a string ("2").
double numberOf(const HloInstruction &instruction, const abi::JsonValue &value) {
  if (value.kind() == abi::JsonValue::Kind::Number)
    return value.number();
  if (value.kind() == abi::JsonValue::Kind::String) {
    try {
      return std::stod(value.string());
    } catch (const std::exception &) {
    }
  }
  fail(instruction, "backend_config: expected a number");
}

std::vector<int64_t> dimensionList(const HloInstruction &instruction,
                                   const abi::JsonValue &numbers, const std::string &key) {
  std::vector<int64_t> dims;
  if (const abi::JsonValue *list = numbers.find(key))
    for (const abi::JsonValue &value : list->array())
      dims.push_back(static_cast<int64_t>(numberOf(instruction, value)));
  return dims;
}

/// cuBLAS's GELU epilogue: the tanh approximation.
double geluTanh(double x) {
  const double sqrtTwoOverPi = 0.7978845608028654;
  return 0.5 * x * (1 + std::tanh(sqrtTwoOverPi * (x + 0.044715 * x * x * x)));
}

Literal evaluateGemm(const HloInstruction &instruction, const Operands &operands) {
  std::string error;
  std::optional<abi::JsonValue> config =
      abi::JsonValue::parse(std::string(instruction.textAttr("backend_config")), error);
  if (!config)
    fail(instruction, "backend_config is not JSON: " + error);
  const abi::JsonValue &gemm = member(instruction, *config, "gemm_backend_config");
  const abi::JsonValue &numbers = member(instruction, gemm, "dot_dimension_numbers");
  DotDimensions dimensions{dimensionList(instruction, numbers, "lhs_batch_dimensions"),
                           dimensionList(instruction, numbers, "rhs_batch_dimensions"),
                           dimensionList(instruction, numbers, "lhs_contracting_dimensions"),
                           dimensionList(instruction, numbers, "rhs_contracting_dimensions")};
  double alpha = gemm.find("alpha_real") ? numberOf(instruction, *gemm.find("alpha_real")) : 1;
  double alphaImag =
      gemm.find("alpha_imag") ? numberOf(instruction, *gemm.find("alpha_imag")) : 0;
  double beta = gemm.find("beta") ? numberOf(instruction, *gemm.find("beta")) : 0;
  std::string epilogue =
      gemm.find("epilogue") ? gemm.find("epilogue")->string() : std::string("DEFAULT");
  bool bias = epilogue.rfind("BIAS", 0) == 0;
  std::string activation = bias ? epilogue.substr(std::min<size_t>(5, epilogue.size()))
                                 : epilogue == "DEFAULT" ? "" : epilogue;
  if (activation != "" && activation != "RELU" && activation != "GELU")
    fail(instruction, "cuBLAS epilogue " + epilogue + " is not supported by the interpreter");
  if (alphaImag != 0)
    fail(instruction, "complex alpha is not supported by the interpreter");

  const Shape &shape = instruction.shape();
  const Shape &output = shape.isTuple() ? shape.tupleShapes().at(0) : shape;
  PrimitiveType type = output.elementType();
  if (!isFloatingPoint(type))
    fail(instruction, "a GEMM giving " + std::string(primitiveTypeName(type)) +
                          " is not supported by the interpreter");
  size_t expectedOperands = 2 + (beta != 0) + bias;
  if (operands.size() != expectedOperands)
    fail(instruction, "expected " + std::to_string(expectedOperands) +
                          " operands (a, b" + (beta != 0 ? ", c" : "") +
                          (bias ? ", bias" : "") + "), has " +
                          std::to_string(operands.size()));
  std::vector<double> sums = floatDotSums(dimensions, *operands[0], *operands[1], type);
  if (static_cast<int64_t>(sums.size()) != output.elementCount())
    fail(instruction, "the GEMM has " + std::to_string(sums.size()) +
                          " results, its output shape " + output.toString(false));
  const Literal *addend = beta != 0 ? operands[2] : nullptr;
  const Literal *biasValues = bias ? operands.back() : nullptr;
  int64_t biasCount = biasValues ? biasValues->elementCount() : 1;
  if (addend && addend->elementCount() != output.elementCount())
    fail(instruction, "c has " + std::to_string(addend->elementCount()) +
                          " elements, the output " + std::to_string(output.elementCount()));
  if (biasValues && (biasCount == 0 || output.elementCount() % biasCount != 0))
    fail(instruction, "the bias's " + std::to_string(biasCount) +
                          " elements do not tile the output");
  Literal result(output);
  for (size_t i = 0; i < sums.size(); ++i) {
    double value = alpha * sums[i];
    if (addend)
      value += beta * addend->getAsDouble(static_cast<int64_t>(i));
    // Row-major output: the rhs's free dimensions are the minor ones.
    if (biasValues)
      value += biasValues->getAsDouble(static_cast<int64_t>(i) % biasCount);
    if (activation == "RELU")
      value = std::max(value, 0.0);
    else if (activation == "GELU")
      value = geluTanh(value);
    result.realData()[i] = roundToFloatType(value, type);
  }
  if (!shape.isTuple())
    return result;
  std::vector<Literal> elements = {std::move(result)};
  for (size_t i = 1; i < shape.tupleShapes().size(); ++i)
    elements.emplace_back(shape.tupleShapes()[i]); // the workspace: zeros
  return Literal::tuple(std::move(elements));
}

Literal evaluateTopK(const HloInstruction &instruction, const Operands &operands) {
  const Shape &shape = instruction.shape();
  if (operands.size() != 1 || !shape.isTuple() || shape.tupleSize() != 2)
    fail(instruction, "TopK takes one operand and gives (values, indices)");
  const Literal &input = *operands[0];
  const Shape &values = shape.tupleShapes()[0];
  int64_t rowLength = input.shape().rank() ? input.shape().dimensions().back() : 1;
  int64_t k = values.rank() ? values.dimensions().back() : 1;
  if (rowLength <= 0 || k > rowLength || input.elementCount() / rowLength * k !=
                                             values.elementCount())
    fail(instruction, "TopK's result does not match its operand's rows");
  Literal top(values), indices(shape.tupleShapes()[1]);
  PrimitiveType type = input.shape().elementType();
  std::vector<int64_t> order(static_cast<size_t>(rowLength));
  for (int64_t row = 0; row * rowLength < input.elementCount(); ++row) {
    std::iota(order.begin(), order.end(), 0);
    auto valueAt = [&](int64_t i) { return loadScalar(input, row * rowLength + i); };
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      Scalar x = valueAt(a), y = valueAt(b);
      if (!isFloatingPoint(type))
        return x.i > y.i;
      // NaN above everything, so that the order is total.
      if (std::isnan(x.re) || std::isnan(y.re))
        return std::isnan(x.re) && !std::isnan(y.re);
      return x.re > y.re;
    });
    for (int64_t i = 0; i < k; ++i) {
      storeScalar(top, row * k + i, valueAt(order[i]));
      indices.intData()[row * k + i] = order[i];
    }
  }
  return Literal::tuple({std::move(top), std::move(indices)});
}

} // namespace

bool isInterpretedCustomCall(const HloInstruction &instruction) {
  std::string_view target = instruction.textAttr("custom_call_target");
  return instruction.opcode() == HloOpcode::CustomCall &&
         (isGemmTarget(target) || target == "__gpu$TopK");
}

Literal evaluateCustomCall(const HloInstruction &instruction, const Operands &operands) {
  std::string_view target = instruction.textAttr("custom_call_target");
  if (isGemmTarget(target))
    return evaluateGemm(instruction, operands);
  if (target == "__gpu$TopK")
    return evaluateTopK(instruction, operands);
  fail(instruction, "unsupported by the interpreter: custom-call '" + std::string(target) +
                        "' ('" + instruction.name() + "')");
}

} // namespace hlo::interp
