//===- HloOpcode.h - HLO opcodes --------------------------------*- C++ -*-===//
//
// Owns the HloOpcode enum (every opcode of XLA's list, see HloOpcode.def),
// spellings, arities and the opcode classes later stages ask about
// (elementwise unary/binary, comparisons, ...).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PARSER_HLOOPCODE_H
#define HLO_PARSER_HLOOPCODE_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace hlo {

enum class HloOpcode : uint8_t {
#define HLO_OPCODE(Enum, Name, Arity) Enum,
#include "HloOpcode.def"
};

std::string_view opcodeName(HloOpcode opcode);
std::optional<HloOpcode> parseOpcodeName(std::string_view name);
/// Fixed operand count, or nullopt for variadic opcodes.
std::optional<int> opcodeArity(HloOpcode opcode);

/// Elementwise ops whose result element (i) depends only on operand
/// elements (i): unary and binary arithmetic, compare, select, clamp,
/// convert, bitcast-convert of equal widths, ...
bool isElementwiseOpcode(HloOpcode opcode);

} // namespace hlo

#endif // HLO_PARSER_HLOOPCODE_H
