//===- BatchCompile.h - Many inputs in one hlo-compile run -------*- C++ -*-===//
//
// Owns batch mode (`hlo-compile a.hlo b.hlo ... --output-dir DIR -j N`):
// each input compiled as a run of its own would compile it
// (CompileInput.h, same bytes out) to DIR/<name>.<ext> with its manifest
// DIR/<name>.<ext>.json (<name>: the file name less its extension, or the module
// name of a file XLA dumped, XlaDumpInputs.h), N inputs at a time on threads of this process. Each
// input's diagnostics and one summary line are printed in input order once
// it is done; on a terminal a progress line shows how many are done. The
// exit code is 1 if any input failed.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DRIVER_BATCHCOMPILE_H
#define HLO_DRIVER_BATCHCOMPILE_H

#include "Options.h"

#include <ostream>
#include <string>
#include <vector>

namespace hlo::driver {

/// Whether `options` ask for batch mode (--output-dir).
inline bool isBatch(const Options &options) { return !options.outputDir.empty(); }

/// The output name of each input (without extension): its file name less
/// the extension; inputs whose names collide are told apart by their
/// directories' names ("gemma.default.module"), in input order.
std::vector<std::string> batchOutputNames(const std::vector<std::string> &inputs);

/// Compiles every input of `options` into options.outputDir; reports go to
/// `report`.
int compileBatch(const Options &options, std::ostream &report);

} // namespace hlo::driver

#endif // HLO_DRIVER_BATCHCOMPILE_H
