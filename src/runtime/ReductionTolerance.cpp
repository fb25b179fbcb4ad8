//===- ReductionTolerance.cpp - Tolerances that grow with reductions ------===//
#include "ReductionTolerance.h"
#include "GemmPlan.h"

#include "support/BackendConfig.h"

#include "hlo_parser/FloatFormat.h"
#include "hlo_parser/OpAttributes.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace hlo::runtime {
namespace {

/// TF32's unit roundoff: 10 fraction bits, rounded to nearest.
constexpr double kTf32UnitRoundoff = 1.0 / 2048;
/// Three TF32 products for one f32 product (the operands' TF32 parts and
/// remainders, the remainders' product dropped): three errors of up to
/// 2^-22 of the product each, under 2^-20.
constexpr double kTf32x3UnitRoundoff = 1.0 / (1 << 20);

/// The products each element of a cuBLAS GEMM custom-call sums (its lhs's
/// contracting extent); 0 for other instructions.
int64_t cublasGemmTerms(const HloInstruction &inst) {
  if (inst.opcode() != HloOpcode::CustomCall ||
      customCallTarget(inst).rfind("__cublas$", 0) != 0 ||
      inst.operandCount() < 2 || !inst.operand(0)->shape().isArray())
    return 0;
  std::optional<JsonValue> config = parseBackendConfig(backendConfigText(inst));
  const JsonValue *gemm = config ? config->find("gemm_backend_config") : nullptr;
  const JsonValue *numbers = gemm ? gemm->find("dot_dimension_numbers") : nullptr;
  const JsonValue *contracting =
      numbers ? numbers->find("lhs_contracting_dimensions") : nullptr;
  if (!contracting)
    return 0;
  int64_t terms = 1;
  for (const JsonValue &value : contracting->array()) {
    int64_t d = value.kind() == JsonValue::Kind::String
                    ? std::atoll(value.string().c_str())
                    : static_cast<int64_t>(value.number());
    if (d < 0 || d >= inst.operand(0)->shape().rank())
      return 0;
    terms *= inst.operand(0)->shape().dimension(d);
  }
  return terms;
}

/// Whether a cuBLAS GEMM custom-call of f32 operands runs as TF32 on a GPU
/// (GemmPlan's tf32: XLA's choice at default precision).
bool cublasMultipliesAsTf32(const HloInstruction &inst) {
  if (inst.operand(0)->shape().elementType() != PrimitiveType::F32 ||
      customCallTarget(inst) == "__cublas$lt$matmul$f8")
    return false;
  std::optional<JsonValue> config = parseBackendConfig(backendConfigText(inst));
  const JsonValue *gemm = config ? config->find("gemm_backend_config") : nullptr;
  return gemm && gemmConfigAllowsTf32(*gemm);
}

/// Each significand bit halves the rounding error.
double unitRoundoffOf(PrimitiveType type) {
  if (isComplex(type))
    type = complexComponentType(type);
  if (!isFloatingPoint(type))
    return 0;
  return std::ldexp(1.0, -(floatFormatOf(type).mantissaBits + 1));
}

/// The largest finite value of a float (or complex part) type.
double maxFiniteOf(PrimitiveType type) {
  if (isComplex(type))
    type = complexComponentType(type);
  return floatFormatOf(type).maxFinite();
}

ReductionDepth deeper(ReductionDepth a, const ReductionDepth &b) {
  a.elements = std::max(a.elements, b.elements);
  a.unitRoundoff = std::max(a.unitRoundoff, b.unitRoundoff);
  a.accumulatorLimit = std::min(a.accumulatorLimit, b.accumulatorLimit);
  a.sequentialGrowth = std::max(a.sequentialGrowth, b.sequentialGrowth);
  a.productRoundoff = std::max(a.productRoundoff, b.productRoundoff);
  a.stageGrowth = std::max(a.stageGrowth, b.stageGrowth);
  a.storedRounding = std::max(a.storedRounding, b.storedRounding);
  a.bitsOfFloat.reset();
  a.roundedFromFloat = false;
  a.computed = a.computed || b.computed;
  a.computedIn = coarserFloatType(a.computedIn, b.computedIn);
  return a;
}

/// The coarsest float type among `shape`'s leaves.
std::optional<PrimitiveType> coarsestFloatType(const Shape &shape) {
  if (shape.isTuple()) {
    std::optional<PrimitiveType> coarsest;
    for (const Shape &element : shape.tupleShapes())
      coarsest = coarserFloatType(coarsest, coarsestFloatType(element));
    return coarsest;
  }
  if (!shape.isArray() || unitRoundoffOf(shape.elementType()) == 0)
    return std::nullopt;
  PrimitiveType type = shape.elementType();
  return isComplex(type) ? complexComponentType(type) : type;
}

/// Integers reinterpreting a float (bitcast to a same-width integer), or
/// moving such integers around, keep the float they hold.
std::optional<PrimitiveType> floatBitsOf(const HloInstruction &inst,
                                         const ReductionDepth &operand) {
  if (inst.operandCount() != 1 || !inst.shape().isArray())
    return std::nullopt;
  if (!inst.operand(0)->shape().isArray())
    return std::nullopt;
  PrimitiveType to = inst.shape().elementType();
  PrimitiveType from = inst.operand(0)->shape().elementType();
  switch (inst.opcode()) {
  case HloOpcode::Bitcast:
  case HloOpcode::BitcastConvert:
    if (isFloatingPoint(from) && isIntegral(to) &&
        primitiveBitWidth(from) == primitiveBitWidth(to))
      return from;
    [[fallthrough]];
  case HloOpcode::Reshape:
  case HloOpcode::Copy:
  case HloOpcode::Transpose:
  case HloOpcode::Broadcast:
    return from == to ? operand.bitsOfFloat : std::nullopt;
  default:
    return std::nullopt;
  }
}

/// Integers converted from a float (or moved since).
bool isRoundedFromFloat(const HloInstruction &inst, const ReductionDepth &operand) {
  if (inst.operandCount() < 1 || !inst.shape().isArray() || !inst.operand(0)->shape().isArray() ||
      !isIntegral(inst.shape().elementType()))
    return false;
  switch (inst.opcode()) {
  case HloOpcode::Convert:
    return isFloatingPoint(inst.operand(0)->shape().elementType());
  case HloOpcode::Reshape:
  case HloOpcode::Copy:
  case HloOpcode::Transpose:
  case HloOpcode::Broadcast:
  case HloOpcode::Bitcast:
  case HloOpcode::Slice:
  case HloOpcode::Reverse:
    return operand.roundedFromFloat;
  default:
    return false;
  }
}

/// Ops that only move, select or convert values: exact inputs give the
/// same bits on both sides.
bool movesValues(HloOpcode opcode) {
  switch (opcode) {
  case HloOpcode::Parameter:
  case HloOpcode::Constant:
  case HloOpcode::Iota:
  case HloOpcode::Reshape:
  case HloOpcode::Transpose:
  case HloOpcode::Broadcast:
  case HloOpcode::Slice:
  case HloOpcode::Concatenate:
  case HloOpcode::Pad:
  case HloOpcode::Reverse:
  case HloOpcode::Copy:
  case HloOpcode::Bitcast:
  case HloOpcode::BitcastConvert:
  case HloOpcode::Convert:
  case HloOpcode::Gather:
  case HloOpcode::DynamicSlice:
  case HloOpcode::DynamicUpdateSlice:
  case HloOpcode::Tuple:
  case HloOpcode::GetTupleElement:
  case HloOpcode::Select:
    return true;
  default:
    return false;
  }
}

/// A reducer that only picks one of its inputs (max, min) rounds nothing.
bool isExactReducer(const HloComputation *reducer) {
  if (!reducer || reducer->isDeclaration())
    return false;
  for (const auto &inst : reducer->instructions())
    switch (inst->opcode()) {
    case HloOpcode::Parameter:
    case HloOpcode::Maximum:
    case HloOpcode::Minimum:
    case HloOpcode::Tuple:
    case HloOpcode::Compare:
    case HloOpcode::Select:
    case HloOpcode::And:
    case HloOpcode::Or:
    case HloOpcode::Constant:
      break;
    default:
      return false;
    }
  return true;
}

/// The coarsest unit roundoff among `shape`'s float leaves.
double coarsestRoundoff(const Shape &shape) {
  if (!shape.isTuple())
    return shape.isArray() ? unitRoundoffOf(shape.elementType()) : 0;
  double roundoff = 0;
  for (const Shape &element : shape.tupleShapes())
    roundoff = std::max(roundoff, coarsestRoundoff(element));
  return roundoff;
}

class DepthAnalysis {
public:
  /// Fusions run as library calls (see moduleOutputDepths).
  std::set<std::string> libraryCalls;
  /// Fusions whose kernels sum their reduces in one thread.
  std::set<std::string> inThreadKernels;
  /// Whether the computation being analysed runs in one thread per
  /// element.
  bool inOneThread = false;

