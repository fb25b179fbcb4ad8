//===- TensorMapLayout.cpp - A TMA tensor map of a kernel's buffer ---------===//
//
// The rules are cuTensorMapEncodeTiled's (CUDA driver API reference,
// "Tensor Map Object Management"), for the non-interleaved maps the
// manifest describes.
//
//===----------------------------------------------------------------------===//
#include "TensorMapLayout.h"
#include "ManifestTypes.h"

namespace hlo::runtime {
namespace {

std::optional<TensorMapElement> elementOf(PrimitiveType type) {
  // Packed sub-byte and complex elements have no tensor-map type.
  if (packedElementBits(type) != 0 || isComplex(type) || !isArrayType(type))
    return std::nullopt;
  switch (type) {
  case PrimitiveType::S16:
  case PrimitiveType::U16:
    return TensorMapElement::U16;
  case PrimitiveType::S32:
    return TensorMapElement::S32;
  case PrimitiveType::U32:
    return TensorMapElement::U32;
  case PrimitiveType::S64:
    return TensorMapElement::S64;
  case PrimitiveType::U64:
    return TensorMapElement::U64;
  case PrimitiveType::F16:
    return TensorMapElement::F16;
  case PrimitiveType::BF16:
    return TensorMapElement::BF16;
  case PrimitiveType::F32:
    return TensorMapElement::F32;
  case PrimitiveType::F64:
    return TensorMapElement::F64;
  default: // pred, s8, u8 and the 8-bit floats: bytes
    if (primitiveByteWidth(type) == 1)
      return TensorMapElement::U8;
    return std::nullopt;
  }
}

} // namespace

ErrorOr<TensorMapLayout> tensorMapLayout(const abi::KernelParameter &parameter) {
  const abi::TensorMapSpec &spec = *parameter.tensorMap;
  const Shape shape = shapeOf(parameter.shape);
  TensorMapLayout layout;
  std::optional<TensorMapElement> element = elementOf(shape.elementType());
  if (!element)
    return makeError("a tensor map cannot hold " +
                     std::string(primitiveTypeName(shape.elementType())) + " elements");
  layout.element = *element;
  layout.elementBytes = primitiveByteWidth(shape.elementType());
  const std::vector<int64_t> &minorToMajor = shape.layoutOrDefault().minorToMajor;
  layout.rank = static_cast<int>(minorToMajor.size());
  if (layout.rank < 1 || layout.rank > 5)
    return makeError("a tensor map has 1 to 5 dimensions, not " + std::to_string(layout.rank));
  uint64_t stride = static_cast<uint64_t>(layout.elementBytes);
  for (int i = 0; i < layout.rank; ++i) {
    int64_t dim = shape.dimensions()[minorToMajor[i]];
    if (dim < 1 || dim > (int64_t(1) << 32))
      return makeError("a tensor map's dimension " + std::to_string(i) + " of " +
                       std::to_string(dim) + " is not in [1, 2^32]");
    layout.dims[i] = static_cast<uint64_t>(dim);
    layout.box[i] = static_cast<uint32_t>(spec.box[i]);
    if (i > 0) {
      if (stride % 16 != 0 || stride >= (uint64_t(1) << 40))
        return makeError("a tensor map's stride of dimension " + std::to_string(i) + " (" +
                         std::to_string(stride) +
                         " bytes) is not a multiple of 16 below 2^40");
      layout.strides[i - 1] = stride;
    }
    stride *= static_cast<uint64_t>(dim);
  }
  int64_t innerBoxBytes = spec.box[0] * layout.elementBytes;
  if (innerBoxBytes % 16 != 0)
    return makeError("a tensor map's innermost box extent (" + std::to_string(innerBoxBytes) +
                     " bytes) is not a multiple of 16 bytes");
  if (spec.swizzleBytes != 0 && innerBoxBytes > spec.swizzleBytes)
    return makeError("a tensor map's innermost box extent (" + std::to_string(innerBoxBytes) +
                     " bytes) exceeds its " + std::to_string(spec.swizzleBytes) +
                     "-byte swizzle");
  layout.swizzleBytes = static_cast<int>(spec.swizzleBytes);
  return layout;
}

} // namespace hlo::runtime
