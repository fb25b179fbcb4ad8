//===- ConvolutionBackwardTest.cpp - cuDNN backward convolutions ----------===//
//
// The interpreter's `__cudnn$convBackwardInput` (operands: output gradient,
// filter; result: the forward input's gradient) and
// `__cudnn$convBackwardFilter` (operands: input, output gradient; result:
// the forward filter's gradient), whose window and dim_labels are the
// forward convolution's, as XLA's conv rewriter writes them: hand-checked
// 1-D cases (padding, stride, rhs dilation, reversal), 2-D cases with
// feature groups and both layouts whose expected values are jax.vjp's of
// lax.conv_general_dilated (jax 0.10.2 on the CPU; integer inputs, so the
// values are exact), the adjoint identities <conv(x, w), dy> = <x, dx> =
// <w, dw> over a sweep of windows, and the errors.
//
//===----------------------------------------------------------------------===//
#include "EvaluateHloText.h"
#include "interpreter/Evaluator.h"

#include "hlo_parser/Parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace hlo;
using namespace hlo::interp;

namespace {

using hlo::interp::testing::evaluate;

/// The error message of evaluating `text` on `arguments` ("" if it succeeds).
std::string evaluationError(const std::string &text, std::vector<Literal> arguments) {
  auto [module, errors] = parseHloModuleText(text);
  EXPECT_NE(module, nullptr) << errors;
  if (!module)
    return "parse error: " + errors;
  Evaluator evaluator(*module);
  std::vector<ValuePtr> values;
  for (Literal &argument : arguments)
    values.push_back(std::make_shared<const Literal>(std::move(argument)));
  try {
    evaluator.run(values);
  } catch (const InterpreterError &error) {
    return formatInterpreterError(*module, error);
  }
  return "";
}

Shape parseShape(std::string_view text) {
  ErrorOr<Shape> shape = parseShapeText(text);
  EXPECT_TRUE(shape) << shape.error();
  return shape ? *shape : Shape();
}

/// A literal of `shape` holding `values` in row-major order.
Literal literal(const std::string &shape, std::vector<double> values) {
  Literal result(parseShape(shape));
  EXPECT_EQ(result.realData().size(), values.size()) << shape;
  result.realData() = std::move(values);
  return result;
}

/// A literal of `shape` holding (i % period) - offset at element i, as the
/// jax cases below were generated.
Literal pattern(const std::string &shape, int64_t period, int64_t offset) {
  Literal result(parseShape(shape));
  for (size_t i = 0; i < result.realData().size(); ++i)
    result.realData()[i] = static_cast<double>(static_cast<int64_t>(i) % period - offset);
  return result;
}

/// A literal of `shape` holding pseudo-random integers in [-4, 4].
Literal randomIntegers(const std::string &shape, uint64_t seed) {
  Literal result(parseShape(shape));
  for (double &value : result.realData()) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    value = static_cast<double>(static_cast<int64_t>(seed >> 33) % 9 - 4);
  }
  return result;
}

/// A module whose entry takes a and b and returns the custom-call
/// `target` of them, giving (`result`, u8[0]).
std::string backwardCall(const std::string &target, const std::string &a, const std::string &b,
                         const std::string &result, const std::string &attributes,
                         double scale = 1) {
  return "HloModule m\nENTRY e {\n  a = " + a + " parameter(0)\n  b = " + b +
         " parameter(1)\n  ROOT r = (" + result + ", u8[0]) custom-call(a, b), " + attributes +
         ", custom_call_target=\"" + target +
         "\", backend_config={\"cudnn_conv_backend_config\":{\"activation_mode\":\"kNone\","
         "\"conv_result_scale\":" +
         std::to_string(scale) + ",\"side_input_scale\":0}}\n}\n";
}

std::vector<double> gradient(const Literal &call) {
  EXPECT_EQ(call.tupleElements().size(), 2u);
  if (call.tupleElements().empty())
    return {};
  return call.tupleElements()[0].realData();
}

/// The input gradient of the 1-D forward convolution of an f32[1,4,1]
/// input with kernel {1, 10} (f32[2,1,1]) in `window`, from `dy`.
std::vector<double> inputGradient1D(const std::string &window, std::vector<double> dy) {
  std::string dyShape = "f32[1," + std::to_string(dy.size()) + ",1]";
  return gradient(evaluate(backwardCall("__cudnn$convBackwardInput", dyShape, "f32[2,1,1]",
                                        "f32[1,4,1]",
                                        "window={" + window + "}, dim_labels=b0f_0io->b0f"),
                           {literal(dyShape, std::move(dy)), literal("f32[2,1,1]", {1, 10})}));
}

