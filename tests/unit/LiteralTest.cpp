//===- LiteralTest.cpp - Constant literals --------------------------------===//
#include "hlo_parser/Parser.h"
#include "hlo_parser/FloatFormat.h"
#include "hlo_parser/Printer.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace hlo;

namespace {

/// Parses `ENTRY e { c = <shape> constant(<literal>) }` and returns the
/// constant's literal text as printed, or the error.
std::string roundTrip(std::string_view shape, std::string_view literal,
                      ParseOptions options = {}) {
  std::string text = "ENTRY e {\n  c = " + std::string(shape) + " constant(" +
                     std::string(literal) + ")\n}\n";
  auto [module, errors] = parseHloModuleText(text, "literal.hlo", options);
  if (!module)
    return "ERROR: " + errors;
  return module->entry()->root()->literal().toString();
}

const Literal *parseConstant(std::unique_ptr<HloModule> &holder,
                             std::string_view shape, std::string_view literal) {
  std::string text = "ENTRY e {\n  c = " + std::string(shape) + " constant(" +
                     std::string(literal) + ")\n}\n";
  ParsedModule parsed = parseHloModuleText(text, "literal.hlo");
  holder = std::move(parsed.module);
  EXPECT_NE(holder, nullptr) << parsed.diagnostics;
  return holder ? &holder->entry()->root()->literal() : nullptr;
}

} // namespace

TEST(Literal, ScalarsOfEveryKind) {
  EXPECT_EQ(roundTrip("pred[]", "true"), "true");
  EXPECT_EQ(roundTrip("s32[]", "-42"), "-42");
  EXPECT_EQ(roundTrip("u64[]", "18446744073709551615"), "18446744073709551615");
  EXPECT_EQ(roundTrip("s64[]", "-9223372036854775808"), "-9223372036854775808");
  EXPECT_EQ(roundTrip("f32[]", "2.1"), "2.1");
  EXPECT_EQ(roundTrip("f64[]", "3.1415926535897931"), "3.141592653589793");
  EXPECT_EQ(roundTrip("bf16[]", "0.7978845608"), "0.797");
  EXPECT_EQ(roundTrip("f32[]", "-inf"), "-inf");
  EXPECT_EQ(roundTrip("f32[]", "nan"), "nan");
  EXPECT_EQ(roundTrip("c64[]", "(1, -2.5)"), "(1, -2.5)");
  EXPECT_EQ(roundTrip("f8e4m3fn[]", "448"), "448");
  EXPECT_EQ(roundTrip("s4[]", "-8"), "-8");
}

TEST(Literal, ValuesAreRoundedToTheElementType) {
  std::unique_ptr<HloModule> holder;
  const Literal *literal = parseConstant(holder, "f16[]", "0.1");
  ASSERT_NE(literal, nullptr);
  EXPECT_EQ(literal->getFloat(0), 0.0999755859375);
  literal = parseConstant(holder, "f32[]", "16777217");
  ASSERT_NE(literal, nullptr);
  EXPECT_EQ(literal->getFloat(0), 16777216.0);
}

TEST(Literal, NestedArrays) {
  EXPECT_EQ(roundTrip("f32[2,2]", "{{1, 2}, {3, 4}}"), "{{1, 2}, {3, 4}}");
  EXPECT_EQ(roundTrip("s32[2,0]", "{{}, {}}"), "{{}, {}}");
  EXPECT_EQ(roundTrip("pred[3]", "{true, false, true}"), "{true, false, true}");
  std::unique_ptr<HloModule> holder;
  const Literal *literal =
      parseConstant(holder, "s32[2,3]", "{ {1, 2, 3}, {4, 5, 6} }");
  ASSERT_NE(literal, nullptr);
  EXPECT_EQ(literal->getInt(4), 5); // row-major
}

TEST(Literal, TuplesAndElided) {
  EXPECT_EQ(roundTrip("(f32[], s32[2])", "(1.5, {1, 2})"), "(1.5, {1, 2})");
  ParseOptions keepElided;
  keepElided.fillElidedConstants = false;
  EXPECT_EQ(roundTrip("f32[100]", "{...}", keepElided), "{...}");
}

// An elided constant gets made-up values, as XLA's parser fills it: the
// same for the same name (whatever else the module holds), others for
// another name; floats in [-0.1, 0.2) of their type, integers in [0, 8),
// printed in full.
TEST(Literal, ElidedConstantsAreFilledByName) {
  auto parse = [](std::string_view extra, std::string_view name, std::string_view shape) {
    std::string text = "ENTRY e {\n" + std::string(extra) + "  " + std::string(name) + " = " +
                       std::string(shape) + " constant({...})\n}\n";
    auto [module, errors] = parseHloModuleText(text, "elided.hlo");
    EXPECT_NE(module, nullptr) << errors;
    return module ? module->entry()->root()->literal() : Literal();
  };
  Literal first = parse("", "table", "bf16[3,50]");
  Literal again = parse("  other = f32[2] constant({1, 2})\n", "table", "bf16[3,50]");
  Literal renamed = parse("", "table.1", "bf16[3,50]");
  EXPECT_TRUE(first.isFilled());
  EXPECT_FALSE(first.isElided());
  EXPECT_EQ(first.toString(), again.toString());
  EXPECT_NE(first.toString(), renamed.toString());
  EXPECT_EQ(first.toString().find("..."), std::string::npos);
  for (int64_t i = 0; i < first.elementCount(); ++i) {
    EXPECT_GE(first.getFloat(i), -0.1);
    EXPECT_LT(first.getFloat(i), 0.2);
    EXPECT_EQ(first.getFloat(i), roundToFloatType(first.getFloat(i), PrimitiveType::BF16));
  }
  Literal indices = parse("", "idx", "s32[64]");
  bool distinct = false;
  for (int64_t i = 0; i < indices.elementCount(); ++i) {
    EXPECT_GE(indices.getInt(i), 0);
    EXPECT_LT(indices.getInt(i), 8);
    distinct = distinct || indices.getInt(i) != indices.getInt(0);
  }
  EXPECT_TRUE(distinct);
}

TEST(Literal, RangeErrors) {
  EXPECT_NE(roundTrip("f16[]", "-65520").find(
                "-65520 is out of range for literal's primitive type F16"),
            std::string::npos);
  EXPECT_NE(roundTrip("u4[]", "16").find(
                "16 is out of range for literal's primitive type U4"),
            std::string::npos);
  EXPECT_NE(roundTrip("s8[]", "128").find("out of range"), std::string::npos);
  EXPECT_NE(roundTrip("u8[]", "-1").find("out of range"), std::string::npos);
  EXPECT_NE(roundTrip("f8e4m3fn[]", "500").find("F8E4M3FN"), std::string::npos);
  EXPECT_EQ(roundTrip("f16[]", "65519"), "65504");
}

TEST(Literal, ShapeErrors) {
  EXPECT_NE(roundTrip("f32[2]", "{1,{2}}").find(
                "expects nested array in rank 1, but sees larger"),
            std::string::npos);
  EXPECT_NE(roundTrip("f32[2]", "{1, 2, 3}").find("too many elements"),
            std::string::npos);
  EXPECT_NE(roundTrip("f32[3]", "{1, 2}").find("expects 3 elements"),
            std::string::npos);
  EXPECT_NE(roundTrip("f32[2,2]", "{1, 2}").find("expects nested array"),
            std::string::npos);
  EXPECT_NE(roundTrip("f32[1000000000,1000000000]", "{...}"), "");
  EXPECT_NE(roundTrip("f32[100000,100000]", "{1}").find("too large"),
            std::string::npos);
}
