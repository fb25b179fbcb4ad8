//===- LowerShuffleReduce.cpp - shuffle_reduce to gpu.shuffle -------------===//
//
// Owns xla-gpu-lower-shuffle-reduce (Passes.td): a tree of shuffles down
// by max_distance, ..., 1 lanes, each followed by a call of the combiner.
// Every value crosses lanes as 32-bit words. A kernel whose block is
// smaller than a warp shuffles over its threads only, and a block whose
// last warp is partial shuffles there over that warp's threads only.
//
//===----------------------------------------------------------------------===//
#include "dialect/KernelContract.h"
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

/// One 32-bit word shuffled down by `distance` of the warp's `lanes` lanes
/// (an i32: the member mask is its low `lanes` bits).
Value shuffleWord(OpBuilder &b, Location loc, Value word, int64_t distance, Value lanes) {
  Value offset = arith::ConstantIntOp::create(b, loc, distance, 32);
  return gpu::ShuffleOp::create(b, loc, word, offset, lanes, gpu::ShuffleMode::DOWN)
      .getShuffleResult();
}

/// `value` of the lane `distance` above, whatever its type.
FailureOr<Value> shuffleDown(OpBuilder &b, Location loc, Value value, int64_t distance,
                             Value lanes) {
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

/// The lanes of this thread's warp, as an i32: 32, or the whole block when
/// it is smaller, or, where the block's last warp is partial (72 threads:
/// two warps of 32 and one of 8), 32 minus the lanes past the block's end
/// at run time. The shuffles' member mask names only threads that exist.
Value warpLanes(OpBuilder &b, Location loc, Operation *op) {
  auto function = op->getParentOfType<func::FuncOp>();
  xla_gpu::LaunchAttr launch = xla_gpu::getKernelLaunch(function);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(b, loc, value, 32);
  };
  if (!launch)
    return constant(kWarpSize);
  ArrayRef<int64_t> sizes = launch.getBlock();
  int64_t threads = 1;
  for (int64_t size : sizes)
    threads *= size;
  if (threads <= kWarpSize || threads % kWarpSize == 0)
    return constant(std::clamp<int64_t>(threads, 1, kWarpSize));
  // The linear thread id, x fastest, and the first lane of its warp.
  Value linear;
  int64_t stride = 1;
  const gpu::Dimension dimensions[] = {gpu::Dimension::x, gpu::Dimension::y,
                                       gpu::Dimension::z};
  for (size_t d = 0; d < sizes.size() && d < 3; ++d) {
    if (sizes[d] > 1) {
      Value id = gpu::ThreadIdOp::create(b, loc, dimensions[d]);
      if (stride > 1)
        id = arith::MulIOp::create(b, loc, id, arith::ConstantIndexOp::create(b, loc, stride));
      linear = linear ? Value(arith::AddIOp::create(b, loc, linear, id)) : id;
    }
    stride *= sizes[d];
  }
  Value linear32 = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), linear);
  Value warpStart = arith::AndIOp::create(b, loc, linear32, constant(~int64_t(kWarpSize - 1)));
  Value left = arith::SubIOp::create(b, loc, constant(threads), warpStart);
  return arith::MinUIOp::create(b, loc, left, constant(kWarpSize));
}

struct LowerShuffleReducePass
    : impl::LowerShuffleReducePassBase<LowerShuffleReducePass> {
  void runOnOperation() override {
    SmallVector<xla_gpu::ShuffleReduceOp> reductions;
    getOperation().walk([&](xla_gpu::ShuffleReduceOp op) { reductions.push_back(op); });
    for (xla_gpu::ShuffleReduceOp op : reductions) {
      OpBuilder b(op);
      Location loc = op.getLoc();
      Value lanes = warpLanes(b, loc, op);
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
