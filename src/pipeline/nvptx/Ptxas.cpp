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

llvm::Expected<std::string> runPtxas(const std::string &ptx, const PipelineOptions &options,
                                     std::vector<KernelResourceUsage> *usage) {
  std::string ptxas = options.cudaPath + "/bin/ptxas";
  if (!llvm::sys::fs::can_execute(ptxas))
    return pipelineError("cannot run " + ptxas + " (set --cuda-path or CUDA_HOME)");
  std::vector<std::string> arguments = {"-arch", options.gpuArch, "-O3",
                                        kToolInput.str(), "-o", kToolOutput.str()};
  if (usage)
    arguments.push_back("-v");
  std::string log;
  llvm::Expected<std::string> cubin =
      runExternalTool(ptxas, arguments, ptx, "ptx", "cubin", "ptxas", &log);
  if (cubin && usage)
    *usage = parsePtxasVerbose(log);
  return cubin;
}

std::vector<KernelResourceUsage> parsePtxasVerbose(const std::string &log) {
  // ptxas info    : Compiling entry function 'fusion' for 'sm_90'
  // ptxas info    : Function properties for fusion
  //     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
  // ptxas info    : Used 27 registers, used 1 barriers, 32 bytes smem, ...
  std::vector<KernelResourceUsage> kernels;
  auto numberBefore = [](llvm::StringRef line, llvm::StringRef what) -> int64_t {
    size_t at = line.find(what);
    if (at == llvm::StringRef::npos)
      return 0;
    llvm::StringRef before = line.take_front(at).rtrim();
    size_t start = before.find_last_of(" ,:");
    int64_t value = 0;
    before.drop_front(start == llvm::StringRef::npos ? 0 : start + 1)
        .trim()
        .getAsInteger(10, value);
    return value;
  };
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(log).split(lines, '\n');
  for (llvm::StringRef line : lines) {
    if (line.contains("Compiling entry function '")) {
      llvm::StringRef name = line.split("entry function '").second.split('\'').first;
      kernels.push_back({name.str()});
      continue;
    }
    if (kernels.empty())
      continue;
    KernelResourceUsage &kernel = kernels.back();
    if (line.contains("bytes stack frame")) {
      kernel.stackBytes = numberBefore(line, "bytes stack frame");
      kernel.spillStoreBytes = numberBefore(line, "bytes spill stores");
      kernel.spillLoadBytes = numberBefore(line, "bytes spill loads");
    } else if (line.contains("Used ") && line.contains(" registers")) {
      kernel.registers = numberBefore(line, "registers");
      kernel.barriers = numberBefore(line, "barriers");
      kernel.sharedBytes = numberBefore(line, "bytes smem");
    }
  }
  return kernels;
}

} // namespace hlo::pipeline
