//===- StageTimer.h - --time-passes for the whole run -----------*- C++ -*-===//
//
// Owns the stage lines of --time-passes: each stage of the run (reading,
// parsing, verifying, emission, the MLIR passes, LLVM, machine code,
// ptxas or the linker, writing) as it ends, named by what ran, then the
// total from the process's start (loading the LLVM and MLIR libraries
// included), so that the lines add up to the wall time. MLIR's own
// per-pass report comes in between.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DRIVER_STAGETIMER_H
#define HLO_DRIVER_STAGETIMER_H

#include <chrono>
#include <string>

namespace hlo::driver {

class StageTimer {
public:
  explicit StageTimer(bool enabled);
  /// Ends the current stage, named `stage`, and prints its time.
  void lap(const std::string &stage);
  /// Prints the total since the process started.
  void finish();

private:
  using Clock = std::chrono::steady_clock;
  bool enabled;
  Clock::time_point started;
  /// Before main: starting the process, loading the shared libraries.
  double startupMs = 0;
  double stagesMs = 0;
};

} // namespace hlo::driver

#endif // HLO_DRIVER_STAGETIMER_H
