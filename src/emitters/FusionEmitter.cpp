//===- FusionEmitter.cpp - A module's fusions as MLIR ---------------------===//
#include "emitters/FusionEmitter.h"

#include "analysis/FusionAnalysis.h"
#include "dialect/KernelContract.h"
#include "dialect/XlaGpuDialect.h"
#include "emitters/EmissionError.h"
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

namespace {

/// An error as reported at a kernel: the instruction it is about (null:
/// none) and its message. A kernel with the same code as a failed one
/// reports the same errors.
struct KernelError {
  const HloInstruction *instruction = nullptr;
  std::string message;
};

} // namespace

void loadEmitterDialects(MLIRContext &context) {
  context.loadDialect<xla_gpu::XlaGpuDialect, func::FuncDialect,
                      arith::ArithDialect, math::MathDialect, scf::SCFDialect,
                      tensor::TensorDialect, complex::ComplexDialect,
                      gpu::GPUDialect, vector::VectorDialect>();
}

std::optional<EmittedModule> emitKernels(const HloModule &module, const KernelPlan &plan,
                            const GpuDeviceInfo &device, MLIRContext &context,
                            DiagnosticEngine &diagnostics, const EmitterOptions &options) {
  loadEmitterDialects(context);
  EmittedModule emitted;
  for (const HloInstruction *instruction : plan.unsupported()) {
    std::string message = "unsupported: " + std::string(opcodeName(instruction->opcode()));
    diagnostics.error(instruction->sourceOffset(), message);
    emitted.failed.push_back({instruction, -1, instruction->sourceOffset(), message});
  }

  emitted.module = ModuleOp::create(UnknownLoc::get(&context));
  ModuleOp result = *emitted.module;
  // Kernels claim their names first; every function name is unique.
  SymbolNamer namer;
  SourceLocations locations(module.source().get(), &context);
  // Kernels with the same code as an earlier one run its functions.
  std::vector<size_t> owners = plan.codeOwners();
  std::vector<std::string> kernelNames;
  for (size_t k = 0; k < plan.kernels().size(); ++k)
    kernelNames.push_back(owners[k] == k ? namer.claim(plan.kernels()[k].name) : "");
  // Per kernel, its first launch in `emitted.launches`; -1 if it failed.
  std::vector<int64_t> firstLaunch(plan.kernels().size(), -1);
  // What the MLIR verifier says, reported at the kernel it concerns.
  std::string verifierMessages;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    verifierMessages += (verifierMessages.empty() ? "" : "; ") +
                        SourceLocations::prefixOf(diagnostic.getLocation()) + diagnostic.str();
    return success();
  });
  // Every kernel is tried: each error is reported at its instruction and
  // the kernel's functions are dropped, then the next kernel is emitted.
  // Per kernel, its errors as the emitter gave them: a kernel with the
  // same code as a failed one fails the same way, reported as its own.
  std::vector<std::vector<KernelError>> kernelErrors(plan.kernels().size());
  auto reportFor = [&](size_t k, const KernelError &error) {
    const KernelSource &kernel = plan.kernels()[k];
    kernelErrors[k].push_back(error);
    std::string message = error.message;
    // Inside a fused computation several kernels may share: say which.
    if (error.instruction && error.instruction != kernel.origin)
      message += " (in kernel '" + kernel.name + "')";
    uint32_t offset = error.instruction ? error.instruction->sourceOffset() : kNoOffset;
    diagnostics.error(offset, message);
    // One entry per kernel, with its first error.
    if (emitted.failed.empty() || emitted.failed.back().planKernel != static_cast<int64_t>(k))
      emitted.failed.push_back({kernel.origin, static_cast<int64_t>(k), offset, message});
  };
  Block &body = result.getBodyRegion().front();
  // The functions a kernel added after `last` (null: from the start).
  auto addedSince = [&](Operation *last) {
    return llvm::make_range(last ? std::next(Block::iterator(last)) : body.begin(),
                            body.end());
  };
  auto dropSince = [&](Operation *last) {
    SmallVector<Operation *> added;
    for (Operation &op : addedSince(last))
      added.push_back(&op);
    for (Operation *op : llvm::reverse(added))
      op->erase();
  };
  for (size_t k = 0; k < plan.kernels().size(); ++k) {
    const KernelSource &kernel = plan.kernels()[k];
    if (owners[k] != k) {
      // The owner's launches run this kernel too; its errors are this
      // kernel's as well, reported here under this kernel's name.
      int64_t first = firstLaunch[owners[k]];
      if (first < 0) {
        for (const KernelError &error : kernelErrors[owners[k]])
          reportFor(k, error);
        continue;
      }
      firstLaunch[k] = static_cast<int64_t>(emitted.launches.size());
      int64_t count = emitted.launches[first].launchCount;
      for (int64_t i = first; i < first + count; ++i) {
        KernelLaunchRecord record = emitted.launches[i];
        record.planKernel = static_cast<int64_t>(k);
        record.sharesCodeOf = i;
        emitted.launches.push_back(std::move(record));
      }
      continue;
    }
    if (!kernel.computation || kernel.computation->isDeclaration()) {
      reportFor(k, {kernel.origin, "fusion calls a computation that is not defined"});
      continue;
    }
    Operation *last = body.empty() ? nullptr : &body.back();
    verifierMessages.clear();
    const FusionAnalysis analysis =
        analyzeFusion(*kernel.computation, kernel.fusion, device,
                      [&](int64_t parameter) { return plan.canReuseInputBuffer(kernel, parameter); });
    llvm::Expected<std::unique_ptr<EmitterBase>> emitter =
        createEmitter(analysis, *kernel.computation, device, options);
    if (!emitter) {
      reportFor(k, {kernel.origin, llvm::toString(emitter.takeError())});
      continue;
    }
    std::vector<KernelLaunchRecord> records;
    if (llvm::Error error = (*emitter)->emit(result, kernelNames[k], namer, locations,
                                             locations.of(kernel.origin), records)) {
      // Emitters fail with an EmissionFailure; any other error is reported
      // at no instruction.
      llvm::handleAllErrors(
          std::move(error),
          [&](const EmissionFailure &failure) {
            reportFor(k, {failure.instruction(), failure.message()});
          },
          [&](const llvm::ErrorInfoBase &other) { reportFor(k, {nullptr, other.message()}); });
      dropSince(last);
      continue;
    }
    // The functions this kernel added must verify on their own.
    bool verified = true;
    for (Operation &op : addedSince(last))
      verified = verified && succeeded(verify(&op));
    if (!verified) {
      reportFor(k, {kernel.origin, "internal error: the MLIR emitted for '" +
                                       (kernel.origin ? kernel.origin->name() : kernel.name) +
                                       "' does not verify: " + verifierMessages});
      dropSince(last);
      continue;
    }
    firstLaunch[k] = static_cast<int64_t>(emitted.launches.size());
    for (KernelLaunchRecord &record : records) {
      record.planKernel = static_cast<int64_t>(k);
      xla_gpu::setKernelIndex(result.lookupSymbol(record.name),
                              static_cast<int64_t>(emitted.launches.size()));
      emitted.launches.push_back(record);
    }
  }
  verifierMessages.clear();
  if (failed(verify(result))) {
    diagnostics.error(kNoOffset,
                      "internal error: the emitted MLIR does not verify: " + verifierMessages);
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
  if (!emitted || !emitted->failed.empty())
    return nullptr;
  return std::move(emitted->module);
}

} // namespace hlo
