//===- EmitCode.cpp - --emit=llvm|ptx|cubin|asm|obj|so --------------------===//
//
// Owns the code generation path of the driver: emission, the pipeline for
// the chosen target, and the launch manifest beside code a runtime can load
// (PTX, cubin, or the host target's shared object).
//
//===----------------------------------------------------------------------===//
#include "EmitCode.h"
#include "Manifest.h"
#include "ModuleProgram.h"

#include "analysis/DeviceInfo.h"
#include "emitters/FusionEmitter.h"
#include "pipeline/Pipeline.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>
#include <fmt/core.h>

namespace hlo::driver {
namespace {

/// What runs outside the generated code: a warning per library call (not
/// with -Wno-library-calls), a one-line count per kind after them, and a
/// plain warning when nothing at all is generated.
void reportLibraryCalls(const KernelPlan &plan, const Options &options,
                        DiagnosticEngine &diagnostics) {
  const std::vector<const HloInstruction *> &calls = plan.notEmitted();
  if (calls.empty())
    return;
  std::map<std::string, int> kinds;
  for (const HloInstruction *call : calls) {
    std::string kind = libraryTarget(*call);
    ++kinds[kind];
    if (options.libraryCallWarnings)
      diagnostics.warning(call->sourceOffset(),
                          "no kernel emitted for " + std::string(opcodeName(call->opcode())) +
                              " '" + call->name() + "' (" + kind +
                              "): it runs as a library call or runtime operation, "
                              "outside generated code");
  }
  std::string counts;
  for (const auto &[kind, count] : kinds)
    counts += (counts.empty() ? "" : ", ") + std::to_string(count) + " " + kind;
  std::string summary = std::to_string(calls.size()) + " library call" +
                        (calls.size() == 1 ? "" : "s") + ": " + counts;
  if (plan.kernels().empty())
    diagnostics.warning(kNoOffset, "no kernel was generated: everything this module computes "
                                   "runs as library calls (" + summary +
                                   "), which hlo-compile does not generate code for; the "
                                   "output holds no kernel");
  else if (options.libraryCallWarnings && !options.noWarnings)
    diagnostics.note(kNoOffset, summary);
}

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

std::string formatResourceUsage(const std::vector<pipeline::KernelResourceUsage> &kernels,
                                const std::string &arch) {
  size_t width = 6;
  for (const auto &kernel : kernels)
    width = std::max(width, kernel.name.size());
  std::string text = fmt::format("resource usage (ptxas -v, {}):\n", arch);
  text += fmt::format("{:<{}}  {:>9}  {:>12}  {:>11}  {:>5}  {:>12}  {:>8}\n", "kernel",
                      width, "registers", "spill stores", "spill loads", "stack",
                      "shared bytes", "barriers");
  for (const auto &kernel : kernels)
    text += fmt::format("{:<{}}  {:>9}  {:>12}  {:>11}  {:>5}  {:>12}  {:>8}\n", kernel.name,
                        width, kernel.registers, kernel.spillStoreBytes,
                        kernel.spillLoadBytes, kernel.stackBytes, kernel.sharedBytes,
                        kernel.barriers);
  return text;
}

bool writesManifest(const std::string &emit) {
  return emit == "ptx" || emit == "cubin" || emit == "so";
}

bool emitCode(const HloModule &module, const Options &options, const std::string &codeFile,
              StageTimer &timer, std::string &output,
              std::optional<abi::LaunchManifest> &manifest,
              DiagnosticEngine &diagnostics) {
  pipeline::PipelineOptions pipelineOptions;
  pipelineOptions.target =
      options.target == "host" ? pipeline::TargetKind::Host : pipeline::TargetKind::Nvptx;
  pipelineOptions.gpuArch = options.gpuArch;
  pipelineOptions.optLevel = options.optLevel;
  pipelineOptions.cudaPath = options.cudaPath;
  pipelineOptions.printAfterEachPass = options.printAfterEachPass;
  pipelineOptions.dumpDir = options.dumpDir;
  pipelineOptions.timePasses = options.timePasses;
  pipelineOptions.verifyEachPass = options.verifyEachPass;
  pipelineOptions.hostBoundsChecks = options.hostBoundsChecks;
  pipelineOptions.ptxVersion = options.ptxVersion;
  pipelineOptions.lineInfo = options.lineInfo;
  pipeline::PassDumper dumper(pipelineOptions);
  bool host = pipelineOptions.target == pipeline::TargetKind::Host;
  auto fail = [&](const std::string &error) {
    diagnostics.error(kNoOffset, error);
    return false;
  };

  mlir::MLIRContext context;
  context.disableMultithreading();
  KernelPlan plan(module);
  std::string planError;
  if (!options.kernels.empty() && !plan.retainKernels(options.kernels, planError))
    return fail(planError);
  reportLibraryCalls(plan, options, diagnostics);
  std::optional<EmittedModule> emittedKernels = emitKernels(
      module, plan, *deviceInfoForArch(options.gpuArch), context, diagnostics);
  if (!emittedKernels)
    return false;
  // Without --keep-going a kernel that failed stops the run (its errors
  // are reported); with it, the others are compiled and written.
  if (!emittedKernels->failed.empty() && !options.keepGoing)
    return false;
  mlir::OwningOpRef<mlir::ModuleOp> &emitted = emittedKernels->module;
  timer.lap("emission");
  if (dumper.enabled() || options.emit == "mlir") {
    std::string text;
    llvm::raw_string_ostream stream(text);
    emitted->print(stream);
    dumper.dump("emission", text);
    if (options.emit == "mlir") {
      output = text + "\n";
      return true;
    }
  }
  std::string error;
  if (!pipeline::lowerToLlvmDialect(*emitted, pipelineOptions, dumper, error))
    return fail(error);
  timer.lap("MLIR passes");
  // Each kernel's code must be what its emitter's launch record says.
  std::string mismatch = checkLaunchRecords(emittedKernels->launches, *emitted);
  if (!mismatch.empty())
    return fail(mismatch);
  llvm::LLVMContext llvmContext;
  auto llvmModule = pipeline::translateToLlvmIr(*emitted, llvmContext,
                                                pipelineOptions, dumper, error);
  if (!llvmModule)
    return fail(error);
  timer.lap(std::string(host ? "LLVM IR, " : "LLVM IR, libdevice, ") + "-O" +
            std::to_string(options.optLevel));

  pipeline::OutputKind kind = outputKindFor(options.emit);
  // The machine code the final step starts from, dumped as text.
  pipeline::OutputKind first = kind == pipeline::OutputKind::Cubin ? pipeline::OutputKind::Ptx
                               : kind == pipeline::OutputKind::SharedObject
                                   ? pipeline::OutputKind::Object
                                   : kind;
  std::optional<std::string> code =
      pipeline::emitOutput(*llvmModule, first, pipelineOptions, error);
  if (!code)
    return fail(error);
  switch (first) {
  case pipeline::OutputKind::LlvmIr:
    timer.lap("LLVM IR text");
    break;
  case pipeline::OutputKind::Ptx:
    timer.lap("PTX (NVPTX back end)");
    dumper.dump("ptx", *code, ".ptx");
    break;
  case pipeline::OutputKind::Assembly:
    timer.lap("host assembly");
    dumper.dump("asm", *code, ".s");
    break;
  default:
    timer.lap("host object code");
    break;
  }
  if (kind == pipeline::OutputKind::Cubin || options.resourceUsage) {
    std::vector<pipeline::KernelResourceUsage> usage;
    std::optional<std::string> cubin = pipeline::assembleCubin(
        *code, pipelineOptions, error, options.resourceUsage ? &usage : nullptr);
    if (!cubin)
      return fail(error);
    timer.lap("ptxas");
    if (options.resourceUsage)
      llvm::errs() << formatResourceUsage(usage, options.gpuArch);
    if (kind == pipeline::OutputKind::Cubin)
      code = std::move(cubin);
  } else if (kind == pipeline::OutputKind::SharedObject) {
    code = pipeline::linkHostSharedObject(*code, error);
    if (!code)
      return fail(error);
    timer.lap("system linker (shared object)");
  }
  if (isLoadable(kind))
    manifest = buildManifest(module, plan, *emittedKernels, options.gpuArch,
                             options.target, codeFile);
  output = std::move(*code);
  return true;
}

} // namespace hlo::driver
