//===- main.cpp - The hlo-compile driver ----------------------------------===//
//
// Parses the command line and compiles one input (CompileInput.h) or, with
// --output-dir, several in parallel (BatchCompile.h). Errors in the input
// or in compiling it are `file:line:col: error: ...` diagnostics with exit
// code 1; usage errors exit with 2 (Options.h). A failed run leaves no
// output behind (OutputFiles.h).
//
//===----------------------------------------------------------------------===//
#include "BatchCompile.h"
#include "CompileInput.h"
#include "Options.h"

#include "llvm/Support/InitLLVM.h"

#include <iostream>

using namespace hlo;

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  driver::Options options;
  if (int code = driver::parseOptions(argc, argv, options); code >= 0)
    return code;
  if (driver::isBatch(options))
    return driver::compileBatch(options, std::cerr);
  return driver::compileInput(options, std::cerr).exitCode;
}
