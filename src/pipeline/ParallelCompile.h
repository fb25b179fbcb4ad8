//===- ParallelCompile.h - A module's kernels compiled in parts --*- C++ -*-===//
//
// Owns compiling a module of emitted kernels in parts at once (as XLA
// splits its LLVM module for parallel compilation): the kernels are spread
// over parts by size, each part (its kernels and the helpers they call) is
// compiled to PTX on a thread of its own, and the parts' PTX is joined
// into one module (a cubin: then assembled once). The part count depends on
// the module only, never on the threads, so the output is the same on
// every machine and with any -j.
//
// Each part's helpers and globals become internal with a suffix of the
// part (Compile.cpp, PipelineOptions::partSuffix), so that the joined PTX
// defines no name twice; only the kernels keep their names.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_PARALLELCOMPILE_H
#define HLO_PIPELINE_PARALLELCOMPILE_H

#include "pipeline/Compile.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SetVector.h"

namespace hlo::pipeline {

/// The functions and globals `kernel` reaches through symbol references,
/// transitively, in the order it first reaches them (not itself).
llvm::SetVector<mlir::Operation *> reachedSymbols(mlir::Operation *kernel,
                                                  mlir::SymbolTable &symbols);

/// Erases the kernel functions of `module` whose launch index `keep`
/// rejects, and the helpers no kept kernel calls.
void keepKernels(mlir::ModuleOp module, llvm::function_ref<bool(int64_t)> keep);

/// compileModule, in parts at once on up to `threads` threads: one part
/// where the output is not PTX or a cubin, the options dump the IR of
/// every pass, or the module is too small to gain from parts (then
/// compileModule itself). `stageDone` gets one stage for
/// the parts ("code generation, N parts on T threads") and any finishing
/// step. The first failing part's error is the result's.
llvm::Expected<CompiledCode> compileModuleInParts(mlir::ModuleOp module, OutputKind kind,
                                                  const PipelineOptions &options,
                                                  PassDumper &dumper, StageCallback stageDone,
                                                  unsigned threads);

/// The PTX modules `parts` as one: the first's header (.version, .target,
/// .address_size), then every part's body in order, each .extern
/// declaration and .file directive once.
std::string joinPtxModules(const std::vector<std::string> &parts);

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_PARALLELCOMPILE_H
