//===- EmitterBase.h - What every hero emitter shares -----------*- C++ -*-===//
//
// The small base of the hero emitters (XLA's "XLA:GPU Emitters"), after
// XLA's emitter_base: an emitter states its launch (grid, block, shared
// memory, whether threads synchronize), its thread -> output indexing, the
// values it reads through subgraph calls and the epilogues from its heroes
// to the roots; the base does the rest once for all of them: partitioning
// with those epilogues, the entry function
//
//   func.func @kernel(%p0: tensor<..>, ..., %out0: tensor<..>, ...,
//                     %scratch0: tensor<..>, ...)
//       -> (tensor<..>, ...)   // the outputs, then the scratch, written
//
// with its launch attributes, the thread and block ids (with their bounds),
// loops over indexing maps, and the subgraph functions the body calls (on
// demand). A new hero is a subclass of its own, chosen by the factory
// (EmitterFactory.h), with its kind and launch figures in analysis/.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_EMITTERBASE_H
#define HLO_EMITTERS_EMITTERBASE_H

#include "abi/GemmTuning.h"
#include "analysis/DeviceInfo.h"
#include "analysis/FusionAnalysis.h"
#include "analysis/IndexingMap.h"
#include "emitters/EmissionError.h"
#include "emitters/IndexedValueEmitter.h"

#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace hlo {

struct LaunchDimensions {
  std::array<int64_t, 3> blocks = {1, 1, 1};
  std::array<int64_t, 3> threads = {1, 1, 1};
  /// Thread-block clusters of this shape (sm_90+); none when empty.
  std::optional<std::array<int64_t, 3>> cluster;
  /// Shared memory the launch adds to the kernel's static tiles.
  int64_t dynamicSharedMemoryBytes = 0;
  /// The most registers per thread the kernel may use; 0: any.
  int64_t maxRegisters = 0;
  int64_t blockCount() const { return blocks[0] * blocks[1] * blocks[2]; }
  int64_t threadsPerBlock() const { return threads[0] * threads[1] * threads[2]; }
};

/// An input the launch passes as a TMA tensor map (abi::TensorMapSpec):
/// its position among the kernel's parameters, the box (most minor
/// dimension first) and the swizzle in bytes.
struct TensorMapParameter {
  int64_t parameter = 0;
  std::vector<int64_t> box;
  int64_t swizzleBytes = 0;
};

/// What the runtime needs to launch one emitted kernel: the typed record
/// that goes from the emitter to the manifest.
struct KernelLaunchRecord {
  /// The kernel's symbol.
  std::string name;
  /// "kReduction/RowReductionFusion", ...
  std::string emitter;
  LaunchDimensions launch;
  /// Static shared memory the kernel allocates.
  int64_t sharedMemoryBytes = 0;
  /// The block's threads meet at barriers or exchange values in warp
  /// shuffles (the host launcher must run them concurrently).
  bool synchronizesThreads = false;
  /// Per output (FusionOutput order): the fusion parameter whose buffer it
  /// is (an in-place update writes only part of it), or -1. Empty: none.
  std::vector<int64_t> outputAliases;
  /// Per output: the fusion parameter whose buffer it may be written over
  /// where the plan finds that operand dead (the kernel reads each of its
  /// elements before writing the output's), or -1. Empty: none.
  std::vector<int64_t> outputMayReuse;
  /// Buffers only the kernel's launches use, after the outputs among its
  /// parameters (the manifest's "scratch" bindings).
  std::vector<Shape> scratchBuffers;
  /// Inputs passed as tensor maps.
  std::vector<TensorMapParameter> tensorMaps;
  /// A GEMM kernel's tuning key and configuration (abi/GemmTuning.h).
  std::optional<abi::GemmKernel> gemm;
  /// The kernel of the KernelPlan this launch belongs to, and its place
  /// among that kernel's launches (a sort's network stages, a scatter
  /// after the copy of its operand): launches of one kernel run in order
  /// on the same buffers.
  int64_t planKernel = 0;
  int64_t launchIndex = 0;
  int64_t launchCount = 1;
  /// The earlier launch whose function this one runs, because its plan
  /// kernel has the same code (KernelPlan::codeOwners); -1: its own.
  int64_t sharesCodeOf = -1;
};

