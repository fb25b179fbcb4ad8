//===- GemmStaging.cpp - GEMM operands' K tiles into shared memory --------===//
//
// The part of the GEMM emitter (GemmEmitterImpl.h) that copies each K tile
// of both operands into shared memory: where each operand's tile lies
// (its layout, padding and shape), and the copy loop the block's threads
// run, along the operand's minor dimension, 16 bytes at a time where it
// runs in whole vectors, the operand's producers applied to each element
// once, zeros written past the operand's edges; or, for a parameter in a
// multi-stage K loop, async copies (cp.async) straight into the tile.
//
//===----------------------------------------------------------------------===//
#include "dialect/XlaGpuDialect.h"
#include "emitters/GemmEmitterImpl.h"
#include "emitters/TypeConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace hlo {

namespace {
constexpr int64_t kWarpSize = 32;
} // namespace

GemmEmitter::Staging GemmEmitter::stagingOf(int operand) const {
  Staging result;
  result.rows = operand == 0 ? tiling.sharedRowsA : tiling.sharedRowsB;
  int64_t pad = tiling.sharedColumns - tiling.blockK;
  bool kMinor = isKMinor(operand);
  result.alongK = kMinor;
  if (warpgroups) {
    result.layout = TileLayout::SwizzledRows;
    int64_t rowBytes = tiling.blockK * elementBytes;
    result.swizzleBytes = rowBytes % 128 == 0 ? 128 : rowBytes % 64 == 0 ? 64 : 32;
    int64_t perRow = result.swizzleBytes / elementBytes;
    result.tileShape = {tiling.blockK / perRow, result.rows, perRow};
    // 3xTF32: the K tile three times over along K, A's as (rest, TF32
    // part, TF32 part) and B's as (TF32 part, rest, TF32 part), so that
    // one wgmma over the tile's whole K adds the three products, the
    // small ones first (threeTf32Segments).
    if (gemm.input == GemmInput::TF32x3)
      result.tileShape[0] *= 3;
    // B stored N-minor: N-major rows (imm-trans-b) where each warpgroup's
    // N is whole rows, so that the threads (and TMA) copy along N; A
    // stored M-minor likewise M-major (imm-trans-a), each warpgroup's 64
    // rows whole rows of M (a weight gradient's operands both).
    int64_t groupRows = operand == 0 ? 64 : warpgroups->width;
    if (!kMinor && elementBytes == 2 && groupRows % perRow == 0 &&
        result.rows % perRow == 0) {
      result.layout = TileLayout::SwizzledColumns;
      result.tileShape = {result.rows / perRow, tiling.blockK, perRow};
    }
  } else if (!kMinor && elementBytes == 2) {
    result.layout = TileLayout::KRows;
    result.tileShape = {tiling.blockK, result.rows + pad};
  } else {
    result.tileShape = {result.rows, tiling.sharedColumns};
  }
  // 16 bytes at a time where the copy runs along the operand's minor-most
  // dimension in whole vectors: that dimension is the last of the
  // contracting (or free) dimensions, and it, the extent copied (K or the
  // free rows) and the tile's extent along it are whole vectors. Where the
  // run is not along the tile's last dimension (f32 or 8-bit operands
  // stored free-dimension minor, and such operands in K-major wgmma
  // tiles), the vector is stored element by element.
  result.contiguousInTile = result.layout == TileLayout::KRows ||
                                    result.layout == TileLayout::SwizzledColumns
                                ? !kMinor
                                : kMinor;
  // Else 8 or 4 bytes (a K of 100 bf16 runs in 4-byte pairs).
  const Shape &shape = gemm.dot->operand(operand)->shape();
  const std::vector<int64_t> &run =
      kMinor ? (operand == 0 ? gemm.lhsContracting : gemm.rhsContracting)
             : (operand == 0 ? gemm.lhsFree : gemm.rhsFree);
  int64_t extent = kMinor ? gemm.k : (operand == 0 ? gemm.m : gemm.n);
  int64_t tileExtent = kMinor ? tiling.blockK : result.rows;
  // Where one block's tile starts along that extent: a vector is inside the
  // operand or outside it as a whole only if every start is whole vectors
  // (XLA's 8-row tiles stage 16 rows of an 8-bit operand: a 16-byte vector
  // from row 24 of 32 would read past the end).
  int64_t blockStep = kMinor ? tiling.blockK : (operand == 0 ? tiling.blockM : tiling.blockN);
  std::vector<int64_t> layout = shape.layoutOrDefault().minorToMajor;
  if (run.empty() || layout.empty() || layout.front() != run.back())
    return result;
  for (int64_t width = 16 / elementBytes; width > 1 && width * elementBytes >= 4; width /= 2)
    if (shape.dimension(run.back()) % width == 0 && extent % width == 0 &&
        tileExtent % width == 0 && blockStep % width == 0 &&
        (!result.contiguousInTile || result.tileShape.back() % width == 0)) {
      result.width = width;
      break;
    }
  return result;
}

