//===- GemmEmitter.cpp - Tensor-core GEMMs (XLA's Triton GEMM fusions) ----===//
#include "emitters/GemmEmitter.h"

#include "analysis/GemmAnalysis.h"
#include "dialect/MmaSyncKind.h"
#include "dialect/XlaGpuDialect.h"
#include "emitters/TypeConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <numeric>
#include <tuple>

using namespace mlir;

namespace hlo {
namespace {

constexpr int64_t kWarpSize = 32;
/// Without XLA's config, a block's tile is at most this many rows and
/// columns, computed by at most this many warps.
constexpr int64_t kMaxBlockRows = 64, kMaxBlockColumns = 64, kMaxWarps = 4;

xla_gpu::MmaSyncKind mmaKindFor(GemmInput input) {
  switch (input) {
  case GemmInput::BF16:
    return {16, 8, 16, xla_gpu::MmaInput::BF16};
  case GemmInput::F16:
    return {16, 8, 16, xla_gpu::MmaInput::F16};
  case GemmInput::TF32:
  case GemmInput::TF32x3:
    return {16, 8, 8, xla_gpu::MmaInput::TF32};
  case GemmInput::F64:
    return {8, 8, 4, xla_gpu::MmaInput::F64};
  case GemmInput::S8:
    return {16, 8, 32, xla_gpu::MmaInput::S8};
  }
  llvm_unreachable("a GEMM input type");
}

/// `value` rounded to TF32 as the tensor cores' conversion (cvt.rna) does:
/// to nearest, ties away from zero, in the top 19 bits; NaN and infinity
/// kept.
Value roundToTf32(ImplicitLocOpBuilder &b, Value value) {
  // Scalars or vectors (a fragment) alike.
  Type i32 = b.getI32Type();
  if (auto vector = dyn_cast<VectorType>(value.getType()))
    i32 = VectorType::get(vector.getShape(), i32);
  auto constant = [&](uint32_t bits) -> Value {
    TypedAttr attribute = b.getI32IntegerAttr(static_cast<int32_t>(bits));
    if (auto vector = dyn_cast<VectorType>(i32))
      attribute = SplatElementsAttr::get(vector, attribute);
    return arith::ConstantOp::create(b, attribute);
  };
  Value bits = arith::BitcastOp::create(b, i32, value);
  Value rounded = arith::AndIOp::create(b, arith::AddIOp::create(b, bits, constant(0x1000)),
                                        constant(0xffffe000u));
  Value exponent = arith::AndIOp::create(b, bits, constant(0x7f800000u));
  Value special =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, exponent, constant(0x7f800000u));
  return arith::BitcastOp::create(b, value.getType(),
                                  arith::SelectOp::create(b, special, bits, rounded));
}

/// `value` as TF32 (its rounding) plus the TF32 rounding of the rest (zero
/// where the rounding is the value: infinities included).
std::pair<Value, Value> splitTf32(ImplicitLocOpBuilder &b, Value value) {
  Value big = roundToTf32(b, value);
  Value rest = roundToTf32(b, arith::SubFOp::create(b, value, big));
  Value exact = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, big, value);
  Value zero = arith::ConstantOp::create(b, b.getZeroAttr(value.getType()));
  return {big, arith::SelectOp::create(b, exact, zero, rest)};
}

class GemmEmitter : public EmitterBase {
public:
  GemmEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
              const GpuDeviceInfo &device, GemmDescription gemm)
      : EmitterBase(analysis, fused, device), gemm(std::move(gemm)),
        mma(mmaKindFor(this->gemm.input)) {
    // XLA's tile and warps where its config names them (a tile of the
    // root's dimensions, which the epilogue's bitcasts may permute), else
    // the dot's rows and columns rounded up to mma tiles, at most 64 x 64,
    // with a warp per two mma tiles, at most 4.
    if (std::optional<std::pair<int64_t, int64_t>> tile = configuredTile(analysis)) {
      std::tie(blockM, blockN) = *tile;
      warps = std::clamp<int64_t>(*analysis.blockLevelWarps, 1, 32);
      mmaTilesM = llvm::divideCeil(blockM, mma.m);
      mmaTilesN = llvm::divideCeil(blockN, mma.n);
    } else {
      mmaTilesM = llvm::divideCeil(std::min(this->gemm.m, kMaxBlockRows), mma.m);
      mmaTilesN = llvm::divideCeil(std::min(this->gemm.n, kMaxBlockColumns), mma.n);
      blockM = mmaTilesM * mma.m;
      blockN = mmaTilesN * mma.n;
      warps = std::clamp<int64_t>(mmaTilesM * mmaTilesN / 2, 1, kMaxWarps);
    }
    tilesPerWarp = llvm::divideCeil(mmaTilesM * mmaTilesN, warps);
    tilesM = llvm::divideCeil(this->gemm.m, blockM);
    tilesN = llvm::divideCeil(this->gemm.n, blockN);
    launch.threads[0] = warps * kWarpSize;
    launch.blocks = splitGrid(this->gemm.batchCount() * tilesM * tilesN, device);
  }

  LaunchDimensions launchDimensions() const override { return launch; }
  bool synchronizesThreads() const override { return true; } // warp-collective mma
  std::optional<IndexingMap> threadIdToOutputIndexing(int64_t, MLIRContext *) const override {
    return std::nullopt;
  }

