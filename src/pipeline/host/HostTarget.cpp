//===- HostTarget.cpp - The host CPU target -------------------------------===//
//
// Owns the host target: the conversion of the shared pipeline's output to
// LLVM for this machine's CPU (the passes of HostPasses.td around
// upstream's float emulation, math-to-libm and scf-to-cf), and machine code
// for it: assembly, an object file, or the shared object of kernels that
// hlo-run's CPU launcher loads. Generic CPU code (x86-64 without
// extensions, or the architecture's baseline) so that the output does not
// depend on the machine that compiled it.
//
//===----------------------------------------------------------------------===//
#include "pipeline/Target.h"
#include "pipeline/Passes.h"
#include "pipeline/host/HostPasses.h"
#include "pipeline/host/SharedObjectLinker.h"

#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

namespace hlo::pipeline {
namespace {

class HostTarget : public CodegenTarget {
public:
  explicit HostTarget(const PipelineOptions &options) : options(options) {}

  void addConversionPasses(mlir::PassManager &pm, mlir::ModuleOp module) const override {
    // The warp collectives first: an mma.sync's 8-bit float fragments
    // still say which format they are (the runtime call gets them as
    // bytes).
    pm.addPass(createLowerGpuToHostRuntimePass());
    addSmallFloatLowering(pm);
    if (options.hostBoundsChecks)
      pm.addPass(createCheckHostAccessesPass());
    pm.addPass(createLegalizeHostFloatsPass());
    mlir::arith::ArithEmulateUnsupportedFloatsOptions emulate;
    emulate.sourceTypeStrs = {"bf16", "f16"};
    emulate.targetTypeStr = "f32";
    pm.addPass(mlir::arith::createArithEmulateUnsupportedFloats(emulate));
    pm.addPass(createKeepEmulatedRoundingPass());
    mlir::arith::ArithExpandOpsPassOptions expand;
    expand.includeBf16 = true;
    pm.addPass(mlir::arith::createArithExpandOpsPass(expand));
    // libm has no rsqrtf: 1 / sqrt first.
    mlir::math::MathExpandOpsPassOptions mathExpand;
    mathExpand.opMnemonics = {"rsqrt"};
    pm.addPass(mlir::math::createMathExpandOpsPass(mathExpand));
    pm.addPass(mlir::createConvertMathToLibmPass());
    pm.addPass(mlir::createSCFToControlFlowPass());
    pm.addPass(createConvertToHostLlvmPass());
    pm.addPass(mlir::createReconcileUnrealizedCastsPass());
    pm.addPass(createHostKernelAbiPass());
  }

  void registerTranslations(mlir::DialectRegistry &registry) const override {
    mlir::registerBuiltinDialectTranslation(registry);
    mlir::registerLLVMDialectTranslation(registry);
  }

  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> createTargetMachine() const override {
    static std::once_flag once;
    std::call_once(once, [] {
      llvm::InitializeNativeTarget();
      llvm::InitializeNativeTargetAsmPrinter();
    });
    llvm::Triple triple(llvm::sys::getProcessTriple());
    std::string error;
    const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
    if (!target)
      return pipelineError(error);
    std::string cpu = triple.getArch() == llvm::Triple::x86_64 ? "x86-64" : "generic";
    llvm::TargetOptions targetOptions;
    return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
        triple, cpu, "", targetOptions, llvm::Reloc::PIC_, std::nullopt,
        codeGenOptLevel(options.optLevel)));
  }

  llvm::Error prepareLlvmIr(llvm::Module &module, llvm::TargetMachine &machine,
                            PassDumper &dumper) const override {
    module.setTargetTriple(machine.getTargetTriple());
    module.setDataLayout(machine.createDataLayout());
    if (dumper.enabled())
      dumper.dump("llvm-translate", printLlvmModule(module));
    return llvm::Error::success();
  }

  std::string translationStage() const override {
    return "LLVM IR, -O" + std::to_string(options.optLevel);
  }

  OutputKind machineCodeKind(OutputKind kind) const override {
    return kind == OutputKind::SharedObject ? OutputKind::Object : kind;
  }

  llvm::Expected<std::string> emitMachineCode(llvm::Module &module,
                                              OutputKind kind) const override {
    llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine = createTargetMachine();
    if (!machine)
      return machine.takeError();
    return emitWithTargetMachine(module, **machine, /*assembly=*/kind == OutputKind::Assembly);
  }

  std::optional<std::string> finishingStep(OutputKind kind, bool) const override {
    if (kind == OutputKind::SharedObject)
      return "system linker (shared object)";
    return std::nullopt;
  }

  llvm::Expected<std::string> finish(std::string object, OutputKind kind,
                                     std::vector<KernelResourceUsage> *) const override {
    if (kind != OutputKind::SharedObject)
      return object;
    return linkSharedObject(object);
  }

private:
  const PipelineOptions &options;
};

} // namespace

std::unique_ptr<CodegenTarget> createHostTarget(const PipelineOptions &options) {
  return std::make_unique<HostTarget>(options);
}

} // namespace hlo::pipeline
