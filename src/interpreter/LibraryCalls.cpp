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
//  - `__cublas$lt$matmul$f8` (tests/models/CUBLAS_F8.md): operands a, b
//    (f8), c when beta is not 0, a_scale, b_scale (f32[] multipliers),
//    the bias for BIAS epilogues, d_scale when D is f8. T =
//    epilogue(alpha * a_scale * b_scale * dot(a, b) + beta * c + bias);
//    result (D, [amax], workspace) with amax = max |T| when damax_output,
//    and D = T, or d_scale * T clamped to the f8 type's largest value.
//  - `__cudnn$convForward`, `__cudnn$convBiasActivationForward`: the
//    convolution of the custom-call's window and dim_labels, scaled by
//    conv_result_scale, plus side_input_scale times the side input (4th
//    operand) and the bias (3rd, over the output features), through the
//    activation_mode (kNone, kRelu, kRelu6, kElu, kLeakyRelu, kSigmoid,
//    kTanh). Result (output, scratch) with a zero scratch.
//  - `__cudnn$convBackwardInput` (operands: output gradient, filter) and
//    `__cudnn$convBackwardFilter` (operands: input, output gradient): the
//    gradient of the forward convolution their window and dim_labels
//    describe (ConvolutionOp.cpp), with respect to its input or its filter,
//    scaled by conv_result_scale. Result (gradient, scratch).
//  - `Sharding`, `SPMDFullToShardShape`, `SPMDShardToFullShape`: the
//    identity (annotations for the SPMD partitioner; one device).
//  - `__gpu$TopK`: the k largest elements of each row (the last dimension)
//    in descending order with their s32 indices; equal ones by index.
// The backend_config is read with abi's JSON reader: the interpreter links
// no LLVM.
//
//===----------------------------------------------------------------------===//
#include "ElementwiseOps.h"
#include "Ops.h"