  /// With `asStages`, the fusions, calls and custom-calls of `computation`
  /// are separate kernels and library calls (see the header).
  /// The depths of the outermost computation's instructions, by
  /// instruction (filled by the call of `of` that passes `keep`).
  using DepthMap = std::map<const HloInstruction *, ReductionDepth>;

  ReductionDepth of(const HloComputation &computation,
                    const std::vector<ReductionDepth> &parameters, bool asStages = false,
                    DepthMap *keep = nullptr) {
    DepthMap local;
    DepthMap &depths = keep ? *keep : local;
    for (const auto &owned : computation.instructions()) {
      const HloInstruction *inst = owned.get();
      ReductionDepth depth;
      if (inst->opcode() == HloOpcode::Parameter) {
        int64_t number = inst->parameterNumber();
        if (number < static_cast<int64_t>(parameters.size()))
          depth = parameters[number];
        depths[inst] = depth;
        continue;
      }
      std::vector<ReductionDepth> operands;
      for (const HloInstruction *operand : inst->operands()) {
        operands.push_back(depths[operand]);
        depth = deeper(depth, depths[operand]);
      }
      bool isStage = inst->opcode() == HloOpcode::Fusion || inst->opcode() == HloOpcode::Call ||
                     inst->opcode() == HloOpcode::CustomCall;
      if (asStages && isStage) {
        depths[inst] = stage(*inst, depth);
        continue;
      }
      switch (inst->opcode()) {
      case HloOpcode::Fusion:
      case HloOpcode::Call: {
        const HloComputation *called = inst->opcode() == HloOpcode::Fusion
                                           ? inst->fusedComputation()
                                           : toApply(*inst);
        if (called && !called->isDeclaration())
          depth = deeper(depth, of(*called, operands));
        break;
      }
      case HloOpcode::Reduce:
      case HloOpcode::ReduceWindow:
      case HloOpcode::Dot:
      case HloOpcode::Scatter:
        depth = reduced(*inst, depth, inOneThread);
        break;
      default:
        if (!operands.empty()) {
          depth.bitsOfFloat = floatBitsOf(*inst, operands[0]);
          depth.roundedFromFloat = isRoundedFromFloat(*inst, operands[0]);
        }
        break;
      }
      // A value computed here, or from a computed value, is rounded to its
      // type (moving or converting exact values rounds alike on both sides;
      // a fusion or call carries what its body computed).
      if (!movesValues(inst->opcode()) && inst->opcode() != HloOpcode::Fusion &&
          inst->opcode() != HloOpcode::Call)
        depth.computed = true;
      if (depth.computed)
        depth.computedIn = coarserFloatType(depth.computedIn, coarsestFloatType(inst->shape()));
      depths[inst] = depth;
    }
    return depths[computation.root()];
  }

