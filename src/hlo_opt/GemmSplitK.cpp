//===- GemmSplitK.cpp - GEMMs with too few tiles, split along K -----------===//
//
// Owns gemm-split-k. A GEMM fusion whose output tiles cannot occupy the
// GPU -- a decode step's 1 x 4096 x 4096, a weight gradient's narrow
// product over a long K -- runs on a handful of SMs, each streaming a long
// K alone. As XLA's split-K rewrite does for its Triton GEMMs, K is split
// into S slices that become a batch dimension of the product (each slice
// a block of its own), and a reduction adds the S partial products in a
// fixed order afterwards: deterministic, unlike atomics.
//
// A kCustom GEMM fusion the emitter tiles itself (no XLA tile config, or
// any with --gemm-tiles=own: XLA's configs stay honoured by default, as
// XLA already split where its autotuner chose to) whose dot reads two fusion parameters directly (each read by
// the dot alone), contracts one dimension of size K, and has a layout-free
// f32, bf16, f16 or 8-bit float product, becomes:
//
//   a' = bitcast(a)        [.., S, K/S, ..]   (K split in place: free)
//   b' = bitcast(b)
//   partials = fusion(a', b')  kCustom: dot over batch S (first) -> f32[S, ...]
//   result = fusion(partials, the epilogue's operands)
//            kInput: reduce over S (add, from slice 0 up), converted to the
//            dot's type, then the fusion's ops after the dot, as before
//
// Only GEMMs whose tiles (the emitter's 64 x 64 at most for such dots) are
// fewer than the SMs and that read 8 MiB or more (a smaller one is over in
// microseconds, split or not). S: the power of two up to 32, dividing K in
// slices of at least 256, for which the GEMM cost model
// (abi/GemmCostModel.h) estimates the product and the reduction fastest;
// none if that is S = 1 (bf16 1 x 4096 x 4096 on an H100: S = 8, 68 us
// estimated unsplit, 16 us split).
//
//===----------------------------------------------------------------------===//
#include "FusionBuilder.h"
#include "HloPass.h"

#include "abi/GemmCostModel.h"
#include "analysis/GemmAnalysis.h"
#include "hlo_parser/OpAttributes.h"
#include "support/BackendConfig.h"

#include <map>

