//===- ExternalTool.cpp - Running a tool over temporary files -------------===//
#include "pipeline/ExternalTool.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace hlo::pipeline {

llvm::Expected<std::string> runExternalTool(const std::string &program,
                                            llvm::ArrayRef<std::string> arguments,
                                            const std::string &input,
                                            llvm::StringRef inputSuffix,
                                            llvm::StringRef outputSuffix,
                                            const std::string &what, std::string *log) {
  llvm::SmallString<128> inputPath, outputPath, logPath;
  if (llvm::sys::fs::createTemporaryFile("hlo-compile", inputSuffix, inputPath) ||
      llvm::sys::fs::createTemporaryFile("hlo-compile", outputSuffix, outputPath) ||
      llvm::sys::fs::createTemporaryFile("hlo-compile", "log", logPath))
    return pipelineError("cannot create temporary files for " + what);
  llvm::scope_exit cleanup([&] {
    llvm::sys::fs::remove(inputPath);
    llvm::sys::fs::remove(outputPath);
    llvm::sys::fs::remove(logPath);
  });
  {
    std::error_code ec;
    llvm::raw_fd_ostream file(inputPath, ec, llvm::sys::fs::OF_None);
    file << input;
    file.close();
    if (ec || file.has_error())
      return pipelineError("cannot write " + inputPath.str().str() + " for " + what);
  }
  std::vector<std::string> expanded = {program};
  for (const std::string &argument : arguments)
    expanded.push_back(argument == kToolInput    ? inputPath.str().str()
                       : argument == kToolOutput ? outputPath.str().str()
                                                 : argument);
  std::vector<llvm::StringRef> references(expanded.begin(), expanded.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, logPath.str(), logPath.str()};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(program, references, std::nullopt, redirects, 0, 0,
                                         &message);
  if (status != 0) {
    auto printed = llvm::MemoryBuffer::getFile(logPath);
    return pipelineError(what + " failed" + (message.empty() ? "" : " (" + message + ")") +
                         ":\n" + (printed ? (*printed)->getBuffer().str() : std::string()));
  }
  if (log) {
    auto printed = llvm::MemoryBuffer::getFile(logPath);
    *log = printed ? (*printed)->getBuffer().str() : std::string();
  }
  auto output = llvm::MemoryBuffer::getFile(outputPath, /*IsText=*/false);
  if (!output || (*output)->getBufferSize() == 0)
    return pipelineError(what + " wrote no output");
  return (*output)->getBuffer().str();
}

std::optional<std::string> captureToolOutput(const std::string &program,
                                             llvm::ArrayRef<std::string> arguments) {
  if (!llvm::sys::fs::can_execute(program))
    return std::nullopt;
  llvm::SmallString<128> outputPath;
  if (llvm::sys::fs::createTemporaryFile("hlo-compile-tool", "txt", outputPath))
    return std::nullopt;
  llvm::scope_exit cleanup([&] { llvm::sys::fs::remove(outputPath); });
  std::vector<llvm::StringRef> references = {program};
  references.insert(references.end(), arguments.begin(), arguments.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, outputPath.str(),
                                                outputPath.str()};
  int status = llvm::sys::ExecuteAndWait(program, references, std::nullopt, redirects);
  auto text = llvm::MemoryBuffer::getFile(outputPath);
  if (status != 0 || !text)
    return std::nullopt;
  return (*text)->getBuffer().str();
}

} // namespace hlo::pipeline
