//===- RegisterPool.cpp - setmaxnreg's registers of one block -------------===//
#include "host/RegisterPool.h"

#include <string>

namespace hlo::runtime {
namespace {

constexpr uint64_t kThreadsPerWarpgroup = 128;

} // namespace

void RegisterPool::reset(size_t warpgroups, uint32_t registersPerThread) {
  counts.assign(warpgroups, registersPerThread);
  launched = registersPerThread;
  pool = 0;
}

ErrorOr<bool> RegisterPool::request(size_t warpgroup, uint32_t count, bool increase) {
  const char *name = increase ? "setmaxnreg.inc" : "setmaxnreg.dec";
  if (launched == 0)
    return Status::failure(
        std::string("ran ") + name +
        ", but the kernel has no register bound (the manifest's max_registers): the "
        "registers it launched with are unknown");
  if (count < 24 || count > 256 || count % 8 != 0)
    return Status::failure(std::string("ran ") + name + " to " + std::to_string(count) +
                                  " registers: a multiple of 8 from 24 to 256, says the PTX ISA");
  uint32_t &current = counts.at(warpgroup);
  if (increase ? count < current : count > current)
    return Status::failure(std::string("ran ") + name + " to " + std::to_string(count) +
                                  " registers from the warpgroup's " + std::to_string(current) +
                                  (increase ? ": .inc may not lower them"
                                            : ": .dec may not raise them"));
  uint64_t delta = uint64_t(increase ? count - current : current - count) * kThreadsPerWarpgroup;
  if (increase) {
    if (delta > pool)
      return false; // waits until other warpgroups give back enough
    pool -= delta;
  } else {
    pool += delta;
  }
  current = count;
  return true;
}

} // namespace hlo::runtime
