//===- VerifierImpl.h - Shared state of the verifier ------------*- C++ -*-===//
//
// Internal to src/hlo_parser: the per-instruction checking context shared by
// the verifier's files. Verifier.cpp holds the driver and the dispatch
// (check); each Verify*.cpp file defines the check* rules of one op family.
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

  /// Checks the instruction against the shape rules of its opcode.
  bool check();

  // Verifier.cpp.
  bool checkShapeSize();
  // VerifyElementwise.cpp.
  bool checkElementwise();
  bool checkReducePrecision();
  bool checkMap();
  // VerifyDataMovement.cpp.
  bool checkBroadcast();
  bool checkReshape();
  bool checkTranspose();
  bool checkSlice();
  bool checkDynamicSlice();
  bool checkDynamicUpdateSlice();
  bool checkPad();
  bool checkConcatenate();
  bool checkReverse();
  bool checkBitcast();
  bool checkIota();
  // VerifyReduceAndDot.cpp.
  bool checkReduce();
  bool checkReduceWindow();
  bool checkDot();
  bool checkConvolution();
  // VerifyCallsAndTuples.cpp.
  bool checkGetTupleElement();
  bool checkTuple();
  bool checkCallLike(const HloComputation *computation);
  bool checkWhile();
  bool checkConditional();
  bool checkSort();
  // VerifyGatherScatter.cpp.
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

/// A computation whose body is known (not an external declaration).
bool isDefined(const HloComputation *computation);
/// True if some dimension is unbounded (`?`): sizes cannot be computed.
bool hasUnbounded(const Shape &shape);
/// Narrows a wide intermediate size; false if it does not fit in int64.
bool fitsInt64(__int128 value);
/// Same dimensions, ignoring unbounded ones.
bool sameDims(const std::vector<int64_t> &a, const std::vector<int64_t> &b);
bool sameDims(const Shape &a, const Shape &b);

} // namespace hlo

#endif // HLO_PARSER_VERIFIERIMPL_H
