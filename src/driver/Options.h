//===- Options.h - hlo-compile command-line options -------------*- C++ -*-===//
//
// Owns the command-line surface of hlo-compile (CLI11): what can be asked
// for, its defaults (what to emit and for which target follow from the
// output's extension, as with nvcc's -o x.cubin), the checks on values
// (architectures and PTX versions LLVM's NVPTX target knows), and the exit
// codes.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DRIVER_OPTIONS_H
#define HLO_DRIVER_OPTIONS_H

#include "KernelCache.h"

#include "abi/GemmTuning.h"

#include <memory>
#include <string>
#include <vector>

namespace hlo::driver {

struct Options {
  /// The input of this run (one of `inputs`).
  std::string input = "-";
  /// Every input on the command line; several need --output-dir.
  std::vector<std::string> inputs;
  /// Batch mode: one output (and manifest) per input in this directory.
  std::string outputDir;
  /// Batch mode: inputs compiled at once (-j; 0: the number of cores).
  int jobs = 0;
  std::string output; // empty: stdout for textual emits
  /// What to produce; empty until parsed: the target's default (ptx for
  /// nvptx, so for host).
  std::string emit;
  /// Code generation target: nvptx (PTX/cubin for the GPU) or host (a
  /// shared object that hlo-run launches on the CPU).
  std::string target = "nvptx";
  /// --target=host: check every memory access (on unless
  /// --no-bounds-checks).
  bool hostBoundsChecks = true;
  /// For --emit=indexing: output-to-input or input-to-output.
  std::string indexingDirection = "output-to-input";
  /// Target architecture (sm_75 ... sm_120, with an `a` suffix allowed).
  std::string gpuArch = "sm_90";
  /// The GEMM emitter's tiles for XLA's Triton GEMM fusions: "xla" (their
  /// config's) or "own" (chosen by shape, as for plain dots).
  std::string gemmTiles = "xla";
  std::string gemmWarpSpecialization = "on";
  std::string gemmPersistentTiles = "on";
  std::string gemmTmaStore = "on";
  int64_t gemmCluster = 1;
  /// --gemm-configs: a tuning file (abi/GemmTuning.h) whose configs the
  /// GEMM kernels it names take, read once here.
  std::string gemmConfigsPath;
  std::shared_ptr<const abi::GemmTuningTable> gemmConfigs;
  /// --plant-bug (hidden): a known bug planted for the tests of the checks.
  std::string plantedBug;
  /// The HLO optimization pipeline (src/hlo_opt): auto (on unoptimized
  /// modules), on, off.
  std::string hloOpt = "auto";
  /// --hlo-pass: only these HLO passes, in order (implies --hlo-opt=on).
  std::vector<std::string> hloPasses;
  /// Whether -arch/--gpu-arch was given; if not, an input XLA dumped says
  /// its own (gpuArchForInput).
  bool gpuArchGiven = false;
  bool verify = true;
  /// -w: drop warnings; -Werror: make them errors.
  bool noWarnings = false;
  bool warningsAsErrors = false;
  /// -Wno-library-calls: no warning per library call.
  bool libraryCallWarnings = true;
  /// Code generation (--emit=llvm|ptx|cubin).
  int optLevel = 3;
  std::string cudaPath; // --cuda-path, else CUDA_HOME, else /usr/local/cuda
  bool printAfterEachPass = false;
  std::string dumpDir;
  bool timePasses = false;
  /// --verify-each: the MLIR verifier after every pass.
  bool verifyEachPass = false;
  /// --ptx-version: the PTX ISA to write ("8.4"); empty: the newest.
  std::string ptxVersion;
  /// -lineinfo: PTX line tables mapping the code back to the HLO file.
  bool lineInfo = false;
  /// --resource-usage: ptxas -v's figures per kernel, on stderr.
  bool resourceUsage = false;
  /// The kernel cache (KernelCache.h): --cache-dir, --no-cache,
  /// --cache-max-size; -v says what it did.
  std::string cacheDir;
  bool noCache = false;
  std::string cacheMaxSize;
  bool verbose = false;
  /// Shared by the inputs of a batch; made once the options are parsed
  /// (PTX and cubin outputs only).
  std::shared_ptr<KernelCache> kernelCache;
  /// --keep-going: after errors in some kernels, still write the code of
  /// the others (the manifest lists what failed); the exit code stays 1.
  bool keepGoing = false;
  /// --inject-codegen-failure (hidden, for tests): make this kernel fail
  /// in the MLIR pipeline, after emission.
  std::string injectCodegenFailure;
  /// --kernel: compile only these kernels (fusion names); empty: all.
  std::vector<std::string> kernels;
  /// --manifest: where the launch manifest goes (default: beside -o, its
  /// name with .json added; none when writing to stdout).
  std::string manifestPath;
};

/// The file extension of what --emit=`emit` writes (".ptx", ".ll", ...;
/// ".txt" for the textual reports).
std::string extensionForEmit(const std::string &emit);

/// Every --emit value the tool knows.
const std::vector<std::string> &knownEmitKinds();

/// Whether --emit=`emit` runs the code generation pipeline (llvm, ptx,
/// cubin, asm, obj, so).
bool isCodeEmitKind(const std::string &emit);

/// The architecture to compile `input` for: --gpu-arch if given, else the
/// one XLA's dump file name says (module_1.f.sm_9.0a_gpu_after_optimizations.txt:
/// sm_90a) when LLVM's NVPTX target has it, else the default.
std::string gpuArchForInput(const Options &options, const std::string &input);

/// The threads -j asks for (default: the machine's cores).
unsigned jobThreads(const Options &options);

/// Exit codes of hlo-compile.
inline constexpr int kExitSuccess = 0;
/// An error in the input or in compiling it (reported as file:line:col).
inline constexpr int kExitError = 1;
/// A usage error: unknown or malformed options, values out of range,
/// options that contradict each other.
inline constexpr int kExitUsage = 2;

/// Parses argv. Returns -1 to continue, else the exit code (e.g. after
/// --help, or a usage error, which has been printed).
int parseOptions(int argc, char **argv, Options &options);

} // namespace hlo::driver

#endif // HLO_DRIVER_OPTIONS_H
