//===- Ptxas.cpp - PTX to cubin with the CUDA toolkit ---------------------===//
//
// Owns running the toolkit's ptxas on our PTX and reporting its
// diagnostics.
//
//===----------------------------------------------------------------------===//
#include "pipeline/nvptx/Ptxas.h"
#include "pipeline/ExternalTool.h"

#include "llvm/Support/FileSystem.h"

namespace hlo::pipeline {

std::optional<std::string> runPtxas(const std::string &ptx,
                                    const PipelineOptions &options,
                                    std::string &error) {
  std::string ptxas = options.cudaPath + "/bin/ptxas";
  if (!llvm::sys::fs::can_execute(ptxas)) {
    error = "cannot run " + ptxas + " (set --cuda-path or CUDA_HOME)";
    return std::nullopt;
  }
  return runExternalTool(ptxas,
                         {"-arch", options.gpuArch, "-O3", kToolInput.str(), "-o",
                          kToolOutput.str()},
                         ptx, "ptx", "cubin", "ptxas", error);
}

} // namespace hlo::pipeline
