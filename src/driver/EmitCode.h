//===- EmitCode.h - --emit=llvm|ptx|cubin -----------------------*- C++ -*-===//
//
// The driver's code-generation path: emission, the MLIR pipeline, LLVM,
// PTX and cubin, with the pipeline options taken from the command line.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DRIVER_EMITCODE_H
#define HLO_DRIVER_EMITCODE_H

#include "Options.h"

#include "hlo_parser/HloModule.h"
#include "hlo_parser/SourceFile.h"

#include <string>

namespace hlo::driver {

/// Compiles `module` to what `options.emit` names (llvm, ptx, cubin);
/// false after reporting an error through `diagnostics`.
/// `manifest` receives the launch manifest's JSON (for ptx and cubin).
bool emitCode(const HloModule &module, const Options &options,
              std::string &output, std::string &manifest,
              DiagnosticEngine &diagnostics);

} // namespace hlo::driver

#endif // HLO_DRIVER_EMITCODE_H