protected:
  std::vector<const HloInstruction *> valuesReadByEmitter() const override {
    return {gemm.dot->operand(0), gemm.dot->operand(1)};
  }
  std::vector<EpilogueSpecification> epilogues() const override {
    return {{gemm.dot, fused.root()}};
  }
  llvm::Error emitEntryFunction(EmitterContext &context) override;

private:
  /// One operand's element at (batch indices, free index, contracting
  /// index) (the free and contracting indices row-major over the
  /// operand's free and contracting dimensions), or zero outside the
  /// operand (the tile's ragged edges).
  llvm::Expected<Value> operandElement(EmitterContext &context, int operand,
                                       ValueRange batch, Value free, Value contracting,
                                       Value inBounds) const;

  /// XLA's output tile as (rows, columns) of the dot, if its config names
  /// one with its warps, one per batch dimension, and the root's
  /// dimensions are the dot's (permuted by bitcasts at most).
  std::optional<std::pair<int64_t, int64_t>> configuredTile(const FusionAnalysis &analysis) const;

  GemmDescription gemm;
  xla_gpu::MmaSyncKind mma;
  /// The block's tile of the dot (rows, columns), its warps, the mma tiles
  /// that cover it, and how many each warp computes (warp w: w, w + warps,
  /// ...).
  int64_t blockM = 0, blockN = 0, warps = 0;
  int64_t mmaTilesM = 0, mmaTilesN = 0, tilesPerWarp = 0;
  /// The blocks' tiles along M and N.
  int64_t tilesM = 0, tilesN = 0;
  LaunchDimensions launch;
};

std::optional<std::pair<int64_t, int64_t>>
GemmEmitter::configuredTile(const FusionAnalysis &analysis) const {
  const std::vector<int64_t> &sizes = analysis.blockLevelTile;
  const HloInstruction *root = fused.root();
  if (!analysis.blockLevelWarps || sizes.size() != static_cast<size_t>(root->shape().rank()) ||
      !gemm.hasMatrixResult())
    return std::nullopt;
  // Root dimension i is dot dimension dotDimension[i].
  int64_t rank = gemm.dot->shape().rank();
  if (root->shape().rank() != rank)
    return std::nullopt;
  // Root dimension i is dot dimension dotDimension[i], or -1 for a
  // dimension of size 1 the bitcasts add.
  std::vector<int64_t> dotDimension(rank);
  std::iota(dotDimension.begin(), dotDimension.end(), 0);
  if (gemm.epilogueChainTop != gemm.dot) {
    MLIRContext context(MLIRContext::Threading::DISABLED);
    std::optional<IndexingMap> toTop =
        heroToRootIndexing(gemm.dot, gemm.epilogueChainTop, &context);
    if (!toTop || toTop->getAffineMap().getNumResults() != rank)
      return std::nullopt;
    for (int64_t i = 0; i < rank; ++i) {
      AffineExpr result = toTop->getAffineMap().getResult(i);
      if (auto dim = dyn_cast<AffineDimExpr>(result))
        dotDimension[i] = dim.getPosition();
      else if (isa<AffineConstantExpr>(result) && root->shape().dimension(i) == 1)
        dotDimension[i] = -1;
      else
        return std::nullopt;
    }
  }
  // Dot dimensions no root dimension names have size 1: a tile of 1.
  std::vector<int64_t> dotTile(rank, 1);
  std::vector<bool> named(rank, false);
  for (int64_t i = 0; i < rank; ++i)
    if (dotDimension[i] >= 0) {
      dotTile[dotDimension[i]] = sizes[i];
      named[dotDimension[i]] = true;
    }
  for (int64_t d = 0; d < rank; ++d)
    if (!named[d] && gemm.dot->shape().dimension(d) != 1)
      return std::nullopt;
  for (int64_t d = 0; d + 2 < rank; ++d)
    if (dotTile[d] != 1)
      return std::nullopt;
  return std::make_pair(dotTile[rank - 2], dotTile[rank - 1]);
}

