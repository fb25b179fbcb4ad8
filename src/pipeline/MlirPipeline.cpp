//===- MlirPipeline.cpp - Emitted MLIR down to the LLVM dialect -----------===//
//
// Owns the order of the MLIR passes (after XLA's emitter pipeline), the
// numbered steps below: 1. simplify and lower the threads' cooperation
// (shuffles, predicated accesses), 2. inline the subgraph functions,
// 3. lower the xla_gpu loops, 4. shared tiles, barriers and bufferization
// into the kernel ABI, 5. flatten, 6. vectorize, 7. unroll, 8. guarded
// int -> f16 conversions, integer math, math and complex arithmetic,
// 9. sub-byte packing — shared by every target up to the point where the
// IR is in upstream dialects (gpu, memref, arith, scf, vector, math) —
// then 10. the target's conversion to the LLVM dialect (Target.h).
// Upstream passes wherever one does the job.
//
//===----------------------------------------------------------------------===//
#include "pipeline/AtomicRmwBufferization.h"
#include "pipeline/PredicatedInsertBufferization.h"
#include "pipeline/SharedTileBufferization.h"
#include "pipeline/Passes.h"
#include "emitters/SourceLocations.h"
#include "pipeline/Target.h"

#include "mlir/Conversion/ComplexToStandard/ComplexToStandard.h"
#include "mlir/Conversion/MathToFuncs/MathToFuncs.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace hlo::pipeline {
namespace {

/// Reports the IR after every pass to the dumper.
class DumpAfterEachPass : public PassInstrumentation {
public:
  explicit DumpAfterEachPass(PassDumper &dumper) : dumper(dumper) {}
  void runAfterPass(Pass *pass, Operation *op) override {
    // Pass managers nested on gpu.module report as adaptors: not a pass.
    if (pass->getArgument().empty())
      return;
    std::string text;
    llvm::raw_string_ostream stream(text);
    // The whole module, whatever the pass was anchored on.
    Operation *top = op;
    while (top->getParentOp())
      top = top->getParentOp();
    top->print(stream);
    dumper.dump(pass->getArgument(), text);
  }

private:
  PassDumper &dumper;
};

} // namespace

namespace {

/// Runs what `addPasses` adds to a pass manager set up with the options'
/// dumps and timing, then the target's last step.
/// The dialects' interfaces the passes use, and the dialects they create
/// ops of without declaring them.
void registerPipelineInterfaces(MLIRContext *context) {
  DialectRegistry registry;
  // The dialects' inliner, bufferization and to-LLVM interfaces.
  registerAllExtensions(registry);
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  registerAtomicRmwBufferization(registry);
  registerPredicatedInsertBufferization(registry);
  registerSharedTileBufferization(registry);
  context->appendDialectRegistry(registry);
  context->loadDialect<bufferization::BufferizationDialect, memref::MemRefDialect,
                       LLVM::LLVMDialect, NVVM::NVVMDialect>();
}

/// Adds the passes after `addPasses`: the target's conversion, and debug
/// scopes with -lineinfo.
void addTargetPasses(PassManager &pm, ModuleOp module, const PipelineOptions &options,
                     const CodegenTarget &target) {
  // 10. The target's conversion to the LLVM dialect.
  target.addConversionPasses(pm, module);
  // -lineinfo: debug scopes so that the ops' HLO locations become line
  // tables (.file/.loc in PTX, as nvcc's -lineinfo).
  if (options.lineInfo) {
    LLVM::DIScopeForLLVMFuncOpPassOptions scopes;
    scopes.emissionKind = options.target == TargetKind::Nvptx
                              ? LLVM::DIEmissionKind::DebugDirectivesOnly
                              : LLVM::DIEmissionKind::LineTablesOnly;
    pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass(scopes));
  }
}

/// Runs what `addPasses` adds to a pass manager set up with the options'
/// dumps and timing, then the target's last step.
template <typename AddPasses>
llvm::Error runPipeline(ModuleOp module, const PipelineOptions &options, PassDumper &dumper,
                        AddPasses addPasses) {
  MLIRContext *context = module.getContext();
  registerPipelineInterfaces(context);

  std::string diagnostics;
  llvm::raw_string_ostream stream(diagnostics);
  // Emitted ops carry their HLO instruction's file:line:col: say where.
  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diagnostic) {
    stream << SourceLocations::prefixOf(diagnostic.getLocation()) << diagnostic.str() << "\n";
    return success();
  });
  PassManager pm(context);
  pm.enableVerifier(options.verifyEachPass);
  if (dumper.enabled())
    pm.addInstrumentation(std::make_unique<DumpAfterEachPass>(dumper));
  if (options.timePasses)
    pm.enableTiming();
  std::unique_ptr<CodegenTarget> target = createTarget(options);
  addPasses(pm);
  addTargetPasses(pm, module, options, *target);
  // Without --verify-each, the emitters' IR and the pipeline's result are
  // verified once each; a pass that breaks the IR is then found by
  // rerunning with --verify-each.
  auto verifyOnce = [&](const char *what) -> llvm::Error {
    if (options.verifyEachPass || succeeded(verify(module)))
      return llvm::Error::success();
    return pipelineError(std::string("internal error: ") + what +
                         " does not verify: " + diagnostics);
  };
  if (llvm::Error error = verifyOnce("the emitted IR"))
    return error;
  if (failed(pm.run(module)))
    return pipelineError("internal error: the MLIR pipeline failed: " + diagnostics);
  if (llvm::Error error =
          verifyOnce("the MLIR pipeline's result (rerun with --verify-each to find the pass)"))
    return error;
  return target->finishLlvmDialect(module);
}

