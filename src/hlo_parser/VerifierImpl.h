//===- VerifierImpl.h - Shared state of the verifier ------------*- C++ -*-===//
//
// Internal to src/hlo_parser: the per-instruction checking context used by
// Verifier.cpp and VerifyGatherScatter.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PARSER_VERIFIERIMPL_H
#define HLO_PARSER_VERIFIERIMPL_H

#include "HloModule.h"
#include "SourceFile.h"

#include <string>
#include <vector>

namespace hlo {

class InstructionChecker {
public:
  InstructionChecker(const HloInstruction &instruction,
                     DiagnosticEngine &diagnostics)
      : inst(instruction), diags(diagnostics) {}

  /// Reports `message` for this instruction; always returns false.
  bool fail(const std::string &message);
  /// Fails unless the result has `expected`'s element type and dimensions.
  bool expectResult(const Shape &expected);
  bool expectOperandCount(int64_t count);
  bool expectArrayOperands();
  const Shape &operandShape(int64_t i) const {
    return inst.operand(i)->shape();
  }

  bool checkGather();
  bool checkScatter();

  const HloInstruction &inst;
  DiagnosticEngine &diags;
};

/// True if all values are distinct.
bool allUnique(const std::vector<int64_t> &values);
bool isSortedAscending(const std::vector<int64_t> &values);
bool contains(const std::vector<int64_t> &values, int64_t value);
/// True if every value is in [0, bound).
bool allInRange(const std::vector<int64_t> &values, int64_t bound);
std::string formatList(const std::vector<int64_t> &values);

} // namespace hlo

#endif // HLO_PARSER_VERIFIERIMPL_H
