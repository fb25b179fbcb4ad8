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
  // Every kernel is tried: each error is reported at its instruction and
  // the kernel's functions are dropped, then the next kernel is emitted.
  bool anyFailed = false;
  auto report = [&](const EmissionError &error) {
    diagnostics.error(error.instruction ? error.instruction->sourceOffset() : kNoOffset,
                      error.message);
    anyFailed = true;
  };
  Block &body = result.getBodyRegion().front();
  auto dropSince = [&](Operation *last) {
    SmallVector<Operation *> added;
    for (Operation &op : llvm::make_range(
             last ? std::next(Block::iterator(last)) : body.begin(), body.end()))
      added.push_back(&op);
    for (Operation *op : llvm::reverse(added))
      op->erase();
  };
  for (size_t k = 0; k < plan.kernels().size(); ++k) {
    const KernelSource &kernel = plan.kernels()[k];
    if (!kernel.computation || kernel.computation->isDeclaration()) {
      report({kernel.origin, "fusion calls a computation that is not defined"});
      continue;
    }
    Operation *last = body.empty() ? nullptr : &body.back();
    verifierMessages.clear();
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
    if (!emitter) {
      report({kernel.origin, unsupported});
      continue;
    }
    EmissionError error;
    std::vector<KernelLaunchRecord> records;
    if (!emitter->emit(result, kernelNames[k], namer, locations, locations.of(kernel.origin),
                       records, error)) {
      // Inside a fused computation several kernels may share: say which.
      if (error.instruction && error.instruction != kernel.origin)
        error.message += " (in kernel '" + kernel.name + "')";
      report(error);
      dropSince(last);
      continue;
    }
    // The functions this kernel added must verify on their own.
    bool verified = true;
    for (Operation &op : llvm::make_range(
             last ? std::next(Block::iterator(last)) : body.begin(), body.end()))
      verified = verified && succeeded(verify(&op));
    if (!verified) {
      report({kernel.origin, "internal error: the MLIR emitted for '" +
                                 (kernel.origin ? kernel.origin->name() : kernel.name) +
                                 "' does not verify: " + verifierMessages});
      dropSince(last);
      continue;
    }
    for (KernelLaunchRecord &record : records) {
      record.planKernel = static_cast<int64_t>(k);
      result.lookupSymbol(record.name)
          ->setAttr(xla_gpu::kKernelIndexAttr,
                    IntegerAttr::get(IntegerType::get(&context, 64),
                                     static_cast<int64_t>(emitted.launches.size())));
      emitted.launches.push_back(record);
    }
  }
  if (anyFailed)
    return std::nullopt;
  verifierMessages.clear();
  if (failed(verify(result))) {
    report({nullptr, "internal error: the emitted MLIR does not verify: " + verifierMessages});
    return std::nullopt;
  }
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
