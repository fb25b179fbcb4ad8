//===- SharedObjectLinker.cpp - An object file into a shared object -------===//
#include "pipeline/host/SharedObjectLinker.h"
#include "pipeline/ExternalTool.h"

#include "llvm/Support/Program.h"

#include <cstdlib>

namespace hlo::pipeline {

llvm::Expected<std::string> linkSharedObject(const std::string &object) {
  std::string linker;
  if (const char *named = std::getenv("HLO_LD"); named && *named) {
    linker = named;
  } else if (llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName("ld")) {
    linker = *found;
  } else {
    return pipelineError("cannot find the system linker 'ld' to write a shared object (install "
                         "binutils, or name a linker in HLO_LD)");
  }
  // No build id: the same kernels give the same bytes.
  return runExternalTool(linker,
                         {"-shared", "--build-id=none", "--hash-style=gnu", "-z", "noexecstack",
                          "-o", kToolOutput.str(), kToolInput.str()},
                         object, "o", "so", "the linker " + linker);
}

} // namespace hlo::pipeline
