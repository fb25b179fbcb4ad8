//===- FloatFormatTest.cpp - Rounding to narrow float formats -------------===//
#include "hlo_parser/FloatFormat.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace hlo;

TEST(FloatFormat, LargestFiniteValues) {
  EXPECT_EQ(floatFormatOf(PrimitiveType::F16).maxFinite(), 65504.0);
  EXPECT_EQ(floatFormatOf(PrimitiveType::BF16).maxFinite(), 3.3895313892515355e38);
  EXPECT_EQ(floatFormatOf(PrimitiveType::F8E4M3FN).maxFinite(), 448.0);
  EXPECT_EQ(floatFormatOf(PrimitiveType::F8E5M2).maxFinite(), 57344.0);
  EXPECT_EQ(floatFormatOf(PrimitiveType::F8E4M3FNUZ).maxFinite(), 240.0);
  EXPECT_EQ(floatFormatOf(PrimitiveType::F8E5M2FNUZ).maxFinite(), 57344.0);
  EXPECT_EQ(floatFormatOf(PrimitiveType::F8E4M3B11FNUZ).maxFinite(), 30.0);
  EXPECT_EQ(floatFormatOf(PrimitiveType::F8E4M3).maxFinite(), 240.0);
  EXPECT_EQ(floatFormatOf(PrimitiveType::F8E3M4).maxFinite(), 15.5);
  EXPECT_EQ(floatFormatOf(PrimitiveType::F4E2M1FN).maxFinite(), 6.0);
  EXPECT_EQ(floatFormatOf(PrimitiveType::F8E8M0FNU).maxFinite(),
            std::ldexp(1.0, 127));
}

TEST(FloatFormat, RoundsToNearestEven) {
  // bf16 has 8 significant bits: 1 + 2^-8 is a tie between 1 and 1+2^-7.
  EXPECT_EQ(roundToFloatType(1.0 + std::ldexp(1.0, -8), PrimitiveType::BF16), 1.0);
  EXPECT_EQ(roundToFloatType(1.0 + 3 * std::ldexp(1.0, -8), PrimitiveType::BF16),
            1.0 + std::ldexp(1.0, -6));
  EXPECT_EQ(roundToFloatType(0.1, PrimitiveType::F16), 0.0999755859375);
  EXPECT_EQ(roundToFloatType(2.5, PrimitiveType::F4E2M1FN), 2.0);
  EXPECT_EQ(roundToFloatType(3.5, PrimitiveType::F4E2M1FN), 4.0);
}

TEST(FloatFormat, Subnormals) {
  // Smallest f16 subnormal is 2^-24; half of it ties to even (zero).
  EXPECT_EQ(roundToFloatType(std::ldexp(1.0, -24), PrimitiveType::F16),
            std::ldexp(1.0, -24));
  EXPECT_EQ(roundToFloatType(std::ldexp(1.0, -25), PrimitiveType::F16), 0.0);
  EXPECT_EQ(roundToFloatType(std::ldexp(3.0, -26), PrimitiveType::F16),
            std::ldexp(1.0, -24));
}

TEST(FloatFormat, OverflowBehaviourPerFormat) {
  EXPECT_TRUE(std::isinf(roundToFloatType(65520.0, PrimitiveType::F16)));
  EXPECT_EQ(roundToFloatType(65519.0, PrimitiveType::F16), 65504.0);
  EXPECT_TRUE(std::isnan(roundToFloatType(500.0, PrimitiveType::F8E4M3FN)));
  EXPECT_TRUE(std::isnan(roundToFloatType(
      std::numeric_limits<double>::infinity(), PrimitiveType::F8E4M3FN)));
  EXPECT_EQ(roundToFloatType(100.0, PrimitiveType::F4E2M1FN), 6.0);
  EXPECT_TRUE(overflowsFloatType(-65520.0, PrimitiveType::F16));
  EXPECT_FALSE(overflowsFloatType(65519.0, PrimitiveType::F16));
  EXPECT_TRUE(overflowsFloatType(7.0, PrimitiveType::F4E2M1FN));
  EXPECT_FALSE(overflowsFloatType(6.5, PrimitiveType::F4E2M1FN));
  EXPECT_FALSE(overflowsFloatType(1e300, PrimitiveType::F64));
}

TEST(FloatFormat, SignedZeroAndUnsignedFormats) {
  EXPECT_TRUE(std::signbit(roundToFloatType(-0.0, PrimitiveType::F16)));
  EXPECT_FALSE(std::signbit(roundToFloatType(-0.0, PrimitiveType::F8E4M3FNUZ)));
  EXPECT_TRUE(std::isnan(roundToFloatType(-1.0, PrimitiveType::F8E8M0FNU)));
  EXPECT_EQ(roundToFloatType(3.0, PrimitiveType::F8E8M0FNU), 4.0);
}