/// One output buffer of a fusion: a root, or one leaf of a tuple root.
struct FusionOutput {
  const HloInstruction *root;
  /// The leaf within a tuple-shaped root (0 otherwise).
  int64_t leaf;
  const Shape *shape;
};

/// The values an emitter's body works with.
struct EmitterContext {
  mlir::ImplicitLocOpBuilder &b;
  mlir::func::FuncOp entry;
  /// The fusion's parameters (tensors), its output tensors, and the
  /// emitter's scratch tensors (EmitterBase::scratchBuffers); the entry
  /// returns the outputs, then the scratch tensors.
  mlir::ValueRange parameters;
  mlir::ValueRange outputs;
  mlir::ValueRange scratch;
  /// (thread x, block x[, block y[, block z]]): the dimensions of every
  /// map the emitters build (launchDimVars() names and bounds them).
  llvm::SmallVector<mlir::Value, 4> threadAndBlockIds;
  const PartitionedComputation &partitioned;
  IndexedValueEmitter &elemental;
};

class EmitterBase {
public:
  EmitterBase(const FusionAnalysis &analysis, const HloComputation &fused,
              const GpuDeviceInfo &device);
  virtual ~EmitterBase() = default;

  /// The launch being described or emitted (see launchCount()).
  virtual LaunchDimensions launchDimensions() const = 0;
  /// How many launches the kernel takes, in order, on the same buffers;
  /// while the base emits launch k, currentLaunch() is k and the virtuals
  /// above and below describe that launch.
  virtual int64_t launchCount() const { return 1; }
  int64_t currentLaunch() const { return launchIndex; }
  /// What the manifest calls the emitter: the analysis' kind and variant
  /// where this emitter implements it ("kReduction/RowReductionFusion").
  virtual std::string emitterName() const { return analysisValue.kindString(); }
  /// The shared tiles the kernel allocates, in bytes; past the device's
  /// static limit (48 KiB) the launch gets them as dynamic shared memory.
  virtual int64_t sharedMemoryBytes() const { return 0; }
  /// Barriers or warp shuffles.
  virtual bool synchronizesThreads() const { return false; }
  /// Inputs the launch passes as TMA tensor maps (their kernel arguments
  /// get kTensorMapArgAttr); decided before emission.
  virtual std::vector<TensorMapParameter> tensorMapParameters() const { return {}; }
  /// A GEMM kernel's tuning key and the configuration it is built with;
  /// none for other kernels.
  virtual std::optional<abi::GemmKernel> gemmKernel() const { return std::nullopt; }
  /// Per output: the fusion parameter whose buffer it must be, or -1.
  virtual std::vector<int64_t> outputAliases() const { return {}; }
  /// Per output: the fusion parameter whose buffer it may be written over,
  /// or -1. The kernel's two arguments then lose `noalias`
  /// (kMayAliasArgAttr), as XLA's kernels do for aliased buffers.
  virtual std::vector<int64_t> outputMayReuse() const { return {}; }
  /// Buffers the kernel's launches share and the runtime allocates,
  /// uninitialized (the same for every launch).
  virtual std::vector<Shape> scratchBuffers() const { return {}; }
  /// (th_x, bl_x[, bl_y[, bl_z]])[symbols] -> the index of root
  /// `rootIndex` (of its first array) each thread writes; nullopt if not
  /// affine.
  virtual std::optional<IndexingMap>
  threadIdToOutputIndexing(int64_t rootIndex, mlir::MLIRContext *context) const = 0;

