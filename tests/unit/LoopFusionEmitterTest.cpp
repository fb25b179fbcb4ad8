//===- LoopFusionEmitterTest.cpp - Launch figures of the loop emitter -----===//
#include "emitters/LoopFusionEmitter.h"
#include "hlo_parser/Parser.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace hlo;

namespace {

std::unique_ptr<HloModule> parse(const std::string &text) {
  auto [module, errors] = parseHloModuleText(text, "test.hlo");
  EXPECT_NE(module, nullptr) << errors;
  return std::move(module);
}

/// The loop emitter of a bare fused computation.
std::unique_ptr<LoopFusionEmitter>
loopFusionEmitter(const HloComputation &fused, const GpuDeviceInfo &device) {
  return std::make_unique<LoopFusionEmitter>(
      analyzeFusion(fused, nullptr, device), fused, device);
}

} // namespace

TEST(LoopFusionEmitter, UnrollsLargeFusionsByFour) {
  auto module = parse("fused {\n p = bf16[6,512,4096] parameter(0)\n"
                      " ROOT e = bf16[6,512,4096] exponential(p)\n}\n");
  auto loop =
      loopFusionEmitter(*module->entry(), deviceInfoForArch("sm_90").value());
  EXPECT_EQ(loop->unrollFactor(), 4);
  EXPECT_EQ(loop->launchDimensions().threads[0], 128);
  EXPECT_EQ(loop->launchDimensions().blocks[0], 24576);
  mlir::MLIRContext context;
  EXPECT_EQ(loop->outputIndexingForDims({6, 512, 4096}, &context).toString(),
            "(th_x, bl_x)[vector_index] -> (bl_x floordiv 4096, (bl_x floordiv "
            "8) mod 512, th_x * 4 + vector_index + (bl_x mod 8) * 512),\n"
            "domain:\nth_x in [0, 127],\nbl_x in [0, 24575],\n"
            "vector_index in [0, 3]");
}

TEST(LoopFusionEmitter, SmallFusionsUseOneElementPerThreadAndBoundTheTail) {
  auto module = parse("fused {\n p = f32[100] parameter(0)\n"
                      " ROOT e = f32[100] exponential(p)\n}\n");
  auto loop =
      loopFusionEmitter(*module->entry(), deviceInfoForArch("sm_90").value());
  EXPECT_EQ(loop->unrollFactor(), 1);
  EXPECT_EQ(loop->launchDimensions().threads[0], 100);
  EXPECT_EQ(loop->launchDimensions().blocks[0], 1);
  auto big = parse("fused {\n p = f32[1000] parameter(0)\n"
                   " ROOT e = f32[1000] exponential(p)\n}\n");
  auto tail =
      loopFusionEmitter(*big->entry(), deviceInfoForArch("sm_90").value());
  mlir::MLIRContext context;
  std::string map = tail->outputIndexingForDims({1000}, &context).toString();
  EXPECT_NE(map.find("bl_x * 128 + th_x in [0, 999]"), std::string::npos) << map;
}

TEST(LoopFusionEmitter, ExpensiveOpsPreventUnrolling) {
  auto module = parse(
      "add {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
      " ROOT s = f32[] add(a, b)\n}\n"
      "fused {\n p = f32[1024,1024] parameter(0)\n q = f32[1024,1024] parameter(1)\n"
      " ROOT d = f32[1024,1024] dot(p, q), lhs_contracting_dims={1}, "
      "rhs_contracting_dims={0}\n}\n");
  auto loop =
      loopFusionEmitter(*module->entry(), deviceInfoForArch("sm_90").value());
  EXPECT_EQ(loop->unrollFactor(), 1);
}

TEST(LoopFusionEmitter, SplitsTheGridPastTheBlockLimit) {
  auto module = parse("fused {\n p = f32[5000] parameter(0)\n"
                      " ROOT e = f32[5000] exponential(p)\n}\n");
  GpuDeviceInfo device = deviceInfoForArch("sm_90").value();
  device.blockDimLimitX = 16; // 40 blocks of 128 threads needed
  auto loop = loopFusionEmitter(*module->entry(), device);
  // Spread evenly over 3 rows, as XLA does: 14 x 3, not 16 + 16 + 8.
  EXPECT_EQ(loop->launchDimensions().blocks[0], 14);
  EXPECT_EQ(loop->launchDimensions().blocks[1], 3);
  mlir::MLIRContext context;
  std::string map = loop->outputIndexingForDims({5000}, &context).toString();
  EXPECT_NE(map.find("(th_x, bl_x, bl_y)[vector_index] -> (bl_y * 1792 + "
                     "bl_x * 128 + th_x)"),
            std::string::npos)
      << map;
  EXPECT_NE(map.find("bl_y * 1792 + bl_x * 128 + th_x in [0, 4999]"),
            std::string::npos)
      << map;
}

// Past the y limit too, the grid becomes x * y * z; every output element is
// still written by exactly one (thread, block, vector index) of the domain.
TEST(LoopFusionEmitter, SplitsTheGridIntoThreeDimensionsPastTheYLimit) {
  auto module = parse("fused {\n p = f32[7,1000] parameter(0)\n"
                      " ROOT e = f32[7,1000] exponential(p)\n}\n");
  GpuDeviceInfo device = deviceInfoForArch("sm_90").value();
  device.blockDimLimitX = 4; // 55 blocks of 128 threads needed
  device.blockDimLimitYZ = 3;
  auto loop = loopFusionEmitter(*module->entry(), device);
  const auto &launch = loop->launchDimensions();
  EXPECT_EQ(launch.blocks[0], 4);
  EXPECT_EQ(launch.blocks[1], 3);
  EXPECT_EQ(launch.blocks[2], 5);
  mlir::MLIRContext context;
  IndexingMap map = loop->outputIndexingForDims({7, 1000}, &context);
  std::vector<int> written(7 * 1000, 0);
  int64_t unroll = loop->unrollFactor();
  for (int64_t z = 0; z < launch.blocks[2]; ++z)
    for (int64_t y = 0; y < launch.blocks[1]; ++y)
      for (int64_t x = 0; x < launch.blocks[0]; ++x)
        for (int64_t t = 0; t < launch.threads[0]; ++t)
          for (int64_t v = 0; v < unroll; ++v) {
            if (!map.isInDomain({t, x, y, z}, {v}))
              continue;
            std::vector<int64_t> index = map.evaluate({t, x, y, z}, {v});
            ASSERT_GE(index[0], 0);
            ASSERT_LT(index[0], 7);
            ASSERT_GE(index[1], 0);
            ASSERT_LT(index[1], 1000);
            ++written[index[0] * 1000 + index[1]];
          }
  for (size_t i = 0; i < written.size(); ++i)
    ASSERT_EQ(written[i], 1) << "element " << i;
}
