//===- EmitCode.cpp - --emit=llvm|ptx|cubin -------------------------------===//
#include "EmitCode.h"
#include "Manifest.h"

#include "analysis/DeviceInfo.h"
#include "emitters/FusionEmitter.h"
#include "pipeline/Pipeline.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <fmt/core.h>

namespace hlo::driver {

bool emitCode(const HloModule &module, const Options &options,
              std::string &output, std::string &manifest,
              DiagnosticEngine &diagnostics) {
  using Clock = std::chrono::steady_clock;
  auto started = Clock::now();
  auto lap = [&](const char *stage) {
    if (!options.timePasses)
      return;
    auto now = Clock::now();
    fmt::print(stderr, "hlo-compile: {:<24} {:8.2f} ms\n", stage,
               std::chrono::duration<double, std::milli>(now - started).count());
    started = now;
  };

  pipeline::PipelineOptions pipelineOptions;
  pipelineOptions.gpuArch = options.gpuArch;
  pipelineOptions.optLevel = options.optLevel;
  pipelineOptions.cudaPath = options.cudaPath;
  pipelineOptions.printAfterEachPass = options.printAfterEachPass;
  pipelineOptions.dumpDir = options.dumpDir;
  pipelineOptions.timePasses = options.timePasses;
  pipeline::PassDumper dumper(pipelineOptions);

  mlir::MLIRContext context;
  context.disableMultithreading();
  auto emitted = emitModuleFusions(module, *deviceInfoForArch(options.gpuArch),
                                   context, diagnostics);
  if (!emitted)
    return false;
  lap("emission");
  std::map<std::string, KernelLaunch> launches = collectLaunches(*emitted);
  if (dumper.enabled()) {
    std::string text;
    llvm::raw_string_ostream stream(text);
    emitted->print(stream);
    dumper.dump("emission", text);
  }
  std::string error;
  if (!pipeline::lowerToLlvmDialect(*emitted, pipelineOptions, dumper, error)) {
    diagnostics.error(kNoOffset, error);
    return false;
  }
  lap("MLIR passes");
  llvm::LLVMContext llvmContext;
  auto llvmModule = pipeline::translateToLlvmIr(*emitted, llvmContext,
                                                pipelineOptions, dumper, error);
  if (!llvmModule) {
    diagnostics.error(kNoOffset, error);
    return false;
  }
  lap("LLVM IR + libdevice + O3");
  if (options.emit == "llvm") {
    llvm::raw_string_ostream stream(output);
    llvmModule->print(stream, nullptr);
    return true;
  }
  std::optional<std::string> ptx =
      pipeline::emitPtx(*llvmModule, pipelineOptions, error);
  if (!ptx) {
    diagnostics.error(kNoOffset, error);
    return false;
  }
  lap("NVPTX");
  // The code file by its name alone: the manifest sits beside it.
  std::string codeFile = options.output.empty() ? "-" : options.output;
  codeFile = codeFile.substr(codeFile.find_last_of('/') + 1);
  manifest = writeManifest(module, launches, options.gpuArch, codeFile);
  if (options.emit == "ptx") {
    output = std::move(*ptx);
    return true;
  }
  std::optional<std::string> cubin =
      pipeline::runPtxas(*ptx, pipelineOptions, error);
  if (!cubin) {
    diagnostics.error(kNoOffset, error);
    return false;
  }
  lap("ptxas");
  output = std::move(*cubin);
  return true;
}

} // namespace hlo::driver
