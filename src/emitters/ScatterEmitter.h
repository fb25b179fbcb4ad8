//===- ScatterEmitter.h - The scatter emitters ------------------*- C++ -*-===//
//
// XLA's scatter fusion (shared/notes/xla-reference.md): the root is a
// scatter, seen through its canonical form (analysis/ScatterAnalysis.h).
// The output is the operand's buffer, updated in place, when the module
// lets the kernel take that buffer (the manifest's "aliases"); otherwise a
// first launch copies the operand into the output and the scatter runs as
// a second launch. An update window that does not fit in the operand is
// skipped whole (XLA's GPU rule, and the interpreter's). Writes are plain
// stores of combiner(current, update) when the indices are unique, and
// xla_gpu.atomic_rmw otherwise (native atomics where the combiner has one,
// a compare-and-swap loop for any other; variadic scatters need unique
// indices, as in XLA).
//
// This base owns the launches, the copy, a slice's window start with its
// bounds check, and the write; a variant owns the scatter launch's body:
//   - distributed updates (ScatterDistributedUpdatesEmitter.cpp): a thread
//     per update element, 128 threads per block;
//   - distributed indices (ScatterDistributedIndicesEmitter.cpp): sorted,
//     non-unique indices and many slices; a thread walks a run of
//     consecutive slices at one window offset, combining the updates of
//     repeated indices in a register and writing once per run.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_SCATTEREMITTER_H
#define HLO_EMITTERS_SCATTEREMITTER_H

#include "analysis/ScatterAnalysis.h"
#include "emitters/EmitterBase.h"

#include <memory>

namespace hlo {

class ScatterEmitter : public EmitterBase {
public:
  ScatterEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
                 const GpuDeviceInfo &device);

  LaunchDimensions launchDimensions() const override;
  int64_t launchCount() const override { return inPlace ? 1 : 2; }
  std::string emitterName() const override;
  /// Where a thread writes depends on the indices at run time.
  std::optional<IndexingMap>
  threadIdToOutputIndexing(int64_t, mlir::MLIRContext *) const override {
    return std::nullopt;
  }
  std::vector<int64_t> outputAliases() const override;

protected:
  std::vector<const HloInstruction *> valuesReadByEmitter() const override;
  [[nodiscard]] llvm::Error emitEntryFunction(EmitterContext &context) override;

  /// The scatter launch: the variant's threads and body.
  virtual LaunchDimensions scatterLaunch() const = 0;
  [[nodiscard]] virtual llvm::Error emitScatter(EmitterContext &context) = 0;

  /// Where the window of the slice at `slice` (one coordinate per update
  /// scatter dimension) starts in the operand, and whether it fits.
  struct WindowStart {
    llvm::SmallVector<mlir::Value> start;
    mlir::Value inBounds;
  };
  [[nodiscard]] llvm::Expected<WindowStart> windowStart(mlir::ImplicitLocOpBuilder &b,
                                                        EmitterContext &context,
                                                        mlir::ValueRange slice) const;
  /// The update dimension that walks the operand's minor dimension in the
  /// window: a thread takes neighbours along it (none when no window
  /// dimension does).
  std::optional<size_t> minorUpdateDim() const;
  /// The update elements at `updateIndex`, one per array.
  [[nodiscard]] llvm::Expected<llvm::SmallVector<mlir::Value>>
  updateValues(mlir::ImplicitLocOpBuilder &b, EmitterContext &context,
               mlir::ValueRange updateIndex) const;
  /// combiner(current, `values`) written at `operandIndex` of `outputs`:
  /// atomically unless the indices are unique. The updated outputs.
  [[nodiscard]] llvm::Expected<llvm::SmallVector<mlir::Value>>
  combineInto(mlir::ImplicitLocOpBuilder &b, EmitterContext &context,
              mlir::ValueRange outputs, mlir::ValueRange operandIndex,
              mlir::ValueRange values) const;
  /// combiner(`accumulated`, `values`): two updates of one element merged.
  [[nodiscard]] llvm::Expected<llvm::SmallVector<mlir::Value>>
  combine(mlir::ImplicitLocOpBuilder &b, EmitterContext &context,
          mlir::ValueRange accumulated, mlir::ValueRange values) const;

  const HloInstruction *scatter;
  ScatterCanonicalForm form;
  bool uniqueIndices = false;

private:
  [[nodiscard]] llvm::Error emitOperandCopy(EmitterContext &context);

  bool inPlace = false;
};

/// The variant the analysis chose.
/// The variant the analysis chose, or an error for a scatter no variant
/// can emit.
[[nodiscard]] llvm::Expected<std::unique_ptr<EmitterBase>>
createScatterEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
                     const GpuDeviceInfo &device);

} // namespace hlo

#endif // HLO_EMITTERS_SCATTEREMITTER_H