  /// A kernel or library call whose operands carry `incoming`: its own
  /// reductions start afresh and its stored result is rounded.
  ReductionDepth stage(const HloInstruction &inst, const ReductionDepth &incoming) {
    ReductionDepth own;
    if (inst.opcode() != HloOpcode::CustomCall && !libraryCalls.count(inst.name())) {
      const HloComputation *called = inst.opcode() == HloOpcode::Fusion
                                         ? inst.fusedComputation()
                                         : toApply(inst);
      if (called && !called->isDeclaration()) {
        bool outer = inOneThread;
        inOneThread = inThreadKernels.count(inst.name()) > 0;
        own = of(*called, std::vector<ReductionDepth>(inst.operandCount()));
        inOneThread = outer;
      }
    } else if (int64_t terms = cublasGemmTerms(inst); terms > 0) {
      // A cuBLAS GEMM runs in cuBLASLt on a GPU (its sums of `terms`
      // products in its own order, accumulated in f32, f64 for f64) and in
      // the interpreter for the reference.
      own.elements = static_cast<double>(terms);
      bool f64 = inst.operand(0)->shape().isArray() &&
                 inst.operand(0)->shape().elementType() == PrimitiveType::F64;
      own.unitRoundoff = unitRoundoffOf(f64 ? PrimitiveType::F64 : PrimitiveType::F32);
      // f32 at default precision: TF32 products, each off by up to
      // 2 * 2^-11 of itself.
      if (cublasMultipliesAsTf32(inst))
        own.productRoundoff = 2 * kTf32UnitRoundoff;
    }
    // Another library call (a custom-call, or a fusion such as a Triton
    // GEMM) is evaluated by the interpreter on both sides: it adds no
    // reduction order of its own, only the rounding of its result.
    // The rounding of the operands' stored results counts from here on:
    // for the stage that stored them it is the output type's default.
    double growth = reductionGrowth(incoming) + incoming.storedRounding + reductionGrowth(own);
    double roundoff = coarsestRoundoff(inst.shape());
    if (roundoff == 0 && own.bitsOfFloat)
      roundoff = unitRoundoffOf(*own.bitsOfFloat);
    ReductionDepth result;
    result.stageGrowth = growth;
    result.accumulatorLimit = std::min(incoming.accumulatorLimit, own.accumulatorLimit);
    result.storedRounding = growth > 0 ? 2 * roundoff : 0;
    result.bitsOfFloat = own.bitsOfFloat;
    result.roundedFromFloat = own.roundedFromFloat;
    // (A library call computes: its result's type counts.)
    result.computed = incoming.computed || own.computed || inst.opcode() == HloOpcode::CustomCall ||
                      libraryCalls.count(inst.name());
    result.computedIn = coarserFloatType(incoming.computedIn, own.computedIn);
    if (result.computed)
      result.computedIn = coarserFloatType(result.computedIn, coarsestFloatType(inst.shape()));
    return result;
  }

