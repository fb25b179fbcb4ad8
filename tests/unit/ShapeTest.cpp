//===- ShapeTest.cpp - Shapes and layouts ---------------------------------===//
#include "hlo_parser/Parser.h"

#include <gtest/gtest.h>

using namespace hlo;

static Shape parse(std::string_view text) {
  ErrorOr<Shape> shape = parseShapeText(text);
  EXPECT_TRUE(shape) << shape.error();
  return shape ? *shape : Shape();
}

/// The error of parsing `text` ("" if it parses).
static std::string parseError(std::string_view text) {
  ErrorOr<Shape> shape = parseShapeText(text);
  return shape ? "" : shape.error();
}

TEST(Shape, ArraysGetADefaultLayoutWhenPrinted) {
  Shape shape = parse("f32[123,456]");
  EXPECT_EQ(shape.rank(), 2);
  EXPECT_EQ(shape.elementCount(), 123 * 456);
  EXPECT_FALSE(shape.hasLayout());
  EXPECT_EQ(shape.toString(), "f32[123,456]{1,0}");
  EXPECT_EQ(parse("f64[64, 64]").toString(), "f64[64,64]{1,0}");
  EXPECT_EQ(parse("pred[]").toString(), "pred[]");
}

TEST(Shape, LayoutItems) {
  Shape shape = parse("bf16[123,456,789]{2,1,0:T(2,*,128)(2,1)E(16)S(3)}");
  ASSERT_TRUE(shape.hasLayout());
  const Layout &layout = shape.layout();
  EXPECT_EQ(layout.minorToMajor, (std::vector<int64_t>{2, 1, 0}));
  ASSERT_EQ(layout.tiles.size(), 2u);
  EXPECT_EQ(layout.tiles[0].dimensions,
            (std::vector<int64_t>{2, kCombineTileDimension, 128}));
  EXPECT_EQ(layout.elementSizeInBits, 16);
  EXPECT_EQ(layout.memorySpace, 3);
  EXPECT_EQ(shape.toString(), "bf16[123,456,789]{2,1,0:T(2,*,128)(2,1)E(16)S(3)}");
  // Items no stage interprets are kept verbatim.
  EXPECT_EQ(parse("pred[123,456]{1,0:T(2,128)S(3)SC(1:200)}").toString(),
            "pred[123,456]{1,0:T(2,128)S(3)SC(1:200)}");
  EXPECT_EQ(parse("s4[2]{0:E(4)}").layout().elementSizeInBits, 4);
}

TEST(Shape, DynamicDimensions) {
  Shape shape = parse("f32[123,<=456,?]");
  EXPECT_FALSE(shape.isDynamicDimension(0));
  EXPECT_TRUE(shape.isDynamicDimension(1));
  EXPECT_EQ(shape.dimension(1), 456);
  EXPECT_EQ(shape.dimension(2), kUnboundedSize);
  EXPECT_EQ(shape.elementCount(), -1);
  EXPECT_EQ(shape.toString(false), "f32[123,<=456,?]");
}

TEST(Shape, NestedTuplesAndTokens) {
  Shape shape = parse("(f32[1], (f32[2], token[]), s8[5120,1024])");
  ASSERT_TRUE(shape.isTuple());
  ASSERT_EQ(shape.tupleSize(), 3);
  EXPECT_TRUE(shape.tupleShapes()[1].tupleShapes()[1].isToken());
  EXPECT_EQ(shape.toString(), "(f32[1]{0}, (f32[2]{0}, token[]), s8[5120,1024]{1,0})");
  EXPECT_EQ(parse("()").tupleSize(), 0);
}

TEST(Shape, AllElementTypesParse) {
  for (const char *type :
       {"pred", "s2", "s4", "s8", "s16", "s32", "s64", "u2", "u4", "u8", "u16",
        "u32", "u64", "f16", "bf16", "f32", "f64", "f8e4m3fn", "f8e5m2",
        "f8e4m3fnuz", "f8e5m2fnuz", "f8e4m3b11fnuz", "f8e3m4", "f8e4m3",
        "f8e8m0fnu", "f4e2m1fn", "c64", "c128"}) {
    std::string text = std::string(type) + "[3]";
    EXPECT_EQ(parse(text).toString(false), text);
  }
}

TEST(Shape, Errors) {
  std::string error = parseError("f33[2]");
  EXPECT_NE(error.find("unknown element type 'f33'"), std::string::npos) << error;
  error = parseError("f32[2,3]{0,0}");
  EXPECT_NE(error.find("not a permutation"), std::string::npos) << error;
  error = parseError("f32[2]{0,1}");
  EXPECT_NE(error.find("rank 1"), std::string::npos) << error;
  EXPECT_FALSE(parseShapeText("f32[-2]"));
  EXPECT_FALSE(parseShapeText("(f32[2]"));
}

TEST(Shape, CompatibleIgnoresLayouts) {
  EXPECT_TRUE(parse("f32[2,3]{0,1}").compatible(parse("f32[2,3]{1,0}")));
  EXPECT_FALSE(parse("f32[2,3]").compatible(parse("f32[3,2]")));
  EXPECT_FALSE(parse("f32[2]").compatible(parse("s32[2]")));
  EXPECT_FALSE(parse("f32[2,3]{0,1}") == parse("f32[2,3]{1,0}"));
}
