//===- PipelineTestUtils.h - Emitted modules to cubins in tests -*- C++ -*-===//
//
// What the corpus tests of hlo-pipeline-tests share: where the CUDA
// toolkit is, and an emitted MLIR module taken through the NVPTX pipeline
// to PTX and a cubin, with ptxas's resource usage per kernel.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_TESTS_PIPELINETESTUTILS_H
#define HLO_TESTS_PIPELINETESTUTILS_H

#include "pipeline/Pipeline.h"

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

/// Lowers `module` for `arch`, emits PTX and assembles it with ptxas:
/// "" when ptxas accepted it (with each kernel's usage in `usage` when
/// given), else the error.
inline std::string assembleForArch(mlir::ModuleOp module, const std::string &arch,
                                   std::vector<pipeline::KernelResourceUsage> *usage =
                                       nullptr) {
  pipeline::PipelineOptions options;
  options.gpuArch = arch;
  options.cudaPath = cudaPath();
  pipeline::PassDumper dumper(options);
  if (llvm::Error failure = pipeline::lowerToLlvmDialect(module, options, dumper))
    return llvm::toString(std::move(failure));
  llvm::LLVMContext llvmContext;
  llvm::Expected<std::unique_ptr<llvm::Module>> llvmModule =
      pipeline::translateToLlvmIr(module, llvmContext, options, dumper);
  if (!llvmModule)
    return llvm::toString(llvmModule.takeError());
  llvm::Expected<std::string> ptx =
      pipeline::emitOutput(**llvmModule, pipeline::OutputKind::Ptx, options);
  if (!ptx)
    return llvm::toString(ptx.takeError());
  if (llvm::Expected<std::string> cubin = pipeline::assembleCubin(*ptx, options, usage); !cubin) {
    std::string error = llvm::toString(cubin.takeError());
    return error.empty() ? "ptxas failed" : error;
  }
  return "";
}

} // namespace hlo::testing_utils

#endif // HLO_TESTS_PIPELINETESTUTILS_H