  /// A reduce of `count` terms per element, summed in order in one thread:
  /// the deterministic (count - 1) u, in f32's unit where the elemental
  /// reduce widens an f16/bf16 sum.
  static ReductionDepth summedInOrder(const HloInstruction &inst, ReductionDepth depth,
                                      PrimitiveType type, double count) {
    bool widened = inst.opcode() == HloOpcode::Reduce && inst.operandCount() == 2 &&
                   isParameterSum(toApply(inst)) &&
                   (type == PrimitiveType::F16 || type == PrimitiveType::BF16);
    PrimitiveType accumulator = widened ? PrimitiveType::F32 : type;
    depth.sequentialGrowth += std::max(count - 1, 0.0) * unitRoundoffOf(accumulator);
    depth.accumulatorLimit = std::min(depth.accumulatorLimit, maxFiniteOf(accumulator));
    return depth;
  }

  static ReductionDepth reduced(const HloInstruction &inst, ReductionDepth depth,
                                bool inOneThread = false) {
    const Shape &input = inst.operand(0)->shape();
    if (!input.isArray())
      return depth;
    PrimitiveType type = inst.shape().isTuple() ? input.elementType() : inst.shape().elementType();
    double roundoff = unitRoundoffOf(type);
    if (roundoff == 0)
      return depth;
    double count = 1;
    if (inst.opcode() == HloOpcode::Reduce) {
      if (isExactReducer(toApply(inst)))
        return depth;
      for (int64_t d : inst.dimensions())
        count *= input.dimension(d);
      if (inOneThread)
        return summedInOrder(inst, depth, type, count);
      // Terms a broadcast replicates are equal: their rounding errors do
      // not cancel, and a sequential sum errs by up to (n - 1) u, not
      // sqrt(n) u. Counted as n^2 terms, the bound becomes 4 n u.
      const HloInstruction *operand = inst.operand(0);
      if (operand->opcode() == HloOpcode::Broadcast)
        for (int64_t d : inst.dimensions())
          if (std::find(operand->dimensions().begin(), operand->dimensions().end(), d) ==
              operand->dimensions().end()) {
            count *= count;
            break;
          }
    } else if (inst.opcode() == HloOpcode::Scatter) {
      // Repeated indices combine their updates in the order the kernel's
      // atomics land: at most every slice onto one element, after the
      // operand's value.
      ScatterDimensionNumbers numbers = scatterDimensionNumbers(inst);
      if (numbers.uniqueIndices || isExactReducer(toApply(inst)))
        return depth;
      const std::vector<int64_t> &window = numbers.updateWindowDims;
      const Shape &updates = inst.operand(inst.operandCount() - 1)->shape();
      for (int64_t d = 0; d < updates.rank(); ++d)
        if (std::find(window.begin(), window.end(), d) == window.end())
          count *= updates.dimension(d);
      count += 1;
    } else if (inst.opcode() == HloOpcode::ReduceWindow) {
      if (isExactReducer(toApply(inst)))
        return depth;
      for (const WindowDimension &dim : windowOf(inst))
        count *= dim.size;
      if (inOneThread)
        return summedInOrder(inst, depth, type, count);
    } else { // dot: the contracted elements
      for (int64_t d : dotDimensionNumbers(inst).lhsContracting)
        count *= input.dimension(d);
      // Products of 16-bit and 8-bit floats are exact in f32, and every
      // float dot accumulates them in f32 (tensor cores, the elemental
      // dot), f64 for f64: the sum errs in f32's unit, not the output's
      // (whose one rounding the output type's default covers). At default
      // precision XLA multiplies f32 on tensor cores as TF32 (inputs
      // rounded to 10 fraction bits), and so does our GEMM emitter: each
      // product then errs by up to 2 * 2^-11 of itself, whatever K is.
      // Above it, our emitter sums three TF32 products per f32 product.
      PrimitiveType in = input.elementType();
      bool wide = in == PrimitiveType::F64 || in == PrimitiveType::C128 ||
                  type == PrimitiveType::F64 || type == PrimitiveType::C128;
      roundoff = unitRoundoffOf(wide ? PrimitiveType::F64 : PrimitiveType::F32);
      if (in == PrimitiveType::F32 || in == PrimitiveType::C64)
        depth.productRoundoff =
            std::max(depth.productRoundoff,
                     allowsTf32DotProducts(inst) ? 2 * kTf32UnitRoundoff : kTf32x3UnitRoundoff);
    }
    depth.elements *= std::max(count, 1.0);
    depth.unitRoundoff = std::max(depth.unitRoundoff, roundoff);
    if (inst.opcode() != HloOpcode::Dot)
      depth.accumulatorLimit = std::min(depth.accumulatorLimit, maxFiniteOf(type));
    return depth;
  }
};

} // namespace