#include "support/BackendConfig.h"
#include "hlo_parser/FloatFormat.h"
#include "hlo_parser/HloAttributes.h"
#include "hlo_parser/OpAttributes.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace hlo::interp {
namespace {

bool isGemmTarget(std::string_view target) {
  return target == "__cublas$lt$matmul" || target == "__cublas$gemm" ||
         target == "__cublas$lt$matmul$f8";
}

bool isConvolutionTarget(std::string_view target) {
  return target == "__cudnn$convForward" || target == "__cudnn$convBiasActivationForward";
}

bool isBackwardConvolutionTarget(std::string_view target) {
  return target == "__cudnn$convBackwardInput" || target == "__cudnn$convBackwardFilter";
}

JsonValue backendConfigOf(const HloInstruction &instruction) {
  std::optional<JsonValue> config = parseBackendConfig(backendConfigText(instruction));
  if (!config) {
    // What is wrong with it, as strict JSON.
    ErrorOr<JsonValue> strict = JsonValue::parse(std::string(backendConfigText(instruction)));
    fail(instruction, "backend_config is not JSON: " + strict.error());
  }
  return std::move(*config);
}

/// The library call's float result (its shape's first leaf when a tuple),
/// or a failure naming `what` and the type.
const Shape &floatResultOf(const HloInstruction &instruction, const std::string &what) {
  const Shape &shape = instruction.shape();
  const Shape &output = shape.isTuple() ? shape.tupleShapes().at(0) : shape;
  if (!isFloatingPoint(output.elementType()))
    fail(instruction, what + " giving " + std::string(primitiveTypeName(output.elementType())) +
                          " is not supported by the interpreter");
  return output;
}

/// `result`, or (`result`, zeros...) when the call's shape is a tuple of
/// it and a workspace or scratch buffer.
Literal withWorkspace(Literal result, const Shape &shape) {
  if (!shape.isTuple())
    return result;
  std::vector<Literal> elements = {std::move(result)};
  for (size_t i = 1; i < shape.tupleShapes().size(); ++i)
    elements.emplace_back(shape.tupleShapes()[i]);
  return Literal::tuple(std::move(elements));
}

/// The JSON object at `key` of `object`, or a failure naming it.
const JsonValue &member(const HloInstruction &instruction, const JsonValue &object,
                             const std::string &key) {
  const JsonValue *value = object.find(key);
  if (!value)
    fail(instruction, "backend_config has no \"" + key + "\"");
  return *value;
}

/// A number XLA writes as a JSON number or a string ("2").
double numberOf(const HloInstruction &instruction, const JsonValue &value) {
  if (value.kind() == JsonValue::Kind::Number)
    return value.number();
  if (value.kind() == JsonValue::Kind::String) {
    try {
      return std::stod(value.string());
    } catch (const std::exception &) {
    }
  }
  fail(instruction, "backend_config: expected a number");
}

std::vector<int64_t> dimensionList(const HloInstruction &instruction,
                                   const JsonValue &numbers, const std::string &key) {
  std::vector<int64_t> dims;
  if (const JsonValue *list = numbers.find(key))
    for (const JsonValue &value : list->array())
      dims.push_back(static_cast<int64_t>(numberOf(instruction, value)));
  return dims;
}

/// cuBLAS's GELU epilogue: the tanh approximation.
double geluTanh(double x) {
  const double sqrtTwoOverPi = 0.7978845608028654;
  return 0.5 * x * (1 + std::tanh(sqrtTwoOverPi * (x + 0.044715 * x * x * x)));
}

Literal evaluateGemm(const HloInstruction &instruction, const Operands &operands) {
  JsonValue config = backendConfigOf(instruction);
  const JsonValue &gemm = member(instruction, config, "gemm_backend_config");
  const JsonValue &numbers = member(instruction, gemm, "dot_dimension_numbers");
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
  const Shape &output = floatResultOf(instruction, "a GEMM");
  PrimitiveType type = output.elementType();
  bool fp8 = customCallTarget(instruction) == "__cublas$lt$matmul$f8";
  bool fp8Output = fp8 && primitiveBitWidth(type) == 8;
  bool amaxOutput = fp8 && gemm.find("damax_output") && gemm.find("damax_output")->boolean();
  size_t expectedOperands = 2 + (beta != 0) + bias + (fp8 ? 2 + fp8Output : 0);
  if (operands.size() != expectedOperands)
    fail(instruction, "expected " + std::to_string(expectedOperands) +
                          " operands (a, b" + (beta != 0 ? ", c" : "") +
                          (fp8 ? ", a_scale, b_scale" : "") + (bias ? ", bias" : "") +
                          (fp8Output ? ", d_scale" : "") + "), has " +
                          std::to_string(operands.size()));
  std::vector<double> sums = floatDotSums(dimensions, *operands[0], *operands[1],
                                          fp8 ? PrimitiveType::F32 : type);
  size_t scales = 2 + (beta != 0);
  if (fp8) // the operands' scales multiply the product
    alpha *= operands[scales]->getAsDouble(0) * operands[scales + 1]->getAsDouble(0);
  double dScale = fp8Output ? operands.back()->getAsDouble(0) : 1;
  if (static_cast<int64_t>(sums.size()) != output.elementCount())
    fail(instruction, "the GEMM has " + std::to_string(sums.size()) +
                          " results, its output shape " + output.toString(false));
  const Literal *addend = beta != 0 ? operands[2] : nullptr;
  const Literal *biasValues = bias ? operands[fp8 ? scales + 2 : operands.size() - 1] : nullptr;
  int64_t biasCount = biasValues ? biasValues->elementCount() : 1;
  if (addend && addend->elementCount() != output.elementCount())
    fail(instruction, "c has " + std::to_string(addend->elementCount()) +
                          " elements, the output " + std::to_string(output.elementCount()));
  if (biasValues && (biasCount == 0 || output.elementCount() % biasCount != 0))
    fail(instruction, "the bias's " + std::to_string(biasCount) +
                          " elements do not tile the output");
  Literal result(output);
  double amax = 0;
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
    amax = std::max(amax, std::fabs(value));
    if (fp8Output) { // scaled, saturated to the type's largest value
      double largest = floatFormatOf(type).maxFinite();
      value = std::isnan(value) ? value : std::clamp(value * dScale, -largest, largest);
    }
    result.realData()[i] = roundToFloatType(value, type);
  }
  if (!amaxOutput)
    return withWorkspace(std::move(result), shape);
  std::vector<Literal> elements;
  elements.push_back(std::move(result));
  Literal amaxValue(shape.tupleShapes().at(1));
  amaxValue.realData()[0] = roundToFloatType(amax, shape.tupleShapes().at(1).elementType());
  elements.push_back(std::move(amaxValue));
  for (size_t i = 2; i < shape.tupleShapes().size(); ++i)
    elements.emplace_back(shape.tupleShapes()[i]);
  return Literal::tuple(std::move(elements));
}

