//===- Pipeline.h - From emitted MLIR to PTX and cubin ----------*- C++ -*-===//
//
// The stages after emission (seed 004's pipeline): the MLIR passes down to
// the LLVM and NVVM dialects (MlirPipeline.cpp), translation to LLVM IR with
// libdevice linked and optimized (NvptxBackend.cpp), NVPTX code generation,
// and ptxas for a cubin (Ptxas.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_PIPELINE_H
#define HLO_PIPELINE_PIPELINE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <memory>
#include <optional>
#include <string>

namespace hlo::pipeline {

struct PipelineOptions {
  /// sm_XX or sm_XXa.
  std::string gpuArch = "sm_90";
  /// LLVM optimization level, 0 to 3.
  int optLevel = 3;
  /// The CUDA toolkit (libdevice, ptxas).
  std::string cudaPath = "/usr/local/cuda";
  /// --v: the IR after every pass (MLIR and LLVM) on stderr.
  bool printAfterEachPass = false;
  /// --dump-dir: one numbered file per pass instead.
  std::string dumpDir;
  /// --time-passes: the time of every pass and stage on stderr.
  bool timePasses = false;
};

/// Where the numbered per-pass dumps go (counts across all stages).
class PassDumper {
public:
  explicit PassDumper(const PipelineOptions &options) : options(options) {}
  /// Prints or writes `text` as the IR after `pass`.
  void dump(llvm::StringRef pass, llvm::StringRef text);
  bool enabled() const {
    return options.printAfterEachPass || !options.dumpDir.empty();
  }

private:
  const PipelineOptions &options;
  int counter = 0;
};

/// Runs the MLIR passes on an emitted module, leaving the LLVM dialect with
/// NVVM kernels in the top-level module. False with `error` set on failure.
bool lowerToLlvmDialect(mlir::ModuleOp module, const PipelineOptions &options,
                        PassDumper &dumper, std::string &error);

/// Translates to LLVM IR for NVPTX, links libdevice and optimizes.
std::unique_ptr<llvm::Module>
translateToLlvmIr(mlir::ModuleOp module, llvm::LLVMContext &context,
                  const PipelineOptions &options, PassDumper &dumper,
                  std::string &error);

/// NVPTX code generation: the PTX text, or nullopt with `error`.
std::optional<std::string> emitPtx(llvm::Module &module,
                                   const PipelineOptions &options,
                                   std::string &error);

/// The PTX ISA version to emit: the newest that both LLVM 22 (9.0) and the
/// toolkit's ptxas (from `ptxas --version`) accept, e.g. "ptx87".
std::string ptxFeatureFor(const PipelineOptions &options);

/// Assembles PTX into a cubin with the toolkit's ptxas.
std::optional<std::string> runPtxas(const std::string &ptx,
                                    const PipelineOptions &options,
                                    std::string &error);

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_PIPELINE_H
