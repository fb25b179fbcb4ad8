//===- TargetSupport.cpp - What every target's back end shares ------------===//
//
// Owns the pieces of code generation that do not depend on a target and
// that both targets (nvptx/, host/) use: which target writes which output,
// the per-pass dumps, LLVM's optimization levels, printing LLVM IR, and
// machine code through a target machine. It sits below the targets, which
// sit below the pipeline that chooses one (Pipeline.h, Compile.h).
//
//===----------------------------------------------------------------------===//
#include "pipeline/Target.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <cctype>

namespace hlo::pipeline {

bool targetProduces(TargetKind target, OutputKind output) {
  switch (output) {
  case OutputKind::LlvmIr:
    return true;
  case OutputKind::Ptx:
  case OutputKind::Cubin:
    return target == TargetKind::Nvptx;
  case OutputKind::Assembly:
  case OutputKind::Object:
  case OutputKind::SharedObject:
    return target == TargetKind::Host;
  }
  return false;
}

bool isBinaryOutput(OutputKind output) {
  return output == OutputKind::Cubin || output == OutputKind::Object ||
         output == OutputKind::SharedObject;
}

void PassDumper::dump(llvm::StringRef pass, llvm::StringRef text,
                      llvm::StringRef extension) {
  ++counter;
  if (options.printAfterEachPass) {
    llvm::errs() << "// -----// IR after " << pass << " (" << counter
                 << ") //----- //\n"
                 << text << "\n";
  }
  if (!options.dumpDir.empty()) {
    std::string name = llvm::formatv("{0:D3}-{1}", counter, pass).str();
    for (char &c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_')
        c = '_';
    if (extension.empty())
      extension = pass.starts_with("llvm") ? ".ll" : ".mlir";
    std::error_code ec;
    llvm::raw_fd_ostream file(options.dumpDir + "/" + name + extension.str(), ec);
    if (!ec)
      file << text;
  }
}

llvm::CodeGenOptLevel codeGenOptLevel(int optLevel) {
  return optLevel >= 3   ? llvm::CodeGenOptLevel::Aggressive
         : optLevel == 2 ? llvm::CodeGenOptLevel::Default
         : optLevel == 1 ? llvm::CodeGenOptLevel::Less
                         : llvm::CodeGenOptLevel::None;
}

std::string printLlvmModule(const llvm::Module &module) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  module.print(stream, nullptr);
  return text;
}

llvm::Expected<std::string> emitWithTargetMachine(llvm::Module &module,
                                                  llvm::TargetMachine &machine, bool assembly) {
  std::string code;
  {
    llvm::raw_string_ostream stream(code);
    llvm::buffer_ostream buffered(stream);
    llvm::legacy::PassManager codegen;
    if (machine.addPassesToEmitFile(codegen, buffered, nullptr,
                                    assembly ? llvm::CodeGenFileType::AssemblyFile
                                             : llvm::CodeGenFileType::ObjectFile))
      return pipelineError("internal error: the target machine cannot emit " +
                           std::string(assembly ? "assembly" : "an object file"));
    codegen.run(module);
  }
  return code;
}

} // namespace hlo::pipeline
