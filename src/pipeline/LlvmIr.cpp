//===- LlvmIr.cpp - LLVM dialect to optimized LLVM IR ---------------------===//
//
// Owns choosing the target (Target.h) and the target-independent half of
// code generation: translating the LLVM dialect to LLVM IR and the LLVM
// optimization pipeline at -O0..-O3 with the target machine's pass
// callbacks; machine code is the target's (TargetSupport.cpp has what the
// targets share).
//
//===----------------------------------------------------------------------===//
#include "dialect/KernelContract.h"
#include "emitters/SourceLocations.h"
#include "pipeline/IndependentKernels.h"
#include "pipeline/Target.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Vectorize/LoadStoreVectorizer.h"

namespace hlo::pipeline {

std::unique_ptr<CodegenTarget> createTarget(const PipelineOptions &options) {
  return options.target == TargetKind::Host ? createHostTarget(options)
                                            : createNvptxTarget(options);
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
  if (options.independentKernels) {
    llvm::StringSet<> kernels;
    for (auto function : module.getOps<mlir::LLVM::LLVMFuncOp>())
      if (xla_gpu::getKernelLaunch(function))
        kernels.insert(function.getSymName());
    makeKernelsIndependent(*llvmModule, kernels);
  }

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
  // GPU code: neighbouring accesses become vector ones at the end of the
  // pipeline, while their addresses still show it. The NVPTX backend's own
  // load-store vectorizer runs after its address rewrites
  // (SeparateConstOffsetFromGEP), which turn `zext(a | b)` of one access
  // and `zext(a | (b + 1))` of its neighbour into forms it no longer
  // matches (a sorted scatter's two f32 updates stayed two loads).
  if ((*machine)->getTargetTriple().isNVPTX() && level != llvm::OptimizationLevel::O0)
    builder.registerOptimizerLastEPCallback(
        [](llvm::ModulePassManager &modulePasses, llvm::OptimizationLevel,
           llvm::ThinOrFullLTOPhase) {
          modulePasses.addPass(
              llvm::createModuleToFunctionPassAdaptor(llvm::LoadStoreVectorizerPass()));
        });
  llvm::ModulePassManager passes = builder.buildPerModuleDefaultPipeline(level);
  passes.run(*llvmModule, modules);
  if (llvm::verifyModule(*llvmModule, &llvm::errs()))
    return pipelineError("internal error: the optimized LLVM IR does not verify");
  if (dumper.enabled())
    dumper.dump("llvm-O" + std::to_string(options.optLevel), printLlvmModule(*llvmModule));
  return llvmModule;
}

} // namespace hlo::pipeline
