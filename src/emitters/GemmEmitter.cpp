//===- GemmEmitter.cpp - Tensor-core GEMMs (XLA's Triton GEMM fusions) ----===//
#include "emitters/GemmEmitter.h"

#include "analysis/GemmAnalysis.h"
#include "dialect/KernelContract.h"
#include "dialect/MmaSyncKind.h"
#include "dialect/XlaGpuDialect.h"
#include "emitters/GemmTiling.h"
#include "emitters/TypeConversion.h"
#include "hlo_parser/OpAttributes.h"
#include "support/BackendConfig.h"

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
/// The register file of an SM (sm_80 to sm_90: 64K 32-bit registers),
/// and the blocks a GEMM kernel's register bound leaves room for.
constexpr int64_t kRegistersPerSm = 65536, kBlocksPerSm = 4;

xla_gpu::MmaSyncKind mmaKindOf(GemmInput input) {
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
  case GemmInput::F8E4M3FN:
    return {16, 8, 32, xla_gpu::MmaInput::F8E4M3FN};
  case GemmInput::F8E5M2:
    return {16, 8, 32, xla_gpu::MmaInput::F8E5M2};
  }
  llvm_unreachable("a GEMM input type");
}

/// The mma.sync of a GEMM's A and B types.
xla_gpu::MmaSyncKind mmaKindFor(const GemmDescription &gemm) {
  xla_gpu::MmaSyncKind kind = mmaKindOf(gemm.input);
  if (gemm.inputB)
    kind.inputB = mmaKindOf(*gemm.inputB).input;
  return kind;
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

/// The step along K XLA's Triton GEMM gives its dot: the dot's
/// backend_config {"sizes":["32"]}.
std::optional<int64_t> configuredBlockK(const HloInstruction &dot) {
  std::optional<JsonValue> config = parseBackendConfig(backendConfigText(dot));
  const JsonValue *sizes = config ? config->find("sizes") : nullptr;
  if (!sizes || !sizes->isArray() || sizes->array().size() != 1)
    return std::nullopt;
  const JsonValue &size = sizes->array().front();
  double value = size.kind() == JsonValue::Kind::String ? std::atof(size.string().c_str())
                                                        : size.number();
  if (value < 1 || value > (1 << 16) || value != static_cast<int64_t>(value))
    return std::nullopt;
  return static_cast<int64_t>(value);
}

class GemmEmitter : public EmitterBase {
public:
  GemmEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
              const GpuDeviceInfo &device, GemmDescription gemm)
      : EmitterBase(analysis, fused, device), gemm(std::move(gemm)),
        mma(mmaKindFor(this->gemm)) {
    // XLA's tile and warps where its config names them (a tile of the
    // root's dimensions, which the epilogue's bitcasts may permute).
    GemmConfig config;
    config.tile = configuredTile(analysis);
    if (config.tile)
      config.warps = analysis.blockLevelWarps;
    config.blockK = configuredBlockK(*this->gemm.dot);
    elementBytes =
        primitiveBitWidth(this->gemm.dot->operand(0)->shape().elementType()) / 8;
    tiling = chooseGemmTiling(this->gemm, mma, config, elementBytes,
                              device.sharedMemoryPerBlock);
    staging[0] = stagingOf(0);
    staging[1] = stagingOf(1);
    launch.threads[0] = tiling.warps * kWarpSize;
    launch.blocks = splitGrid(this->gemm.batchCount() * tiling.tilesM * tiling.tilesN, device);
    // Registers for four blocks an SM: without a bound ptxas aims at more
    // blocks and spills the accumulators and addresses (64 registers and
    // 12 bytes of spills where 104 fit, on a TF32 [4096,32000] x
    // [32000,2048] dot for sm_80); with room for fewer, it spends
    // registers freely. Three TF32 products hold each fragment twice (its
    // TF32 part and remainder): room for two blocks (a HIGHEST f32 dot on
    // 4 warps spilled 28 bytes at 128 registers on sm_80).
    int64_t blocksPerSm = this->gemm.input == GemmInput::TF32x3 ? kBlocksPerSm / 2 : kBlocksPerSm;
    launch.maxRegisters = std::clamp<int64_t>(
        kRegistersPerSm / (blocksPerSm * launch.threads[0]) / 8 * 8, 32,
        device.maxRegistersPerThread);
  }

  LaunchDimensions launchDimensions() const override { return launch; }
  int64_t sharedMemoryBytes() const override {
    int64_t elements = 0;
    for (const Staging &operand : staging)
      elements += operand.tileShape[0] * operand.tileShape[1];
    return elements * elementBytes;
  }
  bool synchronizesThreads() const override { return true; } // barriers, warp-collective mma
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
  /// How an operand is staged: its shared tile is [free rows][K tile]
  /// (padded), or, `transposed`, [K tile][free rows] (padded) for 16-bit
  /// operands stored free-dimension minor (then copied along their free
  /// dimension and read by ldmatrix.trans); a thread copies `width`
  /// consecutive elements at a time along the direction it copies.
  struct Staging {
    bool transposed = false;
    int64_t rows = 0, width = 1;
    SmallVector<int64_t, 2> tileShape;
  };
  Staging stagingOf(int operand) const;

  /// One operand's element at (batch indices, free index, contracting
  /// index) (the free and contracting indices row-major over the
  /// operand's free and contracting dimensions), or zero outside the
  /// operand (the tile's ragged edges).
  llvm::Expected<Value> operandElement(EmitterContext &context, int operand,
                                       ValueRange batch, Value free, Value contracting,
                                       Value inBounds) const;

  /// Where each 32-bit register of a lane's A or B fragment (`values`
  /// values) starts in lane 0's view (row and column offsets in the mma
  /// tile), if every register is one lane's word of an 8 x 8 (16-bit)
  /// matrix row as ldmatrix delivers it: the registers' matrices, in
  /// order; none where ldmatrix does not apply (64-bit elements, rows not
  /// 16-byte aligned).
  std::optional<SmallVector<xla_gpu::MmaFragmentOffset>>
  ldmatrixRows(xla_gpu::MmaOperand role, int64_t values, const Staging &tile) const;

  /// Whether operand `operand` is stored with a contracting dimension
  /// minor-most (K contiguous), so that the block's threads read along K.
  bool isKMinor(int operand) const;

  /// XLA's output tile as (rows, columns) of the dot, if its config names
  /// one with its warps, one per batch dimension, and the root's
  /// dimensions are the dot's (permuted by bitcasts at most).
  std::optional<std::pair<int64_t, int64_t>> configuredTile(const FusionAnalysis &analysis) const;


  GemmDescription gemm;
  xla_gpu::MmaSyncKind mma;
  GemmTiling tiling;
  int64_t elementBytes = 0;
  Staging staging[2];
  LaunchDimensions launch;
};

