//===- FusionAnalysis.h - Which emitter handles a fusion ---------*- C++ -*-===//
//
// Owns the emitter choice for a fusion (XLA's order): reduction, if a
// root's hero is a real reduction hero and the other roots fit; transpose,
// if the transpose heroes agree and the other roots are bitcasts of the
// transpose input; loop, for several roots; scatter; concatenate (one
// concatenate hero with at most 4 operands, no tuple root); else loop —
// with in-place dynamic-update-slice as a loop variant. Library kinds
// (custom, Triton and cuDNN fusions by their backend config; convolution
// and custom-call roots) are reported as not handled by an emitter, except
// XLA's block-level Triton fusions (`"kind":"__triton"`, not the GEMMs):
// those whose reductions are broadcast back into the fusion (softmax,
// layer norm) are kBlockLevel/NormalizationFusion, the others are analysed
// as the native fusions they are. A dot left inside a loop fusion is
// emitted elementally, as XLA does.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ANALYSIS_FUSIONANALYSIS_H
#define HLO_ANALYSIS_FUSIONANALYSIS_H

#include "analysis/DeviceInfo.h"
#include "analysis/ReductionAnalysis.h"
#include "analysis/ReductionKind.h"
#include "analysis/TransposeAnalysis.h"
#include "hlo_parser/HloComputation.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>
#include <vector>

namespace hlo {

/// What emits a fusion (analysis/FusionKinds.def lists them).
enum class EmitterKind {
#define FUSION_EMITTER_KIND(Name, Spelling) Name,
#include "analysis/FusionKinds.def"
};

/// The emitter (or, for Library, what XLA would use) within a kind.
enum class FusionVariant {
#define FUSION_VARIANT(Name, Kind, Spelling) Name,
#include "analysis/FusionKinds.def"
};

/// "kLoop", "kReduction", ... (XLA's spelling).
const char *emitterKindName(EmitterKind kind);
/// XLA's class name for the variant ("RowReductionFusion", "LoopFusion",
/// "PackedTranspose", ...), or the library ("Triton", "custom call", ...);
/// empty for Sort.
const char *fusionVariantName(FusionVariant variant);
/// The kind a variant belongs to.
EmitterKind emitterKindOf(FusionVariant variant);

/// A fusion's analysis, complete when analyzeFusion returns it: the
/// emitters read it and never change it. The launch figures (tilings) are
/// each emitter's own, computed from it when the emitter is built.
struct FusionAnalysis {
  EmitterKind kind = EmitterKind::Loop;
  FusionVariant variant = FusionVariant::Loop;
  std::vector<const HloInstruction *> roots;
  std::vector<const HloInstruction *> heroes;
  /// Transpose kind: the transpose the heroes agree on.
  std::optional<TransposeDescription> transpose;
  /// Reduction kind: the 3-D form of the reductions (the variant says
  /// which reduction emitter).
  std::optional<ReductionDimensions> reduction;
  /// The narrowest types read and written (vector sizes depend on them).
  FusionElementBits elementBits;
  bool inPlaceDynamicUpdateSlice = false;
  /// Block-level (normalization) and Triton GEMM fusions: the warps per
  /// block XLA's `block_level_fusion_config` asks for, if it names them.
  std::optional<int64_t> blockLevelWarps;
  /// ... and the output tile one block computes (one size per output
  /// dimension), empty if it names none.
  std::vector<int64_t> blockLevelTile;
  /// ... and its software-pipeline stages (`num_stages`: Triton GEMMs'
  /// buffers of K tiles in flight), if it names them.
  std::optional<int64_t> blockLevelStages;
  /// The kinds that update an operand in place (in-place
  /// dynamic-update-slice, scatter): the fusion parameters whose buffers an
  /// output may take (the ParameterReuse the analysis was given). They
  /// update their operand in place only when it is listed.
  std::vector<int64_t> reusableParameters;

  /// "kReduction/RowReductionFusion", "kLoop/LoopFusion", ...
  std::string kindString() const;
  /// Emitted by a hero's emitter: neither the plain loop emitter nor a
  /// library call.
  bool hasHeroEmitter() const {
    return variant != FusionVariant::Loop && kind != EmitterKind::Library;
  }
};

/// Whether an output of the fusion may take the buffer of fusion parameter
/// `parameter` (the module's KernelPlan::canReuseInputBuffer).
using ParameterReuse = llvm::function_ref<bool(int64_t parameter)>;

/// The `kind` of the fusion's `fusion_backend_config` (`__triton`,
/// `__triton_gemm`, `__custom_fusion`, ...); empty if it names none.
std::string fusionBackendKind(const HloInstruction &fusion);

/// Whether XLA runs `fusion` through a library rather than a kernel it
/// generates: a Triton GEMM (`__triton_gemm`, `__triton_nested_gemm_fusion`),
/// a custom fusion (`__custom_fusion`, CUTLASS), cuDNN, or a fused
/// convolution or custom-call.
bool runsAsLibraryCall(const HloInstruction &fusion);

/// Analyses `computation` as a fusion. `fusion` is the fusion instruction
/// calling it, if any (its kind / backend_config can name a library kind).
/// `mayReuse` says which parameters' buffers the outputs may take: an
/// in-place dynamic-update-slice fusion whose updated operand may not be
/// reused is a loop fusion (which copies the operand as it writes).
FusionAnalysis analyzeFusion(const HloComputation &computation,
                             const HloInstruction *fusion,
                             const GpuDeviceInfo &device, ParameterReuse mayReuse);
/// The analysis of a fusion seen alone, outside a module's buffer plan:
/// every parameter's buffer may be reused.
FusionAnalysis analyzeFusion(const HloComputation &computation,
                             const HloInstruction *fusion,
                             const GpuDeviceInfo &device);

/// Every root is a dynamic-update-slice (possibly behind a bitcast) whose
/// updated operand is a parameter that is only read at the updated
/// positions, all updates having one shape: the kernel can update in place.
bool canEmitDynamicUpdateSliceInPlace(const HloComputation &computation);

/// The dynamic-update-slice behind an in-place root (through bitcasts),
/// and the fusion parameter it updates (its operand, through bitcasts).
const HloInstruction &dynamicUpdateSliceOf(const HloInstruction &root);
const HloInstruction &inPlaceUpdatedParameter(const HloInstruction &root);

/// Reductions are multi-output compatible if their 3-D forms agree.
bool areReductionsMultiOutputCompatible(const HloInstruction &a,
                                        const HloInstruction &b);

} // namespace hlo

#endif // HLO_ANALYSIS_FUSIONANALYSIS_H