/// The filter gradient of the same convolution of x = {1, 2, 3, 4}.
std::vector<double> filterGradient1D(const std::string &window, std::vector<double> dy) {
  std::string dyShape = "f32[1," + std::to_string(dy.size()) + ",1]";
  return gradient(evaluate(backwardCall("__cudnn$convBackwardFilter", "f32[1,4,1]", dyShape,
                                        "f32[2,1,1]",
                                        "window={" + window + "}, dim_labels=b0f_0io->b0f"),
                           {literal("f32[1,4,1]", {1, 2, 3, 4}),
                            literal(dyShape, std::move(dy))}));
}

} // namespace

// forward: y[o] = sum_k x[o * stride + k * dilation - pad_low] * w[k].
TEST(ConvolutionBackward, OneDimensionHandChecked) {
  // y[o] = x[o] + 10 x[o + 1]: dx[i] = dy[i] + 10 dy[i - 1];
  // dw[k] = sum_o x[o + k] dy[o].
  EXPECT_EQ(inputGradient1D("size=2", {1, 2, 3}), (std::vector<double>{1, 12, 23, 30}));
  EXPECT_EQ(filterGradient1D("size=2", {1, 2, 3}), (std::vector<double>{14, 20}));
  // y[o] = x[2o - 1] + 10 x[2o], two outputs: dx = {10 dy0, dy1, 10 dy1, 0},
  // dw = {x[-1] dy0 + x[1] dy1, x[0] dy0 + x[2] dy1}.
  EXPECT_EQ(inputGradient1D("size=2 stride=2 pad=1_0", {1, 2}),
            (std::vector<double>{10, 2, 20, 0}));
  EXPECT_EQ(filterGradient1D("size=2 stride=2 pad=1_0", {1, 2}), (std::vector<double>{4, 7}));
  // y[o] = x[o] + 10 x[o + 2].
  EXPECT_EQ(inputGradient1D("size=2 rhs_dilate=2", {1, 2}), (std::vector<double>{1, 2, 10, 20}));
  EXPECT_EQ(filterGradient1D("size=2 rhs_dilate=2", {1, 2}), (std::vector<double>{5, 11}));
  // Reversed taps: y[o] = 10 x[o] + x[o + 1].
  EXPECT_EQ(inputGradient1D("size=2 rhs_reversal=1", {1, 2, 3}),
            (std::vector<double>{10, 21, 32, 3}));
  EXPECT_EQ(filterGradient1D("size=2 rhs_reversal=1", {1, 2, 3}), (std::vector<double>{20, 14}));
}

TEST(ConvolutionBackward, ResultScaleAndZeroScratch) {
  Literal call = evaluate(
      backwardCall("__cudnn$convBackwardInput", "f32[1,3,1]", "f32[2,1,1]", "f32[1,4,1]",
                   "window={size=2}, dim_labels=b0f_0io->b0f", 0.5),
      {literal("f32[1,3,1]", {1, 2, 3}), literal("f32[2,1,1]", {1, 10})});
  ASSERT_EQ(call.tupleElements().size(), 2u);
  EXPECT_EQ(call.tupleElements()[0].realData(), (std::vector<double>{0.5, 6, 11.5, 15}));
  EXPECT_EQ(call.tupleElements()[1].shape().elementCount(), 0);
}

