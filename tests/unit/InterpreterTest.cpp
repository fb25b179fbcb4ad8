//===- InterpreterTest.cpp - The reference interpreter, op by op ----------===//
//
// Hand-computed expected values for every op family the interpreter
// evaluates, with HLO's edge cases: integer division by zero and overflow,
// shifts past the width, NaN propagation, rounding to narrow floats,
// clamped dynamic slices, skipped out-of-bounds scatter windows, batching
// dimensions, layouts in bitcast.
//
//===----------------------------------------------------------------------===//
#include "EvaluateHloText.h"
#include "interpreter/Evaluator.h"

#include "hlo_parser/Parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace hlo;
using namespace hlo::interp;

namespace {

using hlo::interp::testing::evaluate;

/// The error message of evaluating `text` ("" if it succeeds).
std::string evaluationError(const std::string &text, int64_t maxWhileIterations = 1000,
                            ParseOptions options = {}) {
  auto [module, errors] = parseHloModuleText(text, "<text>", options);
  EXPECT_NE(module, nullptr) << errors;
  if (!module)
    return "parse error: " + errors;
  Evaluator evaluator(*module);
  evaluator.setMaxWhileIterations(maxWhileIterations);
  try {
    evaluator.run({});
  } catch (const InterpreterError &error) {
    return formatInterpreterError(*module, error);
  }
  return "";
}

std::vector<int64_t> ints(const Literal &literal) { return literal.intData(); }
Shape parseShape(std::string_view text) {
  ErrorOr<Shape> shape = parseShapeText(text);
  EXPECT_TRUE(shape) << shape.error();
  return shape ? *shape : Shape();
}
std::vector<double> reals(const Literal &literal) { return literal.realData(); }

/// A one-op module over constant operands: `ENTRY { ...; ROOT r = <root> }`.
std::string module(const std::string &body) {
  return "HloModule m\nENTRY e {\n" + body + "\n}\n";
}

constexpr double kInf = std::numeric_limits<double>::infinity();

} // namespace

//===-- Integer semantics -------------------------------------------------===//

TEST(InterpreterIntegers, DivisionAndRemainderEdgeCases) {
  std::string operands = "a = s32[4] constant({7, -7, -2147483648, 5})\n"
                         "b = s32[4] constant({2, 2, -1, 0})\n";
  EXPECT_EQ(ints(evaluate(module(operands + "ROOT r = s32[4] divide(a, b)"))),
            (std::vector<int64_t>{3, -3, -2147483648LL, -1}));
  EXPECT_EQ(ints(evaluate(module(operands + "ROOT r = s32[4] remainder(a, b)"))),
            (std::vector<int64_t>{1, -1, 0, 5}));
  EXPECT_EQ(ints(evaluate(module("a = u8[2] constant({7, 200})\nb = u8[2] constant({0, 0})\n"
                                 "ROOT r = u8[2] divide(a, b)"))),
            (std::vector<int64_t>{255, 255}));
}

TEST(InterpreterIntegers, WrapAroundAndAbsOfMin) {
  EXPECT_EQ(ints(evaluate(module("a = s8[2] constant({127, -128})\nb = s8[2] constant({1, -1})\n"
                                 "ROOT r = s8[2] add(a, b)"))),
            (std::vector<int64_t>{-128, 127}));
  EXPECT_EQ(ints(evaluate(module("a = u8[1] constant({3})\nb = u8[1] constant({5})\n"
                                 "ROOT r = u8[1] subtract(a, b)"))),
            (std::vector<int64_t>{254}));
  EXPECT_EQ(ints(evaluate(module("a = s32[2] constant({-2147483648, -5})\n"
                                 "ROOT r = s32[2] abs(a)"))),
            (std::vector<int64_t>{-2147483648LL, 5}));
}

TEST(InterpreterIntegers, ShiftsPastTheWidth) {
  std::string operands = "a = s32[4] constant({-8, -8, 1, 1})\n"
                         "b = s32[4] constant({1, 40, 31, 32})\n";
  EXPECT_EQ(ints(evaluate(module(operands + "ROOT r = s32[4] shift-left(a, b)"))),
            (std::vector<int64_t>{-16, 0, -2147483648LL, 0}));
  EXPECT_EQ(ints(evaluate(module(operands + "ROOT r = s32[4] shift-right-arithmetic(a, b)"))),
            (std::vector<int64_t>{-4, -1, 0, 0}));
  EXPECT_EQ(ints(evaluate(module(operands + "ROOT r = s32[4] shift-right-logical(a, b)"))),
            (std::vector<int64_t>{2147483644, 0, 0, 0}));
}

TEST(InterpreterIntegers, BitCountsPowerAndMulhi) {
  EXPECT_EQ(ints(evaluate(module("a = u8[3] constant({0, 1, 255})\nROOT r = u8[3] popcnt(a)"))),
            (std::vector<int64_t>{0, 1, 8}));
  EXPECT_EQ(ints(evaluate(module(
                "a = s16[3] constant({0, 1, -1})\nROOT r = s16[3] count-leading-zeros(a)"))),
            (std::vector<int64_t>{16, 15, 0}));
  // As XLA's elemental emitter (checked on XLA's CPU backend): a negative
  // exponent gives 1 for a base of 1, +-1 for -1, else 0; exponents of 64
  // and more keep their low 6 bits (3^64 is 1, 3^100 is 3^36).
  EXPECT_EQ(ints(evaluate(module("a = s32[8] constant({2, 1, -1, 3, -1, -2, 3, 3})\n"
                                 "b = s32[8] constant({10, -3, -3, -1, -2, -1, 64, 100})\n"
                                 "ROOT r = s32[8] power(a, b)"))),
            (std::vector<int64_t>{1024, 1, -1, 0, 1, 0, 1, -1953380655}));
  // Unsigned: an exponent with its top bit set takes the negative rule.
  EXPECT_EQ(ints(evaluate(module("a = u16[4] constant({3, 2, 65535, 1})\n"
                                 "b = u16[4] constant({40000, 65535, 40001, 65535})\n"
                                 "ROOT r = u16[4] power(a, b)"))),
            (std::vector<int64_t>{0, 0, 65535, 1}));
  EXPECT_EQ(ints(evaluate(module("a = u32[1] constant({4294967295})\n"
                                 "b = u32[1] constant({4294967295})\n"
                                 "ROOT r = u32[1] mulhi(a, b)"))),
            (std::vector<int64_t>{4294967294LL}));
}

