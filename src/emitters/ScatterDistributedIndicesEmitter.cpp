//===- ScatterDistributedIndicesEmitter.cpp - Runs of sorted indices ------===//
//
// The scatter variant for sorted, non-unique indices with many slices
// (more than 4 x SMs; shared/notes/xla-reference.md), where the plain
// variant would make every repeated index a contended atomic. A thread
// owns one window offset of a run of consecutive slices
// (scatterSlicesPerThread: about four runs per SM, at most 32 slices):
// while the slices' windows start at the same place (a repeated index) it
// combines their updates in a register; when the start changes, or the run
// ends, it writes the accumulated value with one atomic update. Threads of
// a run hold neighbouring window offsets, so reads and writes coalesce,
// and a run takes whole warps, as XLA's (lanes past the window idle);
// as XLA's, a thread takes up to 64 bits of neighbouring offsets along the
// window's minor dimension (two f32, four bf16), read as one vector.
// The combiner is taken to be associative and commutative, as XLA does.
//
//===----------------------------------------------------------------------===//
#include "emitters/ScatterEmitter.h"

#include "emitters/TypeConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <numeric>

using namespace mlir;

namespace hlo {
namespace {

constexpr int64_t kThreadsPerBlock = 128;

class ScatterDistributedIndicesEmitter : public ScatterEmitter {
public:
  ScatterDistributedIndicesEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
                                   const GpuDeviceInfo &device)
      : ScatterEmitter(analysis, fused, device),
        slicesPerThread(scatterSlicesPerThread(form.sliceCount, device.smCount)),
        runs((form.sliceCount + slicesPerThread - 1) / slicesPerThread),
        vector(vectorSize()), offsetsPerThread(form.windowElements / vector),
        threadsPerRun(llvm::alignTo(offsetsPerThread, 32)) {}

protected:
  LaunchDimensions scatterLaunch() const override {
    return threadPerItemLaunch(runs * threadsPerRun, kThreadsPerBlock, device);
  }

  /// The neighbouring window offsets one thread takes: XLA's 64 bits of
  /// elements as far as the window's last dimension divides them, where
  /// that dimension walks the operand's minor one (else 1), and no more
  /// than keep a warp's lanes busy (XLA's f32[2008,32] updates: 1 each;
  /// s32[2008,64]: 2).
  int64_t vectorSize() const {
    std::optional<size_t> minorDim = minorUpdateDim();
    if (!minorDim || *minorDim != form.updateWindowDims.back() || form.arrays != 1)
      return 1;
    int64_t bits = primitiveBitWidth(scatter->operand(0)->shape().elementType());
    if (bits < 8 || bits > 32)
      return 1;
    int64_t vector = std::gcd(int64_t{64} / bits, form.updateDims[form.updateWindowDims.back()]);
    while (vector > 1 && form.windowElements / vector < 32)
      vector /= 2;
    return vector;
  }

