//===- PrimitiveType.cpp - HLO element types ------------------------------===//
#include "PrimitiveType.h"

namespace hlo {

std::string_view primitiveTypeName(PrimitiveType type) {
  switch (type) {
#define HLO_TYPE_NAME(Enum, Name, Bits)                                        \
  case PrimitiveType::Enum:                                                    \
    return Name;
    HLO_PRIMITIVE_TYPE_LIST(HLO_TYPE_NAME)
#undef HLO_TYPE_NAME
  }
  return "<invalid>";
}

std::optional<PrimitiveType> parsePrimitiveTypeName(std::string_view name) {
#define HLO_TYPE_PARSE(Enum, Name, Bits)                                       \
  if (name == Name && PrimitiveType::Enum != PrimitiveType::Tuple)             \
    return PrimitiveType::Enum;
  HLO_PRIMITIVE_TYPE_LIST(HLO_TYPE_PARSE)
#undef HLO_TYPE_PARSE
  return std::nullopt;
}

int primitiveBitWidth(PrimitiveType type) {
  switch (type) {
#define HLO_TYPE_BITS(Enum, Name, Bits)                                        \
  case PrimitiveType::Enum:                                                    \
    return Bits;
    HLO_PRIMITIVE_TYPE_LIST(HLO_TYPE_BITS)
#undef HLO_TYPE_BITS
  }
  return 0;
}

int primitiveByteWidth(PrimitiveType type) {
  int bits = primitiveBitWidth(type);
  return bits == 0 ? 0 : (bits + 7) / 8;
}

int packedElementBits(PrimitiveType type) {
  int bits = primitiveBitWidth(type);
  return type != PrimitiveType::Pred && (bits == 2 || bits == 4) ? bits : 0;
}

bool isSignedIntegral(PrimitiveType type) {
  switch (type) {
  case PrimitiveType::S2:
  case PrimitiveType::S4:
  case PrimitiveType::S8:
  case PrimitiveType::S16:
  case PrimitiveType::S32:
  case PrimitiveType::S64:
    return true;
  default:
    return false;
  }
}

bool isUnsignedIntegral(PrimitiveType type) {
  switch (type) {
  case PrimitiveType::U2:
  case PrimitiveType::U4:
  case PrimitiveType::U8:
  case PrimitiveType::U16:
  case PrimitiveType::U32:
  case PrimitiveType::U64:
    return true;
  default:
    return false;
  }
}

bool isFloatingPoint(PrimitiveType type) {
  switch (type) {
  case PrimitiveType::F16:
  case PrimitiveType::BF16:
  case PrimitiveType::F32:
  case PrimitiveType::F64:
  case PrimitiveType::F8E4M3FN:
  case PrimitiveType::F8E5M2:
  case PrimitiveType::F8E4M3FNUZ:
  case PrimitiveType::F8E5M2FNUZ:
  case PrimitiveType::F8E4M3B11FNUZ:
  case PrimitiveType::F8E3M4:
  case PrimitiveType::F8E4M3:
  case PrimitiveType::F8E8M0FNU:
  case PrimitiveType::F4E2M1FN:
    return true;
  default:
    return false;
  }
}

bool isComplex(PrimitiveType type) {
  return type == PrimitiveType::C64 || type == PrimitiveType::C128;
}

bool isArrayType(PrimitiveType type) {
  return type != PrimitiveType::Token && type != PrimitiveType::Opaque &&
         type != PrimitiveType::Tuple;
}

PrimitiveType complexComponentType(PrimitiveType type) {
  return type == PrimitiveType::C128 ? PrimitiveType::F64 : PrimitiveType::F32;
}

} // namespace hlo
