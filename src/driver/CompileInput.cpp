//===- CompileInput.cpp - One input through hlo-compile -------------------===//
#include "CompileInput.h"

#include "EmitCode.h"
#include "EmitFusionAnalysis.h"
#include "EmitIndexing.h"
#include "OptimizedModuleCache.h"
#include "OutputFiles.h"
#include "StageTimer.h"

#include "abi/LaunchManifest.h"
#include "emitters/FusionEmitter.h"
#include "hlo_opt/OptimizeModule.h"
#include "hlo_parser/Parser.h"
#include "hlo_parser/Printer.h"
#include "hlo_parser/Verifier.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/LogicalResult.h"
#include "llvm/Support/Path.h"

#include <regex>

namespace hlo::driver {

namespace {

/// The pass dumps an earlier run left in `directory` (NNN-pass.mlir, .ll,
/// .ptx, .s: what PassDumper writes), so that a run's dumps are the only
/// ones there; other files stay.
void removeEarlierDumps(const std::string &directory) {
  static const std::regex kDump(
      R"(([0-9]{3,}-[A-Za-z0-9_-]+\.(mlir|ll|ptx|s))|(hlo-[0-9]{2,}-[A-Za-z0-9_-]+\.hlo))");
  std::error_code ec;
  std::vector<std::string> stale;
  for (llvm::sys::fs::directory_iterator entry(directory, ec), end; entry != end && !ec;
       entry.increment(ec))
    if (entry->type() == llvm::sys::fs::file_type::regular_file &&
        std::regex_match(llvm::sys::path::filename(entry->path()).str(), kDump))
      stale.push_back(entry->path());
  for (const std::string &path : stale)
    llvm::sys::fs::remove(path);
}

int fail(std::ostream &errors, const std::string &message, int code = kExitError) {
  errors << "hlo-compile: error: " << message << "\n";
  return code;
}

/// Runs the HLO optimization pipeline where --hlo-opt says (auto: on an
/// unoptimized module; on a fused one, only split-fused-reductions and
/// gemm-split-k),
/// dumping the module after each pass for --v and --dump-dir and timing
/// each for --time-passes. Whether it rewrote the module; a failure after
/// an error (reported).
llvm::FailureOr<bool> runPipeline(HloModule &module, const Options &options, StageTimer &timer,
                                  std::ostream &errors);

/// Whether runPipeline runs the whole HLO pipeline on a module that
/// opt::unoptimizedReason finds `reason` in (not nothing, or only the
/// splits of a fused module).
bool runsWholePipeline(const std::string &reason, const Options &options) {
  return options.hloOpt != "off" &&
         !(options.hloOpt == "auto" && options.hloPasses.empty() && reason.empty());
}

/// runPipeline, through the kernel cache where there is one (not with the
/// IR dumped per pass): an input compiled before takes the module the
/// pipeline made of it then (OptimizedModuleCache.h).
llvm::FailureOr<bool> optimizeIfUnoptimized(std::unique_ptr<HloModule> &module,
                                            const Options &options, StageTimer &timer,
                                            std::ostream &errors) {
  KernelCache *cache = options.kernelCache.get();
  if (!cache || options.printAfterEachPass || !options.dumpDir.empty() ||
      !runsWholePipeline(opt::unoptimizedReason(*module), options))
    return runPipeline(*module, options, timer, errors);
  std::shared_ptr<const SourceFile> input = module->source();
  std::string key = optimizedModuleKey(input->text(), options);
  KernelCache::Claim claim = cache->claimOrWait(key);
  if (claim.state == KernelCache::State::Hit)
    if (std::unique_ptr<HloModule> optimized = unpackOptimizedModule(claim.payload, input)) {
      module = std::move(optimized);
      timer.lap("hlo-opt: the module from the kernel cache");
      return true;
    }
  llvm::FailureOr<bool> rewritten = runPipeline(*module, options, timer, errors);
  if (claim.state == KernelCache::State::Compile)
    cache->publish(key, llvm::succeeded(rewritten)
                            ? std::optional<std::string>(packOptimizedModule(*module))
                            : std::nullopt);
  return rewritten;
}

llvm::FailureOr<bool> runPipeline(HloModule &module, const Options &options, StageTimer &timer,
                                  std::ostream &errors) {
  if (options.hloOpt == "off")
    return false;
  std::string reason = opt::unoptimizedReason(module);
  if (!runsWholePipeline(reason, options)) {
    // A fused module as it stands, but for reductions too long for one
    // block per output, which run in two kernels (split-fused-reductions),
    // and GEMMs of our own tiles too few to fill the GPU, split along K
    // (gemm-split-k).
    if (!hasFusionInstruction(module) || !module.declarations().empty())
      return false;
    size_t computations = module.computations().size();
    opt::OptimizeOptions split;
    split.passes = {"split-fused-reductions", "gemm-split-k"};
    std::optional<GpuDeviceInfo> device = deviceInfoForArch(options.gpuArch);
    split.device = device ? &*device : nullptr;
    split.ownGemmTiles = options.gemmTiles == "own";
    if (llvm::Error error = opt::optimizeModule(module, split)) {
      fail(errors, "HLO optimization: " + llvm::toString(std::move(error)));
      return llvm::failure();
    }
    timer.lap("hlo-opt: split-fused-reductions, gemm-split-k");
    // A split adds the fusions' partial and final computations.
    return module.computations().size() != computations;
  }
  if (!module.declarations().empty()) {
    fail(errors, "--hlo-opt=on needs every computation the module calls defined");
    return llvm::failure();
  }
  if (options.printAfterEachPass)
    errors << "// hlo-compile: optimizing the module ("
           << (reason.empty() ? std::string("--hlo-opt=on") : reason) << ")\n";
  opt::OptimizeOptions optimize;
  optimize.passes = options.hloPasses;
  std::optional<GpuDeviceInfo> device = deviceInfoForArch(options.gpuArch);
  optimize.device = device ? &*device : nullptr;
  optimize.ownGemmTiles = options.gemmTiles == "own";
  int counter = 0;
  optimize.afterPass = [&](const std::string &pass, const HloModule &result) {
    ++counter;
    timer.lap("hlo-opt: " + pass);
    if (!options.printAfterEachPass && options.dumpDir.empty())
      return;
    std::string text = printModule(result);
    if (options.printAfterEachPass)
      errors << "// -----// HLO after " << pass << " (" << counter << ") //----- //\n"
             << text << "\n";
    if (!options.dumpDir.empty()) {
      char number[8];
      std::snprintf(number, sizeof number, "%02d", counter);
      std::error_code ec;
      llvm::raw_fd_ostream file(options.dumpDir + "/hlo-" + number + "-" + pass + ".hlo", ec);
      if (!ec)
        file << text;
    }
  };
  if (llvm::Error error = opt::optimizeModule(module, optimize)) {
    fail(errors, "HLO optimization: " + llvm::toString(std::move(error)));
    return llvm::failure();
  }
  return true;
}

} // namespace

CompileResult compileInput(const Options &options, std::ostream &errors) {
  CompileResult result;
  StageTimer timer(options.timePasses);
  timer.lap("options");
  OutputFiles outputs(options, writesManifest(options.emit));
  if (llvm::Error error = outputs.validate()) {
    result.exitCode = fail(errors, llvm::toString(std::move(error)), kExitUsage);
    return result;
  }
  // From here on a failure leaves no output behind, stale or partial.
  auto failed = [&](int code = kExitError) {
    outputs.removeStale();
    result.exitCode = code;
    return result;
  };
  if (!options.dumpDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(options.dumpDir))
      return failed(fail(errors, "cannot create the --dump-dir '" + options.dumpDir +
                                     "': " + ec.message()));
    removeEarlierDumps(options.dumpDir);
  }

