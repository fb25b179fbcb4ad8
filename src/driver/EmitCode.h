//===- EmitCode.h - --emit=mlir|llvm|ptx|cubin|asm|obj|so -------*- C++ -*-===//
//
// The driver's code-generation path: emission, the MLIR pipeline for the
// chosen target, LLVM, machine code (PTX, cubin; host assembly, object,
// shared object), with the pipeline options taken from the command line.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DRIVER_EMITCODE_H
#define HLO_DRIVER_EMITCODE_H

#include "Options.h"
#include "StageTimer.h"

#include "abi/LaunchManifest.h"
#include "hlo_parser/HloModule.h"
#include "hlo_parser/SourceFile.h"
#include "pipeline/Compile.h"
#include "pipeline/Pipeline.h"

#include <optional>
#include <string>
#include <vector>

namespace hlo::driver {

/// Compiles `module` to what `options.emit` names (mlir, llvm, ptx, cubin,
/// asm, obj, so); false after reporting an error through `diagnostics`.
/// For code a runtime loads (ptx, cubin, so), `manifest` receives the
/// launch manifest, whose "code" is `codeFile` (none if empty).
bool emitCode(const HloModule &module, const Options &options, const std::string &codeFile,
              StageTimer &timer, std::string &output,
              std::optional<abi::LaunchManifest> &manifest, DiagnosticEngine &diagnostics);

/// --resource-usage's table: one line per kernel (`launches` give the
/// dynamic shared memory each launch adds).
std::string formatResourceUsage(const std::vector<pipeline::KernelResourceUsage> &kernels,
                                const std::vector<pipeline::CompiledKernel> &launches,
                                const std::string &arch);

/// Whether --emit=`emit` writes code a runtime loads, with a manifest.
bool writesManifest(const std::string &emit);

} // namespace hlo::driver

#endif // HLO_DRIVER_EMITCODE_H