namespace {

/// The leaves of `shape` as the values behind them: through tuple
/// instructions, the producer of each leaf (null where a leaf is not
/// built by a tuple instruction), in depth-first order.
void leafProducers(const Shape &shape, const HloInstruction *value,
                   std::vector<const HloInstruction *> &producers) {
  if (!shape.isTuple()) {
    producers.push_back(value);
    return;
  }
  bool built = value && value->opcode() == HloOpcode::Tuple;
  for (size_t i = 0; i < shape.tupleShapes().size(); ++i)
    leafProducers(shape.tupleShapes()[i],
                  built ? value->operand(static_cast<int64_t>(i)) : nullptr, producers);
}

/// `depth` for each leaf of `computation`'s result: each leaf built by a
/// tuple instruction keeps its own path (an f8 GEMM beside an f32 sum
/// does not widen the sum's bound); others share the deepest.
std::vector<ReductionDepth> perLeaf(const HloComputation &computation,
                                    const ReductionDepth &depth,
                                    const DepthAnalysis::DepthMap &depths) {
  std::vector<const HloInstruction *> producers;
  leafProducers(computation.resultShape(), computation.root(), producers);
  std::vector<ReductionDepth> leaves(producers.size(), depth);
  for (size_t i = 0; i < producers.size(); ++i)
    if (producers[i])
      if (auto found = depths.find(producers[i]); found != depths.end())
        leaves[i] = found->second;
  return leaves;
}

} // namespace

