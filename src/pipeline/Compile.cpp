//===- Compile.cpp - An emitted module to machine code and kernels --------===//
//
// Owns the order of the code generation stages (Compile.h) and the one
// place where the lowered kernels' contract (dialect/KernelContract.h)
// becomes typed per-kernel results.
//
//===----------------------------------------------------------------------===//
#include "pipeline/Compile.h"
#include "pipeline/Target.h"

#include "dialect/KernelContract.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <set>

namespace hlo::pipeline {
namespace {

/// The kernels of a module lowered to the LLVM dialect.
std::vector<CompiledKernel> loweredKernels(mlir::ModuleOp module) {
  std::vector<CompiledKernel> kernels;
  for (auto function : module.getOps<mlir::LLVM::LLVMFuncOp>()) {
    xla_gpu::LaunchAttr launch = xla_gpu::getKernelLaunch(function);
    if (!launch)
      continue;
    CompiledKernel kernel;
    kernel.symbol = function.getSymName().str();
    kernel.kernelIndex = xla_gpu::getKernelIndex(function).value_or(-1);
    for (int i = 0; i < 3; ++i) {
      kernel.grid[i] = launch.getGrid()[i];
      kernel.block[i] = launch.getBlock()[i];
    }
    if (!launch.getCluster().empty())
      kernel.cluster = {launch.getCluster()[0], launch.getCluster()[1], launch.getCluster()[2]};
    kernel.dynamicSharedBytes = launch.getDynamicSharedMemory();
    kernel.maxRegisters = launch.getMaxRegisters();
    kernel.staticSharedBytes = xla_gpu::getKernelSharedMemoryBytes(function);
    kernel.concurrentThreads = xla_gpu::kernelNeedsConcurrentThreads(function);
    kernels.push_back(std::move(kernel));
  }
  return kernels;
}

/// The --time-passes name of the back end's stage, and where its text
/// goes in the per-pass dumps (none for binary code).
struct MachineCodeStage {
  const char *name;
  const char *dumpName = nullptr;
  const char *dumpExtension = nullptr;
};

MachineCodeStage machineCodeStage(OutputKind kind) {
  switch (kind) {
  case OutputKind::LlvmIr:
    return {"LLVM IR text"};
  case OutputKind::Ptx:
    return {"PTX (NVPTX back end)", "ptx", ".ptx"};
  case OutputKind::Assembly:
    return {"host assembly", "asm", ".s"};
  default:
    return {"host object code"};
  }
}

/// A part's definitions but its kernels: internal, their names suffixed
/// (declarations of what the part does not define stay as they are).
void localizePartSymbols(llvm::Module &module, const std::vector<CompiledKernel> &kernels,
                         const std::string &suffix) {
  std::set<std::string> kernelNames;
  for (const CompiledKernel &kernel : kernels)
    kernelNames.insert(kernel.symbol);
  for (llvm::GlobalValue &value : module.global_values()) {
    if (value.isDeclaration() || !value.hasName() || kernelNames.count(value.getName().str()) ||
        value.getName().starts_with("llvm."))
      continue;
    value.setLinkage(llvm::GlobalValue::InternalLinkage);
    value.setName(value.getName() + suffix);
  }
}

} // namespace

llvm::Expected<CompiledCode> compileModule(mlir::ModuleOp module, OutputKind kind,
                                           const PipelineOptions &options, PassDumper &dumper,
                                           StageCallback stageDone, CompileStart start) {
  auto done = [&](llvm::StringRef stage) {
    if (stageDone)
      stageDone(stage);
  };
  if (!targetProduces(options.target, kind))
    return pipelineError("internal error: this target does not produce that output");
  std::unique_ptr<CodegenTarget> target = createTarget(options);
  if (llvm::Error failure = start == CompileStart::Emitted
                                ? lowerToLlvmDialect(module, options, dumper)
                                : lowerFromSplitPoint(module, options, dumper))
    return failure;
  done("MLIR passes");
  CompiledCode compiled;
  compiled.kind = kind;
  compiled.kernels = loweredKernels(module);

  llvm::LLVMContext llvmContext;
  llvm::Expected<std::unique_ptr<llvm::Module>> llvmModule =
      translateToLlvmIr(module, llvmContext, options, dumper);
  if (!llvmModule)
    return llvmModule.takeError();
  done(target->translationStage());
  if (!options.partSuffix.empty())
    localizePartSymbols(**llvmModule, compiled.kernels, options.partSuffix);

  OutputKind first = kind == OutputKind::LlvmIr ? kind : target->machineCodeKind(kind);
  llvm::Expected<std::string> code = first == OutputKind::LlvmIr
                                         ? printLlvmModule(**llvmModule)
                                         : target->emitMachineCode(**llvmModule, first);
  if (!code)
    return code.takeError();
  MachineCodeStage stage = machineCodeStage(first);
  done(stage.name);
  if (stage.dumpName)
    dumper.dump(stage.dumpName, *code, stage.dumpExtension);

  if (std::optional<std::string> step = target->finishingStep(kind, options.resourceUsage)) {
    llvm::Expected<std::string> finished = target->finish(
        std::move(*code), kind, options.resourceUsage ? &compiled.resources : nullptr);
    if (!finished)
      return finished.takeError();
    code = std::move(*finished);
    done(*step);
  }
  compiled.code = std::move(*code);
  attachResourceUsage(compiled);
  return compiled;
}

void attachResourceUsage(CompiledCode &code) {
  for (CompiledKernel &kernel : code.kernels)
    for (const KernelResourceUsage &usage : code.resources)
      if (usage.name == kernel.symbol)
        kernel.resources = usage;
}

} // namespace hlo::pipeline
