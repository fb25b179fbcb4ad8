//===- Verifier.cpp - HLO shape rules -------------------------------------===//
#include "Verifier.h"

#include "OpAttributes.h"
#include "Printer.h"
#include "VerifierImpl.h"

#include <algorithm>
#include <set>

namespace hlo {

bool allUnique(const std::vector<int64_t> &values) {
  std::set<int64_t> seen(values.begin(), values.end());
  return seen.size() == values.size();
}

bool isSortedAscending(const std::vector<int64_t> &values) {
  return std::is_sorted(values.begin(), values.end());
}

bool contains(const std::vector<int64_t> &values, int64_t value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

bool allInRange(const std::vector<int64_t> &values, int64_t bound) {
  for (int64_t value : values)
    if (value < 0 || value >= bound)
      return false;
  return true;
}

std::string formatList(const std::vector<int64_t> &values) {
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i)
    out += (i ? "," : "") + std::to_string(values[i]);
  return out + "}";
}

bool InstructionChecker::fail(const std::string &message) {
  diags.error(inst.sourceOffset(), std::string(opcodeName(inst.opcode())) +
                                       " '" + inst.name() + "': " + message);
  return false;
}

bool InstructionChecker::expectResult(const Shape &expected) {
  if (inst.shape().compatible(expected))
    return true;
  return fail("result shape " + inst.shape().toString(false) +
              " does not match the expected " + expected.toString(false));
}

bool InstructionChecker::expectOperandCount(int64_t count) {
  if (inst.operandCount() == count)
    return true;
  return fail("expects " + std::to_string(count) + " operands, but has " +
              std::to_string(inst.operandCount()));
}

bool InstructionChecker::expectArrayOperands() {
  for (int64_t i = 0; i < inst.operandCount(); ++i)
    if (!operandShape(i).isArray())
      return fail("operand " + std::to_string(i) + " must be an array, not " +
                  operandShape(i).toString(false));
  return true;
}

namespace {

/// A computation whose body is known (not an external declaration).
bool isDefined(const HloComputation *computation) {
  return computation && !computation->isDeclaration();
}

/// True if some dimension is unbounded (`?`): sizes cannot be computed.
bool hasUnbounded(const Shape &shape) {
  return shape.isArray() && shape.elementCount() < 0;
}

/// Narrows a wide intermediate size; false if it does not fit in int64.
bool fitsInt64(__int128 value) {
  return value >= INT64_MIN && value <= INT64_MAX;
}

/// Same dimensions, ignoring unbounded ones.
bool sameDims(const std::vector<int64_t> &a, const std::vector<int64_t> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i] && a[i] != kUnboundedSize && b[i] != kUnboundedSize)
      return false;
  return true;
}

bool sameDims(const Shape &a, const Shape &b) {
  return a.isArray() && b.isArray() && sameDims(a.dimensions(), b.dimensions());
}

class Checker : public InstructionChecker {
public:
  using InstructionChecker::InstructionChecker;

  bool check();

private:
  bool checkShapeSize();
  bool checkElementwise();
  bool checkBroadcast();
  bool checkReshape();
  bool checkTranspose();
  bool checkSlice();
  bool checkDynamicSlice();
  bool checkDynamicUpdateSlice();
  bool checkPad();
  bool checkConcatenate();
  bool checkReduce();
  bool checkReduceWindow();
  bool checkDot();
  bool checkIota();
  bool checkGetTupleElement();
  bool checkTuple();
  bool checkCallLike(const HloComputation *computation);
  bool checkWhile();
  bool checkConditional();
  bool checkReverse();
  bool checkBitcast();
  bool checkSort();
  bool checkMap();
  bool checkConvolution();
  bool checkReducePrecision();
};

PrimitiveType unaryResultType(HloOpcode opcode, PrimitiveType operand) {
  switch (opcode) {
  case HloOpcode::IsFinite:
    return PrimitiveType::Pred;
  case HloOpcode::Abs:
  case HloOpcode::Real:
  case HloOpcode::Imag:
    return isComplex(operand) ? complexComponentType(operand) : operand;
  default:
    return operand;
  }
}

