//===- PipelineTestUtils.h - Emitted modules to cubins in tests -*- C++ -*-===//
//
// What the corpus tests of hlo-pipeline-tests share: where the CUDA
// toolkit is, and an emitted MLIR module taken through the NVPTX pipeline
// to PTX and a cubin, with ptxas's resource usage per kernel.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_TESTS_PIPELINETESTUTILS_H
#define HLO_TESTS_PIPELINETESTUTILS_H

#include "pipeline/Compile.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/LLVMContext.h"

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace hlo::testing_utils {

/// $CUDA_HOME, else /usr/local/cuda.
inline std::string cudaPath() {
  const char *home = std::getenv("CUDA_HOME");
  return home && *home ? home : "/usr/local/cuda";
}

/// ptxas and libdevice are there: the tests that need them skip otherwise.
inline bool haveToolkit() {
  return std::filesystem::exists(cudaPath() + "/bin/ptxas") &&
         std::filesystem::exists(cudaPath() + "/nvvm/libdevice/libdevice.10.bc");
}

/// Compiles `module` for `arch` to a cubin (PTX through ptxas): "" when
/// ptxas accepted it (with what ptxas reported of each function in `usage`
/// when given), else the error.
inline std::string assembleForArch(mlir::ModuleOp module, const std::string &arch,
                                   std::vector<pipeline::KernelResourceUsage> *usage =
                                       nullptr) {
  pipeline::PipelineOptions options;
  options.gpuArch = arch;
  options.cudaPath = cudaPath();
  options.resourceUsage = usage != nullptr;
  pipeline::PassDumper dumper(options);
  llvm::Expected<pipeline::CompiledCode> compiled =
      pipeline::compileModule(module, pipeline::OutputKind::Cubin, options, dumper);
  if (!compiled) {
    std::string error = llvm::toString(compiled.takeError());
    return error.empty() ? "ptxas failed" : error;
  }
  if (usage)
    *usage = compiled->resources;
  return "";
}

} // namespace hlo::testing_utils

#endif // HLO_TESTS_PIPELINETESTUTILS_H
