//===- GemmAutotune.h - hlo-run --autotune: GEMM configs by timing -*- C++ -*-===//
//
// Owns `hlo-run M.hlo --manifest M.json --autotune TUNED.jsonl`: for each
// GEMM kernel of the manifest (its "gemm" record: key and configuration),
// the candidate configurations of its architecture, each compiled by
// hlo-compile (--kernel, --gemm-configs with that one line) and timed by
// hlo-run itself (--time-only), every candidate in its own processes so
// that one that faults or hangs costs only its own time; the fastest is
// then checked against the interpreter (the next one if it fails) and
// written to the tuning file (merged with what it holds), which
// `hlo-compile --gemm-configs` reads. On a GPU the times are the device's;
// on the host (kernels compiled with --target=host) the same procedure
// runs, its times the CPU's: a test of the machinery, not of speed.
//
// The two halves can run on two machines, as the GPU machines here have
// no LLVM to run hlo-compile: `--autotune-prepare DIR` compiles the
// candidates into DIR (the module, each candidate's code and manifest,
// candidates.tsv), and `hlo-run DIR/module.hlo --autotune FILE
// --autotune-candidates DIR` times and checks them where the GPU is.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_GEMMAUTOTUNE_H
#define HLO_RUNTIME_GEMMAUTOTUNE_H

#include "ManifestTypes.h"
#include "RunOptions.h"

#include "abi/GemmCostModel.h"
#include "abi/GemmTuning.h"

#include <optional>
#include <string>
#include <vector>

namespace hlo::runtime {

/// What a GEMM key (abi/GemmTuning.h) says of its GEMM.
struct GemmKeyFields {
  std::string typeA;
  int64_t elementBytes = 0, outputBytes = 0;
  int64_t batch = 1, m = 0, n = 0, k = 0;
  /// As the cost model takes it.
  abi::GemmProblem problem() const;
};
std::optional<GemmKeyFields> parseGemmKey(const std::string &key);

/// The configurations worth timing for `gemm` on `arch`: `current` first,
/// then, on sm_90a for wgmma's types, tiles of 64 or 128 rows by 64 to
/// 256 columns on one warpgroup per 64 rows, a K step of 128 bytes, 3 or
/// 4 stages, with and without warp specialization and persistent blocks;
/// elsewhere mma.sync tiles of 64 or 128 by 64 or 128, K steps of 64 and
/// 128 bytes, 2 to 4 stages. Tiles far past the GEMM's M or N are left
/// out; the rest in the order of the cost model's estimates (fastest
/// first: abi/GemmCostModel.h), at most `limit` in all.
std::vector<abi::GemmTuning> gemmTuningCandidates(const std::string &arch,
                                                  const GemmKeyFields &gemm,
                                                  const abi::GemmTuning &current, size_t limit);

/// `hlo-run --autotune` and `--autotune-prepare` (`manifest`: the one
/// given, null where the candidates are prepared already): the exit code.
int runGemmAutotune(const RunOptions &options, const LaunchManifest *manifest);

} // namespace hlo::runtime

#endif // HLO_RUNTIME_GEMMAUTOTUNE_H