/// The element types an elementwise op takes, as HLO's shape inference
/// states them; null where the op takes any type.
const char *requiredElementTypes(HloOpcode opcode, PrimitiveType type) {
  switch (opcode) {
  case HloOpcode::Floor:
  case HloOpcode::Ceil:
  case HloOpcode::RoundNearestAfz:
  case HloOpcode::RoundNearestEven:
  case HloOpcode::IsFinite:
  case HloOpcode::Erf:
    return isFloatingPoint(type) ? nullptr : "floating-point";
  case HloOpcode::Exp:
  case HloOpcode::Expm1:
  case HloOpcode::Log:
  case HloOpcode::Log1p:
  case HloOpcode::Logistic:
  case HloOpcode::Rsqrt:
  case HloOpcode::Sqrt:
  case HloOpcode::Cbrt:
  case HloOpcode::Sin:
  case HloOpcode::Cos:
  case HloOpcode::Tan:
  case HloOpcode::Tanh:
  case HloOpcode::Sinh:
  case HloOpcode::Cosh:
  case HloOpcode::Asin:
  case HloOpcode::Acos:
  case HloOpcode::Atan:
  case HloOpcode::Asinh:
  case HloOpcode::Acosh:
  case HloOpcode::Atanh:
  case HloOpcode::Atan2:
    return isFloatingPoint(type) || isComplex(type) ? nullptr
                                                    : "floating-point or complex";
  case HloOpcode::Clz:
  case HloOpcode::PopulationCount:
  case HloOpcode::ShiftLeft:
  case HloOpcode::ShiftRightArithmetic:
  case HloOpcode::ShiftRightLogical:
    return isIntegral(type) ? nullptr : "integer";
  case HloOpcode::And:
  case HloOpcode::Or:
  case HloOpcode::Xor:
  case HloOpcode::Not:
    return isIntegral(type) || type == PrimitiveType::Pred ? nullptr
                                                           : "pred or integer";
  default:
    return nullptr;
  }
}

bool Checker::checkElementwise() {
  HloOpcode opcode = inst.opcode();
  if (!expectArrayOperands())
    return false;
  if (inst.operandCount() == 0)
    return fail("expects operands");
  // Operands other than the scalar ones of clamp must match operand 0's dims.
  const Shape &first = operandShape(inst.opcode() == HloOpcode::Clamp ? 1 : 0);
  for (int64_t i = 0; i < inst.operandCount(); ++i) {
    const Shape &operand = operandShape(i);
    bool scalarAllowed = opcode == HloOpcode::Clamp && i != 1;
    if (scalarAllowed && operand.rank() == 0)
      continue;
    if (!sameDims(operand, first))
      return fail("operand " + std::to_string(i) + " has shape " +
                  operand.toString(false) + ", incompatible with " +
                  first.toString(false));
  }
  PrimitiveType resultType = first.elementType();
  if (const char *expected = requiredElementTypes(opcode, resultType))
    return fail(std::string("takes ") + expected + " operands, not " +
                std::string(primitiveTypeName(resultType)));
  switch (opcode) {
  case HloOpcode::Compare:
    resultType = PrimitiveType::Pred;
    if (operandShape(0).elementType() != operandShape(1).elementType())
      return fail("compare operands have different element types");
    break;
  case HloOpcode::Select:
    if (operandShape(0).elementType() != PrimitiveType::Pred)
      return fail("select's first operand must be pred");
    resultType = operandShape(1).elementType();
    if (operandShape(1).elementType() != operandShape(2).elementType())
      return fail("select's branches have different element types");
    return expectResult(Shape(resultType, operandShape(1).dimensions()));
  case HloOpcode::Complex:
    resultType = operandShape(0).elementType() == PrimitiveType::F64
                     ? PrimitiveType::C128
                     : PrimitiveType::C64;
    break;
  case HloOpcode::Convert:
  case HloOpcode::BitcastConvert:
  case HloOpcode::StochasticConvert:
    resultType = inst.shape().elementType();
    break;
  default:
    if (inst.operandCount() == 1)
      resultType = unaryResultType(opcode, resultType);
    for (int64_t i = 1; i < inst.operandCount(); ++i)
      if (operandShape(i).elementType() != operandShape(0).elementType())
        return fail("operands have different element types (" +
                    std::string(primitiveTypeName(operandShape(0).elementType())) +
                    " and " +
                    std::string(primitiveTypeName(operandShape(i).elementType())) +
                    ")");
    break;
  }
  if (opcode == HloOpcode::BitcastConvert) {
    // Different widths add or drop a minor dimension.
    int inBits = primitiveBitWidth(first.elementType());
    int outBits = primitiveBitWidth(resultType);
    if (inBits != outBits) {
      std::vector<int64_t> dims = first.dimensions();
      if (inBits > outBits)
        dims.push_back(inBits / outBits);
      else if (!dims.empty() && dims.back() == outBits / inBits)
        dims.pop_back();
      else
        return fail("bitcast-convert from " + first.toString(false) + " to " +
                    inst.shape().toString(false) +
                    " needs a minor dimension of size " +
                    std::to_string(outBits / std::max(inBits, 1)));
      return expectResult(Shape(resultType, dims));
    }
  }
  const Shape &result = inst.shape();
  if (result.isArray() && result.elementType() == resultType &&
      sameDims(result, first))
    return true;
  return expectResult(Shape(resultType, first.dimensions()));
}

