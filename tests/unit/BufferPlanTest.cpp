//===- BufferPlanTest.cpp - The memory plan against lives and aliases -----===//
//
// The driver's memory plan (src/driver/BufferPlan.h) on small programs: an
// in-place output and its input are one buffer; while loops' state is one
// buffer with its initial value and body result where nothing reads the
// old value after; branch results are the conditional's. And hlo-run's
// check (abi/ProgramLiveness.h: checkMemoryPlan) passing every plan made
// here and refusing one with a planted overlap.
//
//===----------------------------------------------------------------------===//
#include "driver/BufferPlan.h"

#include "abi/ProgramLiveness.h"

#include <gtest/gtest.h>

using hlo::abi::BufferBinding;
using hlo::abi::KernelParameter;
using hlo::abi::LaunchManifest;
using hlo::abi::PlacedBuffer;
using hlo::abi::ProgramStep;

namespace {

KernelParameter buffer(const std::string &name, bool output = false, int64_t aliases = -1) {
  KernelParameter parameter;
  parameter.binding = BufferBinding::Buffer;
  parameter.bufferName = name;
  parameter.isOutput = output;
  parameter.bytes = 4096;
  parameter.aliases = aliases;
  return parameter;
}

KernelParameter moduleOutput(int64_t number, int64_t aliases = -1) {
  KernelParameter parameter;
  parameter.binding = BufferBinding::Output;
  parameter.number = number;
  parameter.isOutput = true;
  parameter.bytes = 4096;
  parameter.aliases = aliases;
  return parameter;
}

KernelParameter moduleParameter(int64_t number) {
  KernelParameter parameter;
  parameter.binding = BufferBinding::Parameter;
  parameter.number = number;
  parameter.bytes = 4096;
  return parameter;
}

/// A manifest whose entry "main" has the module's output.
LaunchManifest emptyProgram() {
  LaunchManifest manifest;
  hlo::abi::BufferSpec output;
  output.kind = hlo::abi::BufferSpec::Kind::Output;
  output.name = "out";
  output.computation = "main";
  manifest.buffers.push_back(output);
  return manifest;
}

/// Appends a kernel and its launch in `computation`.
void launch(LaunchManifest &manifest, const std::string &computation,
            std::vector<KernelParameter> parameters) {
  hlo::abi::KernelSpec kernel;
  kernel.name = "k" + std::to_string(manifest.kernels.size());
  kernel.parameters = std::move(parameters);
  manifest.kernels.push_back(kernel);
  ProgramStep step;
  step.kind = ProgramStep::Kind::Launch;
  step.computation = computation;
  step.launch = static_cast<int64_t>(manifest.kernels.size() - 1);
  manifest.program.push_back(step);
}

/// A manifest of kernels launched in order in the entry "main".
LaunchManifest program(std::vector<std::vector<KernelParameter>> kernels) {
  LaunchManifest manifest = emptyProgram();
  for (auto &parameters : kernels)
    launch(manifest, "main", std::move(parameters));
  return manifest;
}

const PlacedBuffer *placed(const LaunchManifest &manifest, const std::string &name) {
  for (const hlo::abi::AllocationSpec &allocation : manifest.allocations)
    for (const PlacedBuffer &buffer : allocation.buffers)
      for (const std::string &member : buffer.names)
        if (member == name)
          return &buffer;
  return nullptr;
}

/// Whether `a` and `b` are one buffer of the plan.
bool oneBuffer(const LaunchManifest &manifest, const std::string &a, const std::string &b) {
  return placed(manifest, a) && placed(manifest, a) == placed(manifest, b);
}

/// Whether `a` and `b` (both placed) take some of the same memory.
bool shareMemory(const LaunchManifest &manifest, const std::string &a, const std::string &b) {
  const PlacedBuffer *x = placed(manifest, a), *y = placed(manifest, b);
  return x && y && x->offset < y->offset + y->bytes && y->offset < x->offset + x->bytes;
}

void planAndCheck(LaunchManifest &manifest) {
  hlo::driver::planModuleBuffers(manifest);
  hlo::Status checked =
      hlo::abi::checkMemoryPlan(manifest, hlo::abi::programLiveness(manifest));
  EXPECT_TRUE(checked) << checked.error();
}

/// while (cond "c", body "b") in "main" over `init`, its state read as
/// "c.p#i" and "b.p#i", its result leaves "w#i", the body's results `next`.
ProgramStep whileStep(const std::vector<KernelParameter> &init,
                      const std::vector<KernelParameter> &next) {
  ProgramStep step;
  step.kind = ProgramStep::Kind::While;
  step.computation = "main";
  step.instruction = "w";
  step.computations = {"c", "b"};
  step.predicate = "lt";
  step.arguments = init;
  step.bodyResults = next;
  step.parameterBuffers.resize(2);
  for (size_t i = 0; i < init.size(); ++i) {
    step.results.push_back(buffer("w#" + std::to_string(i), true));
    step.parameterBuffers[0].push_back("c.p#" + std::to_string(i));
    step.parameterBuffers[1].push_back("b.p#" + std::to_string(i));
  }
  return step;
}

} // namespace

