//===- Commands.h - hlo-run's two commands ---------------------*- C++ -*-===//
//
// `--interpret` (the reference interpreter alone) and the kernel check (on
// a GPU, or on this CPU for host-compiled kernels); both take the parsed,
// verified module and return the process exit code.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_COMMANDS_H
#define HLO_RUNTIME_COMMANDS_H

#include "Comparison.h"
#include "ReductionTolerance.h"
#include "ManifestTypes.h"
#include "RunOptions.h"

#include "hlo_parser/HloModule.h"
#include "hlo_parser/Literal.h"

#include <map>

namespace hlo::runtime {

/// `value` with `precision` significant digits ("%g").
std::string formatNumber(double value, int precision = 4);

/// The default tolerance of `type`, with --atol/--rtol applied.
Tolerance toleranceFor(const RunOptions &options, PrimitiveType type);

/// Compares `actual` with `expected` and prints one line ("  LABEL SHAPE:
/// max abs error ..., PASS") and, on failure, the first mismatch. A value
/// that went through float reductions (`depth`) gets the tolerance of
/// ReductionTolerance.h unless --atol/--rtol were given, its growth
/// scaled by each element's `magnitudes` (ElementMagnitudes.h; null: its
/// own |expected|).
ComparisonResult reportComparison(const std::string &label, const Literal &expected,
                                  const Literal &actual, const RunOptions &options,
                                  const ReductionDepth &depth = ReductionDepth(),
                                  const Literal *magnitudes = nullptr);

/// Reads the --input files for the entry's parameters; prints errors.
bool readInputFiles(const RunOptions &options, const HloModule &module,
                    std::map<int64_t, Literal> &inputs);

/// mkdir -p; prints an error on failure. An empty path is fine.
bool createDirectories(const std::string &path);

int runInterpreter(const RunOptions &options, const HloModule &module);
/// Runs `manifest`'s kernels (read from options.manifestPath) on `module`
/// and checks them against the interpreter (on `reference`, if given).
int runKernelCheck(const RunOptions &options, const LaunchManifest &manifest,
                   const HloModule &module, const HloModule *reference = nullptr);

} // namespace hlo::runtime

#endif // HLO_RUNTIME_COMMANDS_H