std::pair<Value, Value> GemmEmitter::swizzledPlace(ImplicitLocOpBuilder &b,
                                                   const Staging &staging, Value line,
                                                   Value along) const {
  auto constant = [&](int64_t value) { return arith::ConstantIndexOp::create(b, value); };
  int64_t bytes = staging.swizzleBytes, perRow = staging.tileShape.back();
  int64_t perChunk = 16 / elementBytes;
  Value atom = arith::DivUIOp::create(b, along, constant(perRow));
  Value column = arith::RemUIOp::create(b, along, constant(perRow));
  Value pattern = arith::RemUIOp::create(
      b, arith::DivUIOp::create(b, line, constant(128 / bytes)), constant(bytes / 16));
  Value chunk = arith::XOrIOp::create(
      b, arith::DivUIOp::create(b, column, constant(perChunk)), pattern);
  Value swizzled = arith::AddIOp::create(b, arith::MulIOp::create(b, chunk, constant(perChunk)),
                                         arith::RemUIOp::create(b, column, constant(perChunk)));
  return {atom, swizzled};
}

bool GemmEmitter::segmentedTf32() const {
  return gemm.input == GemmInput::TF32x3 && warpgroups.has_value();
}

std::array<Value, 3> GemmEmitter::threeTf32Segments(ImplicitLocOpBuilder &b, int operand,
                                                    Value value) const {
  auto [big, rest] = splitTf32(b, value);
  if (plantedBug == "tf32x3-no-rest")
    rest = arith::ConstantOp::create(b, b.getZeroAttr(value.getType()));
  if (operand == 0)
    return {rest, big, big};
  return {big, rest, big};
}

SmallVector<Value, 4> GemmEmitter::tileIndices(ImplicitLocOpBuilder &b, const Staging &staging,
                                               Value row, Value k) const {
  switch (staging.layout) {
  case TileLayout::Rows:
    return {row, k};
  case TileLayout::KRows:
    return {k, row};
  case TileLayout::SwizzledRows: {
    // Element k of the row is in 16-byte chunk c of its S-byte row; the
    // swizzle XORs c with the row's 128-byte line in shared memory (the
    // tile starts at a multiple of 8 S bytes), modulo S / 16.
    auto [atom, swizzled] = swizzledPlace(b, staging, row, k);
    return {atom, row, swizzled};
  }
  case TileLayout::SwizzledColumns: {
    // The same with the roles swapped: row k of S bytes holds columns n
    // of one atom.
    auto [atom, swizzled] = swizzledPlace(b, staging, k, row);
    return {atom, k, swizzled};
  }
  }
  llvm_unreachable("a tile layout");
}

bool GemmEmitter::isKMinor(int operand) const {
  const Shape &shape = gemm.dot->operand(operand)->shape();
  std::vector<int64_t> layout = shape.layoutOrDefault().minorToMajor;
  const std::vector<int64_t> &contracting =
      operand == 0 ? gemm.lhsContracting : gemm.rhsContracting;
  // The minor-most dimension of more than one element.
  for (int64_t d : layout)
    if (shape.dimension(d) != 1)
      return std::count(contracting.begin(), contracting.end(), d) > 0;
  return true;
}

bool GemmEmitter::canCopyAsync(int operand) const {
  const Staging &staged = staging[operand];
  int64_t bytes = staged.width * elementBytes;
  return device.features.cpAsync && device.computeCapability >= 80 &&
         gemm.dot->operand(operand)->opcode() == HloOpcode::Parameter &&
         gemm.input != GemmInput::TF32 && !segmentedTf32() && staged.contiguousInTile &&
         (bytes == 4 || bytes == 8 || bytes == 16);
}

