//===- Pipeline.h - From emitted MLIR to PTX and cubin ----------*- C++ -*-===//
//
// The stages after emission (XLA:GPU Emitters' pipeline): the MLIR passes down to
// the LLVM dialect (MlirPipeline.cpp: the shared passes, then the target's
// conversion), translation to optimized LLVM IR (LlvmIr.cpp), and the
// target's machine code. Two targets (Target.h): NVPTX (nvptx/: NVVM,
// libdevice, PTX, ptxas for a cubin) and the host CPU (host/: GPU ops as
// calls into hlo-run's launcher, libm, a shared object), which runs the same
// kernels without a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_PIPELINE_H
#define HLO_PIPELINE_PIPELINE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hlo::pipeline {

enum class TargetKind { Nvptx, Host };

/// What the pipeline can write: each target produces some of them.
enum class OutputKind {
  LlvmIr,       ///< optimized LLVM IR (both targets)
  Ptx,          ///< NVPTX assembly
  Cubin,        ///< ptxas's output
  Assembly,     ///< host assembly
  Object,       ///< a host object file
  SharedObject, ///< a host shared object of kernels (hlo-run loads it)
};
bool targetProduces(TargetKind target, OutputKind output);
/// Binary outputs (cubin, object, shared object).
bool isBinaryOutput(OutputKind output);

struct PipelineOptions {
  TargetKind target = TargetKind::Nvptx;
  /// sm_XX or sm_XXa: the device the kernels are launched for (on the host
  /// target too: the launch is the GPU build's).
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
  /// --verify-each: the MLIR verifier after every pass (otherwise once
  /// before the pipeline and once after, as clang's release builds verify
  /// LLVM IR once: a 17 000-op kernel takes ~5 ms per verification).
  bool verifyEachPass = false;
  /// Host target: check every memory access against its buffer's bounds
  /// and report the first one outside (hlo-run names it).
  bool hostBoundsChecks = true;
  /// NVPTX: the PTX ISA to write ("8.4"); empty: the newest that both LLVM
  /// and the toolkit's ptxas take.
  std::string ptxVersion;
  /// -lineinfo: line tables (PTX .file/.loc) mapping the code back to the
  /// HLO file, as nvcc's -lineinfo.
  bool lineInfo = false;
  /// --resource-usage (NVPTX): run ptxas on the PTX, whatever the output,
  /// for what it reports of each kernel (registers, spills, shared memory).
  bool resourceUsage = false;
  /// A part of a module compiled apart (ParallelCompile.h): appended to
  /// the names of its helper functions and globals, which become internal,
  /// so that the parts' code joins without a name defined twice.
  std::string partSuffix;
  /// NVPTX: compile each kernel as if alone (IndependentKernels.h), so
  /// that its PTX can be cut out of the module's (KernelPtx.h) and reused
  /// by the kernel cache; parts then get no suffix.
  bool independentKernels = false;
  /// NVPTX: the index width (32 or 64); 0: nvptxIndexBitwidth of the
  /// module compiled. A module compiled in pieces keeps its whole width.
  unsigned indexBitwidth = 0;
};

/// A pipeline failure with `message` (what the driver prints after
/// `error: `). Every fallible function of the pipeline returns
/// llvm::Error or llvm::Expected.
inline llvm::Error pipelineError(const std::string &message) {
  return llvm::make_error<llvm::StringError>(message, llvm::inconvertibleErrorCode());
}

/// Where the numbered per-pass dumps go (counts across all stages).
class PassDumper {
public:
  explicit PassDumper(const PipelineOptions &options) : options(options) {}
  /// Prints or writes `text` as the IR after `pass`; its file gets
  /// `extension` (default: .ll for LLVM IR, else .mlir).
  void dump(llvm::StringRef pass, llvm::StringRef text, llvm::StringRef extension = "");
  bool enabled() const {
    return options.printAfterEachPass || !options.dumpDir.empty();
  }

private:
  const PipelineOptions &options;
  int counter = 0;
};

/// Runs the MLIR passes on an emitted module, leaving the LLVM dialect of
/// the target (NVVM kernels, or host functions with the ABI of
/// abi/HostKernelAbi.h).
[[nodiscard]]
llvm::Error lowerToLlvmDialect(mlir::ModuleOp module, const PipelineOptions &options,
                               PassDumper &dumper);

/// Registers and loads in `module`'s context all that lowerToLlvmDialect
/// and translateToLlvmIr register and load, so that several modules of the
/// context can then be compiled at once: those only read the context's
/// registry when it already has what they add (ParallelCompile.h).
void prepareContext(mlir::ModuleOp module, const PipelineOptions &options);

/// Runs only the target's conversion on a module already at the split point
/// of Target.h (upstream dialects; kernels are functions with
/// `xla_gpu.launch`, buffers memrefs): for kernels written by hand.
[[nodiscard]]
llvm::Error lowerFromSplitPoint(mlir::ModuleOp module, const PipelineOptions &options,
                                PassDumper &dumper);

/// Translates to LLVM IR for the target, links what it needs (libdevice)
/// and optimizes.
[[nodiscard]]
llvm::Expected<std::unique_ptr<llvm::Module>>
translateToLlvmIr(mlir::ModuleOp module, llvm::LLVMContext &context,
                  const PipelineOptions &options, PassDumper &dumper);

/// What ptxas reports for one kernel (-v).
struct KernelResourceUsage {
  std::string name;
  int64_t registers = 0;
  int64_t spillStoreBytes = 0;
  int64_t spillLoadBytes = 0;
  int64_t stackBytes = 0;
  /// Static shared memory.
  int64_t sharedBytes = 0;
  int64_t barriers = 0;
};

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_PIPELINE_H