bool Checker::checkBroadcast() {
  if (!expectOperandCount(1) || !expectArrayOperands())
    return false;
  const Shape &operand = operandShape(0);
  const auto &dims = inst.dimensions();
  const Shape &result = inst.shape();
  if (static_cast<int64_t>(dims.size()) != operand.rank())
    return fail("dimensions " + formatList(dims) + " must have one entry per "
                "operand dimension (rank " + std::to_string(operand.rank()) +
                ")");
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0 || dims[i] >= result.rank())
      return fail("dimension " + std::to_string(dims[i]) +
                  " is out of range for the result rank " +
                  std::to_string(result.rank()));
    if (operand.dimension(i) != result.dimension(dims[i]) &&
        operand.dimension(i) != kUnboundedSize)
      return fail("operand dimension " + std::to_string(i) + " (size " +
                  std::to_string(operand.dimension(i)) +
                  ") must equal result dimension " + std::to_string(dims[i]) +
                  " (size " + std::to_string(result.dimension(dims[i])) + ")");
  }
  if (result.elementType() != operand.elementType())
    return fail("result element type differs from the operand's");
  return true;
}

bool Checker::checkReshape() {
  if (!expectOperandCount(1) || !expectArrayOperands())
    return false;
  const Shape &operand = operandShape(0);
  if (inst.shape().elementType() != operand.elementType())
    return fail("result element type differs from the operand's");
  if (operand.isStatic() && inst.shape().isStatic() &&
      operand.elementCount() != inst.shape().elementCount())
    return fail("reshape from " + operand.toString(false) + " to " +
                inst.shape().toString(false) +
                " changes the element count (" +
                std::to_string(operand.elementCount()) + " vs " +
                std::to_string(inst.shape().elementCount()) + ")");
  return true;
}

bool Checker::checkTranspose() {
  if (!expectOperandCount(1) || !expectArrayOperands())
    return false;
  const Shape &operand = operandShape(0);
  const auto &perm = inst.dimensions();
  if (static_cast<int64_t>(perm.size()) != operand.rank() || !allUnique(perm) ||
      !allInRange(perm, operand.rank()))
    return fail("dimensions " + formatList(perm) +
                " must be a permutation of the operand's " +
                std::to_string(operand.rank()) + " dimensions");
  std::vector<int64_t> dims;
  for (int64_t d : perm)
    dims.push_back(operand.dimension(d));
  return expectResult(Shape(operand.elementType(), dims));
}

bool Checker::checkSlice() {
  if (!expectOperandCount(1) || !expectArrayOperands())
    return false;
  const Shape &operand = operandShape(0);
  const std::vector<SliceRange> &slices = sliceRangesOf(inst);
  if (static_cast<int64_t>(slices.size()) != operand.rank())
    return fail("slice has " + std::to_string(slices.size()) +
                " ranges but the operand has rank " +
                std::to_string(operand.rank()));
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < operand.rank(); ++d) {
    const SliceRange &range = slices[d];
    if (range.stride <= 0)
      return fail("slice stride must be positive in dimension " +
                  std::to_string(d));
    if (range.start < 0 || range.start > range.limit ||
        (operand.dimension(d) != kUnboundedSize &&
         range.limit > operand.dimension(d)))
      return fail("slice [" + std::to_string(range.start) + ":" +
                  std::to_string(range.limit) + "] is out of bounds of " +
                  "dimension " + std::to_string(d) + " (size " +
                  std::to_string(operand.dimension(d)) + ")");
    dims.push_back(static_cast<int64_t>(
        ((__int128)range.limit - range.start + range.stride - 1) /
        range.stride));
  }
  return expectResult(Shape(operand.elementType(), dims));
}

bool Checker::checkDynamicSlice() {
  if (inst.operandCount() < 1)
    return fail("expects an operand");
  const Shape &operand = operandShape(0);
  const auto &sizes = dynamicSliceSizesOf(inst);
  int64_t indexCount = inst.operandCount() - 1;
  bool vectorForm = indexCount == 1 && operandShape(1).rank() == 1;
  if (!vectorForm && indexCount != operand.rank())
    return fail("expects " + std::to_string(operand.rank()) +
                " scalar start indices, but has " + std::to_string(indexCount));
  for (int64_t i = 1; i < inst.operandCount(); ++i)
    if (!isIntegral(operandShape(i).elementType()))
      return fail("start indices must be integers");
  if (static_cast<int64_t>(sizes.size()) != operand.rank())
    return fail("dynamic_slice_sizes must have one entry per dimension");
  for (int64_t d = 0; d < operand.rank(); ++d)
    if (sizes[d] < 0 || (operand.dimension(d) != kUnboundedSize &&
                         sizes[d] > operand.dimension(d)))
      return fail("slice size " + std::to_string(sizes[d]) +
                  " is out of bounds of dimension " + std::to_string(d) +
                  " (size " + std::to_string(operand.dimension(d)) + ")");
  return expectResult(Shape(operand.elementType(), sizes));
}

