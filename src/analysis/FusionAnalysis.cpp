//===- FusionAnalysis.cpp - Which emitter handles a fusion ----------------===//
#include "analysis/FusionAnalysis.h"
#include "analysis/GemmAnalysis.h"

#include "analysis/HeroAnalysis.h"
#include "analysis/ScatterAnalysis.h"
#include "hlo_parser/OpAttributes.h"
#include "support/BackendConfig.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <deque>
#include <set>

namespace hlo {

namespace {

/// A fusion's backend_config (keys quoted or not, as XLA accepts), parsed
/// once: its `fusion_backend_config` object and that object's kind.
struct FusionBackendConfig {
  std::optional<JsonValue> json;
  const JsonValue *backend = nullptr;
  std::string kind;
};

/// Member `key` of `object` if `object` is an object and has one.
const JsonValue *memberOf(const JsonValue *object, const char *key) {
  return object && object->isObject() ? object->find(key) : nullptr;
}

FusionBackendConfig readFusionBackendConfig(const HloInstruction *fusion) {
  FusionBackendConfig config;
  if (!fusion)
    return config;
  config.json = parseBackendConfig(backendConfigText(*fusion));
  config.backend = memberOf(config.json ? &*config.json : nullptr, "fusion_backend_config");
  if (!config.backend || !config.backend->isObject())
    config.backend = nullptr;
  if (const JsonValue *kind = memberOf(config.backend, "kind"); kind && kind->isString())
    config.kind = kind->string();
  return config;
}

} // namespace

std::string fusionBackendKind(const HloInstruction &fusion) {
  return readFusionBackendConfig(&fusion).kind;
}

namespace {

/// An integer XLA writes as a string (`"8"`) or a number; nullopt if it is
/// neither or not positive.
std::optional<int64_t> positiveInteger(const JsonValue *value) {
  if (!value)
    return std::nullopt;
  std::optional<int64_t> number;
  if (value->isNumber()) {
    double exact = value->number();
    if (exact == static_cast<double>(static_cast<int64_t>(exact)))
      number = static_cast<int64_t>(exact);
  } else if (value->isString()) {
    int64_t parsed = 0;
    if (!llvm::StringRef(value->string()).getAsInteger(10, parsed))
      number = parsed;
  }
  if (!number || *number <= 0)
    return std::nullopt;
  return number;
}

/// The warps, stages and first output tile of a block-level fusion's
/// `block_level_fusion_config` (`"num_warps":"8"`, `"num_stages":3`,
/// `"output_tiles":[{"sizes":["8","1","1024"]}]`), where it names them.
void readBlockLevelConfig(const FusionBackendConfig &fusionConfig, FusionAnalysis &analysis) {
  const JsonValue *config = memberOf(fusionConfig.backend, "block_level_fusion_config");
  if (!config || !config->isObject())
    return;
  analysis.blockLevelWarps = positiveInteger(config->find("num_warps"));
  analysis.blockLevelStages = positiveInteger(config->find("num_stages"));
  const JsonValue *tiles = config->find("output_tiles");
  const JsonValue *tile =
      tiles && tiles->isArray() && !tiles->array().empty() ? &tiles->array().front() : nullptr;
  const JsonValue *sizes = memberOf(tile, "sizes");
  if (!sizes || !sizes->isArray())
    return;
  std::vector<int64_t> values;
  for (const JsonValue &size : sizes->array()) {
    std::optional<int64_t> value = positiveInteger(&size);
    if (!value)
      return;
    values.push_back(*value);
  }
  analysis.blockLevelTile = std::move(values);
}

/// A reduce whose value reaches a broadcast: the fusion uses the reduction
/// of a row back on that row (a normalization), which no native emitter
/// does in one kernel.
bool hasNormalizationReduce(const HloComputation &computation) {
  for (const auto &instruction : computation.instructions()) {
    if (instruction->opcode() != HloOpcode::Reduce)
      continue;
    std::deque<const HloInstruction *> queue{instruction.get()};
    std::set<const HloInstruction *> visited{instruction.get()};
    while (!queue.empty()) {
      const HloInstruction *inst = queue.front();
      queue.pop_front();
      for (const HloInstruction *user : inst->users()) {
        if (user->opcode() == HloOpcode::Broadcast)
          return true;
        if (visited.insert(user).second)
          queue.push_back(user);
      }
    }
  }
  return false;
}

/// XLA's Triton GEMM fusion kinds.
bool isTritonGemmKind(llvm::StringRef kind) {
  return kind == "__triton_gemm" || kind == "__triton_nested_gemm_fusion";
}

/// A library kind named by the fusion instruction, if any. Triton GEMM
/// fusions whose dot the tensor-core emitter takes (GemmAnalysis.h) are
/// none: they are ours.
std::optional<FusionVariant> libraryKind(const FusionBackendConfig &config,
                                         const std::vector<const HloInstruction *> &roots,
                                         const HloComputation *computation) {
  // As in XLA, the fusion backend config's kind (not the HLO fusion kind)
  // names the library kinds. A dot inside a loop fusion is emitted
  // elementally.
  llvm::StringRef kind = config.kind;
  if (kind == "__custom_fusion" || memberOf(config.backend, "custom_fusion_config"))
    return FusionVariant::CustomFusion;
  if (isTritonGemmKind(kind) && computation && describeGemm(*computation))
    return std::nullopt;
  // `__triton` alone is a block-level fusion, which is ours.
  if (kind.starts_with("__triton") && kind != "__triton")
    return FusionVariant::Triton;
  if (kind.starts_with("__cudnn"))
    return FusionVariant::Cudnn;
  for (const HloInstruction *root : roots) {
    switch (root->opcode()) {
    case HloOpcode::Convolution:
      return FusionVariant::CudnnConvolution;
    case HloOpcode::CustomCall:
      return FusionVariant::CustomCall;
    default:
      break;
    }
  }
  return std::nullopt;
}

} // namespace

bool runsAsLibraryCall(const HloInstruction &fusion) {
  std::vector<const HloInstruction *> roots;
  if (const HloComputation *fused = fusion.fusedComputation()) {
    const HloInstruction *root = fused->root();
    if (root && root->opcode() == HloOpcode::Tuple)
      roots.assign(root->operands().begin(), root->operands().end());
    else if (root)
      roots.push_back(root);
  }
  return libraryKind(readFusionBackendConfig(&fusion), roots, fusion.fusedComputation())
      .has_value();
}

namespace {

/// Same element count: a root the transpose emitter can write as a bitcast
/// of the transpose input.
bool isBitcastCompatible(const Shape &a, const Shape &b) {
  return a.isArray() && b.isArray() && a.elementCount() == b.elementCount();
}

bool useConcatenateFusion(const std::vector<const HloInstruction *> &roots,
                          const std::vector<const HloInstruction *> &heroes) {
  if (heroes.size() != 1 || heroes[0]->opcode() != HloOpcode::Concatenate)
    return false;
  if (roots[0]->shape().isTuple())
    return false;
  return heroes[0]->operandCount() <= 4;
}

/// The scatter emitter distributes the sorted indices over threads when
/// there are many more update slices than SMs.
FusionVariant scatterVariant(const HloInstruction &scatter,
                             const GpuDeviceInfo &device) {
  int64_t slices = scatterCanonicalForm(scatter).sliceCount;
  ScatterDimensionNumbers numbers = scatterDimensionNumbers(scatter);
  bool sorted = numbers.indicesAreSorted;
  bool unique = numbers.uniqueIndices;
  if (sorted && !unique && slices > 4 * device.smCount)
    return FusionVariant::ScatterWithDistributedIndices;
  return FusionVariant::ScatterWithDistributedUpdates;
}

FusionVariant reductionVariant(ReductionKind kind) {
  switch (kind) {
  case ReductionKind::Row:
    return FusionVariant::RowReduction;
  case ReductionKind::MultiRow:
    return FusionVariant::MultiRowReduction;
  case ReductionKind::Column:
    return FusionVariant::ColumnReduction;
  case ReductionKind::SmallColumn:
    return FusionVariant::SmallColumnReduction;
  }
  return FusionVariant::RowReduction;
}

int64_t bitsOf(PrimitiveType type) {
  return type == PrimitiveType::Pred ? 8 : primitiveBitWidth(type);
}

/// The narrowest parameter and output element types, and whether a
/// reduce root's hero reads complex values.
FusionElementBits fusionElementBits(const HloComputation &computation,
                                    const FusionAnalysis &analysis) {
  FusionElementBits bits;
  for (const HloInstruction *parameter : computation.parameters())
    if (parameter->shape().isArray())
      bits.smallestInput = std::min(bits.smallestInput, bitsOf(parameter->shape().elementType()));
  for (const HloInstruction *root : analysis.roots) {
    const Shape &shape = root->shape();
    if (shape.isTuple()) {
      for (const Shape &element : shape.tupleShapes())
        if (element.isArray())
          bits.smallestOutput = std::min(bits.smallestOutput, bitsOf(element.elementType()));
    } else if (shape.isArray()) {
      bits.smallestOutput = std::min(bits.smallestOutput, bitsOf(shape.elementType()));
    }
  }
  for (const HloInstruction *hero : analysis.heroes)
    for (const HloInstruction *operand : hero->operands())
      if (operand->shape().isArray() && isComplex(operand->shape().elementType()))
        bits.complexHeroOperand = true;
  // One shared tile per reduced value of each distinct reduce hero.
  std::set<const HloInstruction *> reduces;
  for (const HloInstruction *hero : analysis.heroes) {
    if (hero->opcode() != HloOpcode::Reduce || !reduces.insert(hero).second)
      continue;
    for (int64_t k = 0; k < hero->operandCount() / 2; ++k) {
      bits.reducedValueBytes += primitiveByteWidth(hero->operand(k)->shape().elementType());
      ++bits.reducedValueCount;
    }
  }
  return bits;
}

const HloInstruction *skipBitcast(const HloInstruction *inst) {
  return inst->opcode() == HloOpcode::Bitcast ? inst->operand(0) : inst;
}

std::vector<const HloInstruction *>
startIndices(const HloInstruction &inst, int64_t first) {
  return std::vector<const HloInstruction *>(inst.operands().begin() + first,
                                             inst.operands().end());
}

} // namespace

const char *emitterKindName(EmitterKind kind) {
  switch (kind) {
#define FUSION_EMITTER_KIND(Name, Spelling)                                    \
  case EmitterKind::Name:                                                      \
    return Spelling;
#include "analysis/FusionKinds.def"
  }
  return "";
}

const char *fusionVariantName(FusionVariant variant) {
  switch (variant) {
#define FUSION_VARIANT(Name, Kind, Spelling)                                   \
  case FusionVariant::Name:                                                    \
    return Spelling;
#include "analysis/FusionKinds.def"
  }
  return "";
}

EmitterKind emitterKindOf(FusionVariant variant) {
  switch (variant) {
#define FUSION_VARIANT(Name, Kind, Spelling)                                   \
  case FusionVariant::Name:                                                    \
    return EmitterKind::Kind;
#include "analysis/FusionKinds.def"
  }
  return EmitterKind::Loop;
}

std::string FusionAnalysis::kindString() const {
  std::string name = fusionVariantName(variant);
  return std::string(emitterKindName(kind)) + (name.empty() ? "" : "/" + name);
}

bool areReductionsMultiOutputCompatible(const HloInstruction &a,
                                        const HloInstruction &b) {
  return getReductionDimensions(a) == getReductionDimensions(b);
}

const HloInstruction &dynamicUpdateSliceOf(const HloInstruction &root) {
  const HloInstruction *dus = &root;
  while (dus->opcode() == HloOpcode::Bitcast)
    dus = dus->operand(0);
  return *dus;
}

const HloInstruction &inPlaceUpdatedParameter(const HloInstruction &root) {
  const HloInstruction *operand = dynamicUpdateSliceOf(root).operand(0);
  while (operand->opcode() == HloOpcode::Bitcast)
    operand = operand->operand(0);
  return *operand;
}

bool canEmitDynamicUpdateSliceInPlace(const HloComputation &computation) {
  std::vector<const HloInstruction *> roots = getFusionRoots(computation);
  std::vector<const HloInstruction *> updates;
  for (const HloInstruction *root : roots) {
    const HloInstruction *dus = skipBitcast(root);
    if (dus->opcode() != HloOpcode::DynamicUpdateSlice)
      return false;
    updates.push_back(dus);
  }
  if (updates.empty())
    return false;
  const Shape &updateShape = updates[0]->operand(1)->shape();
  for (const HloInstruction *dus : updates) {
    // One path to the root: the DUS feeds only the root (maybe through a
    // bitcast).
    const HloInstruction *user = dus;
    while (!user->users().empty()) {
      const auto &users = user->users();
      if (users.size() != 1)
        return false;
      user = users.front();
      if (user->opcode() == HloOpcode::Tuple)
        break;
      if (user->opcode() != HloOpcode::Bitcast)
        return false;
    }
    const HloInstruction *operand = skipBitcast(dus->operand(0));
    if (operand->opcode() != HloOpcode::Parameter)
      return false;
    // A DUS that changes the layout moves every element, not just the
    // update's (XLA's layout assignment never writes one; a module may).
    if (dus->operand(0)->shape().layoutOrDefault().minorToMajor !=
        dus->shape().layoutOrDefault().minorToMajor)
      return false;
    // Everything that reads the parameter reads it where it is updated.
    std::deque<const HloInstruction *> queue{operand};
    std::set<const HloInstruction *> visited{operand, dus};
    while (!queue.empty()) {
      const HloInstruction *inst = queue.front();
      queue.pop_front();
      for (const HloInstruction *reader : inst->users()) {
        if (reader->opcode() == HloOpcode::DynamicSlice &&
            reader->operand(0) == dus->operand(0) &&
            reader->shape().compatible(updateShape)) {
          if (updateShape.elementCount() != 1 &&
              startIndices(*reader, 1) != startIndices(*dus, 2))
            return false;
        } else if (reader != dus && !isElementwiseOpcode(reader->opcode()) &&
                   reader->opcode() != HloOpcode::Bitcast &&
                   reader->opcode() != HloOpcode::Tuple) {
          return false;
        }
        if (visited.insert(reader).second)
          queue.push_back(reader);
      }
    }
    if (!dus->operand(1)->shape().dimensions().empty() &&
        dus->operand(1)->shape().dimensions() != updateShape.dimensions())
      return false;
  }
  return true;
}

namespace {

void setVariant(FusionAnalysis &analysis, FusionVariant variant) {
  analysis.variant = variant;
  analysis.kind = emitterKindOf(variant);
}

/// The emitter kind and variant of a fusion, before buffer reuse is known.
FusionAnalysis classifyFusion(const HloComputation &computation,
                              const HloInstruction *fusion,
                              const GpuDeviceInfo &device) {
  FusionAnalysis analysis;
  analysis.roots = getFusionRoots(computation);
  for (const HloInstruction *root : analysis.roots)
    analysis.heroes.push_back(&findNonTrivialHero(*root));
  analysis.elementBits = fusionElementBits(computation, analysis);
  FusionBackendConfig config = readFusionBackendConfig(fusion);
  if (std::optional<FusionVariant> library = libraryKind(config, analysis.roots, &computation)) {
    setVariant(analysis, *library);
    return analysis;
  }
  // A Triton GEMM fusion the tensor-core emitter takes.
  if (isTritonGemmKind(config.kind)) {
    setVariant(analysis, FusionVariant::MmaSyncGemm);
    readBlockLevelConfig(config, analysis);
    return analysis;
  }
  // Any other fusion or unfused instruction whose hero is a dot the
  // tensor-core emitter takes, on GPUs whose tensor cores multiply its
  // type (before sm_80, or 8-bit floats before sm_89, a dot stays
  // elemental, in a loop fusion).
  bool dotHero = std::any_of(analysis.heroes.begin(), analysis.heroes.end(),
                             [](const HloInstruction *hero) {
                               return hero->opcode() == HloOpcode::Dot;
                             });
  ErrorOr<GemmDescription> gemm =
      dotHero ? describeGemm(computation) : ErrorOr<GemmDescription>(makeError("no dot"));
  if (gemm && tensorCoresTake(gemm->input, device.computeCapability)) {
    setVariant(analysis, FusionVariant::MmaSyncGemm);
    if (config.kind == "__triton")
      readBlockLevelConfig(config, analysis);
    return analysis;
  }
  // XLA's block-level Triton fusion (kind `__triton`, not a GEMM kind).
  if (config.kind == "__triton" && hasNormalizationReduce(computation)) {
    setVariant(analysis, FusionVariant::Normalization);
    readBlockLevelConfig(config, analysis);
    return analysis;
  }
  // Reduction.
  const HloInstruction *firstReduce = nullptr;
  for (size_t i = 0; i < analysis.roots.size(); ++i)
    if (isRealReductionHero(*analysis.roots[i], *analysis.heroes[i])) {
      firstReduce = analysis.heroes[i];
      break;
    }
  if (firstReduce) {
    int64_t operandElements = firstReduce->operand(0)->shape().elementCount();
    bool valid = true;
    for (size_t i = 0; i < analysis.roots.size() && valid; ++i) {
      const HloInstruction *root = analysis.roots[i];
      const HloInstruction *hero = analysis.heroes[i];
      if (root == firstReduce)
        continue;
      if (!isRealReductionHero(*root, *hero)) {
        // A side output must have the reduce input's element count (for a
        // multi-output root, each output).
        const Shape &shape = root->shape();
        if (shape.isTuple()) {
          for (const Shape &element : shape.tupleShapes())
            valid &= element.elementCount() == operandElements;
        } else {
          valid &= shape.elementCount() == operandElements;
        }
      } else if (!areReductionsMultiOutputCompatible(*hero, *firstReduce)) {
        valid = false;
      }
    }
    if (valid) {
      analysis.reduction = getReductionDimensions(*firstReduce);
      setVariant(analysis, reductionVariant(chooseReductionKind(
                               *analysis.reduction, analysis.elementBits, device)));
      return analysis;
    }
  }
  // Transpose.
  std::optional<TransposeDescription> transpose;
  bool consistent = true;
  std::vector<const HloInstruction *> others;
  for (size_t i = 0; i < analysis.roots.size(); ++i) {
    if (auto description = getTiledTransposeDescription(*analysis.heroes[i])) {
      if (!transpose)
        transpose = description;
      else if (!transpose->isEquivalent(*description))
        consistent = false;
    } else {
      others.push_back(analysis.roots[i]);
    }
  }
  if (transpose && consistent) {
    const Shape &input = transpose->instruction->operand(0)->shape();
    for (const HloInstruction *root : others)
      consistent &= isBitcastCompatible(root->shape(), input);
    if (consistent) {
      analysis.transpose = transpose;
      setVariant(analysis, transpose->packed ? FusionVariant::PackedTranspose
                                            : FusionVariant::Transpose);
      return analysis;
    }
  }
  if (analysis.roots.size() == 1 &&
      analysis.roots[0]->opcode() == HloOpcode::Sort) {
    setVariant(analysis, FusionVariant::Sort);
    return analysis;
  }
  auto loop = [&]() {
    analysis.inPlaceDynamicUpdateSlice = canEmitDynamicUpdateSliceInPlace(computation);
    setVariant(analysis, analysis.inPlaceDynamicUpdateSlice
                            ? FusionVariant::InPlaceDynamicUpdateSlice
                            : FusionVariant::Loop);
    return analysis;
  };
  if (analysis.roots.size() > 1)
    return loop();
  if (analysis.roots[0]->opcode() == HloOpcode::Scatter) {
    setVariant(analysis, scatterVariant(*analysis.roots[0], device));
    return analysis;
  }
  if (useConcatenateFusion(analysis.roots, analysis.heroes)) {
    setVariant(analysis, FusionVariant::Concatenate);
    return analysis;
  }
  return loop();
}

} // namespace

FusionAnalysis analyzeFusion(const HloComputation &computation,
                             const HloInstruction *fusion,
                             const GpuDeviceInfo &device, ParameterReuse mayReuse) {
  FusionAnalysis analysis = classifyFusion(computation, fusion, device);
  // The kinds that update an operand in place may do so only where the
  // output may take that operand's buffer.
  bool updatesInPlace = analysis.variant == FusionVariant::InPlaceDynamicUpdateSlice ||
                        analysis.kind == EmitterKind::Scatter;
  for (int64_t i = 0; updatesInPlace && i < computation.parameterCount(); ++i)
    if (mayReuse(i))
      analysis.reusableParameters.push_back(i);
  // Elsewhere the loop emitter copies the updated operand as it writes.
  if (analysis.variant == FusionVariant::InPlaceDynamicUpdateSlice)
    for (const HloInstruction *root : analysis.roots)
      if (!llvm::is_contained(analysis.reusableParameters,
                              inPlaceUpdatedParameter(*root).parameterNumber()))
        setVariant(analysis, FusionVariant::Loop);
  return analysis;
}

FusionAnalysis analyzeFusion(const HloComputation &computation,
                             const HloInstruction *fusion,
                             const GpuDeviceInfo &device) {
  return analyzeFusion(computation, fusion, device, [](int64_t) { return true; });
}

} // namespace hlo
