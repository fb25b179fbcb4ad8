//===- PrimitiveType.h - HLO element types ----------------------*- C++ -*-===//
//
// Owns the list of HLO element types (pred, sN, uN, the float family incl.
// the f8/f4 formats, complex, token, tuple, opaque), their spellings and
// their bit widths / classification.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PARSER_PRIMITIVETYPE_H
#define HLO_PARSER_PRIMITIVETYPE_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace hlo {

#define HLO_PRIMITIVE_TYPE_LIST(V)                                            \
  V(Pred, "pred", 1)                                                          \
  V(S2, "s2", 2)                                                              \
  V(S4, "s4", 4)                                                              \
  V(S8, "s8", 8)                                                              \
  V(S16, "s16", 16)                                                           \
  V(S32, "s32", 32)                                                           \
  V(S64, "s64", 64)                                                           \
  V(U2, "u2", 2)                                                              \
  V(U4, "u4", 4)                                                              \
  V(U8, "u8", 8)                                                              \
  V(U16, "u16", 16)                                                           \
  V(U32, "u32", 32)                                                           \
  V(U64, "u64", 64)                                                           \
  V(F16, "f16", 16)                                                           \
  V(BF16, "bf16", 16)                                                         \
  V(F32, "f32", 32)                                                           \
  V(F64, "f64", 64)                                                           \
  V(F8E4M3FN, "f8e4m3fn", 8)                                                  \
  V(F8E5M2, "f8e5m2", 8)                                                      \
  V(F8E4M3FNUZ, "f8e4m3fnuz", 8)                                              \
  V(F8E5M2FNUZ, "f8e5m2fnuz", 8)                                              \
  V(F8E4M3B11FNUZ, "f8e4m3b11fnuz", 8)                                        \
  V(F8E3M4, "f8e3m4", 8)                                                      \
  V(F8E4M3, "f8e4m3", 8)                                                      \
  V(F8E8M0FNU, "f8e8m0fnu", 8)                                                \
  V(F4E2M1FN, "f4e2m1fn", 4)                                                  \
  V(C64, "c64", 64)                                                           \
  V(C128, "c128", 128)                                                        \
  V(Token, "token", 0)                                                        \
  V(Opaque, "opaque", 0)                                                      \
  V(Tuple, "tuple", 0)

enum class PrimitiveType : uint8_t {
#define HLO_DECLARE_TYPE(Enum, Name, Bits) Enum,
  HLO_PRIMITIVE_TYPE_LIST(HLO_DECLARE_TYPE)
#undef HLO_DECLARE_TYPE
};

/// The HLO text spelling, e.g. "bf16".
std::string_view primitiveTypeName(PrimitiveType type);
/// Parses a spelling; nullopt if it is not an element type name. "tuple" is
/// not a spelling (tuples are written with parentheses).
std::optional<PrimitiveType> parsePrimitiveTypeName(std::string_view name);

/// Storage bits of one element (pred counts as 8 in memory: see byteWidth).
int primitiveBitWidth(PrimitiveType type);
/// Bytes one element occupies in an unpacked buffer (pred = 1, s4 = 1).
int primitiveByteWidth(PrimitiveType type);
/// Bits of an element that buffers pack several to a byte, as XLA does
/// (`E(2)`, `E(4)`): 2 for s2/u2, 4 for s4/u4/f4e2m1fn; 0 for the types
/// stored in whole bytes.
int packedElementBits(PrimitiveType type);

bool isSignedIntegral(PrimitiveType type);
bool isUnsignedIntegral(PrimitiveType type);
inline bool isIntegral(PrimitiveType type) {
  return isSignedIntegral(type) || isUnsignedIntegral(type);
}
bool isFloatingPoint(PrimitiveType type);
bool isComplex(PrimitiveType type);
/// Array types: everything but token, opaque and tuple.
bool isArrayType(PrimitiveType type);
/// The component type of a complex type (c64 -> f32).
PrimitiveType complexComponentType(PrimitiveType type);

} // namespace hlo

#endif // HLO_PARSER_PRIMITIVETYPE_H