bool Checker::checkDynamicUpdateSlice() {
  if (inst.operandCount() < 2)
    return fail("expects an operand and an update");
  const Shape &operand = operandShape(0);
  const Shape &update = operandShape(1);
  int64_t indexCount = inst.operandCount() - 2;
  bool vectorForm = indexCount == 1 && operandShape(2).rank() == 1;
  if (!vectorForm && indexCount != operand.rank())
    return fail("expects " + std::to_string(operand.rank()) +
                " scalar start indices, but has " + std::to_string(indexCount));
  if (update.rank() != operand.rank())
    return fail("update rank " + std::to_string(update.rank()) +
                " differs from operand rank " + std::to_string(operand.rank()));
  for (int64_t d = 0; d < operand.rank(); ++d)
    if (operand.dimension(d) != kUnboundedSize &&
        update.dimension(d) > operand.dimension(d))
      return fail("update dimension " + std::to_string(d) + " (size " +
                  std::to_string(update.dimension(d)) +
                  ") is larger than the operand's (" +
                  std::to_string(operand.dimension(d)) + ")");
  if (update.elementType() != operand.elementType())
    return fail("update element type differs from the operand's");
  return expectResult(operand);
}

bool Checker::checkPad() {
  if (!expectOperandCount(2) || !expectArrayOperands())
    return false;
  const Shape &operand = operandShape(0);
  if (operandShape(1).rank() != 0)
    return fail("the padding value must be a scalar");
  const std::vector<PaddingDimension> &padding = paddingOf(inst);
  if (static_cast<int64_t>(padding.size()) != operand.rank())
    return fail("padding has " + std::to_string(padding.size()) +
                " dimensions but the operand has rank " +
                std::to_string(operand.rank()));
  if (hasUnbounded(operand))
    return true;
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < operand.rank(); ++d) {
    const PaddingDimension &pad = padding[d];
    if (pad.interior < 0)
      return fail("interior padding must not be negative");
    int64_t size = operand.dimension(d);
    __int128 wide = (__int128)pad.low + pad.high + size +
                    (__int128)std::max<int64_t>(size - 1, 0) * pad.interior;
    if (!fitsInt64(wide))
      return fail("padded size of dimension " + std::to_string(d) +
                  " overflows");
    int64_t padded = static_cast<int64_t>(wide);
    if (padded < 0)
      return fail("padding makes dimension " + std::to_string(d) +
                  " negative");
    dims.push_back(padded);
  }
  return expectResult(Shape(operand.elementType(), dims));
}

bool Checker::checkConcatenate() {
  if (inst.operandCount() < 1 || !expectArrayOperands())
    return fail("expects at least one operand");
  const auto &dims = inst.dimensions();
  const Shape &first = operandShape(0);
  if (dims.size() != 1 || dims[0] < 0 || dims[0] >= first.rank())
    return fail("dimensions must name one dimension of the operands");
  int64_t dim = dims[0];
  if (hasUnbounded(first))
    return true;
  std::vector<int64_t> result = first.dimensions();
  result[dim] = 0;
  for (int64_t i = 0; i < inst.operandCount(); ++i) {
    const Shape &operand = operandShape(i);
    if (operand.rank() != first.rank())
      return fail("operand " + std::to_string(i) + " has a different rank");
    for (int64_t d = 0; d < first.rank(); ++d)
      if (d != dim && operand.dimension(d) != first.dimension(d))
        return fail("operand " + std::to_string(i) + " differs in dimension " +
                    std::to_string(d) + " from operand 0");
    if (operand.dimension(dim) == kUnboundedSize ||
        __builtin_add_overflow(result[dim], operand.dimension(dim),
                               &result[dim]))
      return true;
  }
  return expectResult(Shape(first.elementType(), result));
}

bool Checker::checkReduce() {
  int64_t count = inst.operandCount();
  if (count < 2 || count % 2 != 0)
    return fail("reduce expects N inputs and N init values");
  if (!expectArrayOperands())
    return false;
  int64_t n = count / 2;
  const Shape &input = operandShape(0);
  const auto &dims = inst.dimensions();
  if (!allUnique(dims) || !allInRange(dims, input.rank()))
    return fail("dimensions " + formatList(dims) +
                " must be unique dimensions of the input (rank " +
                std::to_string(input.rank()) + ")");
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < input.rank(); ++d)
    if (!contains(dims, d))
      kept.push_back(input.dimension(d));
  for (int64_t i = 0; i < n; ++i) {
    if (!sameDims(operandShape(i), input))
      return fail("all reduce inputs must have the same dimensions");
    if (operandShape(n + i).rank() != 0)
      return fail("init value " + std::to_string(i) + " must be a scalar");
  }
  const HloComputation *reducer = toApply(inst);
  if (isDefined(reducer) && reducer->parameterCount() != 2 * n)
    return fail("the reducer must take " + std::to_string(2 * n) +
                " parameters, but takes " +
                std::to_string(reducer->parameterCount()));
  if (n == 1)
    return expectResult(Shape(inst.shape().isTuple()
                                  ? operandShape(0).elementType()
                                  : inst.shape().elementType(),
                              kept));
  std::vector<Shape> results;
  const Shape &resultShape = inst.shape();
  for (int64_t i = 0; i < n; ++i)
    results.emplace_back(resultShape.isTuple() && i < resultShape.tupleSize()
                             ? resultShape.tupleShapes()[i].elementType()
                             : operandShape(i).elementType(),
                         kept);
  return expectResult(Shape::tuple(results));
}

