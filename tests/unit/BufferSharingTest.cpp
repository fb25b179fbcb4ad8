//===- BufferSharingTest.cpp - Shared temporaries against their aliases ---===//
//
// The driver's sharing plan (src/driver/BufferSharing.h) checked against
// the aliases a manifest records: an in-place output and its input are one
// buffer, so no other temporary may take their memory while either lives.
//
//===----------------------------------------------------------------------===//
#include "driver/BufferSharing.h"

#include <gtest/gtest.h>

#include <set>


using hlo::abi::BufferBinding;
using hlo::abi::KernelParameter;

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

KernelParameter moduleOutput(int64_t number, int64_t aliases) {
  KernelParameter parameter;
  parameter.binding = BufferBinding::Output;
  parameter.number = number;
  parameter.isOutput = true;
  parameter.bytes = 4096;
  parameter.aliases = aliases;
  return parameter;
}

/// A manifest of kernels launched in order in the entry "main".
hlo::abi::LaunchManifest program(std::vector<std::vector<KernelParameter>> kernels) {
  hlo::abi::LaunchManifest manifest;
  hlo::abi::BufferSpec output;
  output.kind = hlo::abi::BufferSpec::Kind::Output;
  output.name = "out";
  output.computation = "main";
  manifest.buffers.push_back(output);
  for (size_t k = 0; k < kernels.size(); ++k) {
    hlo::abi::KernelSpec kernel;
    kernel.name = "k" + std::to_string(k);
    kernel.parameters = std::move(kernels[k]);
    manifest.kernels.push_back(kernel);
    hlo::abi::ProgramStep step;
    step.kind = hlo::abi::ProgramStep::Kind::Launch;
    step.computation = "main";
    step.launch = static_cast<int64_t>(k);
    manifest.program.push_back(step);
  }
  return manifest;
}

/// The buffers placed in some shared allocation.
std::set<std::string> sharedBuffers(const hlo::abi::LaunchManifest &manifest) {
  std::set<std::string> names;
  for (const hlo::abi::AllocationSpec &allocation : manifest.allocations)
    for (const auto &[name, offset] : allocation.buffers)
      names.insert(name);
  return names;
}

/// Whether `a` and `b` sit in the same allocation.
bool together(const hlo::abi::LaunchManifest &manifest, const std::string &a, const std::string &b) {
  for (const hlo::abi::AllocationSpec &allocation : manifest.allocations) {
    bool hasA = false, hasB = false;
    for (const auto &[name, offset] : allocation.buffers) {
      hasA |= name == a;
      hasB |= name == b;
    }
    if (hasA && hasB)
      return true;
  }
  return false;
}

} // namespace

// Issue 52: r = add(a, a); dus = dynamic-update-slice(r, ...) in place as
// module output 0; m, m3 later temporaries. r is the output's memory.
TEST(BufferSharing, InPlaceModuleOutputKeepsItsOperandOwn) {
  hlo::abi::LaunchManifest manifest = program({
      {buffer("r", /*output=*/true)},
      {buffer("r"), moduleOutput(0, /*aliases=*/0)},
      {buffer("m", true)},
      {buffer("m"), buffer("m2", true)},
      {buffer("m2"), buffer("m3", true)},
      {buffer("m3"), moduleOutput(1, -1)},
  });
  hlo::driver::shareTemporaryBuffers(manifest);
  EXPECT_EQ(sharedBuffers(manifest).count("r"), 0u);
  EXPECT_TRUE(together(manifest, "m", "m3"));
}

// A chain of updates between temporaries: t1, updated in place as t2 (the
// same memory), read at the end. A temporary written between the update
// and the last read of t2 must not take t1's memory, though t1's own name
// is last bound at the update.
TEST(BufferSharing, InPlaceChainIsOneLiveRange) {
  hlo::abi::LaunchManifest manifest = program({
      {buffer("t1", true)},
      {buffer("t1"), buffer("t2", true, /*aliases=*/0)},
      {buffer("x", true)},
      {buffer("x"), buffer("y", true)},
      {buffer("t2"), buffer("y"), moduleOutput(0, -1)},
  });
  hlo::driver::shareTemporaryBuffers(manifest);
  EXPECT_FALSE(together(manifest, "t1", "x"));
  EXPECT_FALSE(together(manifest, "t1", "y"));
  EXPECT_FALSE(together(manifest, "t2", "x"));
  EXPECT_FALSE(together(manifest, "t2", "y"));
}

// Without aliases, temporaries whose lives do not overlap share.
TEST(BufferSharing, DeadTemporariesShare) {
  hlo::abi::LaunchManifest manifest = program({
      {buffer("a", true)},
      {buffer("a"), buffer("b", true)},
      {buffer("b"), buffer("c", true)},
      {buffer("c"), moduleOutput(0, -1)},
  });
  hlo::driver::shareTemporaryBuffers(manifest);
  EXPECT_TRUE(together(manifest, "a", "c"));
  EXPECT_FALSE(together(manifest, "a", "b"));
}