namespace hlo::opt {
namespace {

constexpr int64_t kOwnTile = 64;
constexpr int64_t kMaxSplits = 32;
constexpr int64_t kMinSliceDepth = 256;
/// Below this many operand bytes the GEMM takes a few microseconds
/// whatever its tiles: a second launch would cost about as much as it
/// saves (and XLA's launch counts, which the corpus programs match, stay).
constexpr int64_t kMinOperandBytes = 8 << 20;

/// Whether `fusion` is a Triton GEMM fusion without XLA's tile config (or
/// with one, where --gemm-tiles=own sets it aside: `ownTiles`).
bool isOwnTiledGemmFusion(const HloInstruction &fusion, bool ownTiles) {
  const HloAttribute *kind = fusion.findAttributeEntry("kind");
  if (fusion.opcode() != HloOpcode::Fusion || !kind || kind->value.text != "kCustom" ||
      !fusion.fusedComputation())
    return false;
  std::optional<JsonValue> config = parseBackendConfig(backendConfigText(fusion));
  const JsonValue *backend = config ? config->find("fusion_backend_config") : nullptr;
  const JsonValue *gemmKind = backend ? backend->find("kind") : nullptr;
  if (!gemmKind || !gemmKind->isString() ||
      (gemmKind->string() != "__triton_gemm" &&
       gemmKind->string() != "__triton_nested_gemm_fusion"))
    return false;
  return ownTiles ||
         (!backend->find("block_level_fusion_config") && !backend->find("triton_gemm_config"));
}

std::vector<int64_t> batchDimensions(const HloInstruction &dot, const std::string &side) {
  const HloAttribute *dims = dot.findAttributeEntry(side + "_batch_dims");
  return dims ? dims->value.ints : std::vector<int64_t>{};
}

/// `shape` with dimension `d` split in place into (outer, inner): a
/// bitcast whatever the layout (inner just minor to outer).
Shape splitDimension(const Shape &shape, int64_t d, int64_t outer) {
  std::vector<int64_t> dims = shape.dimensions();
  int64_t inner = dims[d] / outer;
  dims[d] = inner;
  dims.insert(dims.begin() + d, outer);
  Shape split(shape.elementType(), dims);
  Layout layout;
  for (int64_t old : shape.layoutOrDefault().minorToMajor) {
    if (old < d) {
      layout.minorToMajor.push_back(old);
    } else if (old == d) {
      layout.minorToMajor.push_back(d + 1);
      layout.minorToMajor.push_back(d);
    } else {
      layout.minorToMajor.push_back(old + 1);
    }
  }
  split.setLayout(layout);
  return split;
}

/// Dimension numbers after dimension `d` was split in two (`d` the
/// outer part, d + 1 the inner).
std::vector<int64_t> shifted(const std::vector<int64_t> &dims, int64_t d) {
  std::vector<int64_t> result;
  for (int64_t dim : dims)
    result.push_back(dim > d ? dim + 1 : dim);
  return result;
}

HloAttribute intList(const std::string &name, std::vector<int64_t> ints) {
  AttrValue value;
  value.kind = AttrKind::IntList;
  value.ints = std::move(ints);
  return {name, value};
}

/// What a split needs: the dot, its operands' parameters and contracting
/// dimensions, and S.
struct SplitPlan {
  const HloInstruction *dot = nullptr;
  int64_t lhsContracting = 0, rhsContracting = 0;
  int64_t splits = 1;
};

std::optional<SplitPlan> planSplit(const HloInstruction &fusion, const GpuDeviceInfo &device) {
  const HloComputation &fused = *fusion.fusedComputation();
  ErrorOr<GemmDescription> described = describeGemm(fused);
  if (!described || !fused.root()->shape().isArray() || described->lhsContracting.size() != 1)
    return std::nullopt;
  const GemmDescription &gemm = *described;
  const HloInstruction *dot = gemm.dot;
  // Two parameters, each read by the dot alone (their shapes change).
  if (dot->operand(0) == dot->operand(1))
    return std::nullopt;
  for (const HloInstruction *operand : dot->operands())
    if (operand->opcode() != HloOpcode::Parameter || operand->users().size() != 1)
      return std::nullopt;
  PrimitiveType type = dot->shape().elementType();
  bool floating = type == PrimitiveType::F32 || type == PrimitiveType::BF16 ||
                  type == PrimitiveType::F16;
  if (!floating || !(dot->shape().layoutOrDefault() == Layout::defaultForRank(dot->shape().rank())))
    return std::nullopt;
  // The output's tiles as the emitter tiles such dots: batch x rows x
  // columns of at most 64 x 64 (dots that fill the GPU keep their tiles).
  int64_t tiles = gemm.batchCount() * ((gemm.m + kOwnTile - 1) / kOwnTile) *
                  ((gemm.n + kOwnTile - 1) / kOwnTile);
  if (device.smCount <= 0 || tiles >= device.smCount ||
      dot->operand(0)->shape().bufferBytes() + dot->operand(1)->shape().bufferBytes() <
          kMinOperandBytes)
    return std::nullopt;
  // The cost model's best S (1: none) for the tile the emitter gives such
  // dots: at most 64 x 64 (rows in 16s, columns in 8s), 4 warps, a K step
  // of 64 bytes, two stages (four on wgmma's 64-row tiles).
  abi::GemmDeviceFigures figures = abi::gemmDeviceFigures(device.arch);
  figures.multiprocessors = device.smCount;
  abi::GemmProblem problem = gemmCostProblem(gemm);
  abi::GemmTuning tile;
  tile.blockM = std::min(kOwnTile, (gemm.m + 15) / 16 * 16);
  tile.blockN = std::min(kOwnTile, (gemm.n + 7) / 8 * 8);
  tile.blockK = std::max<int64_t>(64 / problem.inputBytes, 16);
  tile.warps = 4;
  tile.stages = figures.wgmma && tile.blockM == 64 ? 4 : 2;
  int64_t best = 1;
  double bestTime = abi::estimateGemmCost(problem, tile, figures).microseconds;
  for (int64_t splits = 2; splits <= kMaxSplits; splits *= 2) {
    if (gemm.k % splits != 0 || gemm.k / splits < kMinSliceDepth)
      continue;
    double time = abi::estimateGemmCost(problem, tile, figures, splits).microseconds;
    if (time < bestTime) {
      best = splits;
      bestTime = time;
    }
  }
  if (best < 2)
    return std::nullopt;
  return SplitPlan{dot, gemm.lhsContracting.front(), gemm.rhsContracting.front(), best};
}

class GemmSplitK : public HloPass {
public:
  llvm::StringRef name() const override { return "gemm-split-k"; }