/// Output size of one windowed dimension (reduce-window, convolution).
/// Output size of one windowed dimension (reduce-window, convolution); -1
/// if it does not fit in int64.
int64_t windowedOutputSize(int64_t size, const WindowDimension &window) {
  __int128 dilatedBase =
      size == 0 ? 0 : (__int128)(size - 1) * window.baseDilation + 1;
  __int128 padded = dilatedBase + window.padLow + window.padHigh;
  __int128 dilatedWindow = (__int128)(window.size - 1) * window.windowDilation + 1;
  if (padded < dilatedWindow)
    return 0;
  __int128 result = (padded - dilatedWindow) / window.stride + 1;
  return fitsInt64(result) ? static_cast<int64_t>(result) : -1;
}

bool Checker::checkReduceWindow() {
  int64_t count = inst.operandCount();
  if (count < 2 || count % 2 != 0)
    return fail("reduce-window expects N inputs and N init values");
  if (!expectArrayOperands())
    return false;
  int64_t n = count / 2;
  const Shape &input = operandShape(0);
  const std::vector<WindowDimension> &window = windowOf(inst);
  if (static_cast<int64_t>(window.size()) != input.rank())
    return fail("window has " + std::to_string(window.size()) +
                " dimensions but the input has rank " +
                std::to_string(input.rank()));
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < input.rank(); ++d) {
    const WindowDimension &w = window[d];
    if (w.size <= 0 || w.stride <= 0 || w.baseDilation <= 0 ||
        w.windowDilation <= 0)
      return fail("window sizes, strides and dilations must be positive");
    if (hasUnbounded(input))
      return true;
    int64_t size = windowedOutputSize(input.dimension(d), w);
    if (size < 0)
      return fail("windowed size of dimension " + std::to_string(d) +
                  " overflows");
    dims.push_back(size);
  }
  if (n == 1)
    return expectResult(Shape(input.elementType(), dims));
  std::vector<Shape> results;
  for (int64_t i = 0; i < n; ++i)
    results.emplace_back(operandShape(i).elementType(), dims);
  return expectResult(Shape::tuple(results));
}

bool Checker::checkDot() {
  if (inst.operandCount() < 2 || !expectArrayOperands())
    return fail("dot expects two operands");
  const Shape &lhs = operandShape(0);
  const Shape &rhs = operandShape(1);
  DotDimensionNumbers numbers = dotDimensionNumbers(inst);
  const auto &lhsContracting = numbers.lhsContracting;
  const auto &rhsContracting = numbers.rhsContracting;
  const auto &lhsBatch = numbers.lhsBatch;
  const auto &rhsBatch = numbers.rhsBatch;
  if (inst.opcode() != HloOpcode::Dot)
    return true; // ragged / scaled dots: attributes only.
  if (lhsContracting.size() != rhsContracting.size())
    return fail("lhs and rhs must have the same number of contracting dims");
  if (lhsBatch.size() != rhsBatch.size())
    return fail("lhs and rhs must have the same number of batch dims");
  std::vector<int64_t> lhsUsed = lhsContracting, rhsUsed = rhsContracting;
  lhsUsed.insert(lhsUsed.end(), lhsBatch.begin(), lhsBatch.end());
  rhsUsed.insert(rhsUsed.end(), rhsBatch.begin(), rhsBatch.end());
  if (!allUnique(lhsUsed) || !allInRange(lhsUsed, lhs.rank()) ||
      !allUnique(rhsUsed) || !allInRange(rhsUsed, rhs.rank()))
    return fail("contracting and batch dims must be unique dimensions of "
                "their operand");
  for (size_t i = 0; i < lhsContracting.size(); ++i)
    if (lhs.dimension(lhsContracting[i]) != rhs.dimension(rhsContracting[i]))
      return fail("contracting dimension sizes differ: lhs dim " +
                  std::to_string(lhsContracting[i]) + " is " +
                  std::to_string(lhs.dimension(lhsContracting[i])) +
                  ", rhs dim " + std::to_string(rhsContracting[i]) + " is " +
                  std::to_string(rhs.dimension(rhsContracting[i])));
  std::vector<int64_t> dims;
  for (size_t i = 0; i < lhsBatch.size(); ++i) {
    if (lhs.dimension(lhsBatch[i]) != rhs.dimension(rhsBatch[i]))
      return fail("batch dimension sizes differ");
    dims.push_back(lhs.dimension(lhsBatch[i]));
  }
  for (int64_t d = 0; d < lhs.rank(); ++d)
    if (!contains(lhsUsed, d))
      dims.push_back(lhs.dimension(d));
  for (int64_t d = 0; d < rhs.rank(); ++d)
    if (!contains(rhsUsed, d))
      dims.push_back(rhs.dimension(d));
  // The result element type may differ (preferred element type).
  return expectResult(Shape(inst.shape().elementType(), dims));
}

