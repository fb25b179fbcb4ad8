//===- main.cpp - The hlo-compile driver ----------------------------------===//
//
// Reads HLO text, parses and verifies it, and produces what --emit asks for.
// Errors in the input or in compiling it are `file:line:col: error: ...`
// diagnostics with exit code 1; usage errors exit with 2 (Options.h). A
// failed run leaves no output behind (OutputFiles.h).
//
//===----------------------------------------------------------------------===//
#include "EmitCode.h"
#include "EmitFusionAnalysis.h"
#include "EmitIndexing.h"
#include "Options.h"
#include "OutputFiles.h"
#include "StageTimer.h"

#include "emitters/FusionEmitter.h"
#include "hlo_parser/Parser.h"
#include "hlo_parser/Printer.h"
#include "hlo_parser/Verifier.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"

#include <fmt/core.h>

#include <iostream>

using namespace hlo;

static int fail(const std::string &message, int code = driver::kExitError) {
  fmt::print(stderr, "hlo-compile: error: {}\n", message);
  return code;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  driver::Options options;
  if (int code = driver::parseOptions(argc, argv, options); code >= 0)
    return code;
  driver::StageTimer timer(options.timePasses);
  timer.lap("options");
  driver::OutputFiles outputs(options, driver::writesManifest(options.emit));
  std::string error;
  if (!outputs.validate(error))
    return fail(error, driver::kExitUsage);
  // From here on a failure leaves no output behind, stale or partial.
  auto failed = [&](int code = driver::kExitError) {
    outputs.removeStale();
    return code;
  };
  if (!options.dumpDir.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(options.dumpDir))
      return failed(fail("cannot create the --dump-dir '" + options.dumpDir +
                         "': " + ec.message()));

  std::shared_ptr<SourceFile> file = SourceFile::read(options.input, error);
  if (!file)
    return failed(fail(error));
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
    std::cerr << diagnostics.rendered().substr(printed);
    printed = diagnostics.rendered().size();
  };
  flushDiagnostics();
  if (!module || diagnostics.hasErrors())
    return failed();

  std::string text, manifest;
  bool ok = true;
  if (options.emit == "hlo") {
    text = printModule(*module);
  } else if (options.emit == "indexing") {
    ok = driver::emitIndexing(*module, options.indexingDirection == "input-to-output", text,
                              diagnostics);
  } else if (options.emit == "fusion-analysis") {
    ok = driver::emitFusionAnalysis(*module, *deviceInfoForArch(options.gpuArch), text,
                                    diagnostics);
  } else {
    // mlir, llvm, ptx, cubin, asm, obj, so.
    ok = driver::emitCode(*module, options, outputs.codePathForManifest(), timer, text,
                          manifest, diagnostics);
  }
  if (!driver::isCodeEmitKind(options.emit) && options.emit != "mlir")
    timer.lap(options.emit);
  flushDiagnostics();
  // -Werror: a warning is an error too, and nothing is written.
  if (!ok || diagnostics.hasErrors())
    return failed();
  if (!outputs.write(text, manifest, error))
    return failed(fail(error));
  timer.lap("write");
  timer.finish();
  return driver::kExitSuccess;
}
