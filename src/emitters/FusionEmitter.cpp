//===- FusionEmitter.cpp - A module's fusions as MLIR ---------------------===//
#include "emitters/FusionEmitter.h"

#include "analysis/FusionAnalysis.h"
#include "dialect/XlaGpuDialect.h"
#include "emitters/EmitterFactory.h"
#include "emitters/SourceLocations.h"
#include "emitters/SymbolNamer.h"
#include "analysis/KernelPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Verifier.h"

#include "llvm/Support/raw_ostream.h"

#include <cctype>

using namespace mlir;

namespace hlo {

void loadEmitterDialects(MLIRContext &context) {
  context.loadDialect<xla_gpu::XlaGpuDialect, func::FuncDialect,
                      arith::ArithDialect, math::MathDialect, scf::SCFDialect,
                      tensor::TensorDialect, complex::ComplexDialect,
                      gpu::GPUDialect, vector::VectorDialect>();
}

std::optional<EmittedModule> emitKernels(const HloModule &module, const KernelPlan &plan,
                            const GpuDeviceInfo &device, MLIRContext &context,
                            DiagnosticEngine &diagnostics) {
  loadEmitterDialects(context);
  for (const HloInstruction *instruction : plan.notEmitted())
    diagnostics.warning(instruction->sourceOffset(),
                        "no kernel emitted for " +
                            std::string(opcodeName(instruction->opcode())) +
                            " '" + instruction->name() +
                            "': it runs as a library call or runtime "
                            "operation, outside generated code");
  for (const HloInstruction *instruction : plan.unsupported())
    diagnostics.error(instruction->sourceOffset(),
                      "unsupported: " +
                          std::string(opcodeName(instruction->opcode())));
  if (!plan.unsupported().empty())
    return std::nullopt;

  EmittedModule emitted;
  emitted.module = ModuleOp::create(UnknownLoc::get(&context));
  ModuleOp result = *emitted.module;
  // Kernels claim their names first; every function name is unique.
  SymbolNamer namer;
  SourceLocations locations(module.source().get(), &context);
  std::vector<std::string> kernelNames;
  for (const KernelSource &kernel : plan.kernels())
    kernelNames.push_back(namer.claim(kernel.name));
  // What the MLIR verifier says, reported at the kernel it concerns.
  std::string verifierMessages;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    verifierMessages += (verifierMessages.empty() ? "" : "; ") +
                        SourceLocations::prefixOf(diagnostic.getLocation()) + diagnostic.str();
    return success();
  });
  auto report = [&](const EmissionError &error) {
    diagnostics.error(error.instruction ? error.instruction->sourceOffset() : kNoOffset,
                      error.message);
    return std::nullopt;
  };
  for (size_t k = 0; k < plan.kernels().size(); ++k) {
    const KernelSource &kernel = plan.kernels()[k];
    if (!kernel.computation || kernel.computation->isDeclaration())
      return report({kernel.origin, "fusion calls a computation that is not defined"});
    Block &body = result.getBodyRegion().front();
    Operation *last = body.empty() ? nullptr : &body.back();
    FusionAnalysis analysis = analyzeFusion(*kernel.computation, kernel.fusion, device);
    // The kinds that update an operand in place may do so only where the
    // output may take that operand's buffer.
    bool updatesInPlace = analysis.variant == FusionVariant::InPlaceDynamicUpdateSlice ||
                          analysis.kind == EmitterKind::Scatter;
    for (int64_t i = 0; updatesInPlace && i < kernel.computation->parameterCount(); ++i)
      if (plan.canReuseInputBuffer(kernel, i))
        analysis.reusableParameters.push_back(i);
    // Elsewhere the loop emitter copies the updated operand as it writes.
    if (analysis.variant == FusionVariant::InPlaceDynamicUpdateSlice)
      for (const HloInstruction *root : analysis.roots)
        if (!llvm::is_contained(analysis.reusableParameters,
                                inPlaceUpdatedParameter(*root).parameterNumber()))
          analysis.setVariant(FusionVariant::Loop);
    std::string unsupported;
    std::unique_ptr<EmitterBase> emitter =
        createEmitter(analysis, *kernel.computation, device, unsupported);
    if (!emitter)
      return report({kernel.origin, unsupported});
    EmissionError error;
    std::vector<KernelLaunchRecord> records;
    if (!emitter->emit(result, kernelNames[k], namer, locations, locations.of(kernel.origin),
                       records, error))
      return report(error);
    for (KernelLaunchRecord &record : records) {
      record.planKernel = static_cast<int64_t>(k);
      result.lookupSymbol(record.name)
          ->setAttr(xla_gpu::kKernelIndexAttr,
                    IntegerAttr::get(IntegerType::get(&context, 64),
                                     static_cast<int64_t>(emitted.launches.size())));
      emitted.launches.push_back(record);
    }
    // The functions this kernel added must verify on their own.
    for (Operation &op : llvm::make_range(
             last ? std::next(Block::iterator(last)) : body.begin(), body.end()))
      if (failed(verify(&op)))
        return report({kernel.origin, "internal error: the MLIR emitted for '" +
                                          (kernel.origin ? kernel.origin->name() : kernel.name) +
                                          "' does not verify: " + verifierMessages});
  }
  if (failed(verify(result)))
    return report({nullptr, "internal error: the emitted MLIR does not verify: " +
                                verifierMessages});
  return emitted;
}

OwningOpRef<ModuleOp> emitModuleFusions(const HloModule &module,
                                        const GpuDeviceInfo &device,
                                        MLIRContext &context,
                                        DiagnosticEngine &diagnostics) {
  KernelPlan plan(module);
  std::optional<EmittedModule> emitted =
      emitKernels(module, plan, device, context, diagnostics);
  if (!emitted)
    return nullptr;
  return std::move(emitted->module);
}

} // namespace hlo
