//===- DeviceInfo.h - The GPU facts the heuristics depend on ----*- C++ -*-===//
//
// Owns GpuDeviceInfo, the description of one target architecture that the
// heuristics and emitters read (Triton's TargetInfoBase is the model): the
// architecture as named (sm_90a stays sm_90a: its `a` features are not
// sm_90's), SM count, warp size, threads per SM, shared memory per block
// without and with opt-in, and the instruction families an emitter may
// choose (mma, wgmma, TMA, cp.async, fp8 conversions). XLA's emitter tests
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

/// The instruction families an emitter may use on an architecture.
struct GpuFeatures {
  /// Warp-level tensor-core MMA (`mma.sync`) with f16 inputs (sm_75), and
  /// with bf16/tf32 inputs (sm_80).
  bool mmaF16 = true;
  bool mmaBf16 = true;
  /// Warpgroup MMA (`wgmma.mma_async`): sm_90a only (the `a` features).
  bool wgmma = false;
  /// The tensor memory accelerator (`cp.async.bulk.tensor`) and thread
  /// block clusters: sm_90 on.
  bool tma = true;
  bool clusters = true;
  /// Asynchronous global-to-shared copies (`cp.async`): sm_80 on.
  bool cpAsync = true;
  /// f8E4M3FN/f8E5M2 conversions in hardware (`cvt ... e4m3x2`): sm_89 on.
  bool fp8Conversions = true;
};

struct GpuDeviceInfo {
  std::string name;
  /// The architecture as named ("sm_90a"), and its compute capability
  /// without the suffix (90).
  std::string arch = "sm_90";
  int computeCapability = 90; // e.g. 90 for sm_90
  /// `a` (architecture-specific) or `f` (family) features were asked for.
  bool archSpecific = false;
  bool familySpecific = false;
  int64_t smCount = 132;
  int64_t warpSize = 32;
  int64_t threadsPerSM = 2048;
  /// Shared memory a block gets statically, and with the opt-in for
  /// dynamic shared memory (cuFuncSetAttribute).
  int64_t sharedMemoryPerBlock = 48 * 1024;
  int64_t sharedMemoryPerBlockOptIn = 227 * 1024;
  /// Registers per thread at most.
  int64_t maxRegistersPerThread = 255;
  GpuFeatures features;
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
