//===- Verifier.h - HLO shape rules -----------------------------*- C++ -*-===//
//
// Checks a parsed module against HLO's shape rules: operand counts, result
// shapes of elementwise ops, broadcast, reshape, transpose, slice, pad,
// concatenate, reduce, reduce-window, dot, gather and scatter (constraints
// C1-C25 of the batching-dims RFC), control flow and calls, ... Each
// violation is an error at the instruction's location.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PARSER_VERIFIER_H
#define HLO_PARSER_VERIFIER_H

#include "HloModule.h"
#include "SourceFile.h"

namespace hlo {

/// Returns true if the module is well formed; errors go to `diagnostics`.
bool verifyModule(const HloModule &module, DiagnosticEngine &diagnostics);

/// Convenience for tests: the rendered errors, empty if none.
std::string verifyModuleToString(const HloModule &module);

} // namespace hlo

#endif // HLO_PARSER_VERIFIER_H
