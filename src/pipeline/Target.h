//===- Target.h - What differs between code generation targets -*- C++ -*-===//
//
// The pipeline is one list of MLIR passes up to the point where the IR is in
// upstream dialects (gpu, memref, arith, scf, vector, math, complex); from
// there each target converts to the LLVM dialect its own way, translates to
// LLVM IR and writes machine code. CodegenTarget is that split, one
// implementation per subfolder: nvptx/ (NVVM, libdevice, PTX, ptxas) and
// host/ (the host CPU: runtime calls for GPU ops, libm, a shared object).
// An op that later emitters add reaches both targets for free as long as it
// is lowered to upstream gpu/memref ops before the split.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_TARGET_H
#define HLO_PIPELINE_TARGET_H

#include "pipeline/Pipeline.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CodeGen.h"

#include <optional>

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace hlo::pipeline {

class CodegenTarget {
public:
  virtual ~CodegenTarget() = default;

  /// Appends the passes from the shared pipeline's output to the LLVM
  /// dialect (with this target's intrinsics or runtime calls).
  virtual void addConversionPasses(mlir::PassManager &pm,
                                   mlir::ModuleOp module) const = 0;
  /// What is left after the passes, e.g. moving kernels out of a gpu.module
  /// for translation.
  virtual llvm::Error finishLlvmDialect(mlir::ModuleOp module) const {
    return llvm::Error::success();
  }
  /// Registers the dialect translations this target's LLVM dialect needs.
  virtual void registerTranslations(mlir::DialectRegistry &registry) const = 0;
  /// The target machine for this target and the options.
  virtual llvm::Expected<std::unique_ptr<llvm::TargetMachine>> createTargetMachine() const = 0;
  /// Fix-ups of the translated LLVM IR before optimization (triple, data
  /// layout, libraries to link).
  virtual llvm::Error prepareLlvmIr(llvm::Module &module, llvm::TargetMachine &machine,
                                    PassDumper &dumper) const = 0;
  /// The translation's stage name for --time-passes ("LLVM IR, -O3").
  virtual std::string translationStage() const = 0;
  /// The machine code `kind` starts from, written by the LLVM back end
  /// (PTX for a cubin, an object file for a shared object; else `kind`).
  virtual OutputKind machineCodeKind(OutputKind kind) const { return kind; }
  /// Writes `kind` (a machineCodeKind) from optimized LLVM IR.
  virtual llvm::Expected<std::string> emitMachineCode(llvm::Module &module,
                                                      OutputKind kind) const = 0;
  /// The step after the back end (ptxas, the system linker) when `kind` or
  /// the wanted resource usage needs one: its name, for --time-passes.
  virtual std::optional<std::string> finishingStep(OutputKind kind,
                                                   bool resourceUsage) const {
    return std::nullopt;
  }
  /// Runs that step on `code` (the machineCodeKind of `kind`): `kind`'s
  /// bytes; with `usage`, each kernel's resources as the step reports them.
  virtual llvm::Expected<std::string> finish(std::string code, OutputKind kind,
                                             std::vector<KernelResourceUsage> *usage) const {
    return code;
  }
};

std::unique_ptr<CodegenTarget> createNvptxTarget(const PipelineOptions &options);
/// The index width the NVPTX target gives `module`'s kernels: 32 bits
/// unless some buffer has 2^31 elements or more (PipelineOptions::
/// indexBitwidth fixes it instead).
unsigned nvptxIndexBitwidth(mlir::ModuleOp module);
std::unique_ptr<CodegenTarget> createHostTarget(const PipelineOptions &options);
std::unique_ptr<CodegenTarget> createTarget(const PipelineOptions &options);

/// LLVM's code generation level for -O0 ... -O3.
llvm::CodeGenOptLevel codeGenOptLevel(int optLevel);

/// The textual LLVM IR of `module` (for --v and --dump-dir).
std::string printLlvmModule(const llvm::Module &module);

/// Machine code for `module` through `machine` (assembly or an object
/// file).
llvm::Expected<std::string> emitWithTargetMachine(llvm::Module &module,
                                                  llvm::TargetMachine &machine, bool assembly);

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_TARGET_H