  /// Emits the kernel `name` into `module`: its subgraph functions and one
  /// entry function per launch at `location` (`name`, then `name_1`, ...).
  /// Appends one record per launch to `records`.
  [[nodiscard]] llvm::Error emit(mlir::ModuleOp module, const std::string &name,
                                 SymbolNamer &namer, const SourceLocations &locations,
                                 mlir::Location location,
                                 std::vector<KernelLaunchRecord> &records);

  const FusionAnalysis &analysis() const { return analysisValue; }
  const std::vector<FusionOutput> &fusionOutputs() const { return outputs; }
  /// The position of `root`'s leaf `leaf` among the outputs.
  int64_t outputIndex(const HloInstruction *root, int64_t leaf = 0) const;

protected:
  /// Instructions whose values the body reads through calls (a hero's
  /// operands): each roots a subgraph.
  virtual std::vector<const HloInstruction *> valuesReadByEmitter() const { return {}; }
  /// The epilogues from heroes to roots the body evaluates.
  virtual std::vector<EpilogueSpecification> epilogues() const { return {}; }
  /// The computation the subgraph functions are emitted from: the fusion's
  /// own, or an emitter's rewrite of it that keeps its parameters first
  /// (a normalization's reductions replaced by values computed per block).
  virtual const HloComputation &emittedComputation() const { return fused; }
  /// The body of the entry function, ending in its func.return.
  [[nodiscard]] virtual llvm::Error emitEntryFunction(EmitterContext &context) = 0;

  // Helpers for the subclasses.

  /// The dimension variables of every emitter map, with the launch's
  /// bounds: th_x, bl_x, then bl_y if the grid has a y or z extent, then
  /// bl_z if it has a z extent.
  std::vector<IndexingVar> launchDimVars() const;
  /// A map over launchDimVars() with range variables of `symbolSizes`.
  IndexingMap launchMap(llvm::ArrayRef<mlir::AffineExpr> results,
                        llvm::ArrayRef<int64_t> symbolSizes,
                        mlir::MLIRContext *context) const;
  /// (th_x, bl_x[, bl_y[, bl_z]])[vector_index] -> the element of an array
  /// of `dims` each thread handles: the launch's threads in row-major
  /// order, `unroll` consecutive elements each, with the domain cut to the
  /// array (the loop emitter's indexing).
  IndexingMap elementIndexing(const std::vector<int64_t> &dims, int64_t unroll,
                              mlir::MLIRContext *context) const;
  /// `linear` split over `dims` (row-major), with arith ops.
  static llvm::SmallVector<mlir::Value> delinearizeIndex(mlir::ImplicitLocOpBuilder &b,
                                                    mlir::Value linear,
                                                    llvm::ArrayRef<int64_t> dims);
  /// th_x, and the block id along `axis` (0 where the grid has no such
  /// variable), as expressions over launchDimVars().
  mlir::AffineExpr threadIdExpr(mlir::MLIRContext *context) const;
  mlir::AffineExpr blockIdExpr(int axis, mlir::MLIRContext *context) const;

