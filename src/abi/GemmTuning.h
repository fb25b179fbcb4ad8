//===- GemmTuning.h - Tuned GEMM configs, as files and records ---*- C++ -*-===//
//
// Owns what hlo-compile and hlo-run agree on about tuning a GEMM kernel:
// the key that names a GEMM independently of the module it is in (its
// types, sizes and operand layouts), the configuration that decides its
// kernel (tile, K step, warps, stages, warp specialization, persistent
// blocks), and the tuning file that maps one to the other per GPU
// architecture -- which `hlo-run --autotune` writes from timings on a GPU
// and `hlo-compile --gemm-configs` reads. The manifest records each GEMM
// kernel's key and the configuration it was compiled with
// (LaunchManifest.h), so that a tuner knows what it is tuning.
//
// A tuning file is JSON lines: one object per line, blank lines and lines
// starting with `#` ignored:
//
//   {"arch": "sm_90a", "gemm": "bf16,bf16->bf16 m4096 n4096 k4096 a:k b:n",
//    "tile": [128, 256, 64], "warps": 8, "stages": 4,
//    "warp_specialized": true, "persistent": true, "microseconds": 172.5}
//
// (on one line); "microseconds", the time that won, is optional, and so
// is "cluster" (2: thread-block clusters of two blocks; 1 where absent). A later
// line for the same architecture and key replaces an earlier one.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ABI_GEMMTUNING_H
#define HLO_ABI_GEMMTUNING_H

#include "support/ErrorOr.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hlo {
class JsonValue;
} // namespace hlo

namespace hlo::abi {

/// How a GEMM kernel is built: the block's output tile and its K step,
/// its warps (the multiplying ones; a warp-specialized kernel adds a
/// producer warpgroup), the stages of its K loop, and, on Hopper, whether
/// a producer warpgroup issues the loads and whether blocks are persistent.
struct GemmTuning {
  int64_t blockM = 0, blockN = 0, blockK = 0;
  int64_t warps = 0;
  int64_t stages = 1;
  bool warpSpecialized = false;
  bool persistent = false;
  /// Blocks a thread-block cluster (1 or 2, along M, sharing B's tiles by
  /// TMA multicast).
  int64_t cluster = 1;

  bool operator==(const GemmTuning &other) const {
    return blockM == other.blockM && blockN == other.blockN && blockK == other.blockK &&
           warps == other.warps && stages == other.stages &&
           warpSpecialized == other.warpSpecialized && persistent == other.persistent &&
           cluster == other.cluster;
  }
  /// What is wrong with it (non-positive sizes, warps outside 1 to 32,
  /// stages outside 1 to 8, persistent blocks or clusters without warp
  /// specialization, a cluster other than 1 or 2), or empty.
  std::string invalidity() const;
};

/// A GEMM kernel's key and the configuration it is built with (what the
/// manifest records of it).
struct GemmKernel {
  std::string key;
  GemmTuning tuning;
};

/// The tuning of one GEMM on one architecture, with the time it took.
struct GemmTuningEntry {
  std::string arch;
  std::string gemm;
  GemmTuning tuning;
  std::optional<double> microseconds;
};

/// A tuning file's entries, by architecture and GEMM key.
class GemmTuningTable {
public:
  /// Adds or replaces the entry for its architecture and key.
  void insert(GemmTuningEntry entry);
  const GemmTuningEntry *find(const std::string &arch, const std::string &gemm) const;
  size_t size() const { return entries.size(); }
  /// In order of architecture, then key.
  std::vector<const GemmTuningEntry *> sorted() const;

private:
  std::map<std::pair<std::string, std::string>, GemmTuningEntry> entries;
};

/// Reads the tuning file at `path`; an error is "PATH:LINE:COL: message".
ErrorOr<GemmTuningTable> readGemmTuningFile(const std::string &path);
/// Parses a tuning file's text, its errors named by `path`.
ErrorOr<GemmTuningTable> parseGemmTuningFile(const std::string &text, const std::string &path);

/// The line of a tuning file for `entry` (no newline).
std::string gemmTuningLine(const GemmTuningEntry &entry);
/// `tuning`'s members as JSON object members ("tile": [...], ...), for
/// the tuning file and the manifest alike.
std::string gemmTuningMembers(const GemmTuning &tuning);
/// Reads those members from `object`; the error names the member.
ErrorOr<GemmTuning> readGemmTuning(const JsonValue &object);

} // namespace hlo::abi

#endif // HLO_ABI_GEMMTUNING_H