  llvm::Error emitScatter(EmitterContext &context) override {
    ImplicitLocOpBuilder &b = context.b;
    MLIRContext *mlirContext = b.getContext();
    SmallVector<int64_t> sliceDims, windowDims;
    for (int64_t d : form.updateScatterDims)
      sliceDims.push_back(form.updateDims[d]);
    for (int64_t d : form.updateWindowDims)
      windowDims.push_back(form.updateDims[d]);
    // A thread's offsets: the window with its last dimension in vectors.
    SmallVector<int64_t> threadWindowDims = windowDims;
    if (!threadWindowDims.empty())
      threadWindowDims.back() /= vector;
    Type valueType = elementType(scatter->operand(0)->shape().elementType(), mlirContext);
    SmallVector<Value> outputs(context.outputs);
    // Whole warps per run, as XLA's: lanes past the window idle.
    IndexingMap threadMap = elementIndexing({runs, threadsPerRun}, 1, mlirContext);
    if (threadsPerRun != offsetsPerThread) {
      threadMap.addConstraint(threadMap.getAffineMap().getResult(1),
                              Interval{0, offsetsPerThread - 1});
      threadMap.simplify();
    }
    llvm::Expected<Operation *> loop = emitLoop(
        b, context.threadAndBlockIds, threadMap, outputs,
        [&](ImplicitLocOpBuilder &nested, ValueRange, ValueRange runAndOffset,
            ValueRange iterArgs) -> BodyValues {
          // The thread's window offsets, one per vector element.
          SmallVector<Value> threadWindow =
              delinearizeIndex(nested, runAndOffset[1], threadWindowDims);
          std::vector<SmallVector<Value>> windows(vector, threadWindow);
          if (vector > 1)
            for (int64_t v = 0; v < vector; ++v)
              windows[v].back() = arith::AddIOp::create(
                  nested,
                  arith::MulIOp::create(nested, threadWindow.back(),
                                        arith::ConstantIndexOp::create(nested, vector)),
                  arith::ConstantIndexOp::create(nested, v));
          // The operand element of window offset `window` at `start`.
          auto operandIndex = [&](ImplicitLocOpBuilder &builder, ValueRange start,
                                  ValueRange window) {
            SmallVector<Value> index(start);
            for (size_t j = 0; j < form.updateWindowDims.size(); ++j)
              index[form.windowOperandDims[j]] = arith::AddIOp::create(
                  builder, index[form.windowOperandDims[j]], window[j]);
            return index;
          };
          // combiner(output, accumulated[v]) at every offset of the thread.
          auto writeAccumulated = [&](ImplicitLocOpBuilder &builder, Value output,
                                      ValueRange start, ValueRange accumulated) -> BodyValues {
            SmallVector<Value> written = {output};
            for (int64_t v = 0; v < vector; ++v) {
              llvm::Expected<SmallVector<Value>> next = combineInto(
                  builder, context, written, operandIndex(builder, start, windows[v]),
                  accumulated.slice(v, 1));
              if (!next)
                return next.takeError();
              written = std::move(*next);
            }
            return written;
          };
          Value first = arith::MulIOp::create(
              nested, runAndOffset[0], arith::ConstantIndexOp::create(nested, slicesPerThread));
          Value last = arith::MinUIOp::create(
              nested,
              arith::AddIOp::create(nested, first,
                                    arith::ConstantIndexOp::create(nested, slicesPerThread)),
              arith::ConstantIndexOp::create(nested, form.sliceCount));
          // Carried: the output, the accumulated update of each offset,
          // the start they go to, and whether there is one.
          SmallVector<Value> inits = {iterArgs[0]};
          for (int64_t v = 0; v < vector; ++v)
            inits.push_back(
                arith::ConstantOp::create(nested, cast<TypedAttr>(nested.getZeroAttr(valueType))));
          for (size_t d = 0; d < form.operandDims.size(); ++d)
            inits.push_back(arith::ConstantIndexOp::create(nested, 0));
          inits.push_back(arith::ConstantIntOp::create(nested, 0, 1));
          size_t rank = form.operandDims.size();
          // A failure inside the run's body builder, which cannot return
          // it: the body yields its values unchanged and the first failure
          // is this loop body's error.
          llvm::Error runFailure = llvm::Error::success();
          auto failRun = [&](ImplicitLocOpBuilder &body, llvm::Error failure,
                             ValueRange carried) {
            if (!runFailure)
              runFailure = std::move(failure);
            else
              llvm::consumeError(std::move(failure));
            scf::YieldOp::create(body, carried);
          };
          auto run = scf::ForOp::create(
              nested, first, last, arith::ConstantIndexOp::create(nested, 1), inits,
              [&](OpBuilder &builder, Location location, Value sliceNumber,
                  ValueRange carried) {
                ImplicitLocOpBuilder body(location, builder);
                Value output = carried[0], held = carried.back();
                ValueRange accumulated = carried.slice(1, vector);
                ValueRange heldStart = carried.slice(1 + vector, rank);
                SmallVector<Value> slice = delinearizeIndex(body, sliceNumber, sliceDims);
                // The window's start, the updates (all read first, so that
                // they become one vector load) and the merged values, each
                // only where the one before succeeded.
                llvm::Expected<WindowStart> start = windowStart(body, context, slice);
                if (!start)
                  return failRun(body, start.takeError(), carried);
                SmallVector<Value> updates, merged;
                for (int64_t v = 0; v < vector; ++v) {
                  SmallVector<Value> updateIndex(form.updateDims.size());
                  for (size_t k = 0; k < form.updateScatterDims.size(); ++k)
                    updateIndex[form.updateScatterDims[k]] = slice[k];
                  for (size_t j = 0; j < form.updateWindowDims.size(); ++j)
                    updateIndex[form.updateWindowDims[j]] = windows[v][j];
                  llvm::Expected<SmallVector<Value>> update =
                      updateValues(body, context, updateIndex);
                  if (!update)
                    return failRun(body, update.takeError(), carried);
                  updates.push_back((*update)[0]);
                }
                for (int64_t v = 0; v < vector; ++v) {
                  llvm::Expected<SmallVector<Value>> one =
                      combine(body, context, accumulated.slice(v, 1), updates[v]);
                  if (!one)
                    return failRun(body, one.takeError(), carried);
                  merged.push_back((*one)[0]);
                }
                Value same = held;
                for (size_t d = 0; d < rank; ++d)
                  same = arith::AndIOp::create(
                      body, same,
                      arith::CmpIOp::create(body, arith::CmpIPredicate::eq, start->start[d],
                                            heldStart[d]));
                // A new start: write what was accumulated for the old one.
                Value flush = arith::AndIOp::create(
                    body, held,
                    arith::XOrIOp::create(body, same, arith::ConstantIntOp::create(body, 1, 1)));
                BodyValues written = emitIf(
                    body, flush, output, [&](ImplicitLocOpBuilder &inner) -> BodyValues {
                      return writeAccumulated(inner, output, heldStart, accumulated);
                    });
                if (!written)
                  return failRun(body, written.takeError(), carried);
                SmallVector<Value> next = {(*written)[0]};
                for (int64_t v = 0; v < vector; ++v)
                  next.push_back(arith::SelectOp::create(body, same, merged[v], updates[v]));
                for (size_t d = 0; d < rank; ++d)
                  next.push_back(
                      arith::SelectOp::create(body, same, heldStart[d], start->start[d]));
                next.push_back(arith::OrIOp::create(body, same, start->inBounds));
                scf::YieldOp::create(body, next);
              });
          if (runFailure)
            return runFailure;
          // The run's last start.
          return emitIf(nested, run.getResults().back(), run.getResult(0),
                        [&](ImplicitLocOpBuilder &inner) -> BodyValues {
                          return writeAccumulated(inner, run.getResult(0),
                                                  run.getResults().slice(1 + vector, rank),
                                                  run.getResults().slice(1, vector));
                        });
        });
    if (!loop)
      return loop.takeError();
    func::ReturnOp::create(b, (*loop)->getResults());
    return llvm::Error::success();
  }

private:
  int64_t slicesPerThread;
  int64_t runs;
  int64_t vector;
  /// Window offsets per run / vector, and the threads a run takes: whole
  /// warps, so that no warp holds two runs (their flushes would diverge).
  int64_t offsetsPerThread;
  int64_t threadsPerRun;
};

} // namespace

std::unique_ptr<EmitterBase> createScatterDistributedIndicesEmitter(
    const FusionAnalysis &analysis, const HloComputation &fused, const GpuDeviceInfo &device) {
  return std::make_unique<ScatterDistributedIndicesEmitter>(analysis, fused, device);
}

} // namespace hlo
