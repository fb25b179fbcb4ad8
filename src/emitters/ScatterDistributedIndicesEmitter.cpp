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
// a block hold neighbouring window offsets, so reads and writes coalesce.
// The combiner is taken to be associative and commutative, as XLA does.
//
//===----------------------------------------------------------------------===//
#include "emitters/ScatterEmitter.h"

#include "emitters/TypeConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

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
        runs((form.sliceCount + slicesPerThread - 1) / slicesPerThread) {}

protected:
  LaunchDimensions scatterLaunch() const override {
    return threadPerItemLaunch(runs * form.windowElements, kThreadsPerBlock, device);
  }

  llvm::Error emitScatter(EmitterContext &context) override {
    ImplicitLocOpBuilder &b = context.b;
    MLIRContext *mlirContext = b.getContext();
    SmallVector<int64_t> sliceDims, windowDims;
    for (int64_t d : form.updateScatterDims)
      sliceDims.push_back(form.updateDims[d]);
    for (int64_t d : form.updateWindowDims)
      windowDims.push_back(form.updateDims[d]);
    Type valueType = elementType(scatter->operand(0)->shape().elementType(), mlirContext);
    SmallVector<Value> outputs(context.outputs);
    llvm::Expected<Operation *> loop = emitLoop(
        b, context.threadAndBlockIds,
        elementIndexing({runs, form.windowElements}, 1, mlirContext), outputs,
        [&](ImplicitLocOpBuilder &nested, ValueRange, ValueRange runAndOffset,
            ValueRange iterArgs) -> BodyValues {
          SmallVector<Value> window = delinearizeIndex(nested, runAndOffset[1], windowDims);
          // The operand element of the window at `start`.
          auto operandIndex = [&](ImplicitLocOpBuilder &builder, ValueRange start) {
            SmallVector<Value> index(start);
            for (size_t j = 0; j < form.updateWindowDims.size(); ++j)
              index[form.windowOperandDims[j]] = arith::AddIOp::create(
                  builder, index[form.windowOperandDims[j]], window[j]);
            return index;
          };
          Value first = arith::MulIOp::create(
              nested, runAndOffset[0], arith::ConstantIndexOp::create(nested, slicesPerThread));
          Value last = arith::MinUIOp::create(
              nested,
              arith::AddIOp::create(nested, first,
                                    arith::ConstantIndexOp::create(nested, slicesPerThread)),
              arith::ConstantIndexOp::create(nested, form.sliceCount));
          // Carried: the output, the accumulated update, the start it
          // goes to, and whether there is one.
          SmallVector<Value> inits = {iterArgs[0],
                                      arith::ConstantOp::create(
                                          nested, cast<TypedAttr>(nested.getZeroAttr(valueType)))};
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
                Value output = carried[0], accumulated = carried[1], held = carried.back();
                ValueRange heldStart = carried.slice(2, rank);
                SmallVector<Value> slice = delinearizeIndex(body, sliceNumber, sliceDims);
                SmallVector<Value> updateIndex(form.updateDims.size());
                for (size_t k = 0; k < form.updateScatterDims.size(); ++k)
                  updateIndex[form.updateScatterDims[k]] = slice[k];
                for (size_t j = 0; j < form.updateWindowDims.size(); ++j)
                  updateIndex[form.updateWindowDims[j]] = window[j];
                // The window's start, the update and the merged value,
                // each only where the one before succeeded.
                llvm::Expected<WindowStart> start = windowStart(body, context, slice);
                if (!start)
                  return failRun(body, start.takeError(), carried);
                llvm::Expected<SmallVector<Value>> update =
                    updateValues(body, context, updateIndex);
                if (!update)
                  return failRun(body, update.takeError(), carried);
                llvm::Expected<SmallVector<Value>> merged =
                    combine(body, context, accumulated, *update);
                if (!merged)
                  return failRun(body, merged.takeError(), carried);
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
                      return combineInto(inner, context, output, operandIndex(inner, heldStart),
                                         accumulated);
                    });
                if (!written)
                  return failRun(body, written.takeError(), carried);
                SmallVector<Value> next = {
                    (*written)[0],
                    arith::SelectOp::create(body, same, (*merged)[0], (*update)[0])};
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
                          return combineInto(
                              inner, context, run.getResult(0),
                              operandIndex(inner, run.getResults().slice(2, rank)),
                              run.getResult(1));
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
};

} // namespace

std::unique_ptr<EmitterBase> createScatterDistributedIndicesEmitter(
    const FusionAnalysis &analysis, const HloComputation &fused, const GpuDeviceInfo &device) {
  return std::make_unique<ScatterDistributedIndicesEmitter>(analysis, fused, device);
}

} // namespace hlo
