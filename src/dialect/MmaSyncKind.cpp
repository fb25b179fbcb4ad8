//===- MmaSyncKind.cpp - The tiles and types of xla_gpu.mma_sync ----------===//
#include "dialect/MmaSyncKind.h"

#include "dialect/XlaGpuDialect.h"

#include "abi/MmaFragmentLayout.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace hlo::xla_gpu {
namespace {

/// The input type of an mma.sync from its A element type, or none.
std::optional<MmaInput> inputOf(Type element, bool tf32) {
  if (tf32)
    return element.isF32() ? std::optional(MmaInput::TF32) : std::nullopt;
  if (element.isBF16())
    return MmaInput::BF16;
  if (element.isF16())
    return MmaInput::F16;
  if (element.isF64())
    return MmaInput::F64;
  if (element.isInteger(8))
    return MmaInput::S8;
  if (isa<Float8E4M3FNType>(element))
    return MmaInput::F8E4M3FN;
  if (isa<Float8E5M2Type>(element))
    return MmaInput::F8E5M2;
  return std::nullopt;
}

/// The tile {m, n, k} each input type runs in, and its accumulator.
struct Row {
  MmaInput input;
  int64_t m, n, k;
  bool accumulatorIsF64, accumulatorIsI32;
};
constexpr Row kRows[] = {
    {MmaInput::BF16, 16, 8, 16, false, false},    {MmaInput::F16, 16, 8, 16, false, false},
    {MmaInput::TF32, 16, 8, 8, false, false},     {MmaInput::F64, 8, 8, 4, true, false},
    {MmaInput::S8, 16, 8, 32, false, true},       {MmaInput::F8E4M3FN, 16, 8, 32, false, false},
    {MmaInput::F8E5M2, 16, 8, 32, false, false},
};

llvm::Error fail(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

} // namespace

int64_t mmaInputBits(MmaInput input) {
  switch (input) {
  case MmaInput::BF16:
  case MmaInput::F16:
    return 16;
  case MmaInput::TF32:
    return 32;
  case MmaInput::F64:
    return 64;
  default:
    return 8;
  }
}

MmaFragmentOffset mmaFragmentOffset(const MmaSyncKind &kind, MmaOperand operand,
                                    int64_t value) {
  bool accumulator = operand == MmaOperand::C;
  int64_t rows = operand == MmaOperand::B ? kind.n : kind.m;
  return abi::mmaFragmentOffset(rows, accumulator ? 32 : mmaInputBits(kind.input), accumulator,
                                value);
}

llvm::Expected<MmaSyncKind> mmaSyncKindOf(MmaSyncOp op) {
  auto a = cast<VectorType>(op.getA().getType()), b = cast<VectorType>(op.getB().getType()),
       c = cast<VectorType>(op.getC().getType()), d = cast<VectorType>(op.getD().getType());
  auto isFp8 = [](Type type) { return isa<Float8E4M3FNType, Float8E5M2Type>(type); };
  bool mixedFp8 = a.getElementType() != b.getElementType() && isFp8(a.getElementType()) &&
                  isFp8(b.getElementType());
  if (a.getElementType() != b.getElementType() && !mixedFp8)
    return fail("A and B hold different element types (other than e4m3 and e5m2)");
  if (c != d)
    return fail("C and D differ in type");
  std::optional<MmaInput> input = inputOf(a.getElementType(), op.getTf32());
  if (!input)
    return fail(op.getTf32() ? "`tf32` multiplies f32 inputs"
                             : "no mma.sync multiplies these element types");
  const Row *row = llvm::find_if(kRows, [&](const Row &r) { return r.input == *input; });
  ArrayRef<int64_t> shape = op.getShape();
  if (shape.size() != 3 || shape[0] != row->m || shape[1] != row->n || shape[2] != row->k)
    return fail(llvm::formatv("these inputs multiply in tiles of shape [{0}, {1}, {2}]",
                              row->m, row->n, row->k));
  Type accumulator = c.getElementType();
  bool accumulatorOk = row->accumulatorIsF64   ? accumulator.isF64()
                       : row->accumulatorIsI32 ? accumulator.isInteger(32)
                                               : accumulator.isF32();
  if (!accumulatorOk)
    return fail(llvm::formatv("these inputs accumulate in {0}",
                              row->accumulatorIsF64   ? "f64"
                              : row->accumulatorIsI32 ? "i32"
                                                      : "f32"));
  MmaSyncKind kind{row->m, row->n, row->k, *input};
  if (mixedFp8)
    kind.inputB = inputOf(b.getElementType(), false);
  if (a.getRank() != 1 || a.getNumElements() != kind.aValues() || b.getRank() != 1 ||
      b.getNumElements() != kind.bValues() || c.getRank() != 1 ||
      c.getNumElements() != kind.cValues())
    return fail(llvm::formatv("a lane holds {0}, {1} and {2} values of A, B and C",
                              kind.aValues(), kind.bValues(), kind.cValues()));
  return kind;
}

LogicalResult MmaSyncOp::verify() {
  llvm::Expected<MmaSyncKind> kind = mmaSyncKindOf(*this);
  if (!kind)
    return emitOpError() << llvm::toString(kind.takeError());
  return success();
}

} // namespace hlo::xla_gpu