  llvm::Expected<bool> run(HloModule &module, PassContext &context) override {
    bool changed = false;
    // The partials' reducer, made once for every split.
    HloComputation *reducer = nullptr;
    for (HloComputation *host : hostComputations(module)) {
      std::vector<std::pair<HloInstruction *, SplitPlan>> splits;
      for (const auto &instruction : host->instructions())
        if (isOwnTiledGemmFusion(*instruction, context.ownGemmTiles))
          if (std::optional<SplitPlan> plan = planSplit(*instruction, context.device))
            splits.push_back({instruction.get(), *plan});
      for (auto &[fusion, plan] : splits) {
        if (!reducer)
          reducer = adder(module, context);
        split(module, *host, *fusion, plan, reducer, context);
      }
      if (!splits.empty()) {
        removeDeadInstructions(*host);
        host->sortTopologically();
        changed = true;
      }
    }
    if (changed)
      removeUnusedComputations(module);
    return changed;
  }

private:
  HloComputation *newComputation(HloModule &module, const std::string &name) {
    auto computation = std::make_unique<HloComputation>(name);
    computation->setParent(&module);
    return module.addComputation(std::move(computation));
  }

  /// f32 addition, the partials' reducer.
  HloComputation *adder(HloModule &module, PassContext &context) {
    HloComputation *add = newComputation(module, context.names.unique("split_k_add"));
    Shape scalar(PrimitiveType::F32, {});
    HloInstruction *x = addParameter(*add, 0, scalar, "x");
    HloInstruction *y = addParameter(*add, 1, scalar, "y");
    add->setRoot(addInstruction(*add, HloOpcode::Add, "sum", scalar, {x, y}));
    add->finalizeParameters();
    return add;
  }

