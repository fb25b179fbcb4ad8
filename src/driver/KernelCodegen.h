//===- KernelCodegen.h - PTX one distinct kernel at a time ------*- C++ -*-===//
//
// Owns compiling an emitted module to PTX (or a cubin) per distinct
// kernel: each kernel function gets its key (KernelFingerprint.h); what
// the kernel cache holds is taken from it, the rest is compiled at once
// in parts (ParallelCompile.h) with every kernel independent of the others
// (IndependentKernels.h), cut into kernels (KernelPtx.h) and stored; the
// module's PTX joins the kernels in module order under their own names.
// A compile without the cache takes the same path, so that its output and
// a cached one are the same bytes. A cubin is ptxas's of the joined PTX,
// itself cached under the PTX's hash.
//
// Not this path (EmitCode.cpp compiles the module as it is): host code,
// LLVM IR, PTX with line tables, and the IR dumped per pass (--v,
// --dump-dir).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DRIVER_KERNELCODEGEN_H
#define HLO_DRIVER_KERNELCODEGEN_H

#include "KernelCache.h"

#include "pipeline/Compile.h"

namespace hlo::driver {

/// What one compile took from the kernel cache.
struct KernelCacheReport {
  /// Distinct kernels of the module, those found in the cache (or
  /// compiled by another input of the batch), and those compiled here.
  int64_t kernels = 0, found = 0, compiled = 0;
  /// A cubin: whether ptxas's was found.
  bool cubinFound = false;
};

/// Whether `kind` under `options` compiles per distinct kernel.
bool compilesPerKernel(pipeline::OutputKind kind, const pipeline::PipelineOptions &options);

/// The salt of the kernel keys under `options`: this compiler's build (its
/// build id and LLVM's and MLIR's), the architecture, PTX version,
/// optimization level, and the toolkit's libdevice and ptxas.
std::string codegenSalt(const pipeline::PipelineOptions &options);

/// compileModuleInParts per distinct kernel, through `cache` (none: every
/// kernel compiled). `module` is changed (kernels renamed, found ones
/// erased).
llvm::Expected<pipeline::CompiledCode>
compilePerKernel(mlir::ModuleOp module, pipeline::OutputKind kind,
                 const pipeline::PipelineOptions &options, pipeline::PassDumper &dumper,
                 pipeline::StageCallback stageDone, unsigned threads, KernelCache *cache,
                 KernelCacheReport &report);

} // namespace hlo::driver

#endif // HLO_DRIVER_KERNELCODEGEN_H
