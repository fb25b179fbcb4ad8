//===- Compile.h - An emitted module to machine code and kernels -*- C++ -*-===//
//
// The code generation entry point: one call takes a module of emitted
// kernels (or kernels written at the split point of Target.h) through the
// MLIR passes, LLVM and the target's back end and finishing step (ptxas,
// the system linker), and returns the bytes with one typed result per
// kernel: its symbol, launch, shared memory and, where ptxas ran, its
// registers and spills. The driver and the tests read kernels from these
// results, never from the attributes the kernels carried through the
// pipeline (dialect/KernelContract.h is read once, here).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_COMPILE_H
#define HLO_PIPELINE_COMPILE_H

#include "pipeline/Pipeline.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hlo::pipeline {

/// One kernel of the compiled code.
struct CompiledKernel {
  /// The entry symbol in the code.
  std::string symbol;
  /// The emitter's launch record this kernel implements (xla_gpu.kernel_
  /// index), or -1 for a kernel written by hand.
  int64_t kernelIndex = -1;
  std::array<int64_t, 3> grid = {1, 1, 1};
  std::array<int64_t, 3> block = {1, 1, 1};
  /// Shared memory the code declares, and what the launch must add.
  int64_t staticSharedBytes = 0;
  int64_t dynamicSharedBytes = 0;
  /// Thread-block clusters of this shape; none when empty.
  std::optional<std::array<int64_t, 3>> cluster;
  /// The registers per thread the code was bounded to (`.maxnreg`); 0: none.
  int64_t maxRegisters = 0;
  /// The block's threads meet (barriers, warp shuffles): on the host target
  /// they must run concurrently.
  bool concurrentThreads = false;
  /// What ptxas reported for this kernel, where it ran with
  /// PipelineOptions::resourceUsage.
  std::optional<KernelResourceUsage> resources;
};

/// The bytes of one output kind and the kernels in them (in symbol order
/// of the lowered module).
struct CompiledCode {
  OutputKind kind = OutputKind::Ptx;
  std::string code;
  std::vector<CompiledKernel> kernels;
  /// Every function ptxas reported (kernels and device functions), with
  /// PipelineOptions::resourceUsage.
  std::vector<KernelResourceUsage> resources;
};

/// Where compileModule starts.
enum class CompileStart {
  /// A module of emitted kernels (xla_gpu ops): every MLIR pass.
  Emitted,
  /// Kernels in upstream dialects (functions with `xla_gpu.launch`,
  /// buffers as memrefs), e.g. written by hand: the target's conversion.
  SplitPoint,
};

/// Called after each stage with its name ("MLIR passes", "ptxas", ...),
/// for --time-passes.
using StageCallback = llvm::function_ref<void(llvm::StringRef stage)>;

/// Compiles `module` (changed in place) to `kind`, which the options'
/// target must produce. The machine code the last step starts from (PTX,
/// host assembly) goes to `dumper` as well.
[[nodiscard]] llvm::Expected<CompiledCode>
compileModule(mlir::ModuleOp module, OutputKind kind, const PipelineOptions &options,
              PassDumper &dumper, StageCallback stageDone = nullptr,
              CompileStart start = CompileStart::Emitted);

/// Gives each kernel of `code` what ptxas reported for its symbol.
void attachResourceUsage(CompiledCode &code);

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_COMPILE_H