// Issue 52: r = add(a, a); dus = dynamic-update-slice(r, ...) in place as
// module output 0; m, m3 later temporaries. r is the output's memory, live
// to the end: nothing else may take it.
TEST(BufferPlan, InPlaceModuleOutputIsItsOperand) {
  LaunchManifest manifest = program({
      {buffer("r", /*output=*/true)},
      {buffer("r"), moduleOutput(0, /*aliases=*/0)},
      {buffer("m", true)},
      {buffer("m"), buffer("m2", true)},
      {buffer("m2"), buffer("m3", true)},
      {buffer("m3"), moduleOutput(1)},
  });
  planAndCheck(manifest);
  EXPECT_TRUE(oneBuffer(manifest, "r", "<output 0>"));
  for (const char *other : {"m", "m2", "m3", "<output 1>"})
    EXPECT_FALSE(shareMemory(manifest, "r", other)) << other;
  EXPECT_TRUE(shareMemory(manifest, "m", "m3"));
}

/// The allocation that is module parameter `number`'s memory, if any.
const hlo::abi::AllocationSpec *parameterAllocation(const LaunchManifest &manifest,
                                                    int64_t number) {
  for (const hlo::abi::AllocationSpec &allocation : manifest.allocations)
    if (allocation.parameter == number)
      return &allocation;
  return nullptr;
}

// An output updated in place in its donated parameter is that parameter's
// memory: the parameter's allocation, not the plan's own.
TEST(BufferPlan, DonatedParameterUpdateIsTheParameters) {
  LaunchManifest manifest = program({{moduleParameter(0), moduleOutput(0, /*aliases=*/0)}});
  planAndCheck(manifest);
  const hlo::abi::AllocationSpec *parameter = parameterAllocation(manifest, 0);
  ASSERT_NE(parameter, nullptr);
  EXPECT_TRUE(oneBuffer(manifest, "<parameter 0>", "<output 0>"));
  EXPECT_EQ(manifest.allocations.size(), 1u);
}

// A chain of updates between temporaries: t1, updated in place as t2 (the
// same memory), read at the end. A temporary written between the update
// and the last read of t2 must not take t1's memory.
TEST(BufferPlan, InPlaceChainIsOneLiveRange) {
  LaunchManifest manifest = program({
      {buffer("t1", true)},
      {buffer("t1"), buffer("t2", true, /*aliases=*/0)},
      {buffer("x", true)},
      {buffer("x"), buffer("y", true)},
      {buffer("t2"), buffer("y"), moduleOutput(0)},
  });
  planAndCheck(manifest);
  EXPECT_TRUE(oneBuffer(manifest, "t1", "t2"));
  for (const char *other : {"x", "y"})
    EXPECT_FALSE(shareMemory(manifest, "t1", other)) << other;
}

// Without aliases, temporaries whose lives do not overlap share.
TEST(BufferPlan, DeadTemporariesShare) {
  LaunchManifest manifest = program({
      {buffer("a", true)},
      {buffer("a"), buffer("b", true)},
      {buffer("b"), buffer("c", true)},
      {buffer("c"), moduleOutput(0)},
  });
  planAndCheck(manifest);
  EXPECT_TRUE(shareMemory(manifest, "a", "c"));
  EXPECT_FALSE(shareMemory(manifest, "a", "b"));
  EXPECT_EQ(manifest.allocations.size(), 1u);
  // The output (live from its kernel to the end) takes a's or b's memory.
  EXPECT_EQ(manifest.allocations[0].bytes, 2 * 4096);
}

