//===- SharedObjectLinker.cpp - An object file into a shared object -------===//
#include "pipeline/host/SharedObjectLinker.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace hlo::pipeline {

std::optional<std::string> linkSharedObject(const std::string &object,
                                            std::string &error) {
  std::string linker;
  if (const char *named = std::getenv("HLO_LD"); named && *named) {
    linker = named;
  } else if (llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName("ld")) {
    linker = *found;
  } else {
    error = "cannot find the system linker 'ld' to write a shared object (install "
            "binutils, or name a linker in HLO_LD)";
    return std::nullopt;
  }
  llvm::SmallString<128> input, output, log;
  if (llvm::sys::fs::createTemporaryFile("hlo-compile", "o", input) ||
      llvm::sys::fs::createTemporaryFile("hlo-compile", "so", output) ||
      llvm::sys::fs::createTemporaryFile("hlo-compile", "log", log)) {
    error = "cannot create temporary files for the linker";
    return std::nullopt;
  }
  llvm::scope_exit cleanup([&] {
    llvm::sys::fs::remove(input);
    llvm::sys::fs::remove(output);
    llvm::sys::fs::remove(log);
  });
  {
    std::error_code ec;
    llvm::raw_fd_ostream file(input, ec, llvm::sys::fs::OF_None);
    file << object;
    if (ec || file.has_error()) {
      error = "cannot write " + input.str().str();
      return std::nullopt;
    }
  }
  // No build id and no timestamps: the same kernels give the same bytes.
  llvm::SmallVector<llvm::StringRef> arguments = {
      linker, "-shared", "--build-id=none", "--hash-style=gnu", "-z", "noexecstack",
      "-o", output, input};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, log.str(), log.str()};
  std::string message;
  int status =
      llvm::sys::ExecuteAndWait(linker, arguments, std::nullopt, redirects, 0, 0, &message);
  if (status != 0) {
    auto text = llvm::MemoryBuffer::getFile(log);
    error = "the linker " + linker + " failed" + (message.empty() ? "" : " (" + message + ")") +
            ":\n" + (text ? (*text)->getBuffer().str() : std::string());
    return std::nullopt;
  }
  auto bytes = llvm::MemoryBuffer::getFile(output, /*IsText=*/false);
  if (!bytes) {
    error = "the linker wrote no shared object";
    return std::nullopt;
  }
  return (*bytes)->getBuffer().str();
}

} // namespace hlo::pipeline
