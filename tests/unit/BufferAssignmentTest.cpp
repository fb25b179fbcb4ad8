//===- BufferAssignmentTest.cpp - Which buffer each value lives in --------===//
//
// analysis/BufferAssignment on a small program: a multi-output fusion read
// through get-tuple-elements and a bitcast, a library call, and an entry
// tuple of outputs.
//
//===----------------------------------------------------------------------===//
#include "analysis/BufferAssignment.h"
#include "analysis/KernelPlan.h"
#include "hlo_parser/Parser.h"

#include <gtest/gtest.h>

using namespace hlo;

namespace {

const char *kProgram = R"(
HloModule program

both {
  p = f32[8,16] parameter(0)
  n = f32[8,16] negate(p)
  e = f32[8,16] exponential(p)
  ROOT t = (f32[8,16], f32[8,16]) tuple(n, e)
}

add {
  a = f32[128] parameter(0)
  b = f32[128] parameter(1)
  ROOT s = f32[128] add(a, b)
}

ENTRY main {
  x = f32[8,16] parameter(0)
  w = f32[16,16] parameter(1)
  k = f32[128] constant({...})
  pair = (f32[8,16], f32[8,16]) fusion(x), kind=kLoop, calls=both
  neg = f32[8,16] get-tuple-element(pair), index=0
  ex = f32[8,16] get-tuple-element(pair), index=1
  gemm = f32[8,16] dot(ex, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  flat = f32[128] bitcast(neg)
  sum = f32[128] fusion(flat, k), kind=kLoop, calls=add
  ROOT out = (f32[128], f32[8,16]) tuple(sum, gemm)
})";

} // namespace

TEST(BufferAssignment, ValuesLiveInTheirProducersLeaves) {
  auto [module, errors] = parseHloModuleText(kProgram, "program");
  ASSERT_NE(module, nullptr) << errors;
  KernelPlan plan(*module);
  BufferAssignment buffers(*module, plan);
  const HloComputation &entry = *module->entry();
  auto find = [&](const std::string &name) {
    for (const auto &instruction : entry.instructions())
      if (instruction->name() == name)
        return static_cast<const HloInstruction *>(instruction.get());
    ADD_FAILURE() << "no " << name;
    return static_cast<const HloInstruction *>(nullptr);
  };
  // A module parameter is its own buffer.
  BufferSlot x = buffers.operandSlot(find("x"));
  EXPECT_EQ(x.kind, BufferSlot::Kind::EntryParameter);
  EXPECT_EQ(x.number, 0);
  // A bitcast of a get-tuple-element reads leaf 0 of the fusion's two.
  BufferSlot flat = buffers.operandSlot(find("flat"));
  EXPECT_EQ(flat.kind, BufferSlot::Kind::Result);
  EXPECT_EQ(flat.producer, find("pair"));
  EXPECT_EQ(flat.leaf, 0u);
  EXPECT_EQ(flat.leafCount, 2u);
  EXPECT_EQ(buffers.operandSlot(find("ex")).leaf, 1u);
  // Results the entry's tuple returns are its outputs.
  BufferSlot sum = buffers.resultSlot(find("sum"), 0, 1);
  EXPECT_EQ(sum.kind, BufferSlot::Kind::EntryOutput);
  EXPECT_EQ(sum.number, 0);
  EXPECT_EQ(buffers.resultSlot(find("gemm"), 0, 1).number, 1);
  // Steps: the two kernels and the library call; no step for the rest.
  for (const char *name : {"pair", "sum", "gemm"})
    EXPECT_TRUE(buffers.hasStep(find(name))) << name;
  for (const char *name : {"x", "k", "neg", "flat", "out"})
    EXPECT_FALSE(buffers.hasStep(find(name))) << name;
  // The program's buffers: parameters, outputs, then the constant and the
  // one temporary (the fusion's tuple result).
  std::vector<std::pair<ProgramBuffer::Kind, std::string>> listed;
  for (const ProgramBuffer &buffer : buffers.buffers())
    listed.emplace_back(buffer.kind, buffer.value->name());
  using K = ProgramBuffer::Kind;
  EXPECT_EQ(listed, (std::vector<std::pair<K, std::string>>{{K::Parameter, "x"},
                                                            {K::Parameter, "w"},
                                                            {K::Output, "sum"},
                                                            {K::Output, "gemm"},
                                                            {K::Constant, "k"},
                                                            {K::Temporary, "pair"}}));
}