// A loop whose initial state is dead once it starts and whose body writes
// its new state after its last read of the old: one buffer for all of
// them, and a body temporary shares memory with values outside the loop.
TEST(BufferPlan, LoopStateIsOneBuffer) {
  LaunchManifest manifest = emptyProgram();
  launch(manifest, "main", {buffer("init", true)});
  manifest.program.push_back(whileStep({buffer("init")}, {buffer("next")}));
  launch(manifest, "main", {buffer("w#0"), buffer("late", true)});
  launch(manifest, "main", {buffer("late"), moduleOutput(0)});
  launch(manifest, "c", {buffer("c.p#0"), buffer("lt", true)});
  launch(manifest, "b", {buffer("b.p#0"), buffer("tmp", true)});
  launch(manifest, "b", {buffer("tmp"), buffer("next", true)});
  planAndCheck(manifest);
  for (const char *member : {"init", "c.p#0", "w#0", "next"})
    EXPECT_TRUE(oneBuffer(manifest, "b.p#0", member)) << member;
  EXPECT_TRUE(shareMemory(manifest, "tmp", "late"));
}

// The initial state read after the loop, and a body that swaps two
// elements: copies, as XLA's copy insertion makes them.
TEST(BufferPlan, LoopStateCopiedWhereLive) {
  LaunchManifest manifest = emptyProgram();
  launch(manifest, "main", {buffer("a", true)});
  launch(manifest, "main", {buffer("z", true)});
  manifest.program.push_back(
      whileStep({buffer("a"), buffer("z")}, {buffer("b.p#1"), buffer("b.p#0")}));
  launch(manifest, "main", {buffer("a"), buffer("w#0"), buffer("w#1"), moduleOutput(0)});
  launch(manifest, "c", {buffer("c.p#0"), buffer("lt", true)});
  planAndCheck(manifest);
  EXPECT_FALSE(oneBuffer(manifest, "a", "b.p#0"));
  EXPECT_TRUE(oneBuffer(manifest, "z", "b.p#1"));
  EXPECT_FALSE(oneBuffer(manifest, "b.p#0", "b.p#1"));
  EXPECT_FALSE(shareMemory(manifest, "b.p#0", "b.p#1"));
}

// An output the module donates parameter 0 to (input_output_alias) takes
// its memory once the parameter is dead, and a temporary living between
// the parameter's last read and the output's first write goes there too,
// as XLA fills a may-alias parameter's allocation.
TEST(BufferPlan, DonatedParameterHoldsItsOutputAndTemporaries) {
  LaunchManifest manifest = program({
      {moduleParameter(0), buffer("t", true)},
      {buffer("t"), buffer("u", true)},
      {buffer("u"), buffer("v", true)},
      {buffer("v"), moduleOutput(0)},
  });
  manifest.buffers[0].number = 0;
  manifest.buffers[0].donatedParameter = 0;
  planAndCheck(manifest);
  const hlo::abi::AllocationSpec *parameter = parameterAllocation(manifest, 0);
  ASSERT_NE(parameter, nullptr);
  EXPECT_EQ(parameter->bytes, 4096);
  auto inParameter = [&](const std::string &name) {
    for (const PlacedBuffer &buffer : parameter->buffers)
      for (const std::string &member : buffer.names)
        if (member == name)
          return true;
    return false;
  };
  EXPECT_TRUE(inParameter("<output 0>"));
  EXPECT_FALSE(oneBuffer(manifest, "<parameter 0>", "<output 0>"));
  // t is written while the parameter is read, v read while the output is
  // written: elsewhere. u lives between the two.
  EXPECT_FALSE(inParameter("t"));
  EXPECT_TRUE(inParameter("u"));
  EXPECT_FALSE(inParameter("v"));
}

// A state element the loop starts as a module parameter and passes
// through unchanged is the parameter's memory; one the body replaces is
// copied in (the caller's argument must not change).
TEST(BufferPlan, ReadOnlyLoopStateIsItsParameter) {
  LaunchManifest manifest = emptyProgram();
  manifest.program.push_back(whileStep({moduleParameter(0), moduleParameter(1)},
                                       {buffer("b.p#0"), buffer("next")}));
  launch(manifest, "main", {buffer("w#0"), buffer("w#1"), moduleOutput(0)});
  launch(manifest, "c", {buffer("c.p#1"), buffer("lt", true)});
  launch(manifest, "b", {buffer("b.p#0"), buffer("b.p#1"), buffer("next", true)});
  planAndCheck(manifest);
  EXPECT_TRUE(oneBuffer(manifest, "<parameter 0>", "b.p#0"));
  EXPECT_TRUE(oneBuffer(manifest, "<parameter 0>", "w#0"));
  EXPECT_EQ(parameterAllocation(manifest, 1), nullptr);
  EXPECT_FALSE(oneBuffer(manifest, "b.p#1", "next"));
}

