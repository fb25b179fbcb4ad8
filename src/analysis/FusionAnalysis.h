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
#include "analysis/ReductionTiling.h"
#include "analysis/TransposeAnalysis.h"
#include "analysis/TransposeTiling.h"
#include "hlo_parser/HloComputation.h"

#include <optional>
#include <string>
#include <vector>

namespace hlo {

enum class EmitterKind {
  Loop,
  Reduction,
  Transpose,
  Scatter,
  Concatenate,
  Sort,
  /// XLA's block-level (Triton) normalization fusions, by our own emitter.
  BlockLevel,
  Library, // custom / Triton / cuDNN / cuBLAS: not handled by an emitter
};

/// The emitter (or, for Library, what XLA would use) within a kind.
enum class FusionVariant {
  Loop,
  InPlaceDynamicUpdateSlice,
  RowReduction,
  MultiRowReduction,
  ColumnReduction,
  SmallColumnReduction,
  Transpose,
  PackedTranspose,
  ScatterWithDistributedUpdates,
  ScatterWithDistributedIndices,
  Concatenate,
  Sort,
  Normalization,
  CustomFusion,
  Triton,
  Cudnn,
  CudnnConvolution,
  CustomCall,
};

/// "kLoop", "kReduction", ... (XLA's spelling).
const char *emitterKindName(EmitterKind kind);
/// XLA's class name for the variant ("RowReductionFusion", "LoopFusion",
/// "PackedTranspose", ...), or the library ("Triton", "custom call", ...);
/// empty for Sort.
const char *fusionVariantName(FusionVariant variant);
/// The kind a variant belongs to.
EmitterKind emitterKindOf(FusionVariant variant);

struct FusionAnalysis {
  EmitterKind kind = EmitterKind::Loop;
  FusionVariant variant = FusionVariant::Loop;
  std::vector<const HloInstruction *> roots;
  std::vector<const HloInstruction *> heroes;
  std::optional<TransposeDescription> transpose;
  /// Transpose kind: the shared-memory tiling.
  std::optional<TransposeTiling> transposeTiling;
  std::optional<ReductionDimensions> reduction;
  /// Reduction kind: the chosen variant's launch figures.
  std::optional<ReductionTiling> reductionTiling;
  /// The narrowest types read and written (vector sizes depend on them).
  FusionElementBits elementBits;
  bool inPlaceDynamicUpdateSlice = false;
  /// Block-level (normalization) fusions: the warps per block XLA's
  /// `block_level_fusion_config` asks for, if it names them.
  std::optional<int64_t> blockLevelWarps;
  /// ... and the output tile one block computes (one size per output
  /// dimension), empty if it names none.
  std::vector<int64_t> blockLevelTile;
  /// The fusion parameters whose buffers an output may take (the module's
  /// KernelPlan::canReuseInputBuffer; set by whoever emits an in-place
  /// dynamic-update-slice or scatter fusion, empty: none). Those update
  /// their operand in place only when it is listed.
  std::vector<int64_t> reusableParameters;

  /// "kReduction/RowReductionFusion", "kLoop/LoopFusion", ...
  std::string kindString() const;
  /// Sets the variant and the kind it belongs to.
  void setVariant(FusionVariant value) {
    variant = value;
    kind = emitterKindOf(value);
  }
};

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
