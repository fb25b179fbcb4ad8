//===- Options.cpp - hlo-compile command-line options ---------------------===//
#include "Options.h"

#include "analysis/DeviceInfo.h"

#include <CLI/CLI.hpp>

namespace hlo::driver {

const std::vector<std::string> &knownEmitKinds() {
  static const std::vector<std::string> kinds = {
      "hlo", "indexing", "fusion-analysis", "mlir", "llvm", "ptx", "cubin"};
  return kinds;
}

const std::vector<std::string> &implementedEmitKinds() {
  static const std::vector<std::string> kinds = {"hlo", "indexing",
                                                 "fusion-analysis", "mlir"};
  return kinds;
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
  app.add_option("--emit", options.emit, emitHelp)
      ->check(CLI::IsMember(knownEmitKinds()));
  app.add_option("--indexing", options.indexingDirection,
                 "Direction of the maps printed by --emit=indexing")
      ->check(CLI::IsMember({"output-to-input", "input-to-output"}));
  app.add_option("--gpu-arch", options.gpuArch,
                 "Target GPU architecture, sm_75 ... sm_120 (default sm_90)")
      ->check([](const std::string &arch) {
        return hlo::deviceInfoForArch(arch)
                   ? std::string()
                   : "expected an architecture sm_75 ... sm_120, not '" +
                         arch + "'";
      });
  app.add_flag("!--no-verify", options.verify,
               "Skip the HLO verifier (shape rules)");
  app.add_flag("-w", options.noWarnings, "Suppress all warnings");
  std::string warningMode;
  app.add_option("-W", warningMode, "-Werror: treat warnings as errors")
      ->check(CLI::IsMember({"error"}));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return app.exit(e);
  }
  options.warningsAsErrors = warningMode == "error";
  return -1;
}

} // namespace hlo::driver
