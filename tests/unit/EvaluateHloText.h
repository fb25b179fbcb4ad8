//===- EvaluateHloText.h - The interpreter's tests run a module's text -*- C++ -*-===//
//
// Shared by the interpreter's unit tests: parse a module's text and
// evaluate its entry on given arguments with the reference interpreter.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_TESTS_UNIT_EVALUATEHLOTEXT_H
#define HLO_TESTS_UNIT_EVALUATEHLOTEXT_H

#include "interpreter/Evaluator.h"

#include "hlo_parser/Parser.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace hlo::interp::testing {

/// Evaluates the entry of `text` (a module whose entry takes `arguments`);
/// a parse error fails the test and gives an empty literal.
inline Literal evaluate(const std::string &text, std::vector<Literal> arguments = {}) {
  auto [module, errors] = parseHloModuleText(text);
  EXPECT_NE(module, nullptr) << errors;
  if (!module)
    return Literal();
  Evaluator evaluator(*module);
  std::vector<ValuePtr> values;
  for (Literal &argument : arguments)
    values.push_back(std::make_shared<const Literal>(std::move(argument)));
  return *evaluator.run(values);
}

} // namespace hlo::interp::testing

#endif // HLO_TESTS_UNIT_EVALUATEHLOTEXT_H
