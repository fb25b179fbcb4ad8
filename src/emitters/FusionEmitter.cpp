//===- FusionEmitter.cpp - A module's fusions as MLIR ---------------------===//
#include "emitters/FusionEmitter.h"

#include "analysis/FusionAnalysis.h"
#include "dialect/XlaGpuDialect.h"
#include "emitters/LoopEmitter.h"
#include "emitters/SourceLocations.h"
#include "emitters/SymbolNamer.h"
#include "partitioner/KernelPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Verifier.h"

#include "llvm/Support/raw_ostream.h"

#include <cctype>

using namespace mlir;

namespace hlo {

void loadEmitterDialects(MLIRContext &context) {
  context.loadDialect<xla_gpu::XlaGpuDialect, func::FuncDialect,
                      arith::ArithDialect, math::MathDialect, scf::SCFDialect,
                      tensor::TensorDialect, complex::ComplexDialect,
                      gpu::GPUDialect>();
}

namespace {

bool emitFusion(ModuleOp module, const std::string &name,
                const HloComputation &fused, const HloInstruction *fusion,
                const HloInstruction *origin, const GpuDeviceInfo &device,
                SymbolNamer &namer, const SourceLocations &locations,
                EmissionError &error) {
  FusionAnalysis analysis = analyzeFusion(fused, fusion, device);
  bool loopLike = analysis.kind == EmitterKind::Loop ||
                  analysis.kind == EmitterKind::Concatenate;
  if (!loopLike) {
    error = {origin,
             "unsupported: " + analysis.kindString() +
                 " fusions need an emitter that is not implemented yet"};
    return false;
  }
  PartitionedComputation partitioned(fused, module.getContext());
  ElementalEmitter elemental(module, partitioned, namer, locations);
  if (!elemental.emitSubgraphFunctions(error))
    return false;
  LoopEmitter loop(fused, device);
  if (!loop.emitEntryFunction(module, name, partitioned, elemental, locations.of(origin),
                              error))
    return false;
  module.lookupSymbol(name)->setAttr(
      xla_gpu::kEmitterAttr,
      StringAttr::get(module.getContext(), analysis.kindString()));
  return true;
}

} // namespace

OwningOpRef<ModuleOp> emitModuleFusions(const HloModule &module,
                                        const GpuDeviceInfo &device,
                                        MLIRContext &context,
                                        DiagnosticEngine &diagnostics) {
  loadEmitterDialects(context);
  KernelPlan plan(module);
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
    return nullptr;

  OwningOpRef<ModuleOp> result = ModuleOp::create(UnknownLoc::get(&context));
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
  for (size_t k = 0; k < plan.kernels().size(); ++k) {
    const KernelSource &kernel = plan.kernels()[k];
    EmissionError error;
    Block &body = result->getBodyRegion().front();
    Operation *last = body.empty() ? nullptr : &body.back();
    bool ok = kernel.computation && !kernel.computation->isDeclaration();
    if (!ok)
      error = {kernel.origin, "fusion calls a computation that is not defined"};
    else
      ok = emitFusion(*result, kernelNames[k], *kernel.computation, kernel.fusion,
                      kernel.origin, device, namer, locations, error);
    if (!ok) {
      diagnostics.error(error.instruction ? error.instruction->sourceOffset()
                                          : kNoOffset,
                        error.message);
      return nullptr;
    }
    result->lookupSymbol(kernelNames[k])
        ->setAttr(xla_gpu::kKernelIndexAttr,
                  IntegerAttr::get(IntegerType::get(&context, 64), static_cast<int64_t>(k)));
    // The functions this kernel added must verify on their own.
    for (Operation &op : llvm::make_range(
             last ? std::next(Block::iterator(last)) : body.begin(), body.end()))
      if (failed(verify(&op))) {
        diagnostics.error(kernel.origin ? kernel.origin->sourceOffset() : kNoOffset,
                          "internal error: the MLIR emitted for '" +
                              (kernel.origin ? kernel.origin->name() : kernel.name) +
                              "' does not verify: " + verifierMessages);
        return nullptr;
      }
  }
  if (failed(verify(*result))) {
    diagnostics.error(kNoOffset,
                      "internal error: the emitted MLIR does not verify: " + verifierMessages);
    return nullptr;
  }
  return result;
}

} // namespace hlo
