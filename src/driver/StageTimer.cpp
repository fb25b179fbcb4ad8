//===- StageTimer.cpp - --time-passes for the whole run -------------------===//
#include "StageTimer.h"

#include <fmt/core.h>

#include <ctime>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace hlo::driver {
namespace {

/// Milliseconds since this process started (/proc/self/stat's start time,
/// in clock ticks since boot, against CLOCK_BOOTTIME); 0 where unknown.
double millisecondsSinceProcessStart() {
  std::ifstream stat("/proc/self/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  size_t close = text.rfind(')'); // the command name may hold spaces
  if (close == std::string::npos)
    return 0;
  std::istringstream fields(text.substr(close + 2));
  std::string field;
  // Fields after the name start at 3 (state); the start time is field 22.
  for (int i = 3; i <= 22 && fields >> field; ++i)
    if (i == 22) {
      long ticksPerSecond = sysconf(_SC_CLK_TCK);
      timespec now;
      if (ticksPerSecond <= 0 || clock_gettime(CLOCK_BOOTTIME, &now) != 0)
        return 0;
      double startMs = std::stod(field) * 1000.0 / ticksPerSecond;
      double nowMs = now.tv_sec * 1000.0 + now.tv_nsec / 1e6;
      return std::max(0.0, nowMs - startMs);
    }
  return 0;
}

} // namespace

StageTimer::StageTimer(bool enabled) : enabled(enabled), started(Clock::now()) {
  if (enabled)
    startupMs = millisecondsSinceProcessStart();
}

void StageTimer::lap(const std::string &stage) {
  auto now = Clock::now();
  double ms = std::chrono::duration<double, std::milli>(now - started).count();
  started = now;
  stagesMs += ms;
  if (enabled)
    fmt::print(stderr, "hlo-compile: {:<32} {:9.2f} ms\n", stage, ms);
}

void StageTimer::finish() {
  if (!enabled)
    return;
  fmt::print(stderr, "hlo-compile: {:<32} {:9.2f} ms (10 ms resolution)\n",
             "process start, loading libraries", startupMs);
  fmt::print(stderr, "hlo-compile: {:<32} {:9.2f} ms\n", "total", startupMs + stagesMs);
}

} // namespace hlo::driver
