//===- ComputationFingerprint.h - Computations equal up to names -*- C++ -*-===//
//
// A structural fingerprint of an HLO computation: its instructions in
// order with opcodes, shapes (layouts included), operands by position,
// literals and attributes, and the computations it calls fingerprinted the
// same way, but no names and no metadata. Two computations with the same
// fingerprint compute the same function, so a kernel emitted for one serves
// the other: XLA's after-optimizations modules hold many fused computations
// that differ only in their names (a transformer's layers, a solver's
// unrolled steps), and XLA itself compiles each such group once.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ANALYSIS_COMPUTATIONFINGERPRINT_H
#define HLO_ANALYSIS_COMPUTATIONFINGERPRINT_H

#include "hlo_parser/HloModule.h"

#include <map>
#include <string>

namespace hlo {

class ComputationFingerprinter {
public:
  /// The fingerprint of `computation` (cached, with those of the
  /// computations it calls).
  const std::string &fingerprint(const HloComputation &computation);

private:
  std::map<const HloComputation *, std::string> cache;
};

} // namespace hlo

#endif // HLO_ANALYSIS_COMPUTATIONFINGERPRINT_H
