//===- DeviceInfo.cpp - The GPU facts the heuristics depend on ------------===//
#include "analysis/DeviceInfo.h"

#include <charconv>

namespace hlo {

GpuDeviceInfo rtxA6000DeviceInfo() {
  GpuDeviceInfo info;
  info.name = "RTX A6000";
  info.arch = "sm_86";
  info.computeCapability = 86;
  info.smCount = 84;
  info.threadsPerSM = 1536;
  info.sharedMemoryPerBlockOptIn = 99 * 1024;
  info.features.tma = info.features.clusters = false;
  info.features.fp8Conversions = false;
  return info;
}

std::optional<GpuDeviceInfo> deviceInfoForArch(std::string_view arch) {
  if (arch.substr(0, 3) != "sm_")
    return std::nullopt;
  std::string_view digits = arch.substr(3);
  char suffix = !digits.empty() && (digits.back() == 'a' || digits.back() == 'f')
                    ? digits.back()
                    : '\0';
  if (suffix)
    digits.remove_suffix(1);
  int capability = 0;
  auto result =
      std::from_chars(digits.data(), digits.data() + digits.size(), capability);
  if (result.ec != std::errc() || result.ptr != digits.data() + digits.size() ||
      capability < 75 || capability > 121)
    return std::nullopt;
  GpuDeviceInfo info;
  info.computeCapability = capability;
  // One representative part per architecture.
  if (capability >= 100) {
    info.name = "B200";
    info.smCount = 148;
  } else if (capability >= 90) {
    info.name = "H100 SXM";
    info.smCount = 132;
  } else if (capability >= 89) {
    info.name = "L40S";
    info.smCount = 142;
    info.threadsPerSM = 1536;
  } else if (capability >= 86) {
    info = rtxA6000DeviceInfo();
  } else if (capability >= 80) {
    info.name = "A100";
    info.smCount = 108;
  } else {
    info.name = "T4";
    info.smCount = 40;
    info.threadsPerSM = 1024;
  }
  info.arch = std::string(arch);
  info.computeCapability = capability;
  info.archSpecific = suffix == 'a';
  info.familySpecific = suffix == 'f';
  // Shared memory per block with the opt-in (the CUDA programming guide's
  // table of compute capabilities).
  // (sm_89, like sm_86 and sm_120, has 99 KiB; sm_80 and sm_87 163.)
  info.sharedMemoryPerBlockOptIn = capability >= 120                      ? 99 * 1024
                                   : capability >= 90                     ? 227 * 1024
                                   : capability == 86 || capability == 89 ? 99 * 1024
                                   : capability >= 80                     ? 163 * 1024
                                                                          : 64 * 1024;
  info.features.mmaF16 = true;
  info.features.mmaBf16 = capability >= 80;
  info.features.cpAsync = capability >= 80;
  info.features.fp8Conversions = capability >= 89;
  info.features.tma = info.features.clusters = capability >= 90;
  // wgmma is an sm_90a feature: neither sm_90 nor sm_100 has it.
  info.features.wgmma = capability == 90 && info.archSpecific;
  return info;
}

} // namespace hlo
