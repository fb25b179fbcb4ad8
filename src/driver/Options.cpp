//===- Options.cpp - hlo-compile command-line options ---------------------===//
#include "Options.h"

#include "analysis/DeviceInfo.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>

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

std::string manifestPathFor(const Options &options) {
  if (!options.manifestPath.empty())
    return options.manifestPath;
  if (options.output.empty() || options.output == "-")
    return "";
  std::string path = options.output;
  size_t slash = path.find_last_of('/');
  size_t dot = path.find_last_of('.');
  if (dot != std::string::npos && (slash == std::string::npos || dot > slash))
    path.erase(dot);
  return path + ".json";
}

int parseOptions(int argc, char **argv, Options &options) {
  CLI::App app{"hlo-compile: compile XLA HLO text to PTX and cubin for "
               "NVIDIA GPUs",
               "hlo-compile"};
  app.set_version_flag("--version",
                       std::string("hlo-compile ") + HLO_COMPILE_VERSION +
                           " (LLVM " + HLO_LLVM_VERSION + ")");
  app.add_option("input", options.input, "HLO text file ('-' = stdin)")
      ->required();
  app.add_option("-o,--output", options.output,
                 "Output file ('-' = stdout; default: stdout)");
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
  app.add_option("--gpu-arch", options.gpuArch,
                 "Target GPU architecture, sm_75 ... sm_120 (default sm_90; "
                 "also -arch)")
      ->check([](const std::string &arch) {
        return hlo::deviceInfoForArch(arch)
                   ? std::string()
                   : "expected an architecture sm_75 ... sm_120, not '" +
                         arch + "'";
      });
  app.add_flag("!--no-verify", options.verify,
               "Skip the HLO verifier (shape rules)");
  app.add_flag("-w", options.noWarnings, "Suppress all warnings");
  std::string optLevel = "3";
  app.add_option("-O", optLevel, "LLVM optimization level: -O0 ... -O3 (default -O3)")
      ->check(CLI::IsMember({"0", "1", "2", "3"}));
  app.add_option("--cuda-path", options.cudaPath,
                 "CUDA toolkit for libdevice and ptxas (default: $CUDA_HOME, "
                 "else /usr/local/cuda)");
  app.add_flag("--v", options.printAfterEachPass,
               "Print the IR after every pass (MLIR and LLVM) to stderr");
  app.add_option("--dump-dir", options.dumpDir,
                 "Write the IR after every pass to numbered files in this directory");
  app.add_flag("--time-passes", options.timePasses,
               "Print the time of every pass and stage to stderr");
  app.add_option("--manifest", options.manifestPath,
                 "Launch manifest (JSON) path for ptx/cubin (default: the "
                 "output with extension .json)");
  std::string warningMode;
  app.add_option("-W", warningMode, "-Werror: treat warnings as errors")
      ->check(CLI::IsMember({"error"}));
  // nvcc/clang spell the architecture `-arch sm_90` or `-arch=sm_90`;
  // CLI11 has no multi-letter single-dash options, so rewrite it.
  std::vector<std::string> arguments;
  for (int i = argc - 1; i >= 1; --i) {
    std::string argument = argv[i];
    if (argument == "-arch")
      argument = "--gpu-arch";
    else if (argument.rfind("-arch=", 0) == 0)
      argument = "--gpu-arch=" + argument.substr(6);
    arguments.push_back(argument); // CLI11 takes them last first
  }
  try {
    app.parse(arguments);
  } catch (const CLI::ParseError &e) {
    return app.exit(e);
  }
  options.warningsAsErrors = warningMode == "error";
  if (options.emit.empty())
    options.emit = options.target == "host" ? "so" : "ptx";
  bool hostOnly = options.emit == "asm" || options.emit == "obj" || options.emit == "so";
  bool nvptxOnly = options.emit == "ptx" || options.emit == "cubin";
  if ((hostOnly && options.target != "host") || (nvptxOnly && options.target != "nvptx")) {
    std::fprintf(stderr,
                 "hlo-compile: error: --emit=%s needs --target=%s (--target=nvptx writes "
                 "llvm, ptx or cubin; --target=host writes llvm, asm, obj or so)\n",
                 options.emit.c_str(), hostOnly ? "host" : "nvptx");
    return 1;
  }
  options.optLevel = std::stoi(optLevel);
  if (options.cudaPath.empty()) {
    const char *home = std::getenv("CUDA_HOME");
    options.cudaPath = home && *home ? home : "/usr/local/cuda";
  }
  return -1;
}

} // namespace hlo::driver
