//===- Options.cpp - hlo-compile command-line options ---------------------===//
#include "Options.h"

#include "hlo_opt/OptimizeModule.h"

#include "XlaDumpInputs.h"

#include "pipeline/Pipeline.h"
#include "pipeline/nvptx/NvptxArchitectures.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <thread>

namespace hlo::driver {

const std::vector<std::string> &knownEmitKinds() {
  static const std::vector<std::string> kinds = {
      "hlo", "indexing", "fusion-analysis", "mlir", "llvm",
      "ptx", "cubin",     // --target=nvptx
      "asm", "obj", "so"}; // --target=host
  return kinds;
}

bool isCodeEmitKind(const std::string &emit) {
  return emit == "llvm" || emit == "ptx" || emit == "cubin" || emit == "asm" ||
         emit == "obj" || emit == "so";
}

namespace {

int usageError(const std::string &message) {
  std::fprintf(stderr, "hlo-compile: error: %s\n", message.c_str());
  return kExitUsage;
}

std::string join(const std::vector<std::string> &values) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + values[i];
  return text;
}

/// The extension of FILE (".ptx"), or "" for none.
std::string extensionOf(const std::string &output) {
  size_t slash = output.find_last_of('/');
  size_t dot = output.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash) ||
      dot + 1 == output.size())
    return "";
  return output.substr(dot);
}

/// What -o FILE's extension asks for, as nvcc and clang read it.
std::string emitForExtension(const std::string &output) {
  static const std::map<std::string, std::string> kEmitOf = {
      {".ptx", "ptx"}, {".cubin", "cubin"}, {".ll", "llvm"}, {".mlir", "mlir"},
      {".hlo", "hlo"}, {".so", "so"},       {".o", "obj"},   {".s", "asm"}};
  size_t slash = output.find_last_of('/');
  size_t dot = output.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
    return "";
  auto found = kEmitOf.find(output.substr(dot));
  return found == kEmitOf.end() ? "" : found->second;
}

} // namespace

std::string extensionForEmit(const std::string &emit) {
  static const std::map<std::string, std::string> kExtensionOf = {
      {"ptx", ".ptx"}, {"cubin", ".cubin"}, {"llvm", ".ll"}, {"mlir", ".mlir"},
      {"hlo", ".hlo"}, {"so", ".so"},       {"obj", ".o"},   {"asm", ".s"}};
  auto found = kExtensionOf.find(emit);
  return found == kExtensionOf.end() ? ".txt" : found->second;
}

namespace {

bool isHostOnlyEmit(const std::string &emit) {
  return emit == "asm" || emit == "obj" || emit == "so";
}

} // namespace

unsigned jobThreads(const Options &options) {
  return options.jobs > 0 ? static_cast<unsigned>(options.jobs)
                          : std::max(1u, std::thread::hardware_concurrency());
}

std::string gpuArchForInput(const Options &options, const std::string &input) {
  if (options.gpuArchGiven)
    return options.gpuArch;
  std::optional<XlaDumpFileName> dumped =
      parseXlaDumpFileName(llvm::sys::path::filename(input).str());
  if (!dumped || dumped->gpuArch.empty())
    return options.gpuArch;
  std::vector<std::string> architectures = pipeline::nvptxArchitectures();
  if (std::find(architectures.begin(), architectures.end(), dumped->gpuArch) ==
      architectures.end())
    return options.gpuArch;
  return dumped->gpuArch;
}

