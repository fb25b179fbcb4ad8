//===- LlvmIr.cpp - LLVM dialect to optimized LLVM IR and machine code ----===//
//
// Owns the target-independent half of code generation: translating the
// LLVM dialect to LLVM IR, the LLVM optimization pipeline at -O0..-O3 with
// the target machine's pass callbacks, and emitting assembly or an object
// through a target machine; which target does what is asked of the
// CodegenTarget (Target.h).
//
//===----------------------------------------------------------------------===//
#include "emitters/SourceLocations.h"
#include "pipeline/Target.h"
#include "pipeline/host/SharedObjectLinker.h"
#include "pipeline/nvptx/Ptxas.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

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

std::unique_ptr<CodegenTarget> createTarget(const PipelineOptions &options) {
  return options.target == TargetKind::Host ? createHostTarget(options)
                                            : createNvptxTarget(options);
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

llvm::Expected<std::unique_ptr<llvm::Module>>
translateToLlvmIr(mlir::ModuleOp module, llvm::LLVMContext &context,
                  const PipelineOptions &options, PassDumper &dumper) {
  std::unique_ptr<CodegenTarget> target = createTarget(options);
  mlir::DialectRegistry registry;
  target->registerTranslations(registry);
  module.getContext()->appendDialectRegistry(registry);

  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine = target->createTargetMachine();
  if (!machine)
    return machine.takeError();
  // What the translation says goes into the error, at the HLO instruction
  // the op came from, not to stderr.
  std::string diagnostics;
  std::unique_ptr<llvm::Module> llvmModule;
  {
    mlir::ScopedDiagnosticHandler handler(module.getContext(), [&](mlir::Diagnostic &diagnostic) {
      diagnostics += (diagnostics.empty() ? "" : "; ") +
                     SourceLocations::prefixOf(diagnostic.getLocation()) + diagnostic.str();
      return mlir::success();
    });
    llvmModule = mlir::translateModuleToLLVMIR(module, context, "kernels");
  }
  if (!llvmModule)
    return pipelineError("internal error: translation to LLVM IR failed" +
                         (diagnostics.empty() ? std::string() : ": " + diagnostics));
  if (llvm::Error error = target->prepareLlvmIr(*llvmModule, **machine, dumper))
    return error;

  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(machine->get());
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  llvm::OptimizationLevel level = options.optLevel >= 3   ? llvm::OptimizationLevel::O3
                                  : options.optLevel == 2 ? llvm::OptimizationLevel::O2
                                  : options.optLevel == 1 ? llvm::OptimizationLevel::O1
                                                          : llvm::OptimizationLevel::O0;
  llvm::ModulePassManager passes = builder.buildPerModuleDefaultPipeline(level);
  passes.run(*llvmModule, modules);
  if (llvm::verifyModule(*llvmModule, &llvm::errs()))
    return pipelineError("internal error: the optimized LLVM IR does not verify");
  if (dumper.enabled())
    dumper.dump("llvm-O" + std::to_string(options.optLevel), printLlvmModule(*llvmModule));
  return llvmModule;
}

llvm::Expected<std::string> emitOutput(llvm::Module &module, OutputKind output,
                                       const PipelineOptions &options) {
  if (!targetProduces(options.target, output))
    return pipelineError("internal error: this target does not produce that output");
  if (output == OutputKind::LlvmIr)
    return printLlvmModule(module);
  return createTarget(options)->emit(module, output);
}

llvm::Expected<std::string> assembleCubin(const std::string &ptx, const PipelineOptions &options,
                                          std::vector<KernelResourceUsage> *usage) {
  return runPtxas(ptx, options, usage);
}

llvm::Expected<std::string> linkHostSharedObject(const std::string &object) {
  return linkSharedObject(object);
}

} // namespace hlo::pipeline