  void split(HloModule &module, HloComputation &host, HloInstruction &fusion,
             const SplitPlan &plan, HloComputation *adder, PassContext &context) {
    const HloComputation &fused = *fusion.fusedComputation();
    const HloInstruction &dot = *plan.dot;
    int64_t s = plan.splits;
    uint32_t at = dot.sourceOffset();
    // The operands with K split in place.
    Shape lhs = splitDimension(dot.operand(0)->shape(), plan.lhsContracting, s);
    Shape rhs = splitDimension(dot.operand(1)->shape(), plan.rhsContracting, s);
    HloInstruction *lhsOperand = fusion.operand(dot.operand(0)->parameterNumber());
    HloInstruction *rhsOperand = fusion.operand(dot.operand(1)->parameterNumber());
    HloInstruction *lhsSplit = addInstruction(host, HloOpcode::Bitcast,
                                              context.names.unique(lhsOperand->name() + ".split_k"),
                                              lhs, {lhsOperand}, {}, at);
    HloInstruction *rhsSplit = addInstruction(host, HloOpcode::Bitcast,
                                              context.names.unique(rhsOperand->name() + ".split_k"),
                                              rhs, {rhsOperand}, {}, at);

    // The partial products: S first among the batch dimensions.
    HloComputation *product = newComputation(module, context.names.unique(fused.name() + ".split_k"));
    HloInstruction *a = addParameter(*product, 0, lhs, "lhs");
    HloInstruction *b = addParameter(*product, 1, rhs, "rhs");
    std::vector<int64_t> lhsBatch = {plan.lhsContracting};
    for (int64_t d : shifted(batchDimensions(dot, "lhs"), plan.lhsContracting))
      lhsBatch.push_back(d);
    std::vector<int64_t> rhsBatch = {plan.rhsContracting};
    for (int64_t d : shifted(batchDimensions(dot, "rhs"), plan.rhsContracting))
      rhsBatch.push_back(d);
    std::vector<int64_t> partialDims = dot.shape().dimensions();
    partialDims.insert(partialDims.begin(), s);
    Shape partialShape(PrimitiveType::F32, partialDims);
    partialShape.setLayout(Layout::defaultForRank(partialShape.rank()));
    std::vector<HloAttribute> attributes = {
        intList("lhs_batch_dims", lhsBatch), intList("lhs_contracting_dims", {plan.lhsContracting + 1}),
        intList("rhs_batch_dims", rhsBatch), intList("rhs_contracting_dims", {plan.rhsContracting + 1})};
    for (const HloAttribute &attribute : dot.attributes())
      if (attribute.name == "operand_precision" || attribute.name == "algorithm")
        attributes.push_back(attribute);
    product->setRoot(addInstruction(*product, HloOpcode::Dot, dot.name(), partialShape, {a, b},
                                    std::move(attributes), at));
    product->finalizeParameters();
    HloInstruction *partials =
        addFusionInstruction(host, product, {lhsSplit, rhsSplit}, context,
                             backendConfigText(fusion));

    // The rest: the partials added where the dot was, then the epilogue.
    HloComputation *rest = newComputation(module, context.names.unique(fused.name() + ".split_k_sum"));
    std::map<const HloInstruction *, HloInstruction *> copies;
    std::vector<HloInstruction *> operands;
    for (const HloInstruction *parameter : fused.parameters()) {
      if (parameter == dot.operand(0) || parameter == dot.operand(1))
        continue;
      copies[parameter] = addParameter(*rest, static_cast<int64_t>(operands.size()),
                                       parameter->shape(), parameter->name());
      operands.push_back(fusion.operand(parameter->parameterNumber()));
    }
    HloInstruction *partialParameter = addParameter(
        *rest, static_cast<int64_t>(operands.size()), partialShape, "partials");
    operands.push_back(partials);
    Shape scalar(PrimitiveType::F32, {});
    HloInstruction *zero = addInstruction(*rest, HloOpcode::Constant, "zero", scalar, {});
    zero->setLiteral(Literal(scalar));
    AttrValue reducer;
    reducer.kind = AttrKind::Computation;
    reducer.computations = {adder};
    Shape summedShape = dot.shape();
    summedShape.setElementType(PrimitiveType::F32);
    HloInstruction *sum =
        addInstruction(*rest, HloOpcode::Reduce, context.names.unique(dot.name() + ".split_k_sum"),
                       summedShape, {partialParameter, zero},
                       {intList("dimensions", {0}), {"to_apply", reducer}}, at);
    if (dot.shape().elementType() != PrimitiveType::F32)
      sum = addInstruction(*rest, HloOpcode::Convert, dot.name(), dot.shape(), {sum}, {}, at);
    copies[&dot] = sum;
    for (const auto &instruction : fused.instructions()) {
      const HloInstruction &original = *instruction;
      if (copies.count(&original) || original.opcode() == HloOpcode::Parameter)
        continue;
      std::vector<HloInstruction *> newOperands;
      for (const HloInstruction *operand : original.operands())
        newOperands.push_back(copies.at(operand));
      copies[&original] = cloneInstruction(*rest, original, newOperands, original.name());
    }
    rest->setRoot(copies.at(fused.root()));
    rest->finalizeParameters();
    rest->sortTopologically();
    HloInstruction *result = addFusionInstruction(host, rest, operands, context);
    replaceFusionKeepingName(fusion, *result, ".unsplit", context);
  }
};

} // namespace

std::unique_ptr<HloPass> createGemmSplitKPass() { return std::make_unique<GemmSplitK>(); }

} // namespace hlo::opt
