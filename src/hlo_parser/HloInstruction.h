//===- HloInstruction.h - One HLO instruction -------------------*- C++ -*-===//
//
// Owns HloInstruction: opcode, name, result shape, operands (and the reverse
// user lists), attributes, the literal of a constant, the parameter number
// of a parameter, control predecessors, and where it was written.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PARSER_HLOINSTRUCTION_H
#define HLO_PARSER_HLOINSTRUCTION_H

#include "HloAttributes.h"
#include "HloOpcode.h"
#include "Literal.h"
#include "Shape.h"
#include "SourceFile.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hlo {

class HloComputation;

class HloInstruction {
public:
  HloInstruction(HloOpcode opcode, std::string name, Shape shape)
      : opcodeValue(opcode), nameValue(std::move(name)),
        shapeValue(std::move(shape)) {}

  HloOpcode opcode() const { return opcodeValue; }
  const std::string &name() const { return nameValue; }
  void setName(std::string name) { nameValue = std::move(name); }
  const Shape &shape() const { return shapeValue; }
  Shape &mutableShape() { return shapeValue; }
  HloComputation *parent() const { return parentValue; }
  void setParent(HloComputation *computation) { parentValue = computation; }
  /// Byte offset of the instruction's name in its source (kNoOffset if the
  /// instruction was not parsed).
  uint32_t sourceOffset() const { return offset; }
  void setSourceOffset(uint32_t value) { offset = value; }

  // Operands and users.
  const std::vector<HloInstruction *> &operands() const { return operandList; }
  HloInstruction *operand(int64_t i) const { return operandList[i]; }
  int64_t operandCount() const {
    return static_cast<int64_t>(operandList.size());
  }
  /// Appends an operand and records this instruction as its user. All
  /// operands of an instruction must be appended before another
  /// instruction appends any.
  void appendOperand(HloInstruction *operand);
  void reserveOperands(size_t count) { operandList.reserve(count); }
  const std::vector<HloInstruction *> &users() const { return userList; }
  /// Rewriting (src/hlo_opt): operand `i` becomes `operand`, the user lists
  /// of the old and the new operand follow.
  void replaceOperand(int64_t i, HloInstruction *operand);
  /// Every use of this instruction (as an operand, and as its computation's
  /// root) becomes a use of `other`.
  void replaceAllUsesWith(HloInstruction *other);
  /// Drops every operand (an instruction about to be removed).
  void dropOperands();

  // Opcode-specific data.
  int64_t parameterNumber() const { return parameterIndex; }
  void setParameterNumber(int64_t number) { parameterIndex = number; }
  const Literal &literal() const { return *literalValue; }
  bool hasLiteral() const { return literalValue != nullptr; }
  void setLiteral(Literal literal) {
    literalValue = std::make_unique<Literal>(std::move(literal));
  }
  /// For the async syntax sugar `call-start`, `custom-call-done`, ...: the
  /// wrapped opcode (this instruction's opcode is then async-start/-update/
  /// -done).
  std::optional<HloOpcode> asyncWrappedOpcode() const { return wrappedOpcode; }
  void setAsyncWrappedOpcode(HloOpcode opcode) { wrappedOpcode = opcode; }

  // Attributes.
  const std::vector<HloAttribute> &attributes() const { return attributeList; }
  std::vector<HloAttribute> &mutableAttributes() { return attributeList; }
  void addAttribute(HloAttribute attribute) {
    if (attributeList.empty())
      attributeList.reserve(2);
    attributeList.push_back(std::move(attribute));
  }
  const AttrValue *findAttribute(std::string_view name) const;
  const HloAttribute *findAttributeEntry(std::string_view name) const;
  /// Typed accessors; a missing attribute gives the fallback (or empty).
  int64_t intAttr(std::string_view name, int64_t fallback = 0) const;
  bool boolAttr(std::string_view name, bool fallback = false) const;
  const std::vector<int64_t> &intListAttr(std::string_view name) const;
  std::string_view textAttr(std::string_view name) const;
  HloComputation *computationAttr(std::string_view name) const;
  /// `dimensions={...}`.
  const std::vector<int64_t> &dimensions() const {
    return intListAttr("dimensions");
  }
  /// Every computation this instruction calls, in attribute order.
  std::vector<HloComputation *> calledComputations() const;
  /// The computation a fusion calls (null for other opcodes).
  HloComputation *fusedComputation() const;
  const std::vector<HloInstruction *> &controlPredecessors() const;

  bool isRoot() const;

private:
  friend class HloComputation;
  HloOpcode opcodeValue;
  std::string nameValue;
  Shape shapeValue;
  HloComputation *parentValue = nullptr;
  uint32_t offset = kNoOffset;
  std::vector<HloInstruction *> operandList;
  std::vector<HloInstruction *> userList;
  int64_t parameterIndex = -1;
  std::unique_ptr<Literal> literalValue;
  std::optional<HloOpcode> wrappedOpcode;
  std::vector<HloAttribute> attributeList;
};

} // namespace hlo

#endif // HLO_PARSER_HLOINSTRUCTION_H