/// The arith canonicalization patterns, by their debug names, that fold
/// an integer-to-float conversion and a truncation into one conversion.
const std::string kDoubleRoundingFolds[] = {"(anonymous namespace)::TruncFSIToFPToSIToFP",
                                            "(anonymous namespace)::TruncFUIToFPToUIToFP"};

/// Canonicalization, after the conversions of small-float constants are
/// made integer code: the arith folder would convert them with APFloat,
/// whose f8E8M0FNU and f4E2M1FN rules differ from ml_dtypes'. Without the
/// arith patterns that fold truncf(sitofp x) and truncf(uitofp x) into one
/// conversion: HLO rounds twice there (s32 -> bf16 -> f8E4M3FN turns 465
/// into 464, then 448), the folded conversion once (465 -> NaN). atan2s
/// of constants are guarded first (their folder makes NaNs of zeros).
void addCanonicalizer(PassManager &pm) {
  ExpandSmallFloatsPassOptions constantsOnly;
  constantsOnly.constantOperandsOnly = true;
  pm.addPass(createExpandSmallFloatsPass(constantsOnly));
  pm.addPass(createGuardAtan2ZerosPass());
  pm.addPass(createCanonicalizerPass(GreedyRewriteConfig(), kDoubleRoundingFolds));
}

/// The passes every target shares, from the emitters' output to the split
/// point.
void addSharedPasses(PassManager &pm) {
  // 1. Simplify; the threads' cooperation as scf and gpu ops (the
  // combiners' calls are inlined next); 2. inline the subgraph functions
  // and drop them.
  addCanonicalizer(pm);
  pm.addPass(createCSEPass());
  pm.addPass(createLowerShuffleReducePass());
  pm.addPass(createLowerPredicatedInsertPass());
  pm.addPass(createLowerPredicatedExtractPass());
  pm.addPass(createInlineSubgraphsPass());
  pm.addPass(createSymbolDCEPass());
  // 3. The xla_gpu loops to scf; range-aware integer simplification.
  pm.addPass(createLowerXlaGpuLoopsPass());
  addCanonicalizer(pm);
  pm.addPass(createCSEPass());
  // Range-aware: thread and block ids carry their upper bounds.
  pm.addPass(arith::createArithIntRangeOpts());
  pm.addPass(arith::createArithUnsignedWhenEquivalentPass());
  addCanonicalizer(pm);
  pm.addPass(createCSEPass());
  // 4. Tensors to buffers in the kernel ABI. (Skipping the analysis of
  // the read-only subgraph functions with `noAnalysisFuncFilter` would be
  // much faster on modules with thousands of shared functions, but crashes
  // in LLVM 22's insertTensorCopies.)
  // Shared tiles and barriers last at the tensor level, so that no tensor
  // rewrite moves an access across a barrier.
  pm.addPass(createLowerAllocateSharedPass());
  pm.addPass(createLowerSyncThreadsPass());
  pm.addPass(createMarkKernelOutputsWritablePass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createLowerAtomicRmwPass());
  // Loops over buffers yield the buffers they were given: fold them away so
  // that each kernel visibly returns its own output arguments.
  addCanonicalizer(pm);
  pm.addPass(createKernelAbiPass());
  addCanonicalizer(pm);
  // 5. Kernel buffers as 1-D memrefs.
  pm.addPass(createFlattenKernelBuffersPass());
  // 6. Contiguous accesses of the vector-index loop as vector loads/stores
  // (invariant code hoisted first).
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addPass(createVectorizeLoopAccessesPass());
  // 7. Unroll small loops fully, then the rest partially (several
  // iterations' loads in flight at once).
  pm.addPass(createUnrollSmallLoopsPass());
  addCanonicalizer(pm);
  pm.addPass(createCSEPass());
  pm.addPass(createUnrollLoopsByFactorPass());
  addCanonicalizer(pm);
  pm.addPass(createCSEPass());
  // 8. Integer -> f16 conversions guarded against overflow; integer math
  // and math without a single instruction as code; complex as real
  // arithmetic.
  pm.addPass(createGuardHalfIntConversionsPass());
  pm.addPass(createLowerIntegerMathPass());
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createConvertComplexToStandardPass());
  // 9. 2- and 4-bit elements packed in bytes, as XLA stores them.
  pm.addPass(createPackSubByteBuffersPass());
  addCanonicalizer(pm);
}

} // namespace

llvm::Error lowerToLlvmDialect(ModuleOp module, const PipelineOptions &options,
                               PassDumper &dumper) {
  return runPipeline(module, options, dumper, addSharedPasses);
}

void prepareContext(ModuleOp module, const PipelineOptions &options) {
  MLIRContext *context = module.getContext();
  registerPipelineInterfaces(context);
  std::unique_ptr<CodegenTarget> target = createTarget(options);
  DialectRegistry registry;
  target->registerTranslations(registry);
  PassManager pm(context);
  addSharedPasses(pm);
  addTargetPasses(pm, module, options, *target);
  pm.getDependentDialects(registry);
  context->appendDialectRegistry(registry);
  for (llvm::StringRef name : registry.getDialectNames())
    context->getOrLoadDialect(name);
}

llvm::Error lowerFromSplitPoint(ModuleOp module, const PipelineOptions &options,
                                PassDumper &dumper) {
  return runPipeline(module, options, dumper, [](PassManager &) {});
}

} // namespace hlo::pipeline
