//===- OperandBufferSharingTest.cpp - Outputs over their operands ---------===//
//
// analysis/OperandBufferSharing: which operand a loop fusion's result, or a
// reduction fusion's side output, may be written over, and what rules it
// out (a transposed read, wider elements, a layout that reorders elements,
// a root computed from a reduction's result).
//
//===----------------------------------------------------------------------===//
#include "analysis/OperandBufferSharing.h"
#include "hlo_parser/Parser.h"

#include <gtest/gtest.h>

using namespace hlo;

namespace {

const char *kComputations = R"(
HloModule sharing

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

side {
  p = bf16[32,256]{1,0} parameter(0)
  q = f32[32]{0} parameter(1)
  c = f32[32,256]{1,0} convert(p)
  bq = f32[32,256]{1,0} broadcast(q), dimensions={0}
  d = f32[32,256]{1,0} subtract(c, bq)
  b4 = f32[32,8,32]{2,1,0} bitcast(d)
  zero = f32[] constant(0)
  r = f32[32,8]{1,0} reduce(b4, zero), dimensions={2}, to_apply=add
  o = bf16[32,256]{1,0} convert(d)
  ROOT t = (f32[32,8]{1,0}, bf16[32,256]{1,0}) tuple(r, o)
}

transposed {
  p = f32[32,256]{1,0} parameter(0)
  zero = f32[] constant(0)
  r = f32[32]{0} reduce(p, zero), dimensions={1}, to_apply=add
  tp = f32[256,32]{1,0} transpose(p), dimensions={1,0}
  o = f32[256,32]{1,0} negate(tp)
  ROOT t = (f32[32]{0}, f32[256,32]{1,0}) tuple(r, o)
}

wider {
  p = f16[32,256]{1,0} parameter(0)
  zero = f16[] constant(0)
  r = f16[32]{0} reduce(p, zero), dimensions={1}, to_apply=add16
  o = f32[32,256]{1,0} convert(p)
  ROOT t = (f16[32]{0}, f32[32,256]{1,0}) tuple(r, o)
}

add16 {
  a = f16[] parameter(0)
  b = f16[] parameter(1)
  ROOT s = f16[] add(a, b)
}

column_major {
  p = f32[32,256]{0,1} parameter(0)
  zero = f32[] constant(0)
  r = f32[256]{0} reduce(p, zero), dimensions={0}, to_apply=add
  o = f32[32,256]{1,0} negate(p)
  ROOT t = (f32[256]{0}, f32[32,256]{1,0}) tuple(r, o)
}

two {
  p = f32[32,256]{1,0} parameter(0)
  zero = f32[] constant(0)
  r = f32[32]{0} reduce(p, zero), dimensions={1}, to_apply=add
  n = f32[32,256]{1,0} negate(p)
  e = f32[32,256]{1,0} exponential(p)
  ROOT t = (f32[32]{0}, f32[32,256]{1,0}, f32[32,256]{1,0}) tuple(r, n, e)
}

from_reduce {
  p = f32[4]{0} parameter(0)
  zero = f32[] constant(0)
  r = f32[] reduce(p, zero), dimensions={0}, to_apply=add
  b = f32[4]{0} broadcast(r), dimensions={}
  ROOT t = (f32[], f32[4]{0}) tuple(r, b)
}

reduce_in_side_output {
  p = f32[8,4]{1,0} parameter(0)
  zero = f32[] constant(0)
  r = f32[8]{0} reduce(p, zero), dimensions={1}, to_apply=add
  b = f32[8,4]{1,0} broadcast(r), dimensions={0}
  o = f32[8,4]{1,0} subtract(p, b)
  ROOT t = (f32[8]{0}, f32[8,4]{1,0}) tuple(r, o)
}

elementwise {
  p = f32[32,256]{1,0} parameter(0)
  q = f32[256]{0} parameter(1)
  bq = f32[32,256]{1,0} broadcast(q), dimensions={1}
  ROOT m = f32[32,256]{1,0} multiply(p, bq)
}

ENTRY main {
  ROOT x = f32[] constant(0)
}
)";

class OperandBufferSharingTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto parsed = parseHloModuleText(kComputations, "sharing");
    module = std::move(parsed.module);
    ASSERT_NE(module, nullptr) << parsed.diagnostics;
  }
  const HloComputation &computation(std::string_view name) const {
    const HloComputation *found = module->findComputation(name);
    EXPECT_NE(found, nullptr) << name;
    return *found;
  }
  std::unique_ptr<HloModule> module;
};

TEST_F(OperandBufferSharingTest, SideOutputThroughConvertAndBitcast) {
  // maxtext's input_convert_reduce_fusion in small: the bf16 side output
  // over the bf16 operand the reduction reads through a bitcast; the
  // broadcast reads the other parameter.
  EXPECT_EQ(sideOutputSharableParameters(computation("side")), (std::vector<int64_t>{-1, 0}));
}

TEST_F(OperandBufferSharingTest, TransposedReadRulesItOut) {
  EXPECT_EQ(sideOutputSharableParameters(computation("transposed")),
            (std::vector<int64_t>{-1, -1}));
}

TEST_F(OperandBufferSharingTest, WiderElementsRuleItOut) {
  EXPECT_EQ(sideOutputSharableParameters(computation("wider")), (std::vector<int64_t>{-1, -1}));
}

TEST_F(OperandBufferSharingTest, ColumnMajorOperandRulesItOut) {
  EXPECT_EQ(sideOutputSharableParameters(computation("column_major")),
            (std::vector<int64_t>{-1, -1}));
}

TEST_F(OperandBufferSharingTest, OneSideOutputPerOperand) {
  EXPECT_EQ(sideOutputSharableParameters(computation("two")),
            (std::vector<int64_t>{-1, 0, -1}));
}

TEST_F(OperandBufferSharingTest, RootComputedFromTheReductionRulesItOut) {
  // Written after the reduction, while other threads may still read the
  // operand (XLA's FindReduceHeroEpilogueFusionHeroAlsoUsedAsNonHero).
  EXPECT_EQ(sideOutputSharableParameters(computation("from_reduce")),
            (std::vector<int64_t>{-1, -1}));
}

TEST_F(OperandBufferSharingTest, SideOutputReadingTheReductionRulesItOut) {
  // `p - broadcast(reduce(p))`: the side output reads the whole row.
  EXPECT_EQ(sideOutputSharableParameters(computation("reduce_in_side_output")),
            (std::vector<int64_t>{-1, -1}));
}

TEST_F(OperandBufferSharingTest, LoopResultOverTheSameShapedOperand) {
  EXPECT_EQ(elementwiseSharableParameter(computation("elementwise")), 0);
}

} // namespace