// NHWC input f32[1,4,3,4], OHWI filter f32[4,2,2,2] in two feature groups,
// stride 2x1, padding (1, 0) x (0, 1): jax's
// conv_general_dilated(x, w, (2, 1), ((1, 0), (0, 1)), dimension_numbers=
// ("NHWC", "OHWI", "NHWC"), feature_group_count=2), x = i % 5 - 2,
// w = i % 3 - 1, dy = i % 7 - 3 (f32[1,2,3,4]). The input's last row is
// never read: its gradient is zero.
TEST(ConvolutionBackward, FeatureGroupsStrideAndPaddingMatchJax) {
  std::string window = "window={size=2x2 stride=2x1 pad=1_0x0_1}, dim_labels=b01f_o01i->b01f, "
                       "feature_group_count=2";
  EXPECT_EQ(gradient(evaluate(backwardCall("__cudnn$convBackwardInput", "f32[1,2,3,4]",
                                           "f32[4,2,2,2]", "f32[1,4,3,4]", window),
                              {pattern("f32[1,2,3,4]", 7, 3), pattern("f32[4,2,2,2]", 3, 1)})),
            (std::vector<double>{2,  -3, -1, 1,  -1, 3,  3,  -7, 2, -4, 3, 4, 1, -3, 2, -3,
                                 3,  1,  -1, 3,  -7, 4,  2,  -4, -3, 2, -3, 1, 1, -4, 3, -2,
                                 4,  3,  -4, 2,  0,  0,  0,  0,  0, 0,  0, 0, 0, 0,  0, 0}));
  EXPECT_EQ(gradient(evaluate(backwardCall("__cudnn$convBackwardFilter", "f32[1,4,3,4]",
                                           "f32[1,2,3,4]", "f32[4,2,2,2]", window),
                              {pattern("f32[1,4,3,4]", 5, 2), pattern("f32[1,2,3,4]", 7, 3)})),
            (std::vector<double>{-5, -1, 0,  1,  9,  -6, -3, 11, 6,  6,  -3, 0,  13, -13, 1, 14,
                                 -5, 6,  -3, -5, -6, 2,  3,  -2, -2, 7,  -2, -2, -3, -1,  14, 1}));
}

// NCHW input f32[2,2,5,3], OIHW filter f32[3,2,2,2], rhs dilation 2x1,
// padding (1, 1) x (0, 0): jax's conv_general_dilated(x, w, (1, 1),
// ((1, 1), (0, 0)), rhs_dilation=(2, 1), dimension_numbers=("NCHW", "OIHW",
// "NCHW")), with the same patterns (dy f32[2,3,5,2]).
TEST(ConvolutionBackward, FeatureMajorLayoutAndRhsDilationMatchJax) {
  std::string window =
      "window={size=2x2 pad=1_1x0_0 rhs_dilate=2x1}, dim_labels=bf01_oi01->bf01";
  EXPECT_EQ(gradient(evaluate(backwardCall("__cudnn$convBackwardInput", "f32[2,3,5,2]",
                                           "f32[3,2,2,2]", "f32[2,2,5,3]", window),
                              {pattern("f32[2,3,5,2]", 7, 3), pattern("f32[3,2,2,2]", 3, 1)})),
            (std::vector<double>{3,  -1, -4, -10, 3,  6,  -3, 10, 6,  4,  -4, -8,
                                 1,  -10, 3, -4,  -3, 1,  6,  10, -3, 6,  3,  -10,
                                 -8, -4, 4,  -4,  6,  3,  -4, -1, 3,  -3, 10, 6,
                                 4,  -4, -8, 4,   -18, 6, 1,  4,  3,  3,  4,  1,
                                 6,  3,  -10, -8, -4, 4,  -8, 10, 4,  3,  -1, -4}));
  EXPECT_EQ(gradient(evaluate(backwardCall("__cudnn$convBackwardFilter", "f32[2,2,5,3]",
                                           "f32[2,3,5,2]", "f32[3,2,2,2]", window),
                              {pattern("f32[2,2,5,3]", 5, 2), pattern("f32[2,3,5,2]", 7, 3)})),
            (std::vector<double>{-5, 10, -2, -16, -5, 10, -2, -16, 3,  -8, 9,  11,
                                 3,  -8, 9,  11,  11, 9,  -8, 3,   11, 9,  -8, 3}));
}

