//===- DeviceInfo.h - The GPU facts the heuristics depend on ----*- C++ -*-===//
//
// Owns GpuDeviceInfo: SM count, warp size, threads per SM and shared memory
// per block, for the architectures hlo-compile targets. XLA's emitter tests
// assume an RTX A6000 (sm_86-class, 84 SMs); the default target is sm_90
// (H100 SXM, 132 SMs).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ANALYSIS_DEVICEINFO_H
#define HLO_ANALYSIS_DEVICEINFO_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hlo {

struct GpuDeviceInfo {
  std::string name;
  int computeCapability = 90; // e.g. 90 for sm_90
  int64_t smCount = 132;
  int64_t warpSize = 32;
  int64_t threadsPerSM = 2048;
  int64_t sharedMemoryPerBlock = 48 * 1024;
  int64_t blockDimLimitX = (int64_t(1) << 31) - 1;
  int64_t blockDimLimitYZ = 65535;
};

/// The device XLA's emitter tests assume (RTX A6000: 84 SMs, 1536 threads
/// per SM).
GpuDeviceInfo rtxA6000DeviceInfo();
/// A representative device for `sm_XX[a]` (sm_75 ... sm_120); nullopt for
/// names that are not such an architecture.
std::optional<GpuDeviceInfo> deviceInfoForArch(std::string_view arch);

} // namespace hlo

#endif // HLO_ANALYSIS_DEVICEINFO_H