/// cuDNN's activation modes.
double activate(const HloInstruction &instruction, const std::string &mode, double x,
                double leakyAlpha) {
  if (mode == "kNone")
    return x;
  if (mode == "kRelu")
    return std::max(x, 0.0);
  if (mode == "kRelu6")
    return std::clamp(x, 0.0, 6.0);
  if (mode == "kElu")
    return x > 0 ? x : std::expm1(x);
  if (mode == "kLeakyRelu")
    return x > 0 ? x : leakyAlpha * x;
  if (mode == "kSigmoid")
    return 1 / (1 + std::exp(-x));
  if (mode == "kTanh")
    return std::tanh(x);
  fail(instruction, "cuDNN activation " + mode + " is not supported by the interpreter");
}

Literal evaluateCudnnConvolution(const HloInstruction &instruction, const Operands &operands) {
  JsonValue config = backendConfigOf(instruction);
  const JsonValue &conv = member(instruction, config, "cudnn_conv_backend_config");
  auto numberOr = [&](const char *key, double fallback) {
    const JsonValue *value = conv.find(key);
    return value ? numberOf(instruction, *value) : fallback;
  };
  double resultScale = numberOr("conv_result_scale", 1);
  double sideScale = numberOr("side_input_scale", 0);
  double leakyAlpha = numberOr("leakyrelu_alpha", 0);
  std::string mode = conv.find("activation_mode") ? conv.find("activation_mode")->string()
                                                   : std::string("kNone");
  bool fused = customCallTarget(instruction) == "__cudnn$convBiasActivationForward";
  size_t expected = fused ? (operands.size() == 4 ? 4 : 3) : 2;
  if (operands.size() != expected)
    fail(instruction, "expected " + std::to_string(expected) + " operands, has " +
                          std::to_string(operands.size()));
  const Shape &shape = instruction.shape();
  const Shape &output = floatResultOf(instruction, "a cuDNN convolution");
  PrimitiveType type = output.elementType();
  ConvolutionSpec spec = convolutionSpecOf(instruction);
  std::vector<double> sums =
      floatConvolutionSums(instruction, spec, *operands[0], *operands[1], output);
  const Literal *bias = fused ? operands[2] : nullptr;
  const Literal *side = fused && operands.size() == 4 ? operands[3] : nullptr;
  int64_t features = output.dimension(spec.labels.outputFeature);
  if (bias && bias->elementCount() != features)
    fail(instruction, "the bias has " + std::to_string(bias->elementCount()) +
                          " elements, the output " + std::to_string(features) + " features");
  if (side && side->elementCount() != output.elementCount())
    fail(instruction, "the side input's shape differs from the output's");
  int64_t featureStride = 1;
  for (int64_t d = output.rank() - 1; d > spec.labels.outputFeature; --d)
    featureStride *= output.dimension(d);
  Literal result(output);
  for (size_t i = 0; i < sums.size(); ++i) {
    double value = resultScale * sums[i];
    if (side && sideScale != 0)
      value += sideScale * side->getAsDouble(static_cast<int64_t>(i));
    if (bias)
      value += bias->getAsDouble(static_cast<int64_t>(i) / featureStride % features);
    result.realData()[i] = roundToFloatType(activate(instruction, mode, value, leakyAlpha), type);
  }
  return withWorkspace(std::move(result), shape);
}

