//===- NpyTest.cpp - .npy files, element bytes, generated inputs ----------===//
#include "interpreter/ElementBytes.h"
#include "interpreter/InputGenerator.h"
#include "interpreter/Npy.h"

#include "hlo_parser/HloComputation.h"
#include "hlo_parser/Parser.h"

#include <gtest/gtest.h>

using namespace hlo;
using namespace hlo::interp;

TEST(Npy, HeaderIsNumpyFormatOne) {
  Literal array(Shape(PrimitiveType::F32, {2, 3}));
  std::string bytes = encodeNpy(array);
  ASSERT_GE(bytes.size(), 10u);
  EXPECT_EQ(bytes.substr(0, 6), "\x93NUMPY");
  size_t headerLength = static_cast<uint8_t>(bytes[8]) | static_cast<uint8_t>(bytes[9]) << 8;
  EXPECT_EQ((10 + headerLength) % 64, 0u);
  std::string header = bytes.substr(10, headerLength);
  EXPECT_NE(header.find("'descr': '<f4'"), std::string::npos) << header;
  EXPECT_NE(header.find("'shape': (2, 3)"), std::string::npos) << header;
  EXPECT_EQ(bytes.size(), 10 + headerLength + 6 * 4);
  Literal scalar(Shape(PrimitiveType::Pred, {}));
  EXPECT_NE(encodeNpy(scalar).find("'shape': ()"), std::string::npos);
  Literal vector(Shape(PrimitiveType::S8, {5}));
  EXPECT_NE(encodeNpy(vector).find("'shape': (5,)"), std::string::npos);
}

TEST(Npy, RoundTripsEveryKindOfElement) {
  for (PrimitiveType type : {PrimitiveType::Pred, PrimitiveType::S4, PrimitiveType::S16,
                             PrimitiveType::U64, PrimitiveType::F16, PrimitiveType::BF16,
                             PrimitiveType::F8E4M3FN, PrimitiveType::F64, PrimitiveType::C64}) {
    Shape shape(type, {3, 2});
    Literal array = generateInput(shape, {-4, 4}, 7);
    ErrorOr<Literal> back = decodeNpy(encodeNpy(array), shape);
    ASSERT_TRUE(back) << primitiveTypeName(type) << ": " << back.error();
    EXPECT_EQ(back->intData(), array.intData()) << primitiveTypeName(type);
    EXPECT_EQ(back->realData(), array.realData()) << primitiveTypeName(type);
    EXPECT_EQ(back->imagData(), array.imagData()) << primitiveTypeName(type);
  }
}

TEST(Npy, RejectsMismatchedShapeAndType) {
  Literal array(Shape(PrimitiveType::F32, {4}));
  std::string bytes = encodeNpy(array);
  // The error of decoding `text` as `shape` ("" if it decodes).
  auto decodeError = [](const std::string &text, const Shape &shape) -> std::string {
    ErrorOr<Literal> decoded = decodeNpy(text, shape);
    return decoded ? "" : decoded.error();
  };
  std::string error = decodeError(bytes, Shape(PrimitiveType::F32, {2, 2}));
  EXPECT_NE(error.find("shape (4,) does not match"), std::string::npos) << error;
  error = decodeError(bytes, Shape(PrimitiveType::S32, {4}));
  EXPECT_NE(error.find("dtype '<f4' does not match s32"), std::string::npos) << error;
  EXPECT_FALSE(decodeNpy("not numpy", Shape(PrimitiveType::F32, {4})));
  error = decodeError(bytes.substr(0, bytes.size() - 1), Shape(PrimitiveType::F32, {4}));
  EXPECT_NE(error.find("truncated"), std::string::npos);
}

TEST(ElementBytes, LittleEndianBitPatterns) {
  Literal array(Shape(PrimitiveType::BF16, {2}));
  array.realData() = {1.0, -2.0};
  EXPECT_EQ(encodeElements(array), (std::vector<uint8_t>{0x80, 0x3f, 0x00, 0xc0}));
  Literal ints(Shape(PrimitiveType::S4, {2}));
  ints.intData() = {-1, 7};
  EXPECT_EQ(encodeElements(ints), (std::vector<uint8_t>{0xff, 0x07}));
  std::vector<uint8_t> bytes = {0x00, 0x00, 0x80, 0x3f};
  EXPECT_EQ(decodeElements(bytes.data(), Shape(PrimitiveType::F32, {1})).realData(),
            (std::vector<double>{1.0}));
}

TEST(InputGenerator, DeterministicAndInRange) {
  Shape shape(PrimitiveType::F32, {1000});
  Literal first = generateInput(shape, {-1, 1}, 42), again = generateInput(shape, {-1, 1}, 42);
  EXPECT_EQ(first.realData(), again.realData());
  EXPECT_NE(first.realData(), generateInput(shape, {-1, 1}, 43).realData());
  for (double value : first.realData()) {
    EXPECT_GE(value, -1);
    EXPECT_LE(value, 1);
  }
  Literal ints = generateInput(Shape(PrimitiveType::S8, {1000}), {-3, 3}, 1);
  for (int64_t value : ints.intData()) {
    EXPECT_GE(value, -3);
    EXPECT_LE(value, 3);
  }
}

TEST(InputGenerator, RangeFollowsUses) {
  auto [module, errors] = parseHloModuleText(R"(HloModule m
fused {
  p0 = f32[4] parameter(0)
  p1 = s32[] parameter(1)
  p2 = f32[4] parameter(2)
  l = f32[4] log(p0)
  d = f32[2] dynamic-slice(p2, p1), dynamic_slice_sizes={2}
  ROOT t = (f32[4], f32[2]) tuple(l, d)
}
ENTRY e {
  a = f32[4] parameter(0)
  i = s32[] parameter(1)
  b = f32[4] parameter(2)
  ROOT f = (f32[4], f32[2]) fusion(a, i, b), kind=kLoop, calls=fused
}
)");
  ASSERT_TRUE(module) << errors;
  const HloComputation &entry = *module->entry();
  InputRange positive = inputRangeFor(*entry.parameter(0));
  EXPECT_GT(positive.low, 0);
  InputRange index = inputRangeFor(*entry.parameter(1));
  EXPECT_EQ(index.low, 0);
  InputRange plain = inputRangeFor(*entry.parameter(2));
  EXPECT_EQ(plain.low, -1);
}