SmallVector<Value> GemmEmitter::operandIndex(ImplicitLocOpBuilder &b, int operand,
                                             ValueRange batch, Value free,
                                             Value contracting) const {
  const HloInstruction *value = gemm.dot->operand(operand);
  const Shape &shape = value->shape();
  SmallVector<Value> index(shape.rank());
  // Dimensions `dims` of the operand's index from `values`, or from
  // `linear` row-major.
  auto place = [&](const std::vector<int64_t> &dims, ValueRange values) {
    for (size_t i = 0; i < dims.size(); ++i)
      index[dims[i]] = values[i];
  };
  auto split = [&](const std::vector<int64_t> &dims, Value linear) {
    SmallVector<int64_t> sizes;
    for (int64_t d : dims)
      sizes.push_back(shape.dimension(d));
    place(dims, delinearizeIndex(b, linear, sizes));
  };
  place(operand == 0 ? gemm.lhsBatch : gemm.rhsBatch, batch);
  split(operand == 0 ? gemm.lhsFree : gemm.rhsFree, free);
  split(operand == 0 ? gemm.lhsContracting : gemm.rhsContracting, contracting);
  return index;
}

llvm::Expected<Value> GemmEmitter::operandElement(EmitterContext &context, int operand,
                                                  ValueRange batch, Value free,
                                                  Value contracting) const {
  ImplicitLocOpBuilder &b = context.b;
  const HloInstruction *value = gemm.dot->operand(operand);
  SmallVector<Value> index = operandIndex(b, operand, batch, free, contracting);
  llvm::Expected<SmallVector<Value>> element =
      context.elemental.emitValue(b, *value, context.parameters, index);
  if (!element)
    return element.takeError();
  return element->front();
}

