//===- main.cpp - The hlo-compile driver ----------------------------------===//
//
// Reads HLO text, parses and verifies it, and produces what --emit asks for.
// Every error is a `file:line:col: error: ...` diagnostic and exit code 1.
//
//===----------------------------------------------------------------------===//
#include "EmitFusionAnalysis.h"
#include "emitters/FusionEmitter.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"
#include "EmitCode.h"
#include "EmitIndexing.h"
#include "Options.h"

#include "hlo_parser/Parser.h"
#include "hlo_parser/Printer.h"
#include "hlo_parser/Verifier.h"

#include "llvm/Support/InitLLVM.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>

using namespace hlo;

static int fail(const std::string &message) {
  fmt::print(stderr, "hlo-compile: error: {}\n", message);
  return 1;
}

static bool writeOutput(const std::string &path, const std::string &text,
                        std::string &error) {
  if (path.empty() || path == "-") {
    std::cout << text;
    std::cout.flush();
    return static_cast<bool>(std::cout);
  }
  std::ofstream stream(path, std::ios::binary);
  stream << text;
  stream.close();
  if (!stream) {
    error = "cannot write '" + path + "'";
    return false;
  }
  return true;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  driver::Options options;
  if (int code = driver::parseOptions(argc, argv, options); code >= 0)
    return code;
  std::string readError;
  std::shared_ptr<SourceFile> file = SourceFile::read(options.input, readError);
  if (!file)
    return fail(readError);
  DiagnosticEngine diagnostics(file);
  if (options.warningsAsErrors)
    diagnostics.setWarningPolicy(WarningPolicy::Error);
  else if (options.noWarnings)
    diagnostics.setWarningPolicy(WarningPolicy::Ignore);
  // Undefined computations are declarations for printing alone.
  ParseOptions parseOptions;
  parseOptions.allowUndefinedComputations = options.emit == "hlo";
  std::unique_ptr<HloModule> module = parseHloModule(file, diagnostics, parseOptions);
  if (module && options.verify)
    verifyModule(*module, diagnostics);
  size_t printed = 0;
  auto flushDiagnostics = [&]() {
    std::cerr << diagnostics.rendered().substr(printed);
    printed = diagnostics.rendered().size();
  };
  flushDiagnostics();
  if (!module || diagnostics.hasErrors())
    return 1;

  std::string text, manifest;
  if (options.emit == "hlo") {
    text = printModule(*module);
  } else if (options.emit == "indexing") {
    bool ok = driver::emitIndexing(
        *module, options.indexingDirection == "input-to-output", text,
        diagnostics);
    flushDiagnostics();
    if (!ok)
      return 1;
  } else if (options.emit == "mlir") {
    mlir::MLIRContext context;
    auto emitted = emitModuleFusions(*module, *deviceInfoForArch(options.gpuArch),
                                     context, diagnostics);
    flushDiagnostics();
    if (!emitted)
      return 1;
    llvm::raw_string_ostream stream(text);
    emitted->print(stream);
    stream.flush();
    text += "\n";
  } else if (driver::isCodeEmitKind(options.emit)) {
    bool ok = driver::emitCode(*module, options, text, manifest, diagnostics);
    flushDiagnostics();
    if (!ok)
      return 1;
  } else if (options.emit == "fusion-analysis") {
    bool ok = driver::emitFusionAnalysis(
        *module, *deviceInfoForArch(options.gpuArch), text, diagnostics);
    flushDiagnostics();
    if (!ok)
      return 1;
  }
  // -Werror: a warning is an error too, and nothing is written.
  if (diagnostics.hasErrors())
    return 1;
  std::string writeError;
  if (!writeOutput(options.output, text, writeError))
    return fail(writeError);
  if (!manifest.empty()) {
    std::string path = driver::manifestPathFor(options);
    if (!path.empty() && !writeOutput(path, manifest, writeError))
      return fail(writeError);
  }
  return 0;
}