// The backward convolutions are the forward one's transposes:
// <conv(x, w), dy> = <x, dx(dy, w)> = <w, dw(x, dy)>, over strides, padding,
// rhs dilation, reversal and groups in the b01f / o01i layout of XLA's
// custom-calls (small random integers: every sum is exact).
TEST(ConvolutionBackward, AdjointOfTheForwardConvolution) {
  struct Case {
    int64_t height, width, size0, size1, stride0, stride1, padLow0, padHigh0, padLow1,
        padHigh1, dilation0, dilation1, groups;
    bool reversal;
  };
  const Case cases[] = {
      {5, 5, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, false},
      {7, 6, 3, 2, 2, 3, 1, 1, 0, 2, 1, 1, 1, false},
      {8, 5, 3, 3, 2, 1, 2, 0, 1, 1, 2, 2, 2, false},
      {6, 6, 2, 3, 3, 2, 0, 1, 2, 2, 1, 2, 2, true},
      {9, 4, 1, 1, 2, 2, 0, 0, 0, 0, 1, 1, 1, false},
  };
  for (const Case &c : cases) {
    int64_t inputs = 2 * c.groups, outputs = 3 * c.groups;
    auto extent = [](int64_t in, int64_t size, int64_t stride, int64_t low, int64_t high,
                     int64_t dilation) {
      return (in + low + high - (size - 1) * dilation - 1) / stride + 1;
    };
    int64_t outHeight = extent(c.height, c.size0, c.stride0, c.padLow0, c.padHigh0, c.dilation0);
    int64_t outWidth = extent(c.width, c.size1, c.stride1, c.padLow1, c.padHigh1, c.dilation1);
    auto shape = [](std::vector<int64_t> dims) {
      std::string text = "f32[";
      for (size_t i = 0; i < dims.size(); ++i)
        text += (i ? "," : "") + std::to_string(dims[i]);
      return text + "]";
    };
    std::string x = shape({2, c.height, c.width, inputs});
    std::string w = shape({outputs, c.size0, c.size1, 2});
    std::string y = shape({2, outHeight, outWidth, outputs});
    std::string attributes =
        "window={size=" + std::to_string(c.size0) + "x" + std::to_string(c.size1) +
        " stride=" + std::to_string(c.stride0) + "x" + std::to_string(c.stride1) +
        " pad=" + std::to_string(c.padLow0) + "_" + std::to_string(c.padHigh0) + "x" +
        std::to_string(c.padLow1) + "_" + std::to_string(c.padHigh1) +
        " rhs_dilate=" + std::to_string(c.dilation0) + "x" + std::to_string(c.dilation1) +
        (c.reversal ? " rhs_reversal=1x1" : "") +
        "}, dim_labels=b01f_o01i->b01f, feature_group_count=" + std::to_string(c.groups);
    SCOPED_TRACE(attributes);
    Literal xs = randomIntegers(x, 1), ws = randomIntegers(w, 2), dys = randomIntegers(y, 3);
    std::vector<double> forward = gradient(evaluate(
        backwardCall("__cudnn$convForward", x, w, y, attributes), {xs, ws}));
    std::vector<double> dx = gradient(evaluate(
        backwardCall("__cudnn$convBackwardInput", y, w, x, attributes), {dys, ws}));
    std::vector<double> dw = gradient(evaluate(
        backwardCall("__cudnn$convBackwardFilter", x, y, w, attributes), {xs, dys}));
    auto dot = [](const std::vector<double> &a, const std::vector<double> &b) {
      EXPECT_EQ(a.size(), b.size());
      double sum = 0;
      for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
        sum += a[i] * b[i];
      return sum;
    };
    double reference = dot(forward, dys.realData());
    EXPECT_NE(reference, 0);
    EXPECT_EQ(dot(xs.realData(), dx), reference);
    EXPECT_EQ(dot(ws.realData(), dw), reference);
  }
}

TEST(ConvolutionBackward, Errors) {
  auto error = [](const std::string &target, const std::string &window, const std::string &a,
                  const std::string &b, const std::string &result) {
    return evaluationError(
        backwardCall(target, a, b, result, "window={" + window + "}, dim_labels=b0f_0io->b0f"),
        {Literal(parseShape(a)), Literal(parseShape(b))});
  };
  // Four inputs, a window of two: three forward outputs, not two.
  EXPECT_NE(error("__cudnn$convBackwardInput", "size=2", "f32[1,2,1]", "f32[2,1,1]",
                  "f32[1,4,1]")
                .find("the forward convolution's window gives 3 outputs in spatial dimension 0, "
                      "not 2"),
            std::string::npos);
  EXPECT_NE(error("__cudnn$convBackwardFilter", "size=2 lhs_dilate=2", "f32[1,4,1]",
                  "f32[1,6,1]", "f32[2,1,1]")
                .find("needs no lhs dilation"),
            std::string::npos);
  EXPECT_NE(error("__cudnn$convBackwardFilter", "size=3", "f32[1,4,1]", "f32[1,3,1]",
                  "f32[2,1,1]")
                .find("window size 3 differs from the kernel's spatial dimension 2"),
            std::string::npos);
}
