//===- DeviceInfo.cpp - The GPU facts the heuristics depend on ------------===//
#include "analysis/DeviceInfo.h"

#include <charconv>

namespace hlo {

GpuDeviceInfo rtxA6000DeviceInfo() {
  GpuDeviceInfo info;
  info.name = "RTX A6000";
  info.computeCapability = 86;
  info.smCount = 84;
  info.threadsPerSM = 1536;
  return info;
}

std::optional<GpuDeviceInfo> deviceInfoForArch(std::string_view arch) {
  if (arch.substr(0, 3) != "sm_")
    return std::nullopt;
  std::string_view digits = arch.substr(3);
  if (!digits.empty() && (digits.back() == 'a' || digits.back() == 'f'))
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
  info.computeCapability = capability;
  return info;
}

} // namespace hlo
