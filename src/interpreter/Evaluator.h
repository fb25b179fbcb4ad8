//===- Evaluator.h - The reference interpreter -----------------*- C++ -*-===//
//
// Evaluates HLO computations on the CPU with HLO semantics: the reference
// that compiled kernels are checked against (XLA's HloEvaluator plays this
// part in run_hlo_module). Straightforward over fast: every op materializes
// its result; values are freed once their last user has run.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_INTERPRETER_EVALUATOR_H
#define HLO_INTERPRETER_EVALUATOR_H

#include "ArrayUtils.h"

#include "hlo_parser/HloModule.h"

#include <functional>
#include <unordered_map>

namespace hlo::interp {

class Evaluator {
public:
  explicit Evaluator(const HloModule &module) : module(module) {}

  /// The entry computation on `arguments` (one per entry parameter).
  ValuePtr run(const std::vector<ValuePtr> &arguments);
  /// Any computation of the module.
  ValuePtr evaluate(const HloComputation &computation,
                    const std::vector<ValuePtr> &arguments);
  /// One instruction, given its operands' values.
  ValuePtr evaluateInstruction(const HloInstruction &instruction,
                               const std::vector<ValuePtr> &operands);

  /// A while loop running more iterations than this is reported as an
  /// error rather than left to hang.
  void setMaxWhileIterations(int64_t limit) { maxWhileIterations = limit; }

  /// Arrays of more elements than this are reported rather than allocated
  /// (each element takes 8 bytes, 16 for complex, in the interpreter).
  void setMaxElements(int64_t limit) { maxElements = limit; }
  /// Throws InterpreterError (at `instruction`) if `shape` has an array
  /// larger than the limit.
  void checkSize(const HloInstruction &instruction, const Shape &shape) const;

  const HloModule &hloModule() const { return module; }

  /// Called after each instruction of any computation is evaluated, with
  /// its operands' values and its own (hlo-run's replay mode checks each
  /// kernel on the values the module gives it).
  using Observer = std::function<void(const HloInstruction &instruction,
                                      const std::vector<ValuePtr> &operands,
                                      const ValuePtr &value)>;
  void setObserver(Observer callback) { observer = std::move(callback); }

private:
  Observer observer;
  const HloModule &module;
  int64_t maxWhileIterations = 10'000'000;
  int64_t maxElements = int64_t(1) << 26;
};

/// The order Evaluator::evaluate runs `computation`'s instructions in (post
/// order from the root, only what the root reaches), and how many users
/// each has (the root one more, its caller): a value can be freed when its
/// count reaches 0.
struct EvaluationOrder {
  std::vector<const HloInstruction *> instructions;
  std::unordered_map<const HloInstruction *, int64_t> uses;
};
EvaluationOrder evaluationOrder(const HloComputation &computation);

/// `error` as `file:line:col: error: ...` pointing at its instruction.
std::string formatInterpreterError(const HloModule &module,
                                   const InterpreterError &error);

} // namespace hlo::interp

#endif // HLO_INTERPRETER_EVALUATOR_H
