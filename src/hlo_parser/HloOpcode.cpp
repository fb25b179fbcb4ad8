//===- HloOpcode.cpp - HLO opcodes ----------------------------------------===//
#include "HloOpcode.h"

#include <string>
#include <unordered_map>

namespace hlo {

std::string_view opcodeName(HloOpcode opcode) {
  switch (opcode) {
#define HLO_OPCODE(Enum, Name, Arity)                                          \
  case HloOpcode::Enum:                                                        \
    return Name;
#include "HloOpcode.def"
  }
  return "<invalid>";
}

std::optional<HloOpcode> parseOpcodeName(std::string_view name) {
  static const std::unordered_map<std::string_view, HloOpcode> table = [] {
    std::unordered_map<std::string_view, HloOpcode> map;
#define HLO_OPCODE(Enum, Name, Arity) map.emplace(Name, HloOpcode::Enum);
#include "HloOpcode.def"
    return map;
  }();
  auto it = table.find(name);
  if (it == table.end())
    return std::nullopt;
  return it->second;
}

std::optional<int> opcodeArity(HloOpcode opcode) {
  switch (opcode) {
#define HLO_OPCODE(Enum, Name, Arity)                                          \
  case HloOpcode::Enum:                                                        \
    return Arity < 0 ? std::nullopt : std::optional<int>(Arity);
#include "HloOpcode.def"
  }
  return std::nullopt;
}

bool isElementwiseOpcode(HloOpcode opcode) {
  switch (opcode) {
  case HloOpcode::Abs:
  case HloOpcode::Acos:
  case HloOpcode::Acosh:
  case HloOpcode::Add:
  case HloOpcode::And:
  case HloOpcode::Asin:
  case HloOpcode::Asinh:
  case HloOpcode::Atan:
  case HloOpcode::Atan2:
  case HloOpcode::Atanh:
  case HloOpcode::BitcastConvert:
  case HloOpcode::Cbrt:
  case HloOpcode::Ceil:
  case HloOpcode::Clamp:
  case HloOpcode::Clz:
  case HloOpcode::Compare:
  case HloOpcode::Complex:
  case HloOpcode::Convert:
  case HloOpcode::Cos:
  case HloOpcode::Cosh:
  case HloOpcode::Divide:
  case HloOpcode::Erf:
  case HloOpcode::Exp:
  case HloOpcode::Expm1:
  case HloOpcode::Floor:
  case HloOpcode::Imag:
  case HloOpcode::IsFinite:
  case HloOpcode::Log:
  case HloOpcode::Log1p:
  case HloOpcode::Logistic:
  case HloOpcode::Maximum:
  case HloOpcode::Minimum:
  case HloOpcode::Mulhi:
  case HloOpcode::Multiply:
  case HloOpcode::Negate:
  case HloOpcode::Not:
  case HloOpcode::Or:
  case HloOpcode::PopulationCount:
  case HloOpcode::Power:
  case HloOpcode::Real:
  case HloOpcode::ReducePrecision:
  case HloOpcode::Remainder:
  case HloOpcode::RoundNearestAfz:
  case HloOpcode::RoundNearestEven:
  case HloOpcode::Rsqrt:
  case HloOpcode::Select:
  case HloOpcode::ShiftLeft:
  case HloOpcode::ShiftRightArithmetic:
  case HloOpcode::ShiftRightLogical:
  case HloOpcode::Sign:
  case HloOpcode::Sin:
  case HloOpcode::Sinh:
  case HloOpcode::Sqrt:
  case HloOpcode::StochasticConvert:
  case HloOpcode::Subtract:
  case HloOpcode::Tan:
  case HloOpcode::Tanh:
  case HloOpcode::Xor:
    return true;
  default:
    return false;
  }
}

} // namespace hlo