// A body result made by a kernel that reads the old state without
// updating it in place cannot be written into the state.
TEST(BufferPlan, BodyResultReadingOldStateIsCopied) {
  LaunchManifest manifest = emptyProgram();
  launch(manifest, "main", {buffer("init", true)});
  manifest.program.push_back(whileStep({buffer("init")}, {buffer("next")}));
  launch(manifest, "main", {buffer("w#0"), moduleOutput(0)});
  launch(manifest, "c", {buffer("c.p#0"), buffer("lt", true)});
  launch(manifest, "b", {buffer("b.p#0"), buffer("next", true)});
  launch(manifest, "b", {buffer("b.p#0"), buffer("next"), buffer("use", true)});
  planAndCheck(manifest);
  EXPECT_FALSE(oneBuffer(manifest, "b.p#0", "next"));
  EXPECT_TRUE(oneBuffer(manifest, "b.p#0", "init"));
}

// A conditional's branch results made in the branches are its result.
TEST(BufferPlan, BranchResultsAreTheConditionals) {
  LaunchManifest manifest = emptyProgram();
  launch(manifest, "main", {buffer("index", true), buffer("x", true)});
  ProgramStep step;
  step.kind = ProgramStep::Kind::Conditional;
  step.computation = "main";
  step.instruction = "cond";
  step.computations = {"t", "f"};
  step.arguments = {buffer("index")};
  step.branchArguments = {{buffer("x")}, {buffer("x")}};
  step.branchResults = {{buffer("t.r")}, {buffer("f.p")}};
  step.parameterBuffers = {{"t.p"}, {"f.p"}};
  step.results = {buffer("cond", true)};
  manifest.program.push_back(step);
  launch(manifest, "main", {buffer("cond"), buffer("x"), moduleOutput(0)});
  launch(manifest, "t", {buffer("t.p"), buffer("t.r", true)});
  planAndCheck(manifest);
  EXPECT_TRUE(oneBuffer(manifest, "cond", "t.r"));
  // f returns its parameter: a copy, since x (its memory) is read later.
  EXPECT_FALSE(oneBuffer(manifest, "cond", "f.p"));
  EXPECT_TRUE(oneBuffer(manifest, "x", "t.p"));
}

// hlo-run's check: a planted overlap of two buffers live at once.
TEST(BufferPlan, CheckRefusesOverlapOfLiveBuffers) {
  LaunchManifest manifest = program({
      {buffer("a", true)},
      {buffer("a"), buffer("b", true)},
      {buffer("b"), moduleOutput(0)},
  });
  planAndCheck(manifest);
  ASSERT_FALSE(shareMemory(manifest, "a", "b"));
  PlacedBuffer *a = const_cast<PlacedBuffer *>(placed(manifest, "a"));
  a->offset = placed(manifest, "b")->offset;
  hlo::Status checked =
      hlo::abi::checkMemoryPlan(manifest, hlo::abi::programLiveness(manifest));
  ASSERT_FALSE(checked);
  EXPECT_NE(checked.error().find("overlaps"), std::string::npos) << checked.error();
}

// The check: a name placed twice, and a buffer past its allocation.
TEST(BufferPlan, CheckRefusesMalformedPlans) {
  LaunchManifest manifest = program({{buffer("a", true)}, {buffer("a"), moduleOutput(0)}});
  planAndCheck(manifest);
  LaunchManifest twice = manifest;
  twice.allocations[0].buffers.push_back({{"a"}, 0, 16});
  EXPECT_FALSE(hlo::abi::checkMemoryPlan(twice, hlo::abi::programLiveness(twice)));
  LaunchManifest past = manifest;
  past.allocations[0].buffers[0].offset = past.allocations[0].bytes;
  EXPECT_FALSE(hlo::abi::checkMemoryPlan(past, hlo::abi::programLiveness(past)));
}
