//===- Ptxas.cpp - PTX to cubin with the CUDA toolkit ---------------------===//
//
// Owns running the toolkit's ptxas on our PTX (through temporary files) and
// reporting its diagnostics.
//
//===----------------------------------------------------------------------===//
#include "pipeline/nvptx/Ptxas.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace hlo::pipeline {

std::optional<std::string> runPtxas(const std::string &ptx,
                                    const PipelineOptions &options,
                                    std::string &error) {
  std::string ptxas = options.cudaPath + "/bin/ptxas";
  if (!llvm::sys::fs::can_execute(ptxas)) {
    error = "cannot run " + ptxas + " (set --cuda-path or CUDA_HOME)";
    return std::nullopt;
  }
  llvm::SmallString<128> input, output, log;
  if (llvm::sys::fs::createTemporaryFile("hlo-compile", "ptx", input) ||
      llvm::sys::fs::createTemporaryFile("hlo-compile", "cubin", output) ||
      llvm::sys::fs::createTemporaryFile("hlo-compile", "log", log)) {
    error = "cannot create temporary files for ptxas";
    return std::nullopt;
  }
  llvm::scope_exit cleanup([&] {
    llvm::sys::fs::remove(input);
    llvm::sys::fs::remove(output);
    llvm::sys::fs::remove(log);
  });
  {
    std::error_code ec;
    llvm::raw_fd_ostream file(input, ec);
    file << ptx;
  }
  std::string arch = options.gpuArch;
  llvm::SmallVector<llvm::StringRef> arguments = {
      ptxas, "-arch", arch, "-O3", input, "-o", output};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, log.str(), log.str()};
  int status = llvm::sys::ExecuteAndWait(ptxas, arguments, std::nullopt, redirects);
  if (status != 0) {
    auto text = llvm::MemoryBuffer::getFile(log);
    error = "ptxas failed:\n" + (text ? (*text)->getBuffer().str() : std::string());
    return std::nullopt;
  }
  auto cubin = llvm::MemoryBuffer::getFile(output, /*IsText=*/false);
  if (!cubin) {
    error = "ptxas wrote no cubin";
    return std::nullopt;
  }
  return (*cubin)->getBuffer().str();
}

} // namespace hlo::pipeline
