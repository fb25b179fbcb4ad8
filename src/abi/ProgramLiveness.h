//===- ProgramLiveness.h - When a module program's buffers are used -*- C++ -*-===//
//
// Owns the one account of when each buffer of a manifest's program is in
// use, which the compiler plans memory by (driver/BufferPlan) and hlo-run
// checks that plan against (checkMemoryPlan), so that the two agree on
// what "live at the same time" means.
//
// Time is the program run once, flattened: the entry's steps in order,
// each while loop's condition then body in its place (run once: a value
// of the body lives only within the body's span, and a value live across
// the loop covers the whole span, so that every iteration is covered), a
// conditional's branches one after another (only one runs), a call's
// callee. A loop takes a tick before its condition (its initial state
// copied in) and one after its body (the body's results copied into the
// state); a conditional one before its branches, one at the start of each
// branch (its operands copied into the branch's parameters) and one at its
// end (its results copied out). A computation reached twice is walked
// twice, and its buffers' uses are the union.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ABI_PROGRAMLIVENESS_H
#define HLO_ABI_PROGRAMLIVENESS_H

#include "abi/LaunchManifest.h"
#include "support/ErrorOr.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace hlo::abi {

/// The name a binding has in the memory plan: a named buffer's ("name",
/// "name#leaf", "name#scratchN"), or "<output N>", "<parameter N>" (no
/// HLO name has '<' or a space).
std::string planName(const KernelParameter &binding);

/// The computation the module's parameters and outputs belong to.
std::string entryComputation(const LaunchManifest &manifest);

struct ProgramLiveness {
  /// Per plan name, the ticks it is used at (sorted, unique).
  std::map<std::string, std::vector<int64_t>> uses;
  /// The first tick after the program.
  int64_t end = 0;
  /// Per program step (an index into manifest.program), where it ran: its
  /// first and last tick, and the spans of its nested computations (While:
  /// {condition, body}; Conditional: the branches, each from its copy-in
  /// tick to its copy-out tick). Steps never reached: begin = -1.
  struct StepTicks {
    int64_t begin = -1, end = -1;
    std::vector<std::pair<int64_t, int64_t>> spans;
    /// Reached more than once (its computation is called from two
    /// places): its buffers' uses are the union of the visits.
    bool repeated = false;
  };
  std::vector<StepTicks> steps;
  /// How many times each computation was walked.
  std::map<std::string, int64_t> walks;
  /// Whether `computation` was walked exactly once.
  bool walkedOnce(const std::string &computation) const {
    auto found = walks.find(computation);
    return found != walks.end() && found->second == 1;
  }

  /// The first and last tick `name` is used at; {-1, -1} if never.
  std::pair<int64_t, int64_t> life(const std::string &name) const;
  /// Whether `name` is used at a tick in [from, to).
  bool usedWithin(const std::string &name, int64_t from, int64_t to) const;
};

/// Walks the manifest's program from its entry. Module outputs stay live
/// to the end and parameters from the start; bindings of kernels that no
/// reached step launches are live throughout.
ProgramLiveness programLiveness(const LaunchManifest &manifest);

/// Refuses a memory plan (`manifest.allocations`) in which two placed
/// buffers overlap in memory while both are live, a name is placed twice,
/// or a buffer runs past its allocation. The failure names both buffers
/// and their ticks.
Status checkMemoryPlan(const LaunchManifest &manifest, const ProgramLiveness &liveness);

/// The bytes the plan allocates: its allocations, and beside them the
/// module's parameters (their allocations among them) and constants.
struct PlanBytes {
  int64_t parameters = 0, constants = 0, allocations = 0;
  int64_t total() const { return parameters + constants + allocations; }
};
PlanBytes planBytes(const LaunchManifest &manifest);

} // namespace hlo::abi

#endif // HLO_ABI_PROGRAMLIVENESS_H