TEST(InterpreterIntegers, CompareSignedAndUnsigned) {
  EXPECT_EQ(ints(evaluate(module("a = s8[2] constant({-1, 1})\nb = s8[2] constant({1, 1})\n"
                                 "ROOT r = pred[2] compare(a, b), direction=LT"))),
            (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(ints(evaluate(module("a = u8[2] constant({255, 1})\nb = u8[2] constant({1, 1})\n"
                                 "ROOT r = pred[2] compare(a, b), direction=GT"))),
            (std::vector<int64_t>{1, 0}));
}

TEST(InterpreterIntegers, SelectAndClampWithScalarOperands) {
  std::string operands = "p = pred[3] constant({true, false, true})\n"
                         "a = s32[3] constant({1, 2, 3})\nb = s32[3] constant({-1, -2, -3})\n";
  EXPECT_EQ(ints(evaluate(module(operands + "ROOT r = s32[3] select(p, a, b)"))),
            (std::vector<int64_t>{1, -2, 3}));
  EXPECT_EQ(ints(evaluate(module(operands + "q = pred[] constant(false)\n"
                                            "ROOT r = s32[3] select(q, a, b)"))),
            (std::vector<int64_t>{-1, -2, -3}));
  EXPECT_EQ(ints(evaluate(module("lo = s32[] constant(0)\nhi = s32[] constant(10)\n"
                                 "x = s32[4] constant({-5, 5, 15, 10})\n"
                                 "ROOT r = s32[4] clamp(lo, x, hi)"))),
            (std::vector<int64_t>{0, 5, 10, 10}));
}

//===-- Floating point ----------------------------------------------------===//

TEST(InterpreterFloats, MaxMinPropagateNaN) {
  Literal result = evaluate(module("a = f32[2] constant({nan, 1})\nb = f32[2] constant({1, 2})\n"
                                   "ROOT r = f32[2] maximum(a, b)"));
  EXPECT_TRUE(std::isnan(reals(result)[0]));
  EXPECT_EQ(reals(result)[1], 2);
}

TEST(InterpreterFloats, RoundingOps) {
  std::string operand = "a = f32[4] constant({2.5, -2.5, 0.5, 1.5})\n";
  EXPECT_EQ(reals(evaluate(module(operand + "ROOT r = f32[4] round-nearest-even(a)"))),
            (std::vector<double>{2, -2, 0, 2}));
  EXPECT_EQ(reals(evaluate(module(operand + "ROOT r = f32[4] round-nearest-afz(a)"))),
            (std::vector<double>{3, -3, 1, 2}));
}

TEST(InterpreterFloats, NarrowTypesRoundEveryResult) {
  // bf16 has 8 significant bits: 256 + 1 rounds back to 256 (tie to even),
  // 256 + 3 to 260.
  EXPECT_EQ(reals(evaluate(module("a = bf16[2] constant({256, 256})\n"
                                  "b = bf16[2] constant({1, 3})\n"
                                  "ROOT r = bf16[2] add(a, b)"))),
            (std::vector<double>{256, 260}));
  // f16 overflows to inf; f8e4m3fn has no inf and overflows to NaN.
  EXPECT_EQ(reals(evaluate(module("a = f16[1] constant({60000})\nb = f16[1] constant({2})\n"
                                  "ROOT r = f16[1] multiply(a, b)")))[0],
            kInf);
  EXPECT_TRUE(std::isnan(reals(evaluate(module(
      "a = f8e4m3fn[1] constant({448})\nb = f8e4m3fn[1] constant({2})\n"
      "ROOT r = f8e4m3fn[1] multiply(a, b)")))[0]));
}

TEST(InterpreterFloats, EightBitFormatsRoundToNearestEven) {
  // f8e5m2 has 2 mantissa bits: between 1 and 2 only 1.25, 1.5, 1.75 exist;
  // 1.125 is a tie and rounds to the even 1.0, 1.375 to 1.5.
  EXPECT_EQ(reals(evaluate(module("a = f32[3] constant({1.125, 1.375, 1.1})\n"
                                  "ROOT r = f8e5m2[3] convert(a)"))),
            (std::vector<double>{1.0, 1.5, 1.0}));
  // f8e4m3fn has no infinity: 500, past its largest finite 448, is NaN.
  EXPECT_TRUE(std::isnan(reals(evaluate(module("a = f32[1] constant({500})\n"
                                               "ROOT r = f8e4m3fn[1] convert(a)")))[0]));
}

TEST(InterpreterFloats, UnaryMath) {
  Literal result = evaluate(module("a = f64[4] constant({0, 1, -1, 4})\n"
                                   "ROOT r = f64[4] logistic(a)"));
  EXPECT_DOUBLE_EQ(reals(result)[0], 0.5);
  EXPECT_DOUBLE_EQ(reals(result)[1], 1 / (1 + std::exp(-1.0)));
  EXPECT_EQ(reals(evaluate(module("a = f32[3] constant({-0.5, 0, 3})\nROOT r = f32[3] sign(a)"))),
            (std::vector<double>{-1, 0, 1}));
  EXPECT_EQ(ints(evaluate(module("a = f32[3] constant({inf, nan, 1})\n"
                                 "ROOT r = pred[3] is-finite(a)"))),
            (std::vector<int64_t>{0, 0, 1}));
  EXPECT_EQ(reals(evaluate(module("a = f32[2] constant({4, 0.25})\nROOT r = f32[2] rsqrt(a)"))),
            (std::vector<double>{0.5, 2}));
}

TEST(InterpreterFloats, CompareNaNAndTotalOrder) {
  std::string operands = "a = f32[3] constant({nan, -0, 1})\nb = f32[3] constant({nan, 0, 1})\n";
  EXPECT_EQ(ints(evaluate(module(operands + "ROOT r = pred[3] compare(a, b), direction=EQ"))),
            (std::vector<int64_t>{0, 1, 1}));
  EXPECT_EQ(ints(evaluate(module(operands + "ROOT r = pred[3] compare(a, b), direction=NE"))),
            (std::vector<int64_t>{1, 0, 0}));
  EXPECT_EQ(ints(evaluate(module(
                operands + "ROOT r = pred[3] compare(a, b), direction=LT, type=TOTALORDER"))),
            (std::vector<int64_t>{0, 1, 0}));
}

TEST(InterpreterFloats, ComplexArithmetic) {
  Literal result = evaluate(module("a = c64[1] constant({(1, 2)})\nb = c64[1] constant({(3, -1)})\n"
                                   "ROOT r = c64[1] multiply(a, b)"));
  EXPECT_EQ(result.realData()[0], 5);
  EXPECT_EQ(result.imagData()[0], 5);
  EXPECT_EQ(reals(evaluate(module("a = c64[1] constant({(3, 4)})\nROOT r = f32[1] abs(a)"))),
            (std::vector<double>{5}));
}

//===-- Conversions -------------------------------------------------------===//

TEST(InterpreterConvert, FloatToIntSaturatesAndNaNIsZero) {
  std::string operand = "a = f32[5] constant({1e10, -1e10, nan, -2.7, 2.7})\n";
  EXPECT_EQ(ints(evaluate(module(operand + "ROOT r = s32[5] convert(a)"))),
            (std::vector<int64_t>{2147483647, -2147483648LL, 0, -2, 2}));
  EXPECT_EQ(ints(evaluate(module(operand + "ROOT r = u8[5] convert(a)"))),
            (std::vector<int64_t>{255, 0, 0, 0, 2}));
}

TEST(InterpreterConvert, IntToNarrowFloatAndPred) {
  EXPECT_EQ(reals(evaluate(module("a = s32[2] constant({257, 259})\nROOT r = bf16[2] convert(a)"))),
            (std::vector<double>{256, 260}));
  EXPECT_EQ(ints(evaluate(module("a = f32[3] constant({0, -0.5, nan})\n"
                                 "ROOT r = pred[3] convert(a)"))),
            (std::vector<int64_t>{0, 1, 1}));
}

TEST(InterpreterConvert, BitcastConvertSameAndChangingWidth) {
  EXPECT_EQ(ints(evaluate(module("a = f32[2] constant({1, -2})\nROOT r = s32[2] bitcast-convert(a)"))),
            (std::vector<int64_t>{0x3f800000, static_cast<int32_t>(0xc0000000)}));
  EXPECT_EQ(ints(evaluate(module("a = f32[] constant(1)\nROOT r = u8[4] bitcast-convert(a)"))),
            (std::vector<int64_t>{0, 0, 0x80, 0x3f}));
  EXPECT_EQ(reals(evaluate(module("a = u16[2] constant({0, 16256})\n"
                                  "ROOT r = f32[] bitcast-convert(a)"))),
            (std::vector<double>{1}));
  EXPECT_EQ(ints(evaluate(module("a = bf16[1] constant({1})\nROOT r = u16[1] bitcast-convert(a)"))),
            (std::vector<int64_t>{0x3f80}));
}

TEST(InterpreterConvert, ReducePrecision) {
  // To bf16's precision (8 exponent, 7 mantissa bits): 1 + 2^-9 -> 1; and to
  // 5 exponent bits: 1e6 overflows to inf, 1e-6 underflows to 0.
  EXPECT_EQ(reals(evaluate(module("a = f32[3] constant({1.001953125, 1e6, 1e-6})\n"
                                  "ROOT r = f32[3] reduce-precision(a), exponent_bits=5, "
                                  "mantissa_bits=7"))),
            (std::vector<double>{1, kInf, 0}));
}

//===-- Data movement -----------------------------------------------------===//

TEST(InterpreterShapes, BroadcastTransposeReshapeReverse) {
  EXPECT_EQ(ints(evaluate(module("a = s32[2] constant({1, 2})\n"
                                 "ROOT r = s32[2,3] broadcast(a), dimensions={0}"))),
            (std::vector<int64_t>{1, 1, 1, 2, 2, 2}));
  EXPECT_EQ(ints(evaluate(module("a = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
                                 "ROOT r = s32[3,2] transpose(a), dimensions={1,0}"))),
            (std::vector<int64_t>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(ints(evaluate(module("a = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
                                 "ROOT r = s32[3,2] reshape(a)"))),
            (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(ints(evaluate(module("a = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
                                 "ROOT r = s32[2,3] reverse(a), dimensions={1}"))),
            (std::vector<int64_t>{3, 2, 1, 6, 5, 4}));
}

TEST(InterpreterShapes, BitcastFollowsLayouts) {
  // The same bytes read as the transposed shape: a layout-changing bitcast is
  // a transpose of the logical values.
  EXPECT_EQ(ints(evaluate(module("a = s32[2,3]{1,0} constant({{1, 2, 3}, {4, 5, 6}})\n"
                                 "ROOT r = s32[3,2]{0,1} bitcast(a)"))),
            (std::vector<int64_t>{1, 4, 2, 5, 3, 6}));
}

TEST(InterpreterShapes, SliceWithStrides) {
  EXPECT_EQ(ints(evaluate(module("a = s32[8] iota(), iota_dimension=0\n"
                                 "ROOT r = s32[3] slice(a), slice={[1:8:3]}"))),
            (std::vector<int64_t>{1, 4, 7}));
}

TEST(InterpreterShapes, DynamicSlicesClampTheirStarts) {
  std::string operand = "a = s32[5] iota(), iota_dimension=0\n";
  EXPECT_EQ(ints(evaluate(module(operand + "i = s32[] constant(4)\n"
                                           "ROOT r = s32[2] dynamic-slice(a, i), "
                                           "dynamic_slice_sizes={2}"))),
            (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(ints(evaluate(module(operand + "i = s32[] constant(-3)\n"
                                           "u = s32[2] constant({9, 8})\n"
                                           "ROOT r = s32[5] dynamic-update-slice(a, u, i)"))),
            (std::vector<int64_t>{9, 8, 2, 3, 4}));
}

TEST(InterpreterShapes, PadWithNegativeAndInteriorPadding) {
  EXPECT_EQ(ints(evaluate(module("a = s32[3] constant({1, 2, 3})\nz = s32[] constant(0)\n"
                                 "ROOT r = s32[6] pad(a, z), padding=-1_2_1"))),
            (std::vector<int64_t>{0, 2, 0, 3, 0, 0}));
}

TEST(InterpreterShapes, ConcatenateAndIota) {
  EXPECT_EQ(ints(evaluate(module("a = s32[1,2] constant({{1, 2}})\nb = s32[1,1] constant({{3}})\n"
                                 "ROOT r = s32[1,3] concatenate(a, b), dimensions={1}"))),
            (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(reals(evaluate(module("ROOT r = f32[2,2] iota(), iota_dimension=1"))),
            (std::vector<double>{0, 1, 0, 1}));
}

//===-- Ops that apply computations ---------------------------------------===//

static const char *kAdd = "add {\n  x = s32[] parameter(0)\n  y = s32[] parameter(1)\n"
                          "  ROOT s = s32[] add(x, y)\n}\n";

TEST(InterpreterReductions, ReduceRows) {
  std::string text = std::string("HloModule m\n") + kAdd +
                     "ENTRY e {\n  a = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
                     "  z = s32[] constant(10)\n"
                     "  ROOT r = s32[2] reduce(a, z), dimensions={1}, to_apply=add\n}\n";
  EXPECT_EQ(ints(evaluate(text)), (std::vector<int64_t>{16, 25}));
}

TEST(InterpreterReductions, FloatSumsAreRoundedOnce) {
  // Adding 1 to 2048 in f16 gives 2048 again: a step-by-step f16 chain
  // would stop there; the reference is the exact sum rounded once.
  std::string text = R"(HloModule m
add {
  x = f16[] parameter(0)
  y = f16[] parameter(1)
  ROOT s = f16[] add(x, y)
}
ENTRY e {
  one = f16[] constant(1)
  ones = f16[4096] broadcast(one), dimensions={}
  zero = f16[] constant(0)
  ROOT r = f16[] reduce(ones, zero), dimensions={0}, to_apply=add
}
)";
  EXPECT_EQ(reals(evaluate(text)), (std::vector<double>{4096}));
}

TEST(InterpreterReductions, VariadicArgmax) {
  std::string text = R"(HloModule m
argmax {
  v0 = f32[] parameter(0)
  i0 = s32[] parameter(1)
  v1 = f32[] parameter(2)
  i1 = s32[] parameter(3)
  greater = pred[] compare(v1, v0), direction=GT
  v = f32[] select(greater, v1, v0)
  i = s32[] select(greater, i1, i0)
  ROOT t = (f32[], s32[]) tuple(v, i)
}
ENTRY e {
  values = f32[4] constant({3, 9, 2, 9})
  indices = s32[4] iota(), iota_dimension=0
  low = f32[] constant(-inf)
  zero = s32[] constant(0)
  ROOT r = (f32[], s32[]) reduce(values, indices, low, zero), dimensions={0}, to_apply=argmax
}
)";
  Literal result = evaluate(text);
  ASSERT_EQ(result.tupleElements().size(), 2u);
  EXPECT_EQ(reals(result.tupleElements()[0]), (std::vector<double>{9}));
  EXPECT_EQ(ints(result.tupleElements()[1]), (std::vector<int64_t>{1}));
}

TEST(InterpreterReductions, ReduceWindowWithPaddingStrideAndDilation) {
  std::string text = std::string("HloModule m\n") + kAdd +
                     "ENTRY e {\n  a = s32[4] constant({1, 2, 3, 4})\n"
                     "  z = s32[] constant(0)\n"
                     "  ROOT r = s32[3] reduce-window(a, z), window={size=2 stride=2 pad=1_1}, "
                     "to_apply=add\n}\n";
  // Padded: [0 1 2 3 4 0]: windows [0 1] [2 3] [4 0].
  EXPECT_EQ(ints(evaluate(text)), (std::vector<int64_t>{1, 5, 4}));
  std::string dilated = std::string("HloModule m\n") + kAdd +
                        "ENTRY e {\n  a = s32[3] constant({1, 2, 3})\n"
                        "  z = s32[] constant(0)\n"
                        "  ROOT r = s32[4] reduce-window(a, z), window={size=2 lhs_dilate=2}, "
                        "to_apply=add\n}\n";
  // Base-dilated input [1 _ 2 _ 3]: windows [1 _] [_ 2] [2 _] [_ 3].
  EXPECT_EQ(ints(evaluate(dilated)), (std::vector<int64_t>{1, 2, 2, 3}));
}

TEST(InterpreterReductions, RankZeroReduceWindowHasNoWindowAttribute) {
  std::string text = std::string("HloModule m\n") + kAdd +
                     "ENTRY e {\n  a = s32[] constant(42)\n  z = s32[] constant(1)\n"
                     "  ROOT r = s32[] reduce-window(a, z), to_apply=add\n}\n";
  EXPECT_EQ(ints(evaluate(text)), (std::vector<int64_t>{43}));
}

TEST(InterpreterReductions, SelectAndScatter) {
  std::string text = std::string("HloModule m\n") + kAdd + R"(ge {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GE
}
ENTRY e {
  operand = s32[4] constant({1, 5, 7, 2})
  source = s32[2] constant({10, 20})
  zero = s32[] constant(0)
  ROOT r = s32[4] select-and-scatter(operand, source, zero), window={size=2 stride=2}, select=ge, scatter=add
}
)";
  EXPECT_EQ(ints(evaluate(text)), (std::vector<int64_t>{0, 10, 20, 0}));
}

TEST(InterpreterReductions, MapAndSort) {
  std::string mapped = std::string("HloModule m\n") + kAdd +
                       "ENTRY e {\n  a = s32[3] constant({1, 2, 3})\n"
                       "  b = s32[3] constant({10, 20, 30})\n"
                       "  ROOT r = s32[3] map(a, b), dimensions={0}, to_apply=add\n}\n";
  EXPECT_EQ(ints(evaluate(mapped)), (std::vector<int64_t>{11, 22, 33}));
  std::string sorted = R"(HloModule m
greater {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT r = pred[] compare(a, b), direction=GT
}
ENTRY e {
  keys = f32[2,3] constant({{1, 3, 2}, {5, 4, 6}})
  values = s32[2,3] constant({{0, 1, 2}, {0, 1, 2}})
  ROOT r = (f32[2,3], s32[2,3]) sort(keys, values), dimensions={1}, to_apply=greater
}
)";
  Literal result = evaluate(sorted);
  EXPECT_EQ(reals(result.tupleElements()[0]), (std::vector<double>{3, 2, 1, 6, 5, 4}));
  EXPECT_EQ(ints(result.tupleElements()[1]), (std::vector<int64_t>{1, 2, 0, 2, 0, 1}));
}

// XLA's total-order comparator (a scalar bitcast to s32, negatives' bits
// flipped) runs as steps on scalars: -0 before 0, NaN after +inf, the
// values carried along; the same comparator with bitcast-convert too.
TEST(InterpreterReduceSortMap, SortByTotalOrderComparator) {
  auto sorted = [](const std::string &reinterpret) {
    return R"(HloModule m
total_order {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ai = s32[] )" + reinterpret + R"((a)
  zero = s32[] constant(0)
  an = pred[] compare(ai, zero), direction=LT
  max = s32[] constant(2147483647)
  ax = s32[] xor(max, ai)
  ak = s32[] select(an, ax, ai)
  bi = s32[] )" + reinterpret + R"((b)
  bn = pred[] compare(bi, zero), direction=LT
  bx = s32[] xor(max, bi)
  bk = s32[] select(bn, bx, bi)
  ROOT lt = pred[] compare(ak, bk), direction=LT
}
ENTRY e {
  keys = f32[6] constant({nan, 2, -0, inf, 0, -3})
  values = s32[6] constant({0, 1, 2, 3, 4, 5})
  ROOT r = (f32[6], s32[6]) sort(keys, values), dimensions={0}, to_apply=total_order
}
)";
  };
  for (const char *reinterpret : {"bitcast", "bitcast-convert"}) {
    Literal result = evaluate(sorted(reinterpret));
    EXPECT_EQ(ints(result.tupleElements()[1]), (std::vector<int64_t>{5, 2, 4, 1, 3, 0}))
        << reinterpret;
    EXPECT_TRUE(std::signbit(reals(result.tupleElements()[0])[1])) << reinterpret;
  }
}

//===-- Gather, scatter, dot ----------------------------------------------===//

TEST(InterpreterGatherScatter, GatherRowsClampsStarts) {
  std::string text = module("a = s32[3,2] constant({{1, 2}, {3, 4}, {5, 6}})\n"
                            "i = s32[3] constant({2, 0, 7})\n"
                            "ROOT r = s32[3,2] gather(a, i), offset_dims={1}, "
                            "collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, "
                            "slice_sizes={1,2}");
  EXPECT_EQ(ints(evaluate(text)), (std::vector<int64_t>{5, 6, 1, 2, 5, 6}));
}

TEST(InterpreterGatherScatter, GatherWithBatchingDims) {
  // Per batch b: result[b, j] = operand[b, indices[b, j]].
  std::string text = module("a = s32[2,3] constant({{10, 11, 12}, {20, 21, 22}})\n"
                            "i = s32[2,2,1] constant({{{2}, {0}}, {{1}, {1}}})\n"
                            "ROOT r = s32[2,2] gather(a, i), offset_dims={}, "
                            "collapsed_slice_dims={1}, start_index_map={1}, "
                            "operand_batching_dims={0}, start_indices_batching_dims={0}, "
                            "index_vector_dim=2, slice_sizes={1,1}");
  EXPECT_EQ(ints(evaluate(text)), (std::vector<int64_t>{12, 10, 21, 21}));
}

TEST(InterpreterGatherScatter, ScatterAddsDuplicatesAndSkipsOutOfBounds) {
  std::string text = std::string("HloModule m\n") + kAdd +
                     "ENTRY e {\n  a = s32[4] constant({0, 0, 0, 0})\n"
                     "  i = s32[4,1] constant({{1}, {1}, {3}, {9}})\n"
                     "  u = s32[4] constant({5, 6, 7, 100})\n"
                     "  ROOT r = s32[4] scatter(a, i, u), update_window_dims={}, "
                     "inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, "
                     "index_vector_dim=1, to_apply=add\n}\n";
  EXPECT_EQ(ints(evaluate(text)), (std::vector<int64_t>{0, 11, 0, 7}));
}

TEST(InterpreterGatherScatter, ScatterWithBatchingDims) {
  std::string text = std::string("HloModule m\n") + kAdd +
                     "ENTRY e {\n  a = s32[2,3] constant({{0, 0, 0}, {0, 0, 0}})\n"
                     "  i = s32[2,1] constant({{2}, {0}})\n"
                     "  u = s32[2] constant({5, 7})\n"
                     "  ROOT r = s32[2,3] scatter(a, i, u), update_window_dims={}, "
                     "inserted_window_dims={1}, input_batching_dims={0}, "
                     "scatter_indices_batching_dims={0}, scatter_dims_to_operand_dims={1}, "
                     "index_vector_dim=1, to_apply=add\n}\n";
  EXPECT_EQ(ints(evaluate(text)), (std::vector<int64_t>{0, 0, 5, 7, 0, 0}));
}

TEST(InterpreterDot, MatmulAndBatchedWithMixedTypes) {
  EXPECT_EQ(reals(evaluate(module("a = f32[2,2] constant({{1, 2}, {3, 4}})\n"
                                  "b = f32[2,2] constant({{5, 6}, {7, 8}})\n"
                                  "ROOT r = f32[2,2] dot(a, b), lhs_contracting_dims={1}, "
                                  "rhs_contracting_dims={0}"))),
            (std::vector<double>{19, 22, 43, 50}));
  EXPECT_EQ(ints(evaluate(module("a = s8[2,1,2] constant({{{1, 2}}, {{3, 4}}})\n"
                                 "b = s8[2,2,1] constant({{{100}, {100}}, {{100}, {100}}})\n"
                                 "ROOT r = s32[2,1,1] dot(a, b), lhs_batch_dims={0}, "
                                 "rhs_batch_dims={0}, lhs_contracting_dims={2}, "
                                 "rhs_contracting_dims={1}"))),
            (std::vector<int64_t>{300, 700}));
}

TEST(InterpreterDot, ContractingTheMajorDimension) {
  // lhs^T . rhs with rhs the identity: the transpose of lhs.
  EXPECT_EQ(ints(evaluate(module("a = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
                                 "b = s32[2,2] constant({{1, 0}, {0, 1}})\n"
                                 "ROOT r = s32[3,2] dot(a, b), lhs_contracting_dims={0}, "
                                 "rhs_contracting_dims={0}"))),
            (std::vector<int64_t>{1, 4, 2, 5, 3, 6}));
}

TEST(InterpreterDot, BlockedDotSumsEachElementInContractionOrder) {
  // Large enough for the 4x4 blocks, their edges and several threads; each
  // element must be the double sum in k order, rounded once to f32.
  const int64_t batches = 2, m = 131, n = 67, k = 301;
  Literal lhs(parseShape("f32[2,131,301]")), rhs(parseShape("f32[2,301,67]"));
  for (size_t i = 0; i < lhs.realData().size(); ++i)
    lhs.realData()[i] = static_cast<float>(std::sin(0.37 * i) * 3);
  for (size_t i = 0; i < rhs.realData().size(); ++i)
    rhs.realData()[i] = static_cast<float>(std::cos(0.11 * i) / 7);
  std::vector<double> expected;
  for (int64_t b = 0; b < batches; ++b)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t x = 0; x < k; ++x)
          sum += lhs.realData()[(b * m + i) * k + x] * rhs.realData()[(b * k + x) * n + j];
        expected.push_back(static_cast<float>(sum));
      }
  Literal result = evaluate(R"(HloModule m
ENTRY e {
  a = f32[2,131,301] parameter(0)
  b = f32[2,301,67] parameter(1)
  ROOT r = f32[2,131,67] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
}
)", {lhs, rhs});
  EXPECT_EQ(reals(result), expected);
}

//===-- Convolution -------------------------------------------------------===//

// Hand-computed 1-D convolutions of lhs {1, 2, 3, 4} with kernel {1, 10}:
// padding, stride, lhs and rhs dilation, reversal; then feature and batch
// groups.
TEST(InterpreterConvolution, WindowsAndGroups) {
  auto conv = [](const std::string &window, int64_t outputs) {
    return module("x = f32[1,4,1] constant({{{1}, {2}, {3}, {4}}})\n"
                  "k = f32[2,1,1] constant({{{1}}, {{10}}})\n"
                  "ROOT r = f32[1," + std::to_string(outputs) +
                  ",1] convolution(x, k), window={" + window + "}, dim_labels=b0f_0io->b0f");
  };
  EXPECT_EQ(reals(evaluate(conv("size=2 pad=1_0", 4))), (std::vector<double>{10, 21, 32, 43}));
  EXPECT_EQ(reals(evaluate(conv("size=2 stride=2 pad=1_0", 2))), (std::vector<double>{10, 32}));
  // lhs dilated to {1, 0, 2, 0, 3, 0, 4}.
  EXPECT_EQ(reals(evaluate(conv("size=2 lhs_dilate=2", 6))),
            (std::vector<double>{1, 20, 2, 30, 3, 40}));
  // Taps 0 and 2.
  EXPECT_EQ(reals(evaluate(conv("size=2 rhs_dilate=2", 2))), (std::vector<double>{31, 42}));
  EXPECT_EQ(reals(evaluate(conv("size=2 rhs_reversal=1", 3))), (std::vector<double>{12, 23, 34}));
  // Two feature groups: output feature f reads input feature f only.
  EXPECT_EQ(reals(evaluate(module("x = f32[1,1,2] constant({{{1, 2}}})\n"
                                  "k = f32[1,1,2] constant({{{3, 5}}})\n"
                                  "ROOT r = f32[1,1,2] convolution(x, k), window={size=1}, "
                                  "dim_labels=b0f_0io->b0f, feature_group_count=2"))),
            (std::vector<double>{3, 10}));
  // Two batch groups: output feature f reads batch f.
  EXPECT_EQ(reals(evaluate(module("x = f32[2,1,1] constant({{{1}}, {{2}}})\n"
                                  "k = f32[1,1,2] constant({{{3, 5}}})\n"
                                  "ROOT r = f32[1,1,2] convolution(x, k), window={size=1}, "
                                  "dim_labels=b0f_0io->b0f, batch_group_count=2"))),
            (std::vector<double>{3, 10}));
}

// A 2-D convolution in the layout cuDNN's custom-calls use (b01f, o01i):
// each output is the sum of the 3x3 neighbourhood's two features, weighted.
TEST(InterpreterConvolution, TwoDimensionsWithPadding) {
  Literal result = evaluate(module(
      "x = f32[1,2,2,2] constant({{{{1, 10}, {2, 20}}, {{3, 30}, {4, 40}}}})\n"
      "k = f32[1,3,3,2] broadcast(f32[] constant(1)), dimensions={}\n"
      "ROOT r = f32[1,2,2,1] convolution(x, k), window={size=3x3 pad=1_1x1_1}, "
      "dim_labels=b01f_o01i->b01f"));
  // Every output's 3x3 window covers all four pixels: 11 + 22 + 33 + 44.
  EXPECT_EQ(reals(result), (std::vector<double>{110, 110, 110, 110}));
}

//===-- Library calls -----------------------------------------------------===//

TEST(InterpreterLibraryCalls, CublasLtMatmulWithBetaBiasAndEpilogues) {
  auto gemm = [](const std::string &epilogue, double beta, const std::string &extra) {
    std::string operands = "a, b" + std::string(beta != 0 ? ", c" : "") + extra;
    return module(
        "a = f32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
        "b = f32[3,2] constant({{1, -1}, {0, 1}, {1, 0}})\n"
        "c = f32[2,2] constant({{10, 20}, {30, 40}})\n"
        "bias = f32[2] constant({-100, 1})\n"
        "ROOT r = (f32[2,2], s8[16]) custom-call(" + operands +
        "), custom_call_target=\"__cublas$lt$matmul\", backend_config={\"gemm_backend_config\":"
        "{\"alpha_real\":2,\"beta\":" + std::to_string(beta) +
        ",\"dot_dimension_numbers\":{\"lhs_contracting_dimensions\":[\"1\"],"
        "\"rhs_contracting_dimensions\":[\"0\"],\"lhs_batch_dimensions\":[],"
        "\"rhs_batch_dimensions\":[]},\"alpha_imag\":0,\"epilogue\":\"" + epilogue + "\"}}");
  };
  // a.b = {{4, 1}, {10, 1}}.
  Literal plain = evaluate(gemm("DEFAULT", 0, ""));
  ASSERT_EQ(plain.tupleElements().size(), 2u);
  EXPECT_EQ(reals(plain.tupleElements()[0]), (std::vector<double>{8, 2, 20, 2}));
  EXPECT_EQ(ints(plain.tupleElements()[1]), std::vector<int64_t>(16, 0));
  EXPECT_EQ(reals(evaluate(gemm("BIAS", 1, ", bias")).tupleElements()[0]),
            (std::vector<double>{-82, 23, -50, 43}));
  EXPECT_EQ(reals(evaluate(gemm("BIAS_RELU", 0, ", bias")).tupleElements()[0]),
            (std::vector<double>{0, 3, 0, 3}));
  std::vector<double> gelu = reals(evaluate(gemm("GELU", 0, "")).tupleElements()[0]);
  ASSERT_EQ(gelu.size(), 4u);
  EXPECT_NEAR(gelu[1], 1.9545977, 1e-6); // tanh-approximated GELU(2)
  EXPECT_NE(evaluationError(gemm("GELU_AUX", 0, ""))
                .find("cuBLAS epilogue GELU_AUX is not supported by the interpreter"),
            std::string::npos);
  EXPECT_NE(evaluationError(gemm("BIAS", 0, "")).find("expected 3 operands (a, b, bias), has 2"),
            std::string::npos);
}

// The FP8 cuBLASLt call (tests/models/CUBLAS_F8.md): scales multiply the
// product, an f8 D is d_scale * T saturated to the type, amax is of T.
TEST(InterpreterLibraryCalls, CublasLtMatmulF8WithScalesAmaxAndSaturation) {
  auto gemm = [](const std::string &c, double beta, const std::string &result,
                 const std::string &dScale, bool amax) {
    return module(
        "a = f8e4m3fn[2,2] constant({{1, 2}, {3, 4}})\n"
        "b = f8e4m3fn[2,2] constant({{1, 0}, {1, 1}})\n"
        "c = f32[2,2] constant({{1, 1}, {1, 1}})\n"
        "sa = f32[] constant(2)\n"
        "sb = f32[] constant(0.5)\n"
        "sd = f32[] constant(64)\n"
        "ROOT r = " + result + " custom-call(a, b" + c + ", sa, sb" + dScale +
        "), custom_call_target=\"__cublas$lt$matmul$f8\", backend_config={"
        "\"gemm_backend_config\":{\"alpha_real\":1,\"beta\":" + std::to_string(beta) +
        ",\"dot_dimension_numbers\":{\"lhs_contracting_dimensions\":[\"1\"],"
        "\"rhs_contracting_dimensions\":[\"1\"],\"lhs_batch_dimensions\":[],"
        "\"rhs_batch_dimensions\":[]},\"epilogue\":\"DEFAULT\",\"damax_output\":" +
        (amax ? "true" : "false") + "}}");
  };
  // a.b^T = {{1, 3}, {3, 7}}; the scales multiply it by 1.
  Literal plain = evaluate(gemm("", 0, "(f32[2,2], s8[16])", "", false));
  EXPECT_EQ(reals(plain.tupleElements()[0]), (std::vector<double>{1, 3, 3, 7}));
  EXPECT_EQ(reals(evaluate(gemm(", c", 1, "(f32[2,2], s8[16])", "", false)).tupleElements()[0]),
            (std::vector<double>{2, 4, 4, 8}));
  // f8 D: 64 * T = {64, 192, 192, 448}; amax of T: 7.
  Literal f8 = evaluate(gemm("", 0, "(f8e4m3fn[2,2], f32[], s8[16])", ", sd", true));
  ASSERT_EQ(f8.tupleElements().size(), 3u);
  EXPECT_EQ(reals(f8.tupleElements()[0]), (std::vector<double>{64, 192, 192, 448}));
  EXPECT_EQ(reals(f8.tupleElements()[1]), (std::vector<double>{7}));
  // With c: 64 * 8 = 512 saturates to e4m3fn's 448 (not NaN).
  Literal saturated = evaluate(gemm(", c", 1, "(f8e4m3fn[2,2], f32[], s8[16])", ", sd", true));
  EXPECT_EQ(reals(saturated.tupleElements()[0]), (std::vector<double>{128, 256, 256, 448}));
  EXPECT_EQ(reals(saturated.tupleElements()[1]), (std::vector<double>{8}));
  EXPECT_NE(evaluationError(gemm("", 0, "(f8e4m3fn[2,2], s8[16])", "", false))
                .find("expected 5 operands (a, b, a_scale, b_scale, d_scale), has 4"),
            std::string::npos);
}

// cuDNN's forward convolution, plain and with bias, side input and
// activation (the backward ones: ConvolutionBackwardTest.cpp); a cuDNN
// graph is not interpreted.
TEST(InterpreterLibraryCalls, CudnnConvolutionsWithBiasSideInputAndActivation) {
  auto call = [](const std::string &target, const std::string &operands,
                 const std::string &activation, double scale) {
    return module("x = f32[1,4,1] constant({{{1}, {2}, {3}, {4}}})\n"
                  "k = f32[2,1,1] constant({{{1}}, {{-10}}})\n"
                  "bias = f32[1] constant({5})\n"
                  "side = f32[1,3,1] constant({{{100}, {200}, {300}}})\n"
                  "ROOT r = (f32[1,3,1], u8[0]) custom-call(" + operands +
                  "), window={size=2}, dim_labels=b0f_0io->b0f, custom_call_target=\"" + target +
                  "\", backend_config={\"cudnn_conv_backend_config\":{\"activation_mode\":\"" +
                  activation + "\",\"conv_result_scale\":" + std::to_string(scale) +
                  ",\"side_input_scale\":0.5,\"leakyrelu_alpha\":0}}");
  };
  // x * k = {1 - 20, 2 - 30, 3 - 40} = {-19, -28, -37}.
  Literal plain = evaluate(call("__cudnn$convForward", "x, k", "kNone", 1));
  ASSERT_EQ(plain.tupleElements().size(), 2u);
  EXPECT_EQ(reals(plain.tupleElements()[0]), (std::vector<double>{-19, -28, -37}));
  // 2 conv + 0.5 side + 5, then relu: {-38 + 50 + 5, -56 + 100 + 5, -74 + 150 + 5}.
  EXPECT_EQ(reals(evaluate(call("__cudnn$convBiasActivationForward", "x, k, bias, side",
                                "kRelu", 2))
                      .tupleElements()[0]),
            (std::vector<double>{17, 49, 81}));
  EXPECT_EQ(reals(evaluate(call("__cudnn$convBiasActivationForward", "x, k, bias", "kRelu", 1))
                      .tupleElements()[0]),
            (std::vector<double>{0, 0, 0}));
  EXPECT_NE(evaluationError(call("__cudnn$convBiasActivationForward", "x, k, bias", "kBandPass",
                                 1))
                .find("cuDNN activation kBandPass is not supported by the interpreter"),
            std::string::npos);
  EXPECT_NE(evaluationError(call("__cudnn$convForwardGraph", "x, k", "kNone", 1))
                .find("custom-call '__cudnn$convForwardGraph'"),
            std::string::npos);
}

TEST(InterpreterLibraryCalls, TopKPerRowDescendingWithIndices) {
  Literal result = evaluate(module(
      "a = f32[2,5] constant({{3, 1, 4, 1, 5}, {9, 2, 6, 5, 3}})\n"
      "ROOT r = (f32[2,3], s32[2,3]) custom-call(a), custom_call_target=\"__gpu$TopK\""));
  ASSERT_EQ(result.tupleElements().size(), 2u);
  EXPECT_EQ(reals(result.tupleElements()[0]), (std::vector<double>{5, 4, 3, 9, 6, 5}));
  EXPECT_EQ(ints(result.tupleElements()[1]), (std::vector<int64_t>{4, 2, 0, 0, 2, 3}));
}

//===-- Control flow and calls --------------------------------------------===//

TEST(InterpreterControlFlow, WhileCountsToTen) {
  std::string text = R"(HloModule m
cond {
  s = (s32[], s32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  ten = s32[] constant(10)
  ROOT c = pred[] compare(i, ten), direction=LT
}
body {
  s = (s32[], s32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  acc = s32[] get-tuple-element(s), index=1
  one = s32[] constant(1)
  next = s32[] add(i, one)
  sum = s32[] add(acc, i)
  ROOT t = (s32[], s32[]) tuple(next, sum)
}
ENTRY e {
  zero = s32[] constant(0)
  init = (s32[], s32[]) tuple(zero, zero)
  ROOT w = (s32[], s32[]) while(init), condition=cond, body=body
}
)";
  Literal result = evaluate(text);
  EXPECT_EQ(ints(result.tupleElements()[0]), (std::vector<int64_t>{10}));
  EXPECT_EQ(ints(result.tupleElements()[1]), (std::vector<int64_t>{45}));
}

TEST(InterpreterControlFlow, ConditionalByPredAndIndex) {
  std::string branches = R"(HloModule m
negate {
  x = s32[] parameter(0)
  ROOT n = s32[] negate(x)
}
double {
  x = s32[] parameter(0)
  ROOT d = s32[] add(x, x)
}
)";
  EXPECT_EQ(ints(evaluate(branches + "ENTRY e {\n  p = pred[] constant(false)\n"
                                     "  x = s32[] constant(7)\n"
                                     "  ROOT r = s32[] conditional(p, x, x), "
                                     "true_computation=negate, false_computation=double\n}\n")),
            (std::vector<int64_t>{14}));
  // An out-of-range branch index runs the last branch.
  EXPECT_EQ(ints(evaluate(branches + "ENTRY e {\n  i = s32[] constant(5)\n"
                                     "  x = s32[] constant(7)\n"
                                     "  ROOT r = s32[] conditional(i, x, x), "
                                     "branch_computations={negate, double}\n}\n")),
            (std::vector<int64_t>{14}));
}

TEST(InterpreterControlFlow, FusionCallAndParameters) {
  std::string text = R"(HloModule m
fused {
  p0 = f32[3] parameter(0)
  p1 = f32[3] parameter(1)
  ROOT m = f32[3] multiply(p0, p1)
}
ENTRY e {
  a = f32[3] parameter(0)
  b = f32[3] constant({2, 3, 4})
  ROOT f = f32[3] fusion(a, b), kind=kLoop, calls=fused
}
)";
  Literal argument(Shape(PrimitiveType::F32, {3}));
  argument.realData() = {1, 2, 3};
  EXPECT_EQ(reals(evaluate(text, {argument})), (std::vector<double>{2, 6, 12}));
}

TEST(InterpreterControlFlow, CallTupleAndGetTupleElement) {
  std::string text = R"(HloModule m
swap {
  x = s32[] parameter(0)
  y = s32[] parameter(1)
  ROOT t = (s32[], s32[]) tuple(y, x)
}
ENTRY e {
  a = s32[] constant(1)
  b = s32[] constant(2)
  c = (s32[], s32[]) call(a, b), to_apply=swap
  first = s32[] get-tuple-element(c), index=0
  ROOT r = (s32[], (s32[], s32[])) tuple(first, c)
}
)";
  Literal result = evaluate(text);
  ASSERT_EQ(result.tupleElements().size(), 2u);
  EXPECT_EQ(ints(result.tupleElements()[0]), (std::vector<int64_t>{2}));
  EXPECT_EQ(ints(result.tupleElements()[1].tupleElements()[1]), (std::vector<int64_t>{1}));
}