Literal evaluateCudnnBackwardConvolution(const HloInstruction &instruction,
                                         const Operands &operands) {
  JsonValue config = backendConfigOf(instruction);
  double resultScale = 1;
  if (const JsonValue *conv = config.find("cudnn_conv_backend_config")) {
    if (const JsonValue *scale = conv->find("conv_result_scale"))
      resultScale = numberOf(instruction, *scale);
    if (const JsonValue *mode = conv->find("activation_mode"))
      if (mode->string() != "kNone")
        fail(instruction, "a backward convolution with activation " + mode->string() +
                              " is not supported by the interpreter");
  }
  if (operands.size() != 2)
    fail(instruction, "expected 2 operands, has " + std::to_string(operands.size()));
  const Shape &shape = instruction.shape();
  const Shape &output = floatResultOf(instruction, "a cuDNN convolution");
  ConvolutionSpec spec = convolutionSpecOf(instruction);
  bool input = customCallTarget(instruction) == "__cudnn$convBackwardInput";
  std::vector<double> sums =
      input ? floatConvolutionInputGradient(instruction, spec, *operands[0], *operands[1], output)
            : floatConvolutionFilterGradient(instruction, spec, *operands[0], *operands[1],
                                             output);
  Literal result(output);
  for (size_t i = 0; i < sums.size(); ++i)
    result.realData()[i] = roundToFloatType(resultScale * sums[i], output.elementType());
  return withWorkspace(std::move(result), shape);
}

} // namespace

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
  // The `topk` op says which end; XLA's TopK custom call takes the largest.
  bool largest = instruction.opcode() != HloOpcode::TopK || instruction.boolAttr("largest", true);
  Literal top(values), indices(shape.tupleShapes()[1]);
  PrimitiveType type = input.shape().elementType();
  std::vector<int64_t> order(static_cast<size_t>(rowLength));
  for (int64_t row = 0; row * rowLength < input.elementCount(); ++row) {
    std::iota(order.begin(), order.end(), 0);
    auto valueAt = [&](int64_t i) { return loadScalar(input, row * rowLength + i); };
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      Scalar x = valueAt(a), y = valueAt(b);
      if (!largest)
        std::swap(x, y);
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

bool isInterpretedCustomCall(const HloInstruction &instruction) {
  std::string_view target = customCallTarget(instruction);
  return instruction.opcode() == HloOpcode::CustomCall &&
         (isGemmTarget(target) || isConvolutionTarget(target) ||
          isBackwardConvolutionTarget(target) || target == "__gpu$TopK" ||
          isShardingAnnotation(target));
}

Literal evaluateCustomCall(const HloInstruction &instruction, const Operands &operands) {
  std::string_view target = customCallTarget(instruction);
  if (isGemmTarget(target))
    return evaluateGemm(instruction, operands);
  if (isConvolutionTarget(target))
    return evaluateCudnnConvolution(instruction, operands);
  if (isBackwardConvolutionTarget(target))
    return evaluateCudnnBackwardConvolution(instruction, operands);
  if (target == "__gpu$TopK")
    return evaluateTopK(instruction, operands);
  if (isShardingAnnotation(target) && operands.size() == 1 &&
      operands[0]->shape().compatible(instruction.shape()))
    return *operands[0];
  fail(instruction, "unsupported by the interpreter: custom-call '" + std::string(target) +
                        "' ('" + instruction.name() + "')");
}

} // namespace hlo::interp
