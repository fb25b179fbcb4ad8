//===- CompilerRuntime.cpp - Helpers LLVM calls that libgcc 12 lacks ------===//
//
// Owns the compiler-runtime functions that host kernels may call and this
// host's libgcc (GCC 12, Debian 12) does not have: LLVM's x86 back end
// rounds f32 to bf16 through `__truncsfbf2` where it keeps a value in
// bfloat (GCC 13's libgcc defines it). hlo-run exports them
// (HostRuntime.dynlist), like the launcher's own interface.
//
//===----------------------------------------------------------------------===//
#include <cstdint>
#include <cstring>

extern "C" {

/// f32 -> bf16, rounded to nearest even, NaN kept quiet; the bf16 comes
/// back in the low 16 bits of xmm0 (where a float is returned).
float __truncsfbf2(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  uint32_t rounded;
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    rounded = (bits >> 16) | 0x40u; // quiet NaN
  else
    rounded = (bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16;
  uint32_t result = rounded & 0xffffu;
  float out;
  std::memcpy(&out, &result, sizeof out);
  return out;
}

} // extern "C"