llvm::Expected<Value> GemmEmitter::stageOperand(EmitterContext &context,
                                                const BlockPosition &block, int operand,
                                                Value tile, Value k0) const {
  ImplicitLocOpBuilder &b = context.b;
  const GemmTiling &t = tiling;
  const Staging &staged = staging[operand];
  const IndexMath math{b};

  int64_t rows = staged.rows, width = staged.width;
  int64_t freeSize = operand == 0 ? gemm.m : gemm.n;
  Value freeBase = operand == 0 ? block.row : block.column;
  int64_t count = rows * t.blockK / width;
  int64_t threads = t.warps * kWarpSize;
  Type element = elementType(gemm.dot->operand(operand)->shape().elementType(), b.getContext());

  // Copies `width` elements from (free, k) on, along K or the free rows,
  // into the tile from `indices` (those of (freeLocal, kLocal)) on: the
  // operand's values, or zeros where `inBounds` is false (the tile still
  // holds the last K tile's).
  auto copy = [&](Value current, ArrayRef<Value> indices, Value freeLocal, Value kLocal,
                  Value free, Value k, Value inBounds) -> BodyValues {
    auto body = [&](bool read) {
      return [&, read](ImplicitLocOpBuilder &inner) -> BodyValues {
        // `b` (and the helpers that use it) builds here too.
        b.setInsertionPoint(inner.getInsertionBlock(), inner.getInsertionPoint());
        llvm::Error failure = llvm::Error::success();
        auto elements = scf::ForOp::create(
            inner, math.constant(0), math.constant(width), math.constant(1), ValueRange{current},
            [&](OpBuilder &builder, Location, Value e, ValueRange iterArgs) {
              b.setInsertionPoint(builder.getInsertionBlock(), builder.getInsertionPoint());
              Value value = arith::ConstantOp::create(b, b.getZeroAttr(element));
              if (read) {
                llvm::Expected<Value> loaded =
                    staged.alongK ? operandElement(context, operand, block.batch, free, math.add(k, e))
                                  : operandElement(context, operand, block.batch, math.add(free, e), k);
                if (!loaded) {
                  failure = loaded.takeError();
                  scf::YieldOp::create(b, iterArgs);
                  return;
                }
                value = gemm.input == GemmInput::TF32 ? roundToTf32(b, *loaded) : *loaded;
              }
              Value rowIndex = staged.alongK ? freeLocal : math.add(freeLocal, e);
              Value kIndex = staged.alongK ? math.add(kLocal, e) : kLocal;
              if (segmentedTf32()) {
                // The wgmma's 3xTF32 tile: each segment its part.
                Value updated = iterArgs[0];
                for (auto [segment, part] : llvm::enumerate(threeTf32Segments(b, operand, value)))
                  updated = tensor::InsertOp::create(
                      b, part, updated,
                      tileIndices(b, staged, rowIndex, math.add(kIndex, math.constant(segment * t.blockK))));
                scf::YieldOp::create(b, ValueRange{updated});
                return;
              }
              SmallVector<Value> at(indices.begin(), indices.end());
              if (staged.contiguousInTile)
                at.back() = math.add(at.back(), e);
              else
                at = tileIndices(b, staged, rowIndex, kIndex);
              scf::YieldOp::create(b, ValueRange{tensor::InsertOp::create(b, value, iterArgs[0], at)});
            });
        if (failure)
          return BodyValues(std::move(failure));
        return SmallVector<Value>{elements.getResult(0)};
      };
    };
    llvm::Error failure = llvm::Error::success();
    auto branch = scf::IfOp::create(
        b, inBounds,
        [&](OpBuilder &builder, Location location) {
          ImplicitLocOpBuilder inner(location, builder);
          BodyValues values = body(true)(inner);
          if (!values) {
            failure = values.takeError();
            scf::YieldOp::create(inner, ValueRange{current});
            return;
          }
          scf::YieldOp::create(inner, *values);
        },
        [&](OpBuilder &builder, Location location) {
          ImplicitLocOpBuilder inner(location, builder);
          BodyValues values = body(false)(inner);
          scf::YieldOp::create(inner, values ? *values : SmallVector<Value>{current});
          llvm::consumeError(values.takeError());
        });
    if (failure)
      return BodyValues(std::move(failure));
    return SmallVector<Value>{branch.getResult(0)};
  };

  llvm::Error failure = llvm::Error::success();
  auto loop = scf::ForOp::create(
      b, math.constant(0), math.constant(llvm::divideCeil(count, threads)), math.constant(1), ValueRange{tile},
      [&](OpBuilder &builder, Location, Value i, ValueRange iterArgs) {
        b.setInsertionPoint(builder.getInsertionBlock(), builder.getInsertionPoint());
        Value linear = math.add(math.mul(i, threads), block.thread);
        BodyValues stored = emitIf(
            b, math.less(linear, count), {iterArgs[0]}, [&](ImplicitLocOpBuilder &nested) -> BodyValues {
              // (free row, K index) in the block's tile, the threads
              // running along the operand's minor dimension.
              Value freeLocal, kLocal;
              if (staged.alongK) {
                SmallVector<Value> position =
                    delinearizeIndex(nested, linear, {rows, t.blockK / width});
                freeLocal = position[0];
                kLocal = math.mul(position[1], width);
              } else {
                SmallVector<Value> position =
                    delinearizeIndex(nested, linear, {t.blockK, rows / width});
                kLocal = position[0];
                freeLocal = math.mul(position[1], width);
              }
              Value free = math.add(freeBase, freeLocal);
              Value k = math.add(k0, kLocal);
              // A vector is inside the operand or outside it as a whole
              // (the extent it runs along is whole vectors).
              Value inBounds =
                  math.both(block.hasTile, math.both(math.less(free, freeSize), math.less(k, gemm.k)));
              SmallVector<Value, 4> indices = tileIndices(b, staged, freeLocal, kLocal);
              if (!staged.async)
                return copy(iterArgs[0], indices, freeLocal, kLocal, free, k, inBounds);
              // Straight from the parameter's buffer (row-major in its
              // layout: the vector runs along its last dimension), at an
              // index inside it even where nothing is read.
              Value zero = math.constant(0);
              auto inside = [&](Value index) {
                return arith::SelectOp::create(b, inBounds, index, zero).getResult();
              };
              SmallVector<Value> batch;
              for (Value index : block.batch)
                batch.push_back(inside(index));
              const HloInstruction *parameter = gemm.dot->operand(operand);
              SmallVector<Value> source = bufferIndices(
                  parameter->shape(), operandIndex(b, operand, batch, inside(free), inside(k)));
              return SmallVector<Value>{
                  xla_gpu::AsyncCopyOp::create(
                      b, iterArgs[0].getType(), context.parameters[parameter->parameterNumber()],
                      source, iterArgs[0], indices, inBounds,
                      b.getI64IntegerAttr(width * elementBytes))
                      .getResult()};
            });
        if (!stored) {
          failure = stored.takeError();
          scf::YieldOp::create(b, iterArgs);
          return;
        }
        scf::YieldOp::create(b, *stored);
      });
  if (failure)
    return llvm::Expected<Value>(std::move(failure));
  b.setInsertionPointAfter(loop);
  return loop.getResult(0);
}

} // namespace hlo
