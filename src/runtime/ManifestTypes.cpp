//===- ManifestTypes.cpp - The manifest's schema in hlo-run ---------------===//
#include "ManifestTypes.h"

#include "hlo_parser/PrimitiveType.h"

namespace hlo::runtime {

Shape shapeOf(const abi::ArrayShape &shape) {
  // The manifest reader checked the name against the same list of types.
  Shape result(*parsePrimitiveTypeName(shape.elementType), shape.dimensions);
  Layout layout;
  layout.minorToMajor = shape.minorToMajor;
  result.setLayout(layout);
  return result;
}

} // namespace hlo::runtime
