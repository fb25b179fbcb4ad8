//===- EmitCode.cpp - --emit=llvm|ptx|cubin|asm|obj|so --------------------===//
//
// Owns the code generation path of the driver: emission, the pipeline for
// the chosen target, and the launch manifest beside code a runtime can load
// (PTX, cubin, or the host target's shared object).
//
//===----------------------------------------------------------------------===//
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
namespace {

pipeline::OutputKind outputKindFor(const std::string &emit) {
  if (emit == "ptx")
    return pipeline::OutputKind::Ptx;
  if (emit == "cubin")
    return pipeline::OutputKind::Cubin;
  if (emit == "asm")
    return pipeline::OutputKind::Assembly;
  if (emit == "obj")
    return pipeline::OutputKind::Object;
  if (emit == "so")
    return pipeline::OutputKind::SharedObject;
  return pipeline::OutputKind::LlvmIr;
}

/// Code a runtime loads, which the manifest describes.
bool isLoadable(pipeline::OutputKind kind) {
  return kind == pipeline::OutputKind::Ptx || kind == pipeline::OutputKind::Cubin ||
         kind == pipeline::OutputKind::SharedObject;
}

} // namespace

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
  pipelineOptions.target =
      options.target == "host" ? pipeline::TargetKind::Host : pipeline::TargetKind::Nvptx;
  pipelineOptions.gpuArch = options.gpuArch;
  pipelineOptions.optLevel = options.optLevel;
  pipelineOptions.cudaPath = options.cudaPath;
  pipelineOptions.printAfterEachPass = options.printAfterEachPass;
  pipelineOptions.dumpDir = options.dumpDir;
  pipelineOptions.timePasses = options.timePasses;
  pipelineOptions.hostBoundsChecks = options.hostBoundsChecks;
  pipeline::PassDumper dumper(pipelineOptions);
  pipeline::OutputKind kind = outputKindFor(options.emit);

  mlir::MLIRContext context;
  context.disableMultithreading();
  auto emitted = emitModuleFusions(module, *deviceInfoForArch(options.gpuArch),
                                   context, diagnostics);
  if (!emitted)
    return false;
  lap("emission");
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
  // The launch of each kernel, as the lowered module has it.
  std::map<int64_t, KernelLaunch> launches = collectLaunches(*emitted);
  llvm::LLVMContext llvmContext;
  auto llvmModule = pipeline::translateToLlvmIr(*emitted, llvmContext,
                                                pipelineOptions, dumper, error);
  if (!llvmModule) {
    diagnostics.error(kNoOffset, error);
    return false;
  }
  lap(pipelineOptions.target == pipeline::TargetKind::Nvptx ? "LLVM IR + libdevice + opt"
                                                            : "LLVM IR + opt");
  std::optional<std::string> code =
      pipeline::emitOutput(*llvmModule, kind, pipelineOptions, error);
  if (!code) {
    diagnostics.error(kNoOffset, error);
    return false;
  }
  lap(options.emit == "llvm" ? "LLVM IR text"
      : options.emit == "so"  ? "machine code + link"
                              : "machine code");
  if (isLoadable(kind)) {
    // The code file by its name alone: the manifest sits beside it.
    std::string codeFile = options.output.empty() ? "-" : options.output;
    codeFile = codeFile.substr(codeFile.find_last_of('/') + 1);
    manifest = writeManifest(module, launches, options.gpuArch, options.target, codeFile);
  }
  output = std::move(*code);
  return true;
}

} // namespace hlo::driver