  /// The values a loop or branch body yields, or why it failed.
  using BodyValues = llvm::Expected<llvm::SmallVector<mlir::Value>>;
  /// The body of an xla_gpu.loop: range variables, map results, iteration
  /// values -> the values to yield (one per iteration value).
  using LoopBody = std::function<BodyValues(mlir::ImplicitLocOpBuilder &, mlir::ValueRange,
                                            mlir::ValueRange, mlir::ValueRange)>;
  /// An xla_gpu.loop over `map` with dimension values `dims`, or the
  /// body's error.
  [[nodiscard]] llvm::Expected<mlir::Operation *>
  emitLoop(mlir::ImplicitLocOpBuilder &b, mlir::ValueRange dims, const IndexingMap &map,
           mlir::ValueRange inits, const LoopBody &body) const;
  /// The body of a branch: `values` updated.
  using BranchBody = std::function<BodyValues(mlir::ImplicitLocOpBuilder &)>;
  /// scf.if `condition`: `body`'s values, else `values` unchanged; or the
  /// body's error.
  [[nodiscard]] BodyValues emitIf(mlir::ImplicitLocOpBuilder &b, mlir::Value condition,
                                  mlir::ValueRange values, const BranchBody &body) const;
  /// A call of `computation` (a reducer, comparator, combiner) on scalar
  /// `arguments`: its values, at least one (a computation returning none
  /// fails without instruction and message, as before).
  [[nodiscard]] static llvm::Expected<llvm::SmallVector<mlir::Value>>
  callComputation(mlir::ImplicitLocOpBuilder &b, IndexedValueEmitter &elemental,
                  const HloComputation &computation, mlir::ValueRange arguments);
  /// Applies `map` to `dims` (and `symbols`) with xla_gpu.apply_indexing.
  llvm::SmallVector<mlir::Value> applyIndexing(mlir::ImplicitLocOpBuilder &b,
                                               const IndexingMap &map,
                                               mlir::ValueRange dims,
                                               mlir::ValueRange symbols = {}) const;
  /// Whether the point lies in the map's domain: its constraints, and the
  /// dimension bounds narrower than the launch's (simplification turns a
  /// constraint on one id into its bound).
  mlir::Value checkConstraints(mlir::ImplicitLocOpBuilder &b, const IndexingMap &map,
                               mlir::ValueRange dims, mlir::ValueRange symbols) const;

  /// Inserts `values` (one per leaf of `root`) into their output tensors
  /// in `outputs` at the root's logical index `rootIndex`.
  void insertRootValues(mlir::ImplicitLocOpBuilder &b, const HloInstruction *root,
                        mlir::ValueRange values, mlir::ValueRange rootIndex,
                        llvm::SmallVectorImpl<mlir::Value> &outputs) const;

  /// `heroIndex` (launch -> the hero's index) continued to `root`'s index
  /// through the epilogue; nullopt without indexing rules.
  std::optional<IndexingMap> rootIndexing(const IndexingMap &heroIndex,
                                          const HloInstruction *hero,
                                          const HloInstruction *root,
                                          mlir::MLIRContext *context) const;
  /// What an emitter reports when that path has no indexing rules.
  [[nodiscard]] static llvm::Error epilogueWithoutIndexing(const HloInstruction *hero,
                                                           const HloInstruction *root);

  /// hero index -> root index through the one-operand chain from `hero`
  /// to `root` (what hero analysis walks); nullopt without indexing rules.
  std::optional<IndexingMap> heroToRootIndexing(const HloInstruction *hero,
                                                const HloInstruction *root,
                                                mlir::MLIRContext *context) const;

  const HloComputation &fused;
  const GpuDeviceInfo device;

private:
  /// One launch's entry function.
  [[nodiscard]] llvm::Error emitLaunch(mlir::ModuleOp module, const std::string &name,
                                       const PartitionedComputation &partitioned,
                                       IndexedValueEmitter &elemental, mlir::Location location,
                                       KernelLaunchRecord &record);

  const FusionAnalysis analysisValue;
  int64_t launchIndex = 0;
  std::vector<FusionOutput> outputs;
};

/// The first array of a (possibly tuple) shape: what index maps address.
const Shape &firstArrayShape(const Shape &shape);
/// A default-layout f32 shape of `dims`: the heroes' normal forms are
/// physical, so they are bitcasts of the real shapes.
Shape normalFormShape(const std::vector<int64_t> &dims);

/// `blocks` over a grid whose x, y and z limits are the device's: x first,
/// then x * y, then x * y * z.
std::array<int64_t, 3> splitGrid(int64_t blocks, const GpuDeviceInfo &device);

/// A launch of one thread per work item for `items` (at least one), at
/// most `threadsPerBlock` per block, the blocks split by splitGrid.
LaunchDimensions threadPerItemLaunch(int64_t items, int64_t threadsPerBlock,
                                     const GpuDeviceInfo &device);

} // namespace hlo

#endif // HLO_EMITTERS_EMITTERBASE_H
