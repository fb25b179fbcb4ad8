//===- LowerShuffleReduce.cpp - shuffle_reduce to gpu.shuffle -------------===//
//
// Owns xla-gpu-lower-shuffle-reduce (Passes.td): a tree of shuffles down
// by max_distance, ..., 1 lanes, each followed by a call of the combiner.
// Every value crosses lanes as 32-bit words. A kernel whose block is
// smaller than a warp shuffles over its threads only.
//
//===----------------------------------------------------------------------===//
#include "dialect/XlaGpuDialect.h"
#include "pipeline/Passes.h"

#include "mlir/Dialect/Complex/IR/Complex.h"

#include <algorithm>

namespace hlo::pipeline {
#define GEN_PASS_DEF_LOWERSHUFFLEREDUCEPASS
#include "pipeline/Passes.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

constexpr int kWarpSize = 32;

/// One 32-bit word shuffled down by `distance` of the warp's `lanes` lanes.
Value shuffleWord(OpBuilder &b, Location loc, Value word, int64_t distance, int64_t lanes) {
  Value offset = arith::ConstantIntOp::create(b, loc, distance, 32);
  Value width = arith::ConstantIntOp::create(b, loc, lanes, 32);
  return gpu::ShuffleOp::create(b, loc, word, offset, width, gpu::ShuffleMode::DOWN)
      .getShuffleResult();
}

/// `value` of the lane `distance` above, whatever its type.
FailureOr<Value> shuffleDown(OpBuilder &b, Location loc, Value value, int64_t distance,
                             int64_t lanes) {
  Type type = value.getType();
  if (auto complex = dyn_cast<ComplexType>(type)) {
    FailureOr<Value> real =
        shuffleDown(b, loc, complex::ReOp::create(b, loc, value), distance, lanes);
    FailureOr<Value> imag =
        shuffleDown(b, loc, complex::ImOp::create(b, loc, value), distance, lanes);
    if (failed(real) || failed(imag))
      return failure();
    return Value(complex::CreateOp::create(b, loc, type, *real, *imag));
  }
  if (!type.isIntOrFloat())
    return failure();
  unsigned bits = type.getIntOrFloatBitWidth();
  if (bits > 64)
    return failure();
  Type i32 = b.getI32Type();
  Type bitsType = b.getIntegerType(bits);
  Value word = value;
  if (!isa<IntegerType>(type))
    word = arith::BitcastOp::create(b, loc, bitsType, word);
  Value shuffled;
  if (bits <= 32) {
    if (bits < 32)
      word = arith::ExtUIOp::create(b, loc, i32, word);
    shuffled = shuffleWord(b, loc, word, distance, lanes);
    if (bits < 32)
      shuffled = arith::TruncIOp::create(b, loc, bitsType, shuffled);
  } else {
    // Two words, low then high, put back together.
    Type i64 = b.getI64Type();
    if (bits < 64)
      word = arith::ExtUIOp::create(b, loc, i64, word);
    Value thirtyTwo = arith::ConstantIntOp::create(b, loc, 32, 64);
    Value low = arith::TruncIOp::create(b, loc, i32, word);
    Value high = arith::TruncIOp::create(
        b, loc, i32, arith::ShRUIOp::create(b, loc, word, thirtyTwo));
    Value lowShuffled = arith::ExtUIOp::create(b, loc, i64, shuffleWord(b, loc, low, distance, lanes));
    Value highShuffled =
        arith::ExtUIOp::create(b, loc, i64, shuffleWord(b, loc, high, distance, lanes));
    shuffled = arith::OrIOp::create(
        b, loc, lowShuffled, arith::ShLIOp::create(b, loc, highShuffled, thirtyTwo));
    if (bits < 64)
      shuffled = arith::TruncIOp::create(b, loc, bitsType, shuffled);
  }
  if (!isa<IntegerType>(type))
    shuffled = arith::BitcastOp::create(b, loc, type, shuffled);
  return shuffled;
}

/// The lanes a warp of the kernel has: 32, or the whole block when it is
/// smaller (the shuffles' member mask must name only threads that exist).
int64_t warpLanes(Operation *op) {
  auto function = op->getParentOfType<func::FuncOp>();
  auto block = function ? function->getAttrOfType<DenseI64ArrayAttr>(xla_gpu::kBlockSizeAttr)
                        : DenseI64ArrayAttr();
  if (!block)
    return kWarpSize;
  int64_t threads = 1;
  for (int64_t size : block.asArrayRef())
    threads *= size;
  return std::clamp<int64_t>(threads, 1, kWarpSize);
}

struct LowerShuffleReducePass
    : impl::LowerShuffleReducePassBase<LowerShuffleReducePass> {
  void runOnOperation() override {
    SmallVector<xla_gpu::ShuffleReduceOp> reductions;
    getOperation().walk([&](xla_gpu::ShuffleReduceOp op) { reductions.push_back(op); });
    for (xla_gpu::ShuffleReduceOp op : reductions) {
      OpBuilder b(op);
      Location loc = op.getLoc();
      int64_t lanes = warpLanes(op);
      SmallVector<Value> values(op.getOperands());
      for (int64_t distance = op.getMaxDistance(); distance >= 1; distance /= 2) {
        SmallVector<Value> arguments = values;
        for (Value value : values) {
          FailureOr<Value> other = shuffleDown(b, loc, value, distance, lanes);
          if (failed(other)) {
            op.emitError() << "cannot shuffle values of type " << value.getType();
            return signalPassFailure();
          }
          arguments.push_back(*other);
        }
        auto call = xla_gpu::PureCallOp::create(b, loc, op.getResultTypes(),
                                                op.getCombinerAttr(), arguments, ArrayAttr(),
                                                ArrayAttr());
        values.assign(call.getResults().begin(), call.getResults().end());
      }
      op.replaceAllUsesWith(values);
      op.erase();
    }
  }
};

} // namespace
} // namespace hlo::pipeline