int parseOptions(int argc, char **argv, Options &options) {
  CLI::App app{"hlo-compile: compile XLA HLO text to PTX and cubin for "
               "NVIDIA GPUs",
               "hlo-compile"};
  app.set_version_flag("--version",
                       std::string("hlo-compile ") + HLO_COMPILE_VERSION +
                           " (LLVM " + HLO_LLVM_VERSION + ")");
  app.add_option("input", options.inputs,
                 "HLO text file ('-' = stdin), or a folder XLA dumped to (--xla_dump_to): "
                 "its modules after optimizations; several with --output-dir")
      ->required();
  app.add_option("--output-dir", options.outputDir,
                 "Batch mode: compile every input, in parallel, to DIR/<input name>.<ext> "
                 "(the extension of --emit; its manifest: that name with .json added), one summary line "
                 "per input; exit 1 if any failed");
  app.add_option("-j,--jobs", options.jobs,
                 "Threads (default: the number of cores): in batch mode, the inputs "
                 "compiled at once; else the parts of a large module's kernels compiled at "
                 "once to PTX (the output is the same with any -j)")
      ->check(CLI::PositiveNumber);
  app.add_option("-o,--output", options.output,
                 "Output file ('-' = stdout; default: stdout); its extension (.ptx, "
                 ".cubin, .ll, .mlir, .hlo, .so, .o, .s) chooses --emit and, for host "
                 "outputs, --target when they are not given");
  std::string emitHelp = "What to produce:";
  for (const std::string &kind : knownEmitKinds())
    emitHelp += " " + kind;
  app.add_option("--emit", options.emit,
                 emitHelp + " (default: ptx for --target=nvptx, so for --target=host)")
      ->check(CLI::IsMember(knownEmitKinds()));
  app.add_option("--target", options.target,
                 "Code generation target: nvptx (PTX and cubin for the GPU; default) or "
                 "host (this CPU: a shared object of the same kernels, which hlo-run "
                 "launches without a GPU)")
      ->check(CLI::IsMember({"nvptx", "host"}));
  app.add_flag("!--no-bounds-checks", options.hostBoundsChecks,
               "--target=host: do not check memory accesses against their buffers "
               "(faster; out-of-bounds accesses are then not reported)");
  app.add_option("--indexing", options.indexingDirection,
                 "Direction of the maps printed by --emit=indexing")
      ->check(CLI::IsMember({"output-to-input", "input-to-output"}));
  std::vector<std::string> architectures = pipeline::nvptxArchitectures();
  app.add_option("--gpu-arch", options.gpuArch,
                 "Target GPU architecture (default sm_90; also -arch): " +
                     join(architectures));
  app.add_option("--hlo-opt", options.hloOpt,
                 "The HLO optimization and fusion pipeline: auto (default: on modules "
                 "without fusions named as JAX or PyTorch/XLA name their programs, jit_*, "
                 "pmap_*, SyncTensorsGraph*, IrToHlo*), on, off (compile the module as it "
                 "stands)")
      ->check(CLI::IsMember({"auto", "on", "off"}));
  app.add_option("--hlo-pass", options.hloPasses,
                 "Run only this HLO pass (repeatable, in order; implies --hlo-opt=on): " +
                     join(opt::pipelinePassNames()))
      ->check(CLI::IsMember(opt::pipelinePassNames()));
  app.add_option("--gemm-tiles", options.gemmTiles,
                 "Tiles of XLA's Triton GEMM fusions: xla (their config's tile, warps and "
                 "stages; default) or own (the GEMM emitter's, by the dot's shape, as for "
                 "plain dots)")
      ->check(CLI::IsMember({"xla", "own"}));
  app.add_option("--gemm-warp-specialization", options.gemmWarpSpecialization,
                 "Hopper GEMM kernels whose operands both load by TMA: on (a producer "
                 "warpgroup issues the loads, the others multiply, through full and empty "
                 "mbarriers; default) or off (every warpgroup multiplies, one thread "
                 "loads)")
      ->check(CLI::IsMember({"on", "off"}));
  app.add_option("--gemm-persistent-tiles", options.gemmPersistentTiles,
                 "Warp-specialized GEMM kernels with the large tile: on (a block an SM, "
                 "each taking output tile after tile, the next tile's loads beside the "
                 "last's epilogue; default) or off (a block a tile)")
      ->check(CLI::IsMember({"on", "off"}));
  app.add_option("--gemm-tma-store", options.gemmTmaStore,
                 "Warp-specialized GEMM kernels with a bf16 or f16 [M, N] output: on "
                 "(each warp writes its output through shared memory, stmatrix, then "
                 "TMA stores; default) or off (each thread stores its values)")
      ->check(CLI::IsMember({"on", "off"}));
  app.add_option("--gemm-cluster", options.gemmCluster,
                 "Warp-specialized GEMM kernels on sm_90a: 1 (a block alone; default) or "
                 "2 (thread-block clusters of two blocks computing vertically adjacent "
                 "tiles, each loading half of their shared B tile by TMA multicast into "
                 "both)")
      ->check(CLI::IsMember({1, 2}));
  app.add_option("--gemm-configs", options.gemmConfigsPath,
                 "A GEMM tuning file (JSON lines, as hlo-run --autotune writes): each GEMM "
                 "kernel whose architecture and key (the manifest's \"gemm\" \"key\") it "
                 "names takes its tile, K step, warps, stages, warp specialization, "
                 "persistent blocks and cluster, over XLA's config and the emitter's own")
      ->check(CLI::ExistingFile);
  // For the tests that show a check catches a real bug: hidden.
  app.add_option("--plant-bug", options.plantedBug,
                 "Plant a known bug on purpose (tests of the checks only)")
      ->check(CLI::IsMember({"wgmma-copy-early", "wgmma-no-final-wait", "tma-wrong-parity",
                             "tma-no-final-wait", "ws-no-empty-wait", "ws-early-release",
                             "setmaxnreg-overask", "persistent-phase-reset",
                             "tf32x3-no-rest", "tma-store-early-reuse",
                             "tma-store-no-final-wait", "cluster-no-peer-release",
                             "cluster-no-init-sync", "cluster-no-final-sync"}))
      ->group("");
  std::vector<std::string> versions = pipeline::ptxVersions();
  app.add_option("--ptx-version", options.ptxVersion,
                 "PTX ISA version to write, for older drivers (default: the newest both "
                 "LLVM and the toolkit's ptxas take): " +
                     join(versions));
  app.add_flag("--lineinfo,--generate-line-info", options.lineInfo,
               "PTX line tables (.file/.loc) mapping the code to the HLO file, as "
               "nvcc's -lineinfo (also -lineinfo)");
  app.add_option("--kernel", options.kernels,
                 "Compile only this kernel: its instruction's name as the HLO writes it "
                 "(input_concatenate_fusion.1) or as its symbol in the PTX, the manifest "
                 "and XLA's kernel lists (input_concatenate_fusion_1); repeat or separate "
                 "with commas for several")
      ->delimiter(',')
      ->allow_extra_args(false); // one value an occurrence: the input stays the input
  // For the tests of failures after emission (driver/LateKernelFailures.h);
  // not in --help.
  app.add_option("--inject-codegen-failure", options.injectCodegenFailure)->group("");
  app.add_flag("-k,--keep-going", options.keepGoing,
               "When kernels fail to compile, report them and still write the code of "
               "the others; the manifest lists each failure (\"failed\") and where it "
               "runs in the program; the exit code is still 1");
  app.add_flag("--resource-usage", options.resourceUsage,
               "After --emit=ptx or cubin: print each kernel's registers, spills, stack, "
               "shared memory and barriers as ptxas reports them (-v) to stderr");
  app.add_flag("!--no-verify", options.verify,
               "Skip the HLO verifier (shape rules)");
  app.add_flag("-w", options.noWarnings, "Suppress all warnings");
  std::string optLevel = "3";
  app.add_option("-O", optLevel, "LLVM optimization level: -O0 ... -O3 (default -O3)")
      ->check(CLI::IsMember({"0", "1", "2", "3"}));
  app.add_option("--cuda-path", options.cudaPath,
                 "CUDA toolkit for libdevice and ptxas (default: $CUDA_HOME, "
                 "else /usr/local/cuda)");
  app.add_flag("--verify-each", options.verifyEachPass,
               "Verify the IR after every MLIR pass, to find the pass that breaks it "
               "(default: before and after the pipeline; the tests verify after each)");
  app.add_flag("--v", options.printAfterEachPass,
               "Print the IR after every pass (MLIR and LLVM) to stderr");
  app.add_option("--dump-dir", options.dumpDir,
                 "Write the IR after every pass to numbered files in this directory");
  app.add_option("--cache-dir", options.cacheDir,
                 "The kernel cache: each distinct kernel's PTX (and what the HLO pipeline "
                 "made of an unoptimized input), kept across compiles and shared by "
                 "processes (default: $HLO_COMPILE_CACHE, else "
                 "$XDG_CACHE_HOME/hlo-compile, else ~/.cache/hlo-compile); --v, --dump-dir, "
                 "-lineinfo and host outputs do not use it");
  app.add_flag("--no-cache", options.noCache,
               "Use no kernel cache on disk (as HLO_COMPILE_CACHE=off); the output is the same");
  app.add_option("--cache-max-size", options.cacheMaxSize,
                 "The kernel cache's size cap (default 2G; K, M, G suffixes): past it, the "
                 "least recently used kernels go");
  app.add_flag("-v,--verbose", options.verbose,
               "Say what the kernel cache did: kernels found, compiled (and where it is)");
  app.add_flag("--time-passes", options.timePasses,
               "Print the time of every pass and stage to stderr");
  app.add_option("--manifest", options.manifestPath,
                 "Launch manifest (JSON) for ptx, cubin and so (default: beside a -o "
                 "file, its name with .json added: gelu.ptx.json; none for stdout)");
  std::vector<std::string> warningModes;
  app.add_option("-W", warningModes,
                 "-Werror: treat warnings as errors; -Wno-library-calls: no warning for each "
                 "instruction that runs as a library call (the count per kind remains)")
      ->check(CLI::IsMember({"error", "no-library-calls"}))
      ->allow_extra_args(false);
  // nvcc/clang spell the architecture `-arch sm_90` or `-arch=sm_90`, and
  // line tables `-lineinfo`; CLI11 has no multi-letter single-dash
  // options, so rewrite them.
  std::vector<std::string> arguments;
  for (int i = argc - 1; i >= 1; --i) {
    std::string argument = argv[i];
    if (argument == "-arch")
      argument = "--gpu-arch";
    else if (argument.rfind("-arch=", 0) == 0)
      argument = "--gpu-arch=" + argument.substr(6);
    else if (argument == "-lineinfo")
      argument = "--lineinfo";
    arguments.push_back(argument); // CLI11 takes them last first
  }
  try {
    app.parse(arguments);
  } catch (const CLI::ParseError &e) {
    // --help and --version exit 0; anything else is a usage error.
    int code = app.exit(e);
    return code == 0 ? kExitSuccess : kExitUsage;
  }
  auto mode = [&](const char *name) {
    return std::find(warningModes.begin(), warningModes.end(), name) != warningModes.end();
  };
  options.warningsAsErrors = mode("error");
  options.libraryCallWarnings = !mode("no-library-calls");
  options.gpuArchGiven = app.count("--gpu-arch") > 0;
  // Folders XLA dumped to stand for their modules after optimizations.
  std::vector<std::string> folders;
  for (const std::string &input : options.inputs)
    if (input != "-" && llvm::sys::fs::is_directory(input))
      folders.push_back(input);
  llvm::Expected<std::vector<std::string>> expanded = expandInputFolders(options.inputs);
  if (!expanded) {
    std::fprintf(stderr, "hlo-compile: error: %s\n", llvm::toString(expanded.takeError()).c_str());
    return kExitError;
  }
  options.inputs = std::move(*expanded);
  options.input = options.inputs.front();
  if (options.inputs.size() > 1 && options.outputDir.empty()) {
    if (folders.empty())
      return usageError("several inputs need --output-dir DIR (one output per input there)");
    std::string names;
    for (const std::string &input : options.inputs) {
      std::string file = llvm::sys::path::filename(input).str();
      std::optional<XlaDumpFileName> dumped = parseXlaDumpFileName(file);
      names += (names.empty() ? "" : ", ") + (dumped ? dumped->moduleName : file);
    }
    return usageError(std::string(folders.size() == 1 ? "'" + folders.front() + "' holds"
                                                      : "the folders hold") +
                      " " + std::to_string(options.inputs.size()) +
                      " modules after optimizations (" + names +
                      "): compile them with --output-dir DIR (one output each, named after "
                      "its module), or name one of the files");
  }
  if (options.inputs.size() == 1)
    options.gpuArch = gpuArchForInput(options, options.input);
  if (!options.outputDir.empty()) {
    if (app.count("--output") || app.count("--manifest"))
      return usageError("--output-dir names every output and manifest: -o and --manifest "
                        "are for one input");
    if (std::find(options.inputs.begin(), options.inputs.end(), "-") != options.inputs.end())
      return usageError("--output-dir compiles files; stdin ('-') is for one input");
    if (options.printAfterEachPass || !options.dumpDir.empty() || options.timePasses ||
        options.resourceUsage)
      return usageError("--v, --dump-dir, --time-passes and --resource-usage report on one "
                        "input: compile it alone");
  }
  if (std::find(architectures.begin(), architectures.end(), options.gpuArch) ==
      architectures.end())
    return usageError("unsupported GPU architecture '" + options.gpuArch +
                      "'; hlo-compile compiles for those of LLVM's NVPTX target from sm_75 "
                      "on: " + join(architectures));
  if (!options.ptxVersion.empty()) {
    if (std::find(versions.begin(), versions.end(), options.ptxVersion) == versions.end())
      return usageError("unknown PTX ISA version '" + options.ptxVersion +
                        "'; LLVM's NVPTX target writes: " + join(versions));
    std::string minimum = pipeline::minimumPtxVersion(options.gpuArch);
    auto number = [](const std::string &version) { return std::stod(version); };
    if (!minimum.empty() && number(options.ptxVersion) < number(minimum))
      return usageError("PTX ISA " + options.ptxVersion + " has no " + options.gpuArch +
                        "; it needs PTX ISA " + minimum + " or newer");
  }
  // What to emit, and for which target, from -o's extension unless given.
  std::string emitOfOutput = emitForExtension(options.output);
  if (!app.count("--emit"))
    options.emit = emitOfOutput;
  if (!app.count("--target") && isHostOnlyEmit(options.emit))
    options.target = "host";
  if (options.emit.empty())
    options.emit = options.target == "host" ? "so" : "ptx";
  bool hostOnly = isHostOnlyEmit(options.emit);
  bool nvptxOnly = options.emit == "ptx" || options.emit == "cubin";
  if ((hostOnly && options.target != "host") || (nvptxOnly && options.target != "nvptx"))
    return usageError("--emit=" + options.emit + " needs --target=" +
                      (hostOnly ? "host" : "nvptx") +
                      " (--target=nvptx writes llvm, ptx or cubin; --target=host writes llvm, "
                      "asm, obj or so)");
  // An -o name whose extension says another kind of file than is written
  // (--emit=ptx -o x.so; -o x.txt, which writes PTX): said, not silent.
  std::string named = extensionOf(options.output);
  if (!options.noWarnings && !options.output.empty() && options.output != "-" &&
      options.emit != "hlo" && !named.empty()) {
    std::string written = extensionForEmit(options.emit);
    if (!emitOfOutput.empty() && emitOfOutput != options.emit)
      std::cerr << "hlo-compile: warning: -o " << options.output << ": " << named
                << " is the extension of --emit=" << emitOfOutput << ", but --emit="
                << options.emit << " is written (name it " << written << ")\n";
    else if (emitOfOutput.empty() && named != written)
      std::cerr << "hlo-compile: warning: -o " << options.output << ": " << named
                << " is no extension hlo-compile knows; --emit=" << options.emit
                << " is written (" << written << ")\n";
  }
  if (options.resourceUsage && !nvptxOnly)
    return usageError("--resource-usage reports what ptxas made of the PTX: it needs "
                      "--emit=ptx or --emit=cubin (--target=nvptx)");
  options.optLevel = std::stoi(optLevel);
  if (!options.gemmConfigsPath.empty()) {
    ErrorOr<abi::GemmTuningTable> table = abi::readGemmTuningFile(options.gemmConfigsPath);
    if (!table) {
      std::cerr << table.error() << "\n";
      return 1;
    }
    options.gemmConfigs = std::make_shared<const abi::GemmTuningTable>(std::move(*table));
  }
  uint64_t cacheBytes = KernelCache::kDefaultMaxBytes;
  if (!options.cacheMaxSize.empty()) {
    std::optional<uint64_t> bytes = KernelCache::parseSize(options.cacheMaxSize);
    if (!bytes)
      return usageError("--cache-max-size '" + options.cacheMaxSize +
                        "' is no size (bytes, or with a K, M or G suffix: 512M)");
    cacheBytes = *bytes;
  }
  if (nvptxOnly)
    options.kernelCache = std::make_shared<KernelCache>(
        KernelCache::chooseDirectory(options.cacheDir, options.noCache), cacheBytes);
  if (options.cudaPath.empty()) {
    const char *home = std::getenv("CUDA_HOME");
    options.cudaPath = home && *home ? home : "/usr/local/cuda";
  }
  // PTX must suit the toolkit's ptxas too (when there is one); every ptxas
  // since CUDA 12.0 takes these, so they need no probe.
  static const std::vector<std::string> kEveryPtxas = {"sm_75", "sm_80", "sm_86", "sm_87",
                                                       "sm_89", "sm_90", "sm_90a"};
  if (nvptxOnly && std::find(kEveryPtxas.begin(), kEveryPtxas.end(), options.gpuArch) ==
                       kEveryPtxas.end()) {
    std::vector<std::string> ptxas = pipeline::ptxasArchitectures(options.cudaPath);
    if (!ptxas.empty() && std::find(ptxas.begin(), ptxas.end(), options.gpuArch) == ptxas.end())
      return usageError("the toolkit's ptxas (" + options.cudaPath + "/bin/ptxas) does not take " +
                        options.gpuArch + "; it takes: " + join(ptxas));
  }
  return -1;
}

} // namespace hlo::driver
