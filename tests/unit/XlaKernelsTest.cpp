//===- XlaKernelsTest.cpp - XLA's kernels bound to our buffers ------------===//
//
// hlo-run --xla-kernels: the dump's kernel table, the parameters a PTX
// entry declares, and XLA's launch of a fusion over our kernel's buffers
// (XlaKernels.h).
//
//===----------------------------------------------------------------------===//
#include "runtime/XlaKernels.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace hlo;
using namespace hlo::runtime;

namespace {

const char *kPtx = R"(.version 8.0
.target sm_90a
.address_size 64
.visible .entry helper(
	.param .u64 .ptr .align 16 helper_param_0
)
{ ret; }
.visible .entry loop_add_fusion(
	.param .u64 .ptr .align 256 loop_add_fusion_param_0,
	.param .u64 .ptr .align 16 loop_add_fusion_param_1,
	.param .u64 loop_add_fusion_param_2
)
{ ret; }
)";

KernelParameter buffer(bool isOutput, BufferBinding binding = BufferBinding::Buffer) {
  KernelParameter parameter;
  parameter.isOutput = isOutput;
  parameter.binding = binding;
  parameter.bytes = 64;
  return parameter;
}

std::string writeDump(const std::string &tsv) {
  std::string dir = testing::TempDir() + "/xla-kernels-test-" +
                    testing::UnitTest::GetInstance()->current_test_info()->name();
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/xla_kernels.tsv") << tsv;
  return dir;
}

} // namespace

TEST(XlaKernelsTest, EntryParametersInOrderWithAlignments) {
  ErrorOr<std::vector<int64_t>> parameters = ptxEntryParameters(kPtx, "loop_add_fusion");
  ASSERT_TRUE(parameters.ok()) << parameters.error();
  EXPECT_EQ(*parameters, (std::vector<int64_t>{256, 16, 1}));
  ErrorOr<std::vector<int64_t>> helper = ptxEntryParameters(kPtx, "helper");
  ASSERT_TRUE(helper.ok());
  EXPECT_EQ(helper->size(), 1u);
  EXPECT_FALSE(ptxEntryParameters(kPtx, "loop_add").ok());
}

TEST(XlaKernelsTest, LaunchIsOursWithXlasShapeAndNoScratch) {
  KernelSpec ours;
  ours.name = "ours";
  ours.hloInstruction = "add.1";
  ours.grid = {7, 1, 1};
  ours.block = {64, 1, 1};
  ours.dynamicSharedMemoryBytes = 1024;
  ours.cluster = std::array<unsigned, 3>{2, 1, 1};
  ours.parameters = {buffer(false), buffer(false), buffer(true),
                     buffer(true, BufferBinding::Scratch)};
  ours.parameters[1].tensorMap = hlo::abi::TensorMapSpec{};
  XlaKernel xla;
  xla.name = "loop_add_fusion";
  xla.hloInstruction = "add.1";
  xla.grid = {96, 1, 1};
  xla.block = {128, 1, 1};
  xla.dynamicSharedMemoryBytes = 32;
  std::vector<size_t> kept;
  ErrorOr<KernelSpec> spec = xlaLaunchSpec(ours, xla, {256, 16, 256}, kept);
  ASSERT_TRUE(spec.ok()) << spec.error();
  EXPECT_EQ(spec->name, "loop_add_fusion");
  EXPECT_EQ(spec->grid[0], 96u);
  EXPECT_EQ(spec->block[0], 128u);
  EXPECT_EQ(spec->dynamicSharedMemoryBytes, 32u);
  EXPECT_FALSE(spec->cluster.has_value());
  ASSERT_EQ(spec->parameters.size(), 3u);
  EXPECT_EQ(kept, (std::vector<size_t>{0, 1, 2}));
  EXPECT_FALSE(spec->parameters[1].tensorMap.has_value());
  EXPECT_EQ(spec->parameters[0].alignment, 256);
  EXPECT_TRUE(spec->parameters[2].isOutput);
  // A PTX that declares another count is refused, not launched.
  ErrorOr<KernelSpec> wrong = xlaLaunchSpec(ours, xla, {256, 256}, kept);
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.error().find("declares 2 parameters"), std::string::npos) << wrong.error();
}

TEST(XlaKernelsTest, TableByFusionWithoutAmbiguousOnes) {
  std::string dir = writeDump(
      "kernel\thlo\tthunk\tgrid\tblock\tdyn_smem\tarch\tregisters\tsmem\tptx_file\n"
      "loop_add_fusion\tadd.1\tkCustomKernel\t96,1,1\t128,1,1\t32\tsm_90a\t16\t0\t"
      "xla_ptx/loop_add_fusion.ptx\n"
      "sort_1\tsort.3\tkCustomKernel\t1,1,1\t256,1,1\t0\tsm_90a\t16\t0\txla_ptx/sort_1.ptx\n"
      "sort_2\tsort.3\tkCustomKernel\t1,1,1\t256,1,1\t0\tsm_90a\t16\t0\txla_ptx/sort_2.ptx\n"
      "sort_9\t\tkCustomKernel\t1,1,1\t256,1,1\t0\tsm_90a\t16\t0\txla_ptx/sort_9.ptx\n");
  ErrorOr<XlaKernelTable> table = XlaKernelTable::read(dir);
  ASSERT_TRUE(table.ok()) << table.error();
  EXPECT_EQ(table->size(), 1u);
  const XlaKernel *add = table->find("add.1");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->name, "loop_add_fusion");
  EXPECT_EQ(add->grid[0], 96u);
  EXPECT_EQ(add->dynamicSharedMemoryBytes, 32u);
  EXPECT_EQ(add->registers, 16);
  EXPECT_EQ(add->ptxPath, dir + "/xla_ptx/loop_add_fusion.ptx");
  EXPECT_EQ(add->cubinPath, "");
  // Two kernels of one fusion (a sort's passes) bind to nothing.
  EXPECT_EQ(table->find("sort.3"), nullptr);
}

TEST(XlaKernelsTest, CubinBesideThePtx) {
  std::string dir = writeDump("kernel\thlo\tgrid\tblock\tdyn_smem\tptx_file\tcubin_file\n"
                              "k\tf\t1,1,1\t128,1,1\t0\txla_ptx/k.ptx\t/abs/k.cubin\n");
  ErrorOr<XlaKernelTable> table = XlaKernelTable::read(dir);
  ASSERT_TRUE(table.ok()) << table.error();
  ASSERT_NE(table->find("f"), nullptr);
  EXPECT_EQ(table->find("f")->cubinPath, "/abs/k.cubin");
  EXPECT_EQ(table->find("f")->ptxPath, dir + "/xla_ptx/k.ptx");
}

TEST(XlaKernelsTest, MalformedTablesAreErrors) {
  EXPECT_FALSE(XlaKernelTable::read(testing::TempDir() + "/no-such-dump").ok());
  std::string missingColumn = writeDump("kernel\thlo\tgrid\n");
  EXPECT_FALSE(XlaKernelTable::read(missingColumn).ok());
}

TEST(XlaKernelsTest, MalformedLaunchIsAnError) {
  std::string dir = writeDump("kernel\thlo\tgrid\tblock\tdyn_smem\tptx_file\n"
                              "k\tf\t0,1,1\t128,1,1\t0\tk.ptx\n");
  ErrorOr<XlaKernelTable> table = XlaKernelTable::read(dir);
  ASSERT_FALSE(table.ok());
  EXPECT_NE(table.error().find(":2: grid and block"), std::string::npos) << table.error();
}
