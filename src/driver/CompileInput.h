//===- CompileInput.h - One input through hlo-compile ------------*- C++ -*-===//
//
// Owns what hlo-compile does with one HLO file: read, parse, verify, emit
// what --emit asks for, and write it (OutputFiles.h). Diagnostics go to the
// given stream as they arise (stderr for a single input; a buffer per input
// in batch mode, BatchCompile.h). Safe to run on several threads at once,
// one input each: every run has its own MLIR context.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DRIVER_COMPILEINPUT_H
#define HLO_DRIVER_COMPILEINPUT_H

#include "Options.h"

#include <ostream>

namespace hlo::driver {

/// What one run produced, for batch summaries.
struct CompileResult {
  int exitCode = kExitError;
  /// Whether the output was written (on success, or with --keep-going
  /// despite failed kernels).
  bool written = false;
  /// Kernel launches the manifest lists (0 when there is none).
  int launches = 0;
  /// --keep-going: the kernels (and unsupported instructions) that failed.
  int failedKernels = 0;
};

/// Compiles `options.input` as `options` say; errors go to `errors`.
CompileResult compileInput(const Options &options, std::ostream &errors);

} // namespace hlo::driver

#endif // HLO_DRIVER_COMPILEINPUT_H