llvm::Expected<Value> GemmEmitter::operandElement(EmitterContext &context, int operand,
                                                  ValueRange batch, Value free,
                                                  Value contracting, Value inBounds) const {
  ImplicitLocOpBuilder &b = context.b;
  const HloInstruction *value = gemm.dot->operand(operand);
  const Shape &shape = value->shape();
  SmallVector<Value> index(shape.rank());
  // Dimensions `dims` of the operand's index from `linear`, row-major.
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
  Type type = elementType(value->shape().elementType(), b.getContext());
  Value zero = arith::ConstantOp::create(b, b.getZeroAttr(type));
  BodyValues loaded = emitIf(b, inBounds, {zero}, [&](ImplicitLocOpBuilder &nested) -> BodyValues {
    llvm::Expected<SmallVector<Value>> element =
        context.elemental.emitValue(nested, *value, context.parameters, index);
    if (!element)
      return element.takeError();
    return SmallVector<Value>{element->front()};
  });
  if (!loaded)
    return loaded.takeError();
  return loaded->front();
}

llvm::Error GemmEmitter::emitEntryFunction(EmitterContext &context) {
  ImplicitLocOpBuilder &b = context.b;
  MLIRContext *mlirContext = b.getContext();
  auto constant = [&](int64_t value) { return arith::ConstantIndexOp::create(b, value); };
  auto add = [&](Value x, Value y) { return arith::AddIOp::create(b, x, y).getResult(); };
  auto mul = [&](Value x, int64_t y) { return arith::MulIOp::create(b, x, constant(y)).getResult(); };
  auto less = [&](Value x, int64_t bound) {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::ult, x, constant(bound)).getResult();
  };

  // The block's tile: (batch, tile row, tile column), the blocks in
  // row-major order over them however splitGrid spread them.
  Value thread = context.threadAndBlockIds[0];
  Value block = context.threadAndBlockIds[1];
  int64_t stride = launch.blocks[0];
  for (size_t axis = 2; axis < context.threadAndBlockIds.size(); ++axis) {
    block = add(block, mul(context.threadAndBlockIds[axis], stride));
    stride *= launch.blocks[axis - 1];
  }
  SmallVector<int64_t> tileDims(gemm.batchSizes.begin(), gemm.batchSizes.end());
  tileDims.push_back(tilesM);
  tileDims.push_back(tilesN);
  // splitGrid may launch a few blocks past the tiles (a grid split over y
  // and z): they compute nothing.
  Value blockHasTile = less(block, gemm.batchCount() * tilesM * tilesN);
  SmallVector<Value> tile = delinearizeIndex(b, block, tileDims);
  SmallVector<Value> batch(tile.begin(), tile.end() - 2);
  SmallVector<Value> warpAndLane = delinearizeIndex(b, thread, {warps, 8, 4});
  Value warp = warpAndLane[0], group = warpAndLane[1], inGroup = warpAndLane[2];
  Value blockRow = mul(tile[tile.size() - 2], blockM);
  Value blockColumn = mul(tile.back(), blockN);
  // The warp's mma tiles: tile `warp + j * warps` of the block's
  // mmaTilesM x mmaTilesN, while there is one (a warp-uniform condition).
  struct WarpTile {
    Value valid, rowBase, columnBase;
  };
  SmallVector<WarpTile> warpTiles;
  for (int64_t j = 0; j < tilesPerWarp; ++j) {
    Value index = add(warp, constant(j * warps));
    SmallVector<Value> position = delinearizeIndex(b, index, {mmaTilesM, mmaTilesN});
    Value valid = arith::AndIOp::create(b, blockHasTile, less(index, mmaTilesM * mmaTilesN));
    warpTiles.push_back({valid,
                         add(blockRow, mul(position[0], mma.m)),
                         add(blockColumn, mul(position[1], mma.n))});
  }
  // Fragment value -> its row and column in the operand (the PTX layout).
  auto rowOf = [&](Value base, const xla_gpu::MmaFragmentOffset &offset) {
    return add(base, add(group, constant(offset.rowOffset)));
  };
  auto columnOf = [&](Value base, const xla_gpu::MmaFragmentOffset &offset) {
    return add(base, add(mul(inGroup, offset.perRegister), constant(offset.columnOffset)));
  };

  Type accumulatorElement = mma.input == xla_gpu::MmaInput::F64  ? b.getF64Type()
                            : mma.input == xla_gpu::MmaInput::S8 ? Type(b.getI32Type())
                                                                 : Type(b.getF32Type());
  auto accumulatorType = VectorType::get({mma.cValues()}, accumulatorElement);
  Value zeros = arith::ConstantOp::create(b, b.getZeroAttr(accumulatorType));
  Type inputElement = elementType(gemm.dot->operand(0)->shape().elementType(), mlirContext);

  // A lane's fragment of operand 0 (A) or 1 (B) of the mma tile whose
  // free index starts at `freeBase`, at contraction step `k0`.
  auto loadFragment = [&](int operand, Value freeBase, Value k0) -> llvm::Expected<Value> {
    auto role = operand == 0 ? xla_gpu::MmaOperand::A : xla_gpu::MmaOperand::B;
    int64_t values = operand == 0 ? mma.aValues() : mma.bValues();
    int64_t freeSize = operand == 0 ? gemm.m : gemm.n;
    SmallVector<Value> elements;
    for (int64_t v = 0; v < values; ++v) {
      auto offset = xla_gpu::mmaFragmentOffset(mma, role, v);
      Value free = rowOf(freeBase, offset), k = columnOf(k0, offset);
      Value inBounds = arith::AndIOp::create(b, less(free, freeSize), less(k, gemm.k));
      llvm::Expected<Value> element = operandElement(context, operand, batch, free, k, inBounds);
      if (!element)
        return element.takeError();
      elements.push_back(*element);
    }
    return vector::FromElementsOp::create(b, VectorType::get({values}, inputElement), elements)
        .getResult();
  };
  // One mma tile's step along K: its fragments loaded, multiplied into
  // `accumulator`.
  auto mmaStep = [&](const WarpTile &warpTile, Value k0, Value accumulator) -> BodyValues {
    llvm::Expected<Value> aFragment = loadFragment(0, warpTile.rowBase, k0);
    if (!aFragment)
      return aFragment.takeError();
    llvm::Expected<Value> bFragment = loadFragment(1, warpTile.columnBase, k0);
    if (!bFragment)
      return bFragment.takeError();
    auto multiply = [&](Value a, Value bValue, Value c) {
      return xla_gpu::MmaSyncOp::create(
                 b, accumulatorType, a, bValue, c, b.getDenseI64ArrayAttr({mma.m, mma.n, mma.k}),
                 mma.input == xla_gpu::MmaInput::TF32 ? b.getUnitAttr() : UnitAttr())
          .getD();
    };
    if (gemm.input == GemmInput::TF32)
      return SmallVector<Value>{
          multiply(roundToTf32(b, *aFragment), roundToTf32(b, *bFragment), accumulator)};
    if (gemm.input == GemmInput::TF32x3) {
      // a * b ~ aBig * bBig + aBig * bSmall + aSmall * bBig, the small
      // products first.
      auto [aBig, aSmall] = splitTf32(b, *aFragment);
      auto [bBig, bSmall] = splitTf32(b, *bFragment);
      Value sum = multiply(aSmall, bBig, accumulator);
      sum = multiply(aBig, bSmall, sum);
      return SmallVector<Value>{multiply(aBig, bBig, sum)};
    }
    return SmallVector<Value>{multiply(*aFragment, *bFragment, accumulator)};
  };

  llvm::Error failure = llvm::Error::success();
  int64_t kSteps = llvm::divideCeil(gemm.k, mma.k);
  SmallVector<Value> inits(tilesPerWarp, zeros);
  auto loop = scf::ForOp::create(
      b, constant(0), constant(kSteps * mma.k), constant(mma.k), inits,
      [&](OpBuilder &builder, Location location, Value k0, ValueRange iterArgs) {
        // The body is built with `b`, moved into the loop.
        b.setInsertionPoint(builder.getInsertionBlock(), builder.getInsertionPoint());
        SmallVector<Value> accumulators(iterArgs.begin(), iterArgs.end());
        for (int64_t j = 0; j < tilesPerWarp && !failure; ++j) {
          BodyValues stepped = emitIf(b, warpTiles[j].valid, {accumulators[j]},
                                      [&](ImplicitLocOpBuilder &) {
                                        return mmaStep(warpTiles[j], k0, accumulators[j]);
                                      });
          if (!stepped) {
            failure = stepped.takeError();
            break;
          }
          accumulators[j] = stepped->front();
        }
        scf::YieldOp::create(b, accumulators);
      });
  if (failure)
    return failure;
  b.setInsertionPointAfter(loop);

  // The epilogue: each accumulator value inside the dot, converted to its
  // type, through the ops after the dot to the output.
  const HloInstruction *root = fused.root();
  const Subgraph *epilogue = context.partitioned.epilogueFor(gemm.dot, root);
  std::optional<IndexingMap> toRoot;
  if (gemm.epilogueChainTop != gemm.dot) {
    toRoot = heroToRootIndexing(gemm.dot, gemm.epilogueChainTop, mlirContext);
    if (!toRoot)
      return epilogueWithoutIndexing(gemm.dot, root);
  }
  Type dotElement = elementType(gemm.dot->shape().elementType(), mlirContext);
  SmallVector<int64_t> lhsFreeSizes, rhsFreeSizes;
  for (int64_t d : gemm.lhsFree)
    lhsFreeSizes.push_back(gemm.dot->operand(0)->shape().dimension(d));
  for (int64_t d : gemm.rhsFree)
    rhsFreeSizes.push_back(gemm.dot->operand(1)->shape().dimension(d));
  const Shape &outputShape = *fusionOutputs().front().shape;
  Value output = context.outputs.front();
  for (int64_t j = 0; j < tilesPerWarp; ++j) {
    for (int64_t v = 0; v < mma.cValues(); ++v) {
      auto offset = xla_gpu::mmaFragmentOffset(mma, xla_gpu::MmaOperand::C, v);
      Value row = rowOf(warpTiles[j].rowBase, offset);
      Value column = columnOf(warpTiles[j].columnBase, offset);
      // Inside the dot and inside this block's tile (an mma tile may reach
      // past a tile smaller than itself, into the next block's).
      Value inBounds = arith::AndIOp::create(b, less(row, gemm.m), less(column, gemm.n));
      inBounds = arith::AndIOp::create(b, inBounds, warpTiles[j].valid);
      inBounds = arith::AndIOp::create(
          b, inBounds, less(arith::SubIOp::create(b, row, blockRow), blockM));
      inBounds = arith::AndIOp::create(
          b, inBounds, less(arith::SubIOp::create(b, column, blockColumn), blockN));
      BodyValues written = emitIf(b, inBounds, {output}, [&](ImplicitLocOpBuilder &nested) -> BodyValues {
        Value value = vector::ExtractOp::create(nested, loop.getResult(j), v);
        if (dotElement != accumulatorElement)
          value = dotElement.getIntOrFloatBitWidth() < accumulatorElement.getIntOrFloatBitWidth()
                      ? Value(arith::TruncFOp::create(nested, dotElement, value))
                      : Value(arith::ExtFOp::create(nested, dotElement, value));
        // [batch..., lhs free..., rhs free...].
        SmallVector<Value> heroIndex(batch.begin(), batch.end());
        llvm::append_range(heroIndex, delinearizeIndex(nested, row, lhsFreeSizes));
        llvm::append_range(heroIndex, delinearizeIndex(nested, column, rhsFreeSizes));
        SmallVector<Value> rootIndex =
            toRoot ? applyIndexing(nested, *toRoot, heroIndex) : heroIndex;
        SmallVector<Value> values = context.elemental.callEpilogue(
            nested, *epilogue, context.parameters, rootIndex, value);
        return SmallVector<Value>{tensor::InsertOp::create(nested, values.front(), output,
                                                           bufferIndices(outputShape, rootIndex))};
      });
      if (!written)
        return written.takeError();
      output = written->front();
    }
  }
  func::ReturnOp::create(b, ValueRange{output});
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::unique_ptr<EmitterBase>>
createGemmEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
                  const GpuDeviceInfo &device) {
  if (device.computeCapability < 80)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "unsupported: the tensor-core GEMM emitter needs sm_80 or "
                                   "later, not " + device.arch);
  ErrorOr<GemmDescription> gemm = describeGemm(fused);
  if (!gemm)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "unsupported: this GEMM fusion (" + gemm.error() + ")");
  return std::make_unique<GemmEmitter>(analysis, fused, device, std::move(*gemm));
}

} // namespace hlo