std::optional<std::pair<int64_t, int64_t>>
GemmEmitter::configuredTile(const FusionAnalysis &analysis) const {
  const std::vector<int64_t> &sizes = analysis.blockLevelTile;
  const HloInstruction *root = fused.root();
  if (!analysis.blockLevelWarps || sizes.size() != static_cast<size_t>(root->shape().rank()) ||
      !gemm.hasMatrixResult())
    return std::nullopt;
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

std::optional<SmallVector<xla_gpu::MmaFragmentOffset>>
GemmEmitter::ldmatrixRows(xla_gpu::MmaOperand role, int64_t values,
                          const Staging &tile) const {
  int64_t bits = elementBytes * 8;
  if (bits > 32 || (tile.tileShape[1] * elementBytes) % 16 != 0 ||
      (tile.transposed && bits != 16))
    return std::nullopt;
  int64_t perWord = 32 / bits;
  SmallVector<xla_gpu::MmaFragmentOffset> starts;
  for (int64_t v = 0; v < values; v += perWord) {
    xla_gpu::MmaFragmentOffset first = xla_gpu::mmaFragmentOffset(mma, role, v);
    // The word holds consecutive columns of one row; lane t of a group
    // reads word t of the row.
    if (first.perRegister != perWord || first.columnOffset % perWord != 0)
      return std::nullopt;
    for (int64_t w = 1; w < perWord; ++w) {
      xla_gpu::MmaFragmentOffset next = xla_gpu::mmaFragmentOffset(mma, role, v + w);
      if (next.rowOffset != first.rowOffset || next.columnOffset != first.columnOffset + w)
        return std::nullopt;
    }
    starts.push_back(first);
  }
  if (starts.size() != 1 && starts.size() != 2 && starts.size() != 4)
    return std::nullopt;
  return starts;
}

GemmEmitter::Staging GemmEmitter::stagingOf(int operand) const {
  Staging result;
  result.rows = operand == 0 ? tiling.sharedRowsA : tiling.sharedRowsB;
  int64_t pad = tiling.sharedColumns - tiling.blockK;
  bool kMinor = isKMinor(operand);
  result.transposed = !kMinor && elementBytes == 2;
  result.tileShape = result.transposed ? SmallVector<int64_t, 2>{tiling.blockK, result.rows + pad}
                                       : SmallVector<int64_t, 2>{result.rows, tiling.sharedColumns};
  // 16 bytes at a time where the copy runs along the operand's minor-most
  // dimension in whole vectors: that dimension is the last of the
  // contracting (or, transposed, free) dimensions, and it, the extent
  // copied (K or the free rows) and the tile are whole vectors.
  int64_t width = std::max<int64_t>(1, 16 / elementBytes);
  const Shape &shape = gemm.dot->operand(operand)->shape();
  const std::vector<int64_t> &run =
      result.transposed ? (operand == 0 ? gemm.lhsFree : gemm.rhsFree)
                        : (operand == 0 ? gemm.lhsContracting : gemm.rhsContracting);
  int64_t extent = result.transposed ? (operand == 0 ? gemm.m : gemm.n) : gemm.k;
  int64_t tileExtent = result.transposed ? result.rows : tiling.blockK;
  std::vector<int64_t> layout = shape.layoutOrDefault().minorToMajor;
  // (A free-minor operand of other widths is copied element by element.)
  if ((kMinor || result.transposed) && !run.empty() && !layout.empty() && layout.front() == run.back() &&
      shape.dimension(run.back()) % width == 0 && extent % width == 0 &&
      tileExtent % width == 0)
    result.width = width;
  return result;
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

llvm::Expected<Value> GemmEmitter::operandElement(EmitterContext &context, int operand,
                                                  ValueRange batch, Value free,
                                                  Value contracting, Value inBounds) const {
  ImplicitLocOpBuilder &b = context.b;
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
  Type type = elementType(shape.elementType(), b.getContext());
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
  const GemmTiling &t = tiling;
  auto constant = [&](int64_t value) { return arith::ConstantIndexOp::create(b, value); };
  auto add = [&](Value x, Value y) { return arith::AddIOp::create(b, x, y).getResult(); };
  auto mul = [&](Value x, int64_t y) { return arith::MulIOp::create(b, x, constant(y)).getResult(); };
  auto less = [&](Value x, int64_t bound) {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::ult, x, constant(bound)).getResult();
  };
  auto both = [&](Value x, Value y) { return arith::AndIOp::create(b, x, y).getResult(); };

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
  tileDims.push_back(t.tilesM);
  tileDims.push_back(t.tilesN);
  // splitGrid may launch a few blocks past the tiles (a grid split over y
  // and z): they read and write nothing (but reach the barriers).
  Value blockHasTile = less(block, gemm.batchCount() * t.tilesM * t.tilesN);
  SmallVector<Value> tile = delinearizeIndex(b, block, tileDims);
  SmallVector<Value> batch(tile.begin(), tile.end() - 2);
  SmallVector<Value> warpAndLane = delinearizeIndex(b, thread, {t.warps, 8, 4});
  Value warp = warpAndLane[0], group = warpAndLane[1], inGroup = warpAndLane[2];
  Value blockRow = mul(tile[tile.size() - 2], t.blockM);
  Value blockColumn = mul(tile.back(), t.blockN);

  // The warp's mma tiles, as rows and columns of the block's tile: row
  // slots (each an A fragment) and column slots (each a B fragment), and
  // tile j's slots and whether it exists (warp-uniform).
  SmallVector<Value> rowSlots, columnSlots;
  struct WarpTile {
    Value valid;
    int64_t rowSlot, columnSlot;
  };
  SmallVector<WarpTile> warpTiles;
  Value yes = arith::ConstantIntOp::create(b, 1, 1);
  if (t.warpGrid) {
    SmallVector<Value> position = delinearizeIndex(b, warp, {t.warpsM, t.warpsN});
    for (int64_t r = 0; r < t.warpTilesM; ++r)
      rowSlots.push_back(mul(add(mul(position[0], t.warpTilesM), constant(r)), mma.m));
    for (int64_t c = 0; c < t.warpTilesN; ++c)
      columnSlots.push_back(mul(add(mul(position[1], t.warpTilesN), constant(c)), mma.n));
    for (int64_t j = 0; j < t.tilesPerWarp; ++j)
      warpTiles.push_back({yes, j / t.warpTilesN, j % t.warpTilesN});
  } else {
    for (int64_t j = 0; j < t.tilesPerWarp; ++j) {
      Value index = add(warp, constant(j * t.warps));
      SmallVector<Value> position = delinearizeIndex(b, index, {t.mmaTilesM, t.mmaTilesN});
      rowSlots.push_back(mul(position[0], mma.m));
      columnSlots.push_back(mul(position[1], mma.n));
      warpTiles.push_back({less(index, t.mmaTilesM * t.mmaTilesN), j, j});
    }
  }

  Type accumulatorElement = mma.input == xla_gpu::MmaInput::F64  ? b.getF64Type()
                            : mma.input == xla_gpu::MmaInput::S8 ? Type(b.getI32Type())
                                                                 : Type(b.getF32Type());
  auto accumulatorType = VectorType::get({mma.cValues()}, accumulatorElement);
  Value zeros = arith::ConstantOp::create(b, b.getZeroAttr(accumulatorType));
  // A's and B's element types (e4m3 and e5m2 may meet).
  Type inputElements[2] = {
      elementType(gemm.dot->operand(0)->shape().elementType(), mlirContext),
      elementType(gemm.dot->operand(1)->shape().elementType(), mlirContext)};
  auto sharedType = [&](int operand) {
    return RankedTensorType::get(staging[operand].tileShape, inputElements[operand]);
  };

  // The block's threads copy rows x blockK elements of an operand, from
  // contraction index k0 on, into its shared tile (zeros past the
  // operand), reading along the operand's minor dimension.
  int64_t threads = t.warps * kWarpSize;
  auto fill = [&](int operand, Value shared, Value k0) -> llvm::Expected<Value> {
    const Staging &staged = staging[operand];
    int64_t rows = staged.rows;
    int64_t freeSize = operand == 0 ? gemm.m : gemm.n;
    Value freeBase = operand == 0 ? blockRow : blockColumn;
    bool kMinor = isKMinor(operand);
    // A thread copies `width` consecutive elements at a time (16 bytes
    // along the operand's minor dimension where it runs in whole vectors:
    // one load and one shared store each once vectorized), else one.
    int64_t width = staged.width;
    int64_t count = rows * t.blockK / width;
    // Copies `width` elements from (free, k) on (along the free dimension
    // for a transposed tile, else along K) to the tile from (row, column)
    // on along its row: the operand's values, or zeros where `inBounds` is
    // false.
    auto copy = [&](ImplicitLocOpBuilder &nested, Value tile, Value row, Value column,
                    Value free, Value k, Value inBounds) -> BodyValues {
      Value zero =
          arith::ConstantOp::create(nested, nested.getZeroAttr(inputElements[operand]));
      auto body = [&](bool read) {
        return [&, read](ImplicitLocOpBuilder &inner) -> BodyValues {
          // `b` (and the helpers that use it) builds here too.
          b.setInsertionPoint(inner.getInsertionBlock(), inner.getInsertionPoint());
          llvm::Error failure = llvm::Error::success();
          auto elements = scf::ForOp::create(
              inner, constant(0), constant(width), constant(1), ValueRange{tile},
              [&](OpBuilder &builder, Location, Value e, ValueRange iterArgs) {
                b.setInsertionPoint(builder.getInsertionBlock(), builder.getInsertionPoint());
                Value value = zero;
                if (read) {
                  Value yes = arith::ConstantIntOp::create(b, 1, 1);
                  llvm::Expected<Value> element =
                      staged.transposed
                          ? operandElement(context, operand, batch, add(free, e), k, yes)
                          : operandElement(context, operand, batch, free, add(k, e), yes);
                  if (!element) {
                    failure = element.takeError();
                    scf::YieldOp::create(b, iterArgs);
                    return;
                  }
                  value = gemm.input == GemmInput::TF32 ? roundToTf32(b, *element) : *element;
                }
                scf::YieldOp::create(b, ValueRange{tensor::InsertOp::create(
                                            b, value, iterArgs[0],
                                            ValueRange{row, add(column, e)})});
              });
          if (failure)
            return BodyValues(std::move(failure));
          return SmallVector<Value>{elements.getResult(0)};
        };
      };
      // Past the operand: zeros (the tile still holds the last K tile's).
      llvm::Error failure = llvm::Error::success();
      auto branch = scf::IfOp::create(
          nested, inBounds,
          [&](OpBuilder &builder, Location location) {
            ImplicitLocOpBuilder inner(location, builder);
            BodyValues values = body(true)(inner);
            if (!values) {
              failure = values.takeError();
              scf::YieldOp::create(inner, ValueRange{tile});
              return;
            }
            scf::YieldOp::create(inner, *values);
          },
          [&](OpBuilder &builder, Location location) {
            ImplicitLocOpBuilder inner(location, builder);
            BodyValues values = body(false)(inner);
            scf::YieldOp::create(inner, values ? *values : SmallVector<Value>{tile});
            llvm::consumeError(values.takeError());
          });
      if (failure)
        return BodyValues(std::move(failure));
      return SmallVector<Value>{branch.getResult(0)};
    };
    llvm::Error failure = llvm::Error::success();
    auto loop = scf::ForOp::create(
        b, constant(0), constant(llvm::divideCeil(count, threads)), constant(1),
        ValueRange{shared},
        [&](OpBuilder &builder, Location, Value i, ValueRange iterArgs) {
          b.setInsertionPoint(builder.getInsertionBlock(), builder.getInsertionPoint());
          Value linear = add(mul(i, threads), thread);
          BodyValues stored = emitIf(
              b, less(linear, count), {iterArgs[0]},
              [&](ImplicitLocOpBuilder &nested) -> BodyValues {
                // (free row, K index) in the block's tile, the threads
                // running along the operand's minor dimension.
                Value freeLocal, kLocal;
                if (staged.transposed) {
                  SmallVector<Value> position =
                      delinearizeIndex(nested, linear, {t.blockK, rows / width});
                  kLocal = position[0];
                  freeLocal = mul(position[1], width);
                } else if (kMinor) {
                  SmallVector<Value> position =
                      delinearizeIndex(nested, linear, {rows, t.blockK / width});
                  freeLocal = position[0];
                  kLocal = mul(position[1], width);
                } else {
                  SmallVector<Value> position = delinearizeIndex(nested, linear, {t.blockK, rows});
                  kLocal = position[0];
                  freeLocal = position[1];
                }
                Value free = add(freeBase, freeLocal);
                Value k = add(k0, kLocal);
                // A vector is inside the operand or outside it as a whole
                // (the extent it runs along is whole vectors).
                Value inBounds = both(blockHasTile, both(less(free, freeSize), less(k, gemm.k)));
                return staged.transposed
                           ? copy(nested, iterArgs[0], kLocal, freeLocal, free, k, inBounds)
                           : copy(nested, iterArgs[0], freeLocal, kLocal, free, k, inBounds);
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
  };

  // A lane's fragment of operand 0 (A) or 1 (B) from its shared tile: the
  // mma tile whose rows start at `rowBase`, at step `k0` of the K tile.
  // With ldmatrix where each 32-bit register of the fragment is one row
  // segment of an 8 x 8 (16-bit) matrix, else element by element.
  Value lane = add(mul(group, 4), inGroup);
  auto loadFragment = [&](int operand, Value shared, Value rowBase, int64_t k0) {
    auto role = operand == 0 ? xla_gpu::MmaOperand::A : xla_gpu::MmaOperand::B;
    int64_t values = operand == 0 ? mma.aValues() : mma.bValues();
    auto fragmentType = VectorType::get({values}, inputElements[operand]);
    const Staging &tile = staging[operand];
    if (std::optional<SmallVector<xla_gpu::MmaFragmentOffset>> matrices =
            ldmatrixRows(role, values, tile)) {
      // Lanes 8i..8i+7 name the rows of matrix i (the lanes past the last
      // matrix repeat the first ones').
      int64_t count = matrices->size();
      Value matrix = arith::RemUIOp::create(
          b, arith::DivUIOp::create(b, lane, constant(8)), constant(count));
      Value rowOffset = constant(matrices->front().rowOffset);
      Value columnOffset = constant(matrices->front().columnOffset);
      for (int64_t i = 1; i < count; ++i) {
        Value isMatrix =
            arith::CmpIOp::create(b, arith::CmpIPredicate::eq, matrix, constant(i));
        rowOffset = arith::SelectOp::create(b, isMatrix, constant((*matrices)[i].rowOffset),
                                            rowOffset);
        columnOffset = arith::SelectOp::create(
            b, isMatrix, constant((*matrices)[i].columnOffset), columnOffset);
      }
      // The lane's row of its matrix: a free row (or, transposed, a K
      // row) of the tile.
      Value laneRow = arith::RemUIOp::create(b, lane, constant(8));
      Value row = add(rowBase, add(laneRow, rowOffset));
      Value column = add(constant(k0), columnOffset);
      if (tile.transposed) {
        row = add(constant(k0), add(laneRow, columnOffset));
        column = add(rowBase, rowOffset);
      }
      return xla_gpu::LdmatrixOp::create(b, fragmentType, shared, ValueRange{row, column},
                                         count, tile.transposed)
          .getResult();
    }
    SmallVector<Value> elements;
    for (int64_t v = 0; v < values; ++v) {
      auto offset = xla_gpu::mmaFragmentOffset(mma, role, v);
      Value row = add(rowBase, add(group, constant(offset.rowOffset)));
      Value column =
          add(mul(inGroup, offset.perRegister), constant(k0 + offset.columnOffset));
      elements.push_back(tensor::ExtractOp::create(
          b, shared, tile.transposed ? ValueRange{column, row} : ValueRange{row, column}));
    }
    return vector::FromElementsOp::create(b, fragmentType, elements).getResult();
  };
  auto mmaSync = [&](Value a, Value bValue, Value c) -> Value {
    return xla_gpu::MmaSyncOp::create(
               b, accumulatorType, a, bValue, c, b.getDenseI64ArrayAttr({mma.m, mma.n, mma.k}),
               mma.input == xla_gpu::MmaInput::TF32 ? b.getUnitAttr() : UnitAttr())
        .getD();
  };
  auto multiply = [&](Value a, Value bValue, Value c) -> Value {
    if (gemm.input != GemmInput::TF32x3)
      return mmaSync(a, bValue, c);
    // a * b ~ aBig * bBig + aBig * bSmall + aSmall * bBig, the small
    // products first.
    auto [aBig, aSmall] = splitTf32(b, a);
    auto [bBig, bSmall] = splitTf32(b, bValue);
    Value sum = mmaSync(aSmall, bBig, c);
    sum = mmaSync(aBig, bSmall, sum);
    return mmaSync(aBig, bBig, sum);
  };

  // The K loop: stage a K tile of each operand, wait, multiply out of
  // shared memory, wait again before the next tile overwrites it.
  llvm::Error failure = llvm::Error::success();
  int64_t kTiles = llvm::divideCeil(gemm.k, t.blockK);
  SmallVector<Value> inits(t.tilesPerWarp, zeros);
  inits.push_back(xla_gpu::AllocateSharedOp::create(b, sharedType(0)));
  inits.push_back(xla_gpu::AllocateSharedOp::create(b, sharedType(1)));
  auto loop = scf::ForOp::create(
      b, constant(0), constant(kTiles), constant(1), inits,
      [&](OpBuilder &builder, Location, Value kTile, ValueRange iterArgs) {
        // The body is built with `b`, moved into the loop.
        b.setInsertionPoint(builder.getInsertionBlock(), builder.getInsertionPoint());
        SmallVector<Value> results(iterArgs.begin(), iterArgs.end());
        auto body = [&]() -> llvm::Error {
          Value k0 = mul(kTile, t.blockK);
          llvm::Expected<Value> sharedA = fill(0, iterArgs[t.tilesPerWarp], k0);
          if (!sharedA)
            return sharedA.takeError();
          llvm::Expected<Value> sharedB = fill(1, iterArgs[t.tilesPerWarp + 1], k0);
          if (!sharedB)
            return sharedB.takeError();
          auto staged = xla_gpu::SyncThreadsOp::create(b, ValueRange{*sharedA, *sharedB});
          Value tileA = staged.getResult(0), tileB = staged.getResult(1);
          for (int64_t kk = 0; kk < t.blockK; kk += mma.k) {
            if (t.warpGrid) {
              // Each fragment once, for every tile of its row or column.
              SmallVector<Value> aFragments, bFragments;
              for (Value rowBase : rowSlots)
                aFragments.push_back(loadFragment(0, tileA, rowBase, kk));
              for (Value columnBase : columnSlots)
                bFragments.push_back(loadFragment(1, tileB, columnBase, kk));
              for (auto [j, warpTile] : llvm::enumerate(warpTiles))
                results[j] = multiply(aFragments[warpTile.rowSlot],
                                      bFragments[warpTile.columnSlot], results[j]);
              continue;
            }
            for (auto [j, warpTile] : llvm::enumerate(warpTiles)) {
              BodyValues stepped = emitIf(
                  b, warpTile.valid, {results[j]}, [&](ImplicitLocOpBuilder &) -> BodyValues {
                    Value a = loadFragment(0, tileA, rowSlots[warpTile.rowSlot], kk);
                    Value bFragment =
                        loadFragment(1, tileB, columnSlots[warpTile.columnSlot], kk);
                    return SmallVector<Value>{multiply(a, bFragment, results[j])};
                  });
              if (!stepped)
                return stepped.takeError();
              results[j] = stepped->front();
            }
          }
          auto done = xla_gpu::SyncThreadsOp::create(b, ValueRange{tileA, tileB});
          results[t.tilesPerWarp] = done.getResult(0);
          results[t.tilesPerWarp + 1] = done.getResult(1);
          return llvm::Error::success();
        };
        failure = body();
        scf::YieldOp::create(b, results);
      });
  if (failure)
    return failure;
  // A loop whatever its trip count: unrolled, its tile copies and barriers
  // would only lengthen the code and the registers' lives.
  loop->setAttr(xla_gpu::kKeepLoopAttr, b.getUnitAttr());
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
  for (auto [j, warpTile] : llvm::enumerate(warpTiles)) {
    for (int64_t v = 0; v < mma.cValues(); ++v) {
      auto offset = xla_gpu::mmaFragmentOffset(mma, xla_gpu::MmaOperand::C, v);
      // Inside this block's tile (an mma tile may reach past a tile
      // smaller than itself, into the next block's) and inside the dot.
      Value localRow = add(rowSlots[warpTile.rowSlot], add(group, constant(offset.rowOffset)));
      Value localColumn = add(columnSlots[warpTile.columnSlot],
                              add(mul(inGroup, offset.perRegister), constant(offset.columnOffset)));
      Value row = add(blockRow, localRow), column = add(blockColumn, localColumn);
      Value inBounds = both(both(warpTile.valid, blockHasTile),
                            both(less(localRow, t.blockM), less(localColumn, t.blockN)));
      inBounds = both(inBounds, both(less(row, gemm.m), less(column, gemm.n)));
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
  if (!tensorCoresTake(gemm->input, device.computeCapability))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "unsupported: tensor cores multiply 8-bit floats from sm_89 "
                                   "on, not on " + device.arch);
  return std::make_unique<GemmEmitter>(analysis, fused, device, std::move(*gemm));
}

} // namespace hlo
