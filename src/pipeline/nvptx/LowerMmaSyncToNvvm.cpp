//===- LowerMmaSyncToNvvm.cpp - xla_gpu.mma_sync as nvvm.mma.sync ---------===//
//
// Owns xla-gpu-lower-mma-sync-to-nvvm (NvptxPasses.td).
//
//===----------------------------------------------------------------------===//
#include "dialect/MmaSyncKind.h"
#include "pipeline/nvptx/NvptxPasses.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "llvm/Support/FormatVariadic.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_LOWERMMASYNCTONVVMPASS
#include "pipeline/nvptx/NvptxPasses.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

using xla_gpu::MmaInput;

NVVM::MMATypes ptxTypeOf(MmaInput input) {
  switch (input) {
  case MmaInput::BF16:
    return NVVM::MMATypes::bf16;
  case MmaInput::F16:
    return NVVM::MMATypes::f16;
  case MmaInput::TF32:
    return NVVM::MMATypes::tf32;
  case MmaInput::F64:
    return NVVM::MMATypes::f64;
  case MmaInput::S8:
    return NVVM::MMATypes::s8;
  case MmaInput::F8E4M3FN:
    return NVVM::MMATypes::e4m3;
  case MmaInput::F8E5M2:
    return NVVM::MMATypes::e5m2;
  }
  llvm_unreachable("an mma.sync input type");
}

/// Every element of `vector`, in order.
SmallVector<Value> elementsOf(ImplicitLocOpBuilder &b, Value vector) {
  SmallVector<Value> elements;
  int64_t count = cast<VectorType>(vector.getType()).getNumElements();
  for (int64_t i = 0; i < count; ++i)
    elements.push_back(vector::ExtractOp::create(b, vector, i));
  return elements;
}

/// A lane's fragment of A or B as the registers nvvm.mma.sync takes.
SmallVector<Value> multiplicandRegisters(ImplicitLocOpBuilder &b, Value fragment,
                                         MmaInput input) {
  auto type = cast<VectorType>(fragment.getType());
  if (input == MmaInput::F64)
    return elementsOf(b, fragment);
  if (input == MmaInput::F16) {
    SmallVector<Value> pairs;
    for (int64_t i = 0; i < type.getNumElements(); i += 2)
      pairs.push_back(
          vector::ShuffleOp::create(b, fragment, fragment, ArrayRef<int64_t>{i, i + 1}));
    return pairs;
  }
  // Packed into 32-bit registers, the first value in the low bits.
  int64_t bits = type.getNumElements() * type.getElementTypeBitWidth();
  auto words = VectorType::get({bits / 32}, b.getI32Type());
  return elementsOf(b, vector::BitCastOp::create(b, words, fragment));
}

/// The m16n8k32 mma.sync on 8-bit floats in inline PTX (nvvm.mma.sync in
/// MLIR 22 has no 8-bit float variant): D's four f32 from A's four and B's
/// two packed registers and C's four f32.
Value fp8Mma(ImplicitLocOpBuilder &b, Type resultType, MmaInput input, MmaInput inputB,
             ValueRange a, ValueRange bRegisters, ValueRange c) {
  auto name = [](MmaInput type) { return type == MmaInput::F8E4M3FN ? "e4m3" : "e5m2"; };
  std::string text = llvm::formatv("mma.sync.aligned.m16n8k32.row.col.f32.{0}.{1}.f32 "
                                   "{{$0, $1, $2, $3}, {{$4, $5, $6, $7}, {{$8, $9}, "
                                   "{{$10, $11, $12, $13};",
                                   name(input), name(inputB))
                         .str();
  SmallVector<Value> operands(a.begin(), a.end());
  operands.append(bRegisters.begin(), bRegisters.end());
  operands.append(c.begin(), c.end());
  return LLVM::InlineAsmOp::create(b, resultType, operands, text,
                                   "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f",
                                   /*has_side_effects=*/false, /*is_align_stack=*/false,
                                   LLVM::TailCallKind::None, /*asm_dialect=*/nullptr,
                                   /*operand_attrs=*/nullptr)
      .getResult(0);
}

LogicalResult lower(xla_gpu::MmaSyncOp op, int computeCapability) {
  llvm::Expected<xla_gpu::MmaSyncKind> kind = xla_gpu::mmaSyncKindOf(op);
  if (!kind)
    return op.emitOpError() << llvm::toString(kind.takeError());
  ImplicitLocOpBuilder b(op.getLoc(), op);
  auto accumulatorType = cast<VectorType>(op.getC().getType());
  Type accumulator = accumulatorType.getElementType();
  SmallVector<Type> fields(accumulatorType.getNumElements(), accumulator);
  auto resultType = LLVM::LLVMStructType::getLiteral(b.getContext(), fields);
  std::optional<NVVM::MMAIntOverflow> overflow;
  if (kind->input == MmaInput::S8)
    overflow = NVVM::MMAIntOverflow::wrapped;
  // One statement each: the IR's order must not depend on the C++
  // compiler's order of evaluating arguments.
  SmallVector<Value> a = multiplicandRegisters(b, op.getA(), kind->input);
  SmallVector<Value> bRegisters = multiplicandRegisters(b, op.getB(), kind->input);
  SmallVector<Value> c = elementsOf(b, op.getC());
  Value mma;
  if (kind->input == MmaInput::F8E4M3FN || kind->input == MmaInput::F8E5M2) {
    if (computeCapability < 89)
      return op.emitError() << "mma.sync on 8-bit floats needs sm_89 or later, not sm_"
                            << computeCapability;
    mma = fp8Mma(b, resultType, kind->input, kind->bInput(), a, bRegisters, c);
  } else {
    NVVM::MMATypes ptxType = ptxTypeOf(kind->input);
    mma = NVVM::MmaOp::create(
        b, resultType, a, bRegisters, c, ArrayRef<int64_t>{kind->m, kind->n, kind->k},
        /*b1Op=*/std::nullopt, overflow, std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row, NVVM::MMALayout::col});
  }
  SmallVector<Value> results;
  for (int64_t i = 0; i < accumulatorType.getNumElements(); ++i)
    results.push_back(LLVM::ExtractValueOp::create(b, mma, i));
  op.getD().replaceAllUsesWith(vector::FromElementsOp::create(b, accumulatorType, results));
  op.erase();
  return success();
}

struct LowerMmaSyncToNvvmPass : impl::LowerMmaSyncToNvvmPassBase<LowerMmaSyncToNvvmPass> {
  using LowerMmaSyncToNvvmPassBase::LowerMmaSyncToNvvmPassBase;

  void runOnOperation() override {
    SmallVector<xla_gpu::MmaSyncOp> ops;
    getOperation().walk([&](xla_gpu::MmaSyncOp op) { ops.push_back(op); });
    for (xla_gpu::MmaSyncOp op : ops)
      if (failed(lower(op, computeCapability)))
        return signalPassFailure();
  }
};

} // namespace
} // namespace hlo::pipeline