bool Checker::checkIota() {
  if (!expectOperandCount(0))
    return false;
  int64_t dim = iotaDimension(inst);
  if (dim < 0 || dim >= std::max<int64_t>(inst.shape().rank(), 1))
    return fail("iota_dimension " + std::to_string(dim) +
                " is out of range for rank " +
                std::to_string(inst.shape().rank()));
  return true;
}

bool Checker::checkGetTupleElement() {
  if (!expectOperandCount(1))
    return false;
  const Shape &operand = operandShape(0);
  int64_t index = tupleIndex(inst);
  if (!operand.isTuple())
    return fail("operand must be a tuple, not " + operand.toString(false));
  if (index < 0 || index >= operand.tupleSize())
    return fail("index " + std::to_string(index) + " is out of range for " +
                operand.toString(false));
  return expectResult(operand.tupleShapes()[index]);
}

bool Checker::checkTuple() {
  std::vector<Shape> elements;
  for (int64_t i = 0; i < inst.operandCount(); ++i)
    elements.push_back(operandShape(i));
  return expectResult(Shape::tuple(elements));
}

bool Checker::checkCallLike(const HloComputation *computation) {
  if (!isDefined(computation))
    return true;
  if (computation->parameterCount() != inst.operandCount())
    return fail("calls " + computation->name() + ", which takes " +
                std::to_string(computation->parameterCount()) +
                " parameters, with " + std::to_string(inst.operandCount()) +
                " operands");
  for (int64_t i = 0; i < inst.operandCount(); ++i)
    if (!computation->parameter(i)->shape().compatible(operandShape(i)))
      return fail("operand " + std::to_string(i) + " has shape " +
                  operandShape(i).toString(false) + " but parameter " +
                  std::to_string(i) + " of " + computation->name() + " is " +
                  computation->parameter(i)->shape().toString(false));
  return expectResult(computation->root()->shape());
}

bool Checker::checkWhile() {
  if (!expectOperandCount(1))
    return false;
  const HloComputation *condition = whileCondition(inst);
  const HloComputation *body = whileBody(inst);
  const Shape &init = operandShape(0);
  if (!isDefined(condition) || !isDefined(body))
    return true;
  if (condition->parameterCount() != 1 || body->parameterCount() != 1)
    return fail("the condition and body must take one parameter each");
  if (!condition->parameter(0)->shape().compatible(init) ||
      !body->parameter(0)->shape().compatible(init))
    return fail("the condition and body parameters must have the init "
                "value's shape " + init.toString(false));
  const Shape &predicate = condition->root()->shape();
  if (predicate.isTuple() || predicate.elementType() != PrimitiveType::Pred ||
      predicate.rank() != 0)
    return fail("the condition must return pred[], not " +
                predicate.toString(false));
  if (!body->root()->shape().compatible(init))
    return fail("the body must return the init value's shape " +
                init.toString(false) + ", not " +
                body->root()->shape().toString(false));
  return expectResult(init);
}

bool Checker::checkConditional() {
  if (inst.operandCount() < 1)
    return fail("expects a branch index or predicate");
  std::vector<HloComputation *> branches = conditionalBranches(inst);
  if (branches.empty() || std::find(branches.begin(), branches.end(),
                                    nullptr) != branches.end())
    return fail("needs branch_computations or true/false_computation");
  if (static_cast<int64_t>(branches.size()) + 1 != inst.operandCount())
    return fail("has " + std::to_string(branches.size()) + " branches but " +
                std::to_string(inst.operandCount() - 1) + " branch operands");
  PrimitiveType selector = operandShape(0).elementType();
  if (selector != PrimitiveType::Pred && selector != PrimitiveType::S32)
    return fail("the branch selector must be pred or s32");
  for (size_t i = 0; i < branches.size(); ++i) {
    const HloComputation *branch = branches[i];
    if (!isDefined(branch))
      continue;
    if (branch->parameterCount() != 1 ||
        !branch->parameter(0)->shape().compatible(operandShape(i + 1)))
      return fail("branch " + branch->name() +
                  " must take one parameter of shape " +
                  operandShape(i + 1).toString(false));
    if (!branch->root()->shape().compatible(inst.shape()))
      return fail("branch " + branch->name() + " returns " +
                  branch->root()->shape().toString(false) +
                  ", not the result shape " + inst.shape().toString(false));
  }
  return true;
}

