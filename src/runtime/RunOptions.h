//===- RunOptions.h - hlo-run's command line, parsed -----------*- C++ -*-===//
//
// Owns what main.cpp parses out of hlo-run's command line and hands to the
// two commands, and the process exit codes they return.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_RUNOPTIONS_H
#define HLO_RUNTIME_RUNOPTIONS_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace hlo::runtime {

enum class CheckMode { Auto, Module, Kernels, Replay };

struct RunOptions {
  std::string hloPath;
  /// Module mode: the module whose interpreter run gives the expected
  /// outputs, where it is not the compiled one (the unoptimized module
  /// hlo-compile's HLO pipeline started from: the oracle of the program,
  /// not of its fused form). Same entry parameters and results.
  std::string referencePath;
  bool interpretOnly = false;
  /// Constants of the module elided in its text (`{...}`) whose values the
  /// parser made up (FillElidedLiteral.h): outputs are then checked only
  /// as far as their values are finite (reportComparison).
  int64_t filledConstants = 0;
  std::string manifestPath;
  std::string codePath; ///< default: the manifest's "code", beside it
  /// Module parameter number -> .npy file.
  std::map<int64_t, std::string> inputFiles;
  std::string outputDir; ///< --interpret: output_i.npy
  /// --interpret: compare output i with DIR/output_i.npy (another
  /// reference, e.g. XLA's CPU backend).
  std::string expectDir;
  std::string saveDir;   ///< GPU run: inputs and GPU outputs as .npy
  std::string reportPath; ///< GPU run: TSV rows appended, one per kernel
  /// An XLA dump directory (xla_kernels.tsv, xla_ptx/): XLA's kernel for
  /// each fusion runs beside ours on the same inputs (XlaKernels.h).
  std::string xlaKernelsDir;
  uint64_t seed = 42;
  std::optional<double> absoluteTolerance, relativeTolerance;
  CheckMode mode = CheckMode::Auto;
  bool bench = false;
  /// Give outputs that alias an input a buffer of their own (poisoned):
  /// shows that an in-place kernel writes only what it updates.
  bool noAliasing = false;
  /// Module mode: every temporary in its own buffer, whatever allocations
  /// the manifest shares (a check that sharing changes no result).
  bool noBufferSharing = false;
  /// --bench: launches before timing, and timed; -1: the device's default
  /// (a GPU 10 and 100, the host 1 and 5: host kernels take 10-1000x longer).
  int warmup = -1;
  int iterations = -1;
  int device = 0;
  /// Host kernels: host threads the blocks are spread over (0: one per
  /// hardware thread).
  unsigned hostThreads = 0;
  int64_t maxWhileIterations = 10'000'000;
  int64_t maxElements = int64_t(1) << 26;
  /// Kernels whose reference needs an array over maxElements are skipped
  /// with a note (module mode falls back to checking kernel by kernel).
  bool skipOversized = false;
  /// Run every kernel on its generated inputs without the reference
  /// interpreter, checking nothing: a dry run of the launches (the CUDA
  /// stand-in computes nothing to check).
  bool launchOnly = false;
  /// --bench without the reference: every kernel runs and is timed on its
  /// generated inputs (seeded, as a check's), nothing is evaluated or
  /// compared (kernels mode: a GPU run's timing pass over modules whose
  /// reference would take the interpreter minutes).
  bool timeOnly = false;
  /// --autotune FILE: tune the manifest's GEMM kernels into this tuning
  /// file (GemmAutotune.h), with this hlo-compile (default: the one beside
  /// hlo-run), at most `autotuneLimit` candidates a GEMM, each compile or
  /// run given `autotuneTimeout` seconds.
  std::string autotunePath;
  /// --autotune-prepare DIR: compile the candidates into DIR (and stop
  /// there without --autotune); --autotune-candidates DIR: time those of
  /// DIR instead of compiling any.
  std::string autotunePrepare, autotuneCandidates;
  std::string hloCompilePath;
  size_t autotuneLimit = 40;
  double autotuneTimeout = 300;
};

/// Exit codes.
inline constexpr int kExitPass = 0;
inline constexpr int kExitMismatch = 1;
inline constexpr int kExitError = 2;
inline constexpr int kExitNoGpu = 3;
/// --skip-oversized skipped every kernel: nothing was checked.
inline constexpr int kExitSkipped = 4;

} // namespace hlo::runtime

#endif // HLO_RUNTIME_RUNOPTIONS_H
