//===- AtomicUpdates.cpp - Atomic read-modify-writes as code --------------===//
#include "pipeline/AtomicUpdates.h"

#include "dialect/XlaGpuDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace hlo::pipeline {

FailureOr<Value> emitCompareAndSwapLoop(OpBuilder &b, Location loc, Value memref,
                                        ValueRange indices, const AtomicCombiner &combine) {
  auto type = cast<MemRefType>(memref.getType());
  Type element = type.getElementType();
  if (type.getMemorySpace())
    return emitError(loc, "a compare-and-swap update of ")
           << element << " in memory space " << type.getMemorySpace() << " is not supported";
  auto complexType = dyn_cast<ComplexType>(element);
  if (complexType && !complexType.getElementType().isF32())
    return emitError(loc, "an atomic update of ")
           << element << " other than an addition is not supported";
  if (!complexType && !element.isIntOrFloat())
    return emitError(loc, "an atomic update of ") << element << " is not supported";
  bool subByte = !complexType && element.getIntOrFloatBitWidth() < 8;
  if (subByte && !element.isInteger()) // f4: through its bits
    return emitError(loc, "an atomic update of ") << element << " is not supported";
  Type word = complexType ? b.getI64Type()
              : subByte   ? b.getI8Type()
                          : b.getIntegerType(element.getIntOrFloatBitWidth());
  auto toWord = [&](OpBuilder &b, Location loc, Value value) -> Value {
    if (complexType) {
      auto bits = [&](Value part) {
        Value i32 = arith::BitcastOp::create(b, loc, b.getI32Type(), part);
        return arith::ExtUIOp::create(b, loc, word, i32).getResult();
      };
      Value re = bits(complex::ReOp::create(b, loc, value));
      Value im = bits(complex::ImOp::create(b, loc, value));
      Value high =
          arith::ShLIOp::create(b, loc, im, arith::ConstantIntOp::create(b, loc, word, 32));
      return arith::OrIOp::create(b, loc, high, re);
    }
    return subByte ? Value(arith::ExtUIOp::create(b, loc, word, value))
                   : Value(arith::BitcastOp::create(b, loc, word, value));
  };
  auto fromWord = [&](OpBuilder &b, Location loc, Value value) -> Value {
    if (complexType) {
      auto part = [&](Value bits) {
        Value i32 = arith::TruncIOp::create(b, loc, b.getI32Type(), bits);
        return arith::BitcastOp::create(b, loc, b.getF32Type(), i32).getResult();
      };
      Value high =
          arith::ShRUIOp::create(b, loc, value, arith::ConstantIntOp::create(b, loc, word, 32));
      return complex::CreateOp::create(b, loc, complexType, part(value), part(high));
    }
    return subByte ? Value(arith::TruncIOp::create(b, loc, element, value))
                   : Value(arith::BitcastOp::create(b, loc, element, value));
  };
  // The first guess is the element as a plain load reads it (the access
  // the host target bounds-checks); a failed exchange returns the word as
  // it is and the loop retries with it.
  Value pointer = xla_gpu::ElementPointerOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), memref, indices);
  Value first = memref::LoadOp::create(b, loc, memref, indices);
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{word, element}, ValueRange{toWord(b, loc, first)},
      [&](OpBuilder &b, Location loc, ValueRange arguments) {
        Value expected = arguments[0];
        Value updated = combine(b, loc, fromWord(b, loc, expected));
        auto exchange = LLVM::AtomicCmpXchgOp::create(
            b, loc, pointer, expected, toWord(b, loc, updated), LLVM::AtomicOrdering::acq_rel,
            LLVM::AtomicOrdering::monotonic);
        Value seen = LLVM::ExtractValueOp::create(b, loc, exchange, 0);
        Value stored = LLVM::ExtractValueOp::create(b, loc, exchange, 1);
        Value retry =
            arith::XOrIOp::create(b, loc, stored, arith::ConstantIntOp::create(b, loc, 1, 1));
        scf::ConditionOp::create(b, loc, retry, ValueRange{seen, updated});
      },
      [&](OpBuilder &b, Location loc, ValueRange arguments) {
        scf::YieldOp::create(b, loc, arguments[0]);
      });
  return loop.getResult(1);
}

void emitComplexAtomicAdd(OpBuilder &b, Location loc, Value memref, ValueRange indices,
                          Value addend) {
  auto complexType = cast<ComplexType>(addend.getType());
  auto pointerType = LLVM::LLVMPointerType::get(b.getContext());
  Value pointer = xla_gpu::ElementPointerOp::create(b, loc, pointerType, memref, indices);
  Value imagPointer = LLVM::GEPOp::create(b, loc, pointerType, complexType.getElementType(),
                                          pointer, ArrayRef<LLVM::GEPArg>{1});
  LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::fadd, pointer,
                            complex::ReOp::create(b, loc, addend),
                            LLVM::AtomicOrdering::monotonic);
  LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::fadd, imagPointer,
                            complex::ImOp::create(b, loc, addend),
                            LLVM::AtomicOrdering::monotonic);
}

} // namespace hlo::pipeline
