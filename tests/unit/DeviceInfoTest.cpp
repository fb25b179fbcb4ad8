//===- DeviceInfoTest.cpp - One description per target architecture ------===//
//
// GpuDeviceInfo keeps the architecture as named (sm_90a is not sm_90: only
// it has wgmma), and the figures and features an emitter chooses by.
//
//===----------------------------------------------------------------------===//
#include "analysis/DeviceInfo.h"

#include <gtest/gtest.h>

using namespace hlo;

TEST(DeviceInfo, KeepsTheArchitectureSpecificSuffix) {
  GpuDeviceInfo sm90 = deviceInfoForArch("sm_90").value();
  GpuDeviceInfo sm90a = deviceInfoForArch("sm_90a").value();
  EXPECT_EQ(sm90.arch, "sm_90");
  EXPECT_EQ(sm90a.arch, "sm_90a");
  EXPECT_EQ(sm90a.computeCapability, 90);
  EXPECT_FALSE(sm90.archSpecific);
  EXPECT_TRUE(sm90a.archSpecific);
  EXPECT_FALSE(sm90.features.wgmma);
  EXPECT_TRUE(sm90a.features.wgmma);
  // The rest is sm_90's.
  EXPECT_EQ(sm90a.smCount, sm90.smCount);
  EXPECT_TRUE(sm90a.features.tma);
  EXPECT_FALSE(deviceInfoForArch("sm_100a").value().features.wgmma);
  EXPECT_TRUE(deviceInfoForArch("sm_100f").value().familySpecific);
}

TEST(DeviceInfo, FeaturesFollowTheComputeCapability) {
  GpuDeviceInfo sm75 = deviceInfoForArch("sm_75").value();
  EXPECT_TRUE(sm75.features.mmaF16);
  EXPECT_FALSE(sm75.features.mmaBf16);
  EXPECT_FALSE(sm75.features.cpAsync);
  EXPECT_FALSE(sm75.features.tma);
  GpuDeviceInfo sm80 = deviceInfoForArch("sm_80").value();
  EXPECT_TRUE(sm80.features.mmaBf16);
  EXPECT_TRUE(sm80.features.cpAsync);
  EXPECT_FALSE(sm80.features.fp8Conversions);
  EXPECT_TRUE(deviceInfoForArch("sm_89").value().features.fp8Conversions);
  EXPECT_FALSE(deviceInfoForArch("sm_89").value().features.tma);
  EXPECT_FALSE(rtxA6000DeviceInfo().features.tma);
}

TEST(DeviceInfo, SharedMemoryWithAndWithoutOptIn) {
  for (const char *arch : {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90a", "sm_100", "sm_120"})
    EXPECT_EQ(deviceInfoForArch(arch).value().sharedMemoryPerBlock, 48 * 1024) << arch;
  EXPECT_EQ(deviceInfoForArch("sm_75").value().sharedMemoryPerBlockOptIn, 64 * 1024);
  EXPECT_EQ(deviceInfoForArch("sm_80").value().sharedMemoryPerBlockOptIn, 163 * 1024);
  EXPECT_EQ(deviceInfoForArch("sm_86").value().sharedMemoryPerBlockOptIn, 99 * 1024);
  EXPECT_EQ(deviceInfoForArch("sm_87").value().sharedMemoryPerBlockOptIn, 163 * 1024);
  EXPECT_EQ(deviceInfoForArch("sm_89").value().sharedMemoryPerBlockOptIn, 99 * 1024);
  EXPECT_EQ(deviceInfoForArch("sm_90").value().sharedMemoryPerBlockOptIn, 227 * 1024);
  EXPECT_EQ(deviceInfoForArch("sm_120").value().sharedMemoryPerBlockOptIn, 99 * 1024);
}

TEST(DeviceInfo, RejectsWhatIsNotAnArchitecture) {
  EXPECT_FALSE(deviceInfoForArch("sm_90b"));
  EXPECT_FALSE(deviceInfoForArch("compute_90"));
  EXPECT_FALSE(deviceInfoForArch("sm_70"));
  EXPECT_FALSE(deviceInfoForArch("sm_"));
}