  ErrorOr<std::shared_ptr<SourceFile>> source = SourceFile::read(options.input);
  if (!source)
    return failed(fail(errors, source.error()));
  std::shared_ptr<SourceFile> file = std::move(*source);
  timer.lap("read " + file->name());
  DiagnosticEngine diagnostics(file);
  if (options.warningsAsErrors)
    diagnostics.setWarningPolicy(WarningPolicy::Error);
  else if (options.noWarnings)
    diagnostics.setWarningPolicy(WarningPolicy::Ignore);
  // Undefined computations are declarations for printing alone.
  ParseOptions parseOptions;
  parseOptions.allowUndefinedComputations = options.emit == "hlo";
  std::unique_ptr<HloModule> module = parseHloModule(file, diagnostics, parseOptions);
  timer.lap("parse");
  if (module && options.verify) {
    verifyModule(*module, diagnostics);
    timer.lap("verify");
  }
  size_t printed = 0;
  auto flushDiagnostics = [&]() {
    errors << diagnostics.rendered().substr(printed);
    errors.flush();
    printed = diagnostics.rendered().size();
  };
  flushDiagnostics();
  if (!module || diagnostics.hasErrors())
    return failed();

  llvm::FailureOr<bool> rewritten = optimizeIfUnoptimized(module, options, timer, errors);
  if (llvm::failed(rewritten)) {
    flushDiagnostics();
    return failed();
  }
  timer.lap("hlo-opt");

  std::string text;
  std::optional<abi::LaunchManifest> manifest;
  bool ok = true;
  if (options.emit == "hlo") {
    text = printModule(*module);
  } else if (options.emit == "indexing") {
    ok = emitIndexing(*module, options.indexingDirection == "input-to-output", options.kernels,
                      text, diagnostics);
  } else if (options.emit == "fusion-analysis") {
    ok = emitFusionAnalysis(*module, *deviceInfoForArch(options.gpuArch), options.kernels, text,
                            diagnostics);
  } else {
    // mlir, llvm, ptx, cubin, asm, obj, so.
    ok = emitCode(*module, options, outputs.codePathForManifest(), timer, text, manifest,
                  diagnostics);
  }
  if (!isCodeEmitKind(options.emit) && options.emit != "mlir")
    timer.lap(options.emit);
  flushDiagnostics();
  // -Werror: a warning is an error too, and nothing is written; with
  // --keep-going, what compiled is written despite errors in kernels.
  if (!ok || (diagnostics.hasErrors() && !options.keepGoing))
    return failed();
  // The module compiled, where the HLO passes rewrote the input, goes
  // beside the manifest: hlo-run checks it against the input.
  std::string compiledModuleText;
  if (manifest && *rewritten && !outputs.compiledModuleForManifest().empty()) {
    manifest->compiledHloFile = outputs.compiledModuleForManifest();
    compiledModuleText = printModule(*module);
  }
  if (llvm::Error error = outputs.write(
          text, manifest ? abi::printLaunchManifest(*manifest) : "", compiledModuleText))
    return failed(fail(errors, llvm::toString(std::move(error))));
  timer.lap("write");
  timer.finish();
  result.exitCode = diagnostics.hasErrors() ? kExitError : kExitSuccess;
  result.written = true;
  result.launches = manifest ? static_cast<int>(manifest->kernels.size()) : 0;
  result.failedKernels = manifest ? static_cast<int>(manifest->failed.size()) : 0;
  return result;
}

} // namespace hlo::driver