//===-- Errors ------------------------------------------------------------===//

TEST(InterpreterErrors, UnsupportedOpIsNamedWithItsLocation) {
  std::string error = evaluationError(module(
      "a = f32[4] constant({1, 2, 3, 4})\n"
      "ROOT r = f32[4] custom-call(a), custom_call_target=\"foo\""));
  EXPECT_NE(error.find("<text>:4:"), std::string::npos) << error;
  EXPECT_NE(error.find("error: unsupported by the interpreter: custom-call 'foo' ('r')"),
            std::string::npos)
      << error;
}

TEST(InterpreterErrors, RunawayWhileLoopIsReported) {
  std::string text = R"(HloModule m
cond {
  s = s32[] parameter(0)
  ROOT t = pred[] constant(true)
}
body {
  s = s32[] parameter(0)
  ROOT n = s32[] negate(s)
}
ENTRY e {
  zero = s32[] constant(0)
  ROOT w = s32[] while(zero), condition=cond, body=body
}
)";
  EXPECT_NE(evaluationError(text, 100).find("while loop ran past 100 iterations"),
            std::string::npos);
}

TEST(InterpreterErrors, UndefinedComputationIsAnErrorNotACrash) {
  // XLA's C++ tests prepend helpers such as scalar_add; a parser that
  // accepts the reference as a declaration leaves the interpreter to
  // refuse calling it.
  ParseOptions declarations;
  declarations.allowUndefinedComputations = true;
  std::string error = evaluationError(
      module("a = f32[4] constant({1, 2, 3, 4})\nz = f32[] constant(0)\n"
             "ROOT r = f32[] reduce(a, z), dimensions={0}, to_apply=scalar_add"),
      1000, declarations);
  EXPECT_NE(error.find("calls computation 'scalar_add', which is declared but not defined"),
            std::string::npos)
      << error;
}

TEST(InterpreterErrors, ArraysPastTheSizeLimitAreRefused) {
  auto [parsed, errors] =
      parseHloModuleText(module("z = f32[] constant(0)\n"
                                "ROOT r = f32[1000,1000] broadcast(z), dimensions={}"));
  ASSERT_TRUE(parsed) << errors;
  Evaluator evaluator(*parsed);
  evaluator.setMaxElements(1000);
  try {
    evaluator.run({});
    FAIL() << "expected a size error";
  } catch (const InterpreterError &error) {
    EXPECT_NE(std::string(error.what()).find("f32[1000,1000] has 1000000 elements, more than "
                                             "the interpreter's limit of 1000 per array"),
              std::string::npos)
        << error.what();
  }
}
