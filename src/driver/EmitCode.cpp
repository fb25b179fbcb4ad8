//===- EmitCode.cpp - --emit=llvm|ptx|cubin|asm|obj|so --------------------===//
//
// Owns the code generation path of the driver: emission, the pipeline for
// the chosen target (a failure there traced to the kernels that fail alone,
// LateKernelFailures.h), and the launch manifest beside code a runtime can
// load (PTX, cubin, or the host target's shared object).
//
//===----------------------------------------------------------------------===//
#include "EmitCode.h"
#include "KernelCodegen.h"
#include "LateKernelFailures.h"
#include "Manifest.h"
#include "ModuleProgram.h"

#include "analysis/DeviceInfo.h"
#include "emitters/FusionEmitter.h"
#include "hlo_parser/HloAttributes.h"
#include "hlo_parser/OpAttributes.h"
#include "pipeline/Compile.h"
#include "pipeline/ParallelCompile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>
#include <set>
#include <fmt/core.h>

namespace hlo::driver {
namespace {

/// What runs outside the generated code: a warning per library call (not
/// with -Wno-library-calls), a one-line count per kind after them, and a
/// plain warning when nothing at all is generated.
void reportLibraryCalls(const KernelPlan &plan, const Options &options,
                        DiagnosticEngine &diagnostics) {
  // Sharding annotations are the identity on one device: no library call
  // (hlo-run passes their operand through).
  std::vector<const HloInstruction *> calls;
  for (const HloInstruction *call : plan.notEmitted())
    if (call->opcode() != HloOpcode::CustomCall ||
        !isShardingAnnotation(customCallTarget(*call)))
      calls.push_back(call);
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
                              "outside generated code [-Wlibrary-calls]",
                          SourceEcho::None);
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

/// --inject-codegen-failure (for tests of LateKernelFailures.h): an op that
/// neither a pass nor the LLVM translation knows, at the start of the named
/// kernel's functions.
void injectCodegenFailure(EmittedModule &emitted, const KernelPlan &plan,
                          const std::string &kernel) {
  if (kernel.empty())
    return;
  for (const KernelLaunchRecord &launch : emitted.launches) {
    if (launch.sharesCodeOf >= 0 || !namesKernel(plan.kernels()[launch.planKernel].name, kernel))
      continue;
    auto function = emitted.module->lookupSymbol<mlir::FunctionOpInterface>(launch.name);
    if (!function || function.isExternal())
      continue;
    mlir::OpBuilder builder = mlir::OpBuilder::atBlockBegin(&function.getFunctionBody().front());
    mlir::OperationState state(function.getLoc(), "hlo_compile_test.unlowerable");
    builder.create(state);
  }
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
                                const std::vector<pipeline::CompiledKernel> &launches,
                                const std::string &arch) {
  size_t width = 6;
  for (const auto &kernel : kernels)
    width = std::max(width, kernel.name.size());
  // ptxas counts the shared memory the code declares; the launch adds the
  // dynamic part (tiles past 48 KiB).
  auto dynamicBytes = [&](const std::string &name) -> int64_t {
    for (const pipeline::CompiledKernel &launch : launches)
      if (launch.symbol == name)
        return launch.dynamicSharedBytes;
    return 0;
  };
  std::string text = fmt::format("resource usage (ptxas -v, {}):\n", arch);
  text += fmt::format("{:<{}}  {:>9}  {:>12}  {:>11}  {:>5}  {:>12}  {:>8}  {:>14}\n", "kernel",
                      width, "registers", "spill stores", "spill loads", "stack",
                      "shared bytes", "barriers", "dynamic shared");
  for (const auto &kernel : kernels)
    text += fmt::format("{:<{}}  {:>9}  {:>12}  {:>11}  {:>5}  {:>12}  {:>8}  {:>14}\n",
                        kernel.name, width, kernel.registers, kernel.spillStoreBytes,
                        kernel.spillLoadBytes, kernel.stackBytes, kernel.sharedBytes,
                        kernel.barriers, dynamicBytes(kernel.name));
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
  auto fail = [&](const std::string &error) {
    diagnostics.error(kNoOffset, error);
    return false;
  };

  mlir::MLIRContext context;
  context.disableMultithreading();
  KernelPlan plan(module);
  if (!options.kernels.empty())
    if (llvm::Error error = plan.retainKernels(options.kernels))
      return fail(llvm::toString(std::move(error)));
  reportLibraryCalls(plan, options, diagnostics);
  if (!options.injectCodegenFailure.empty())
    context.allowUnregisteredDialects();
  EmitterOptions emitterOptions;
  emitterOptions.ownGemmTiles = options.gemmTiles == "own";
  emitterOptions.warpSpecializedGemms = options.gemmWarpSpecialization == "on";
  emitterOptions.persistentGemms = options.gemmPersistentTiles == "on";
  emitterOptions.tmaStoreGemmEpilogues = options.gemmTmaStore == "on";
  emitterOptions.gemmClusterBlocks = options.gemmCluster;
  emitterOptions.gemmConfigs = options.gemmConfigs.get();
  emitterOptions.plantedBug = options.plantedBug;
  std::optional<EmittedModule> emittedKernels = emitKernels(
      module, plan, *deviceInfoForArch(options.gpuArch), context, diagnostics, emitterOptions);
  if (!emittedKernels)
    return false;
  injectCodegenFailure(*emittedKernels, plan, options.injectCodegenFailure);
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
  pipeline::OutputKind kind = outputKindFor(options.emit);
  pipelineOptions.resourceUsage = options.resourceUsage;
  // Emitted MLIR to machine code: the MLIR passes, LLVM, the back end (and
  // ptxas for a cubin). `quiet`: no dumps, no timing, no output kept.
  pipeline::PipelineOptions quietOptions = pipelineOptions;
  quietOptions.printAfterEachPass = false;
  quietOptions.dumpDir.clear();
  quietOptions.timePasses = false;
  quietOptions.resourceUsage = false;
  pipeline::PassDumper quietDumper(quietOptions);
  KernelCacheReport cacheReport;
  auto generate = [&](mlir::ModuleOp module,
                      bool quiet) -> llvm::Expected<pipeline::CompiledCode> {
    // The whole output in parts at once (ParallelCompile.h); a kernel
    // alone (quiet) in one.
    unsigned threads = quiet ? 1 : jobThreads(options);
    const pipeline::PipelineOptions &chosen = quiet ? quietOptions : pipelineOptions;
    auto stage = [&](llvm::StringRef stage) {
      if (!quiet)
        timer.lap(stage.str());
    };
    // PTX per distinct kernel, through the kernel cache (KernelCodegen.h).
    llvm::Expected<pipeline::CompiledCode> compiled =
        compilesPerKernel(kind, chosen)
            ? compilePerKernel(module, kind, chosen, quiet ? quietDumper : dumper, stage,
                               threads, quiet ? nullptr : options.kernelCache.get(),
                               cacheReport)
            : pipeline::compileModuleInParts(module, kind, chosen,
                                             quiet ? quietDumper : dumper, stage, threads);
    if (!compiled || quiet)
      return compiled;
    // Each kernel's code must be what its emitter's launch record says
    // (a kernel compiled alone lacks the others).
    std::string mismatch = checkLaunchRecords(emittedKernels->launches, compiled->kernels);
    if (!mismatch.empty())
      return pipeline::pipelineError(mismatch);
    return compiled;
  };
  llvm::Expected<pipeline::CompiledCode> code = generate(*emitted, /*quiet=*/false);
  if (!code) {
    std::string error = llvm::toString(code.takeError());
    // These stages run on the whole module: find the kernels that fail
    // alone, from the emitted MLIR made again, and report each at its
    // instruction; with --keep-going the others are compiled and written.
    DiagnosticEngine again(module.source());
    std::optional<EmittedModule> reemitted = emitKernels(
        module, plan, *deviceInfoForArch(options.gpuArch), context, again, emitterOptions);
    std::map<int64_t, std::string> failures;
    if (reemitted)
      injectCodegenFailure(*reemitted, plan, options.injectCodegenFailure);
    if (reemitted && reemitted->failed.size() == emittedKernels->failed.size())
      failures = findFailingKernels(
          *reemitted->module, *reemitted, [&](mlir::ModuleOp alone) -> llvm::Error {
            llvm::Expected<pipeline::CompiledCode> compiled = generate(alone, /*quiet=*/true);
            return compiled ? llvm::Error::success() : compiled.takeError();
          });
    // A failure every kernel has alone (a missing libdevice or ptxas, or a
    // module of one kernel) is the module's: said once, as it was.
    std::set<int64_t> kernels;
    for (const KernelLaunchRecord &launch : emittedKernels->launches)
      kernels.insert(launch.planKernel);
    if (failures.empty() || failures.size() == kernels.size())
      return fail(error);
    for (const auto &[kernel, message] : failures)
      diagnostics.error(plan.kernels()[kernel].origin
                            ? plan.kernels()[kernel].origin->sourceOffset()
                            : kNoOffset,
                        "kernel '" + plan.kernels()[kernel].name +
                            "' failed in code generation: " + message);
    if (!options.keepGoing)
      return false;
    emittedKernels = std::move(reemitted);
    dropFailedKernels(*emittedKernels->module, *emittedKernels, plan, failures);
    code = generate(*emittedKernels->module, /*quiet=*/false);
    if (!code)
      return fail(llvm::toString(code.takeError()));
  }
  if (options.verbose && options.kernelCache && compilesPerKernel(kind, pipelineOptions)) {
    int64_t damaged = options.kernelCache->stats().corrupt;
    llvm::errs() << fmt::format(
        "hlo-compile: {}: {} of {} distinct kernels found, {} compiled{}{}\n",
        options.kernelCache->title(), cacheReport.found, cacheReport.kernels,
        cacheReport.compiled,
        kind == pipeline::OutputKind::Cubin
            ? (cacheReport.cubinFound ? "; cubin found" : "; cubin assembled")
            : "",
        damaged ? fmt::format(" ({} damaged entries removed and written again)", damaged)
                : std::string());
  }
  if (options.resourceUsage)
    llvm::errs() << formatResourceUsage(code->resources, code->kernels, options.gpuArch);
  if (isLoadable(kind))
    manifest = buildManifest(module, plan, *emittedKernels, code->kernels, options.gpuArch,
                             options.target, codeFile);
  output = std::move(code->code);
  return true;
}

} // namespace hlo::driver
