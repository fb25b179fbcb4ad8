//===- HloComputation.h - One HLO computation -------------------*- C++ -*-===//
//
// Owns HloComputation: its instructions in textual order, the root, the
// parameters by number, and its execution thread.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PARSER_HLOCOMPUTATION_H
#define HLO_PARSER_HLOCOMPUTATION_H

#include "HloInstruction.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace hlo {

class HloModule;

class HloComputation {
public:
  explicit HloComputation(std::string name) : nameValue(std::move(name)) {}

  const std::string &name() const { return nameValue; }
  void setName(std::string name) { nameValue = std::move(name); }
  HloModule *parent() const { return parentValue; }
  void setParent(HloModule *module) { parentValue = module; }
  uint32_t sourceOffset() const { return offset; }
  void setSourceOffset(uint32_t value) { offset = value; }
  const std::string &executionThread() const { return thread; }
  void setExecutionThread(std::string value) { thread = std::move(value); }

  /// Appends an instruction (taking ownership) and returns it.
  HloInstruction *addInstruction(std::unique_ptr<HloInstruction> instruction);
  const std::vector<std::unique_ptr<HloInstruction>> &instructions() const {
    return instructionList;
  }
  /// Rewriting (src/hlo_opt): removes the instructions for which `dead`
  /// holds (they must have no users left, and not be the root), and puts
  /// the rest in an order where every operand comes before its users,
  /// keeping the textual order where it already is one.
  void removeInstructionsIf(const std::function<bool(const HloInstruction &)> &dead);
  void sortTopologically();
  int64_t instructionCount() const {
    return static_cast<int64_t>(instructionList.size());
  }

  HloInstruction *root() const { return rootValue; }
  void setRoot(HloInstruction *instruction) { rootValue = instruction; }
  /// Parameters ordered by parameter number (set by finalizeParameters).
  const std::vector<HloInstruction *> &parameters() const { return params; }
  HloInstruction *parameter(int64_t i) const { return params[i]; }
  int64_t parameterCount() const { return static_cast<int64_t>(params.size()); }
  /// Orders the parameters by number; returns false if the numbers are not
  /// exactly 0..n-1.
  bool finalizeParameters();

  /// A computation that is referenced but not defined in the module (an
  /// external declaration, reported with a warning by the parser).
  bool isDeclaration() const { return instructionList.empty(); }

  /// Computation shape: the root's shape.
  const Shape &resultShape() const { return rootValue->shape(); }

private:
  std::string nameValue;
  HloModule *parentValue = nullptr;
  uint32_t offset = kNoOffset;
  std::string thread;
  std::vector<std::unique_ptr<HloInstruction>> instructionList;
  HloInstruction *rootValue = nullptr;
  std::vector<HloInstruction *> params;
};

} // namespace hlo

#endif // HLO_PARSER_HLOCOMPUTATION_H
