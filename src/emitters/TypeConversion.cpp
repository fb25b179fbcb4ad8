//===- TypeConversion.cpp - HLO types as MLIR types -----------------------===//
#include "emitters/TypeConversion.h"

using namespace mlir;

namespace hlo {

Type elementType(PrimitiveType type, MLIRContext *context) {
  switch (type) {
  case PrimitiveType::Pred:
    return IntegerType::get(context, 1);
  case PrimitiveType::F16:
    return Float16Type::get(context);
  case PrimitiveType::BF16:
    return BFloat16Type::get(context);
  case PrimitiveType::F32:
    return Float32Type::get(context);
  case PrimitiveType::F64:
    return Float64Type::get(context);
  case PrimitiveType::F8E4M3FN:
    return Float8E4M3FNType::get(context);
  case PrimitiveType::F8E5M2:
    return Float8E5M2Type::get(context);
  case PrimitiveType::F8E4M3FNUZ:
    return Float8E4M3FNUZType::get(context);
  case PrimitiveType::F8E5M2FNUZ:
    return Float8E5M2FNUZType::get(context);
  case PrimitiveType::F8E4M3B11FNUZ:
    return Float8E4M3B11FNUZType::get(context);
  case PrimitiveType::F8E3M4:
    return Float8E3M4Type::get(context);
  case PrimitiveType::F8E4M3:
    return Float8E4M3Type::get(context);
  case PrimitiveType::F8E8M0FNU:
    return Float8E8M0FNUType::get(context);
  case PrimitiveType::F4E2M1FN:
    return Float4E2M1FNType::get(context);
  case PrimitiveType::C64:
    return ComplexType::get(Float32Type::get(context));
  case PrimitiveType::C128:
    return ComplexType::get(Float64Type::get(context));
  default:
    if (isIntegral(type))
      return IntegerType::get(context, primitiveBitWidth(type));
    return {};
  }
}

RankedTensorType tensorType(const Shape &shape, MLIRContext *context) {
  return RankedTensorType::get(shape.dimensions(),
                               elementType(shape.elementType(), context));
}

namespace {

/// Logical dimension numbers, major to minor.
std::vector<int64_t> physicalOrder(const Shape &shape) {
  std::vector<int64_t> minorToMajor = shape.layoutOrDefault().minorToMajor;
  return std::vector<int64_t>(minorToMajor.rbegin(), minorToMajor.rend());
}

} // namespace

RankedTensorType bufferTensorType(const Shape &shape, MLIRContext *context) {
  std::vector<int64_t> dims;
  for (int64_t d : physicalOrder(shape))
    dims.push_back(shape.dimensions()[d]);
  return RankedTensorType::get(dims, elementType(shape.elementType(), context));
}

llvm::SmallVector<Value> bufferIndices(const Shape &shape, ValueRange indices) {
  llvm::SmallVector<Value> physical;
  for (int64_t d : physicalOrder(shape))
    physical.push_back(indices[d]);
  return physical;
}

} // namespace hlo