bool Checker::checkReverse() {
  if (!expectOperandCount(1) || !expectArrayOperands())
    return false;
  const auto &dims = inst.dimensions();
  if (!allUnique(dims) || !allInRange(dims, operandShape(0).rank()))
    return fail("dimensions " + formatList(dims) + " are not unique "
                "dimensions of the operand");
  return expectResult(operandShape(0));
}

bool Checker::checkBitcast() {
  if (!expectOperandCount(1))
    return false;
  const Shape &operand = operandShape(0);
  const Shape &result = inst.shape();
  if (!operand.isArray() || !result.isArray() || !operand.isStatic() ||
      !result.isStatic())
    return true;
  auto bits = [](const Shape &shape) {
    int64_t element = shape.hasLayout() && shape.layout().elementSizeInBits
                          ? shape.layout().elementSizeInBits
                          : primitiveBitWidth(shape.elementType());
    if (shape.elementType() == PrimitiveType::Pred)
      element = 8;
    return (__int128)shape.elementCount() * element;
  };
  if (bits(operand) != bits(result))
    return fail("bitcast from " + operand.toString(false) + " to " +
                result.toString(false) + " changes the size in bits");
  return true;
}

bool Checker::checkSort() {
  if (inst.operandCount() < 1 || !expectArrayOperands())
    return fail("sort expects operands");
  const Shape &first = operandShape(0);
  for (int64_t i = 1; i < inst.operandCount(); ++i)
    if (!sameDims(operandShape(i), first))
      return fail("all sort operands must have the same dimensions");
  const auto &dims = inst.dimensions();
  if (dims.size() != 1 || !allInRange(dims, std::max<int64_t>(first.rank(), 1)))
    return fail("dimensions must name the sort dimension");
  const HloComputation *comparator = toApply(inst);
  if (isDefined(comparator) && comparator->parameterCount() != 2 * inst.operandCount())
    return fail("the comparator must take " +
                std::to_string(2 * inst.operandCount()) + " parameters");
  if (inst.operandCount() == 1)
    return expectResult(first);
  std::vector<Shape> results;
  for (int64_t i = 0; i < inst.operandCount(); ++i)
    results.push_back(operandShape(i));
  return expectResult(Shape::tuple(results));
}

bool Checker::checkMap() {
  if (!expectArrayOperands())
    return false;
  const HloComputation *mapper = toApply(inst);
  if (isDefined(mapper) && mapper->parameterCount() != inst.operandCount())
    return fail("the mapped computation must take " +
                std::to_string(inst.operandCount()) + " parameters");
  for (int64_t i = 1; i < inst.operandCount(); ++i)
    if (!sameDims(operandShape(i), operandShape(0)))
      return fail("all map operands must have the same dimensions");
  if (inst.operandCount() > 0 &&
      !sameDims(inst.shape(), operandShape(0)))
    return fail("the result must have the operands' dimensions");
  return true;
}

bool Checker::checkConvolution() {
  if (inst.operandCount() != 2 || !expectArrayOperands())
    return fail("convolution expects two operands");
  const ConvDimLabels &labels = *convDimLabelsOf(inst);
  const Shape &input = operandShape(0);
  const Shape &kernel = operandShape(1);
  int64_t spatial = static_cast<int64_t>(labels.inputSpatial.size());
  if (input.rank() != spatial + 2 || kernel.rank() != spatial + 2 ||
      inst.shape().rank() != spatial + 2)
    return fail("dim_labels " + labels.text +
                " do not match the ranks of the input, kernel and result");
  const std::vector<WindowDimension> &window = windowOf(inst);
  if (static_cast<int64_t>(window.size()) != spatial)
    return fail("window has " + std::to_string(window.size()) +
                " dimensions but dim_labels have " + std::to_string(spatial) +
                " spatial dimensions");
  return true;
}

bool Checker::checkReducePrecision() {
  if (reducedPrecisionOf(inst).exponentBits < 1 || reducedPrecisionOf(inst).mantissaBits < 0)
    return fail("exponent_bits must be >= 1 and mantissa_bits >= 0");
  return checkElementwise();
}

/// Decimal text of a 128-bit count.
std::string toDecimal(__int128 value) {
  if (value == 0)
    return "0";
  std::string digits;
  for (; value > 0; value /= 10)
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(value % 10)));
  return digits;
}