bool emitterReducesInOneThread(const std::string &emitter) {
  std::string kind = emitter.substr(0, emitter.find('/'));
  return kind == "kLoop" || kind == "kTranspose" || kind == "kScatter" || kind == "kConcatenate";
}

std::vector<ReductionDepth> reductionDepths(const HloComputation &computation,
                                            const std::vector<ReductionDepth> &parameterDepths,
                                            bool inOneThread) {
  DepthAnalysis::DepthMap depths;
  DepthAnalysis analysis;
  analysis.inOneThread = inOneThread;
  ReductionDepth root = analysis.of(computation, parameterDepths, false, &depths);
  return perLeaf(computation, root, depths);
}

std::vector<ReductionDepth> moduleOutputDepths(const HloComputation &entry,
                                               const std::set<std::string> &libraryCalls,
                                               const std::set<std::string> &inThreadKernels) {
  DepthAnalysis analysis;
  analysis.libraryCalls = libraryCalls;
  analysis.inThreadKernels = inThreadKernels;
  // An empty name: the whole (fusion-less) entry is one such kernel.
  analysis.inOneThread = inThreadKernels.count("") > 0;
  DepthAnalysis::DepthMap depths;
  ReductionDepth root = analysis.of(entry, {}, /*asStages=*/true, &depths);
  return perLeaf(entry, root, depths);
}

std::optional<PrimitiveType> coarserFloatType(std::optional<PrimitiveType> a,
                                              std::optional<PrimitiveType> b) {
  if (!a)
    return b;
  if (!b)
    return a;
  return unitRoundoffOf(*b) > unitRoundoffOf(*a) ? b : a;
}

double reductionGrowth(const ReductionDepth &depth) {
  double growth = depth.stageGrowth + depth.productRoundoff + depth.sequentialGrowth;
  if (depth.elements > 1 && depth.unitRoundoff > 0)
    growth += 4 * std::sqrt(depth.elements) * depth.unitRoundoff;
  return growth;
}

bool anyGrowth(const std::vector<ReductionDepth> &depths) {
  return std::any_of(depths.begin(), depths.end(),
                     [](const ReductionDepth &depth) { return reductionGrowth(depth) > 0; });
}

ReductionDepth reductionDepthOf(const HloInstruction &instruction) {
  switch (instruction.opcode()) {
  case HloOpcode::Reduce:
  case HloOpcode::ReduceWindow:
  case HloOpcode::Dot:
  case HloOpcode::Scatter:
    return DepthAnalysis::reduced(instruction, ReductionDepth());
  default:
    return ReductionDepth();
  }
}

Literal reinterpretAsFloat(const Literal &value, PrimitiveType floatType) {
  Literal result(Shape(floatType, value.shape().dimensions()));
  int bits = primitiveBitWidth(floatType);
  uint64_t mask = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  for (int64_t i = 0; i < value.elementCount(); ++i)
    result.realData()[i] =
        decodeFloatBits(static_cast<uint64_t>(value.intData()[i]) & mask, floatType);
  return result;
}

Tolerance reductionTolerance(Tolerance base, const ReductionDepth &depth,
                             PrimitiveType type) {
  if (!(isFloatingPoint(type) || isComplex(type) ||
        (isIntegral(type) && depth.roundedFromFloat)))
    return base;
  base.growth += reductionGrowth(depth);
  base.overflowMagnitude = depth.accumulatorLimit;
  return base;
}

} // namespace hlo::runtime