/// XLA's ShapeUtil::ValidateShapeSize: the size of every array in the result
/// must fit in int64 bytes (and so its element count).
bool Checker::checkShapeSize() {
  std::vector<const Shape *> leaves = {&inst.shape()};
  while (!leaves.empty()) {
    const Shape *shape = leaves.back();
    leaves.pop_back();
    if (shape->isTuple()) {
      for (const Shape &element : shape->tupleShapes())
        leaves.push_back(&element);
      continue;
    }
    if (!shape->isArray() || hasUnbounded(*shape))
      continue;
    // Buffers hold 4-bit elements two per byte, 2-bit ones four and the
    // rest at their natural size (Shape::bufferBytes); a layout asking for
    // another element size is valid HLO this compiler does not store.
    int64_t stored = packedElementBits(shape->elementType());
    if (stored == 0)
      stored = 8 * std::max(primitiveByteWidth(shape->elementType()), 1);
    if (shape->hasLayout() && shape->layout().elementSizeInBits != 0 &&
        shape->layout().elementSizeInBits != stored)
      return fail("unsupported: " + shape->toString(true) + " stores its elements in " +
                  std::to_string(shape->layout().elementSizeInBits) +
                  " bits; hlo-compile stores " + std::string(primitiveTypeName(shape->elementType())) +
                  " in " + std::to_string(stored));
    __int128 bytes = std::max(primitiveByteWidth(shape->elementType()), 1);
    for (int64_t dim : shape->dimensions()) {
      bytes *= dim;
      if (bytes > INT64_MAX)
        break;
    }
    if (bytes > INT64_MAX) {
      __int128 full = std::max(primitiveByteWidth(shape->elementType()), 1);
      for (int64_t dim : shape->dimensions())
        full = full > ((__int128)1 << 100) ? full : full * dim;
      return fail(shape->toString(false) + " is " +
                  (full > ((__int128)1 << 100) ? std::string("over 2^100")
                                               : toDecimal(full)) +
                  " bytes: an array's size must fit in 64 bits (at most 2^63 - 1 bytes)");
    }
  }
  return true;
}

bool Checker::check() {
  HloOpcode opcode = inst.opcode();
  if (!checkShapeSize())
    return false;
  if (inst.asyncWrappedOpcode())
    return true; // async sugar: the wrapped op's shapes live in the tuple.
  switch (opcode) {
  case HloOpcode::Broadcast:
    return checkBroadcast();
  case HloOpcode::Reshape:
    return checkReshape();
  case HloOpcode::Transpose:
    return checkTranspose();
  case HloOpcode::Slice:
    return checkSlice();
  case HloOpcode::DynamicSlice:
    return checkDynamicSlice();
  case HloOpcode::DynamicUpdateSlice:
    return checkDynamicUpdateSlice();
  case HloOpcode::Pad:
    return checkPad();
  case HloOpcode::Concatenate:
    return checkConcatenate();
  case HloOpcode::Reduce:
    return checkReduce();
  case HloOpcode::ReduceWindow:
    return checkReduceWindow();
  case HloOpcode::Dot:
  case HloOpcode::RaggedDot:
  case HloOpcode::ScaledDot:
    return checkDot();
  case HloOpcode::Gather:
    return checkGather();
  case HloOpcode::Scatter:
    return checkScatter();
  case HloOpcode::Iota:
    return checkIota();
  case HloOpcode::GetTupleElement:
    return checkGetTupleElement();
  case HloOpcode::Tuple:
    return checkTuple();
  case HloOpcode::Call:
    return checkCallLike(toApply(inst));
  case HloOpcode::Fusion:
    return checkCallLike(inst.fusedComputation());
  case HloOpcode::While:
    return checkWhile();
  case HloOpcode::Conditional:
    return checkConditional();
  case HloOpcode::Reverse:
    return checkReverse();
  case HloOpcode::Bitcast:
    return checkBitcast();
  case HloOpcode::Copy:
    if (!expectOperandCount(1))
      return false;
    return expectResult(operandShape(0));
  case HloOpcode::Sort:
    return checkSort();
  case HloOpcode::Map:
    return checkMap();
  case HloOpcode::Convolution:
    return checkConvolution();
  case HloOpcode::ReducePrecision:
    return checkReducePrecision();
  default:
    if (isElementwiseOpcode(opcode))
      return checkElementwise();
    return true;
  }
}

} // namespace

bool verifyModule(const HloModule &module, DiagnosticEngine &diagnostics) {
  // Computations wrapped by async sugar (`call-start(...)`, to_apply={...})
  // have their parameters bound late, by the -update/-done ops, so their
  // shapes are not checked here.
  std::set<const HloComputation *> lateBound;
  for (const auto &computation : module.computations())
    for (const auto &instruction : computation->instructions())
      if (instruction->asyncWrappedOpcode())
        for (HloComputation *callee : instruction->calledComputations())
          lateBound.insert(callee);
  bool ok = true;
  for (const auto &computation : module.computations()) {
    if (lateBound.count(computation.get()))
      continue;
    for (const auto &instruction : computation->instructions())
      ok &= Checker(*instruction, diagnostics).check();
  }
  return ok;
}

std::string verifyModuleToString(const HloModule &module) {
  DiagnosticEngine diagnostics(module.source());
  verifyModule(module, diagnostics);
  return diagnostics.rendered();
}

} // namespace hlo
