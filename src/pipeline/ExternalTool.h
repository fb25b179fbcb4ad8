//===- ExternalTool.h - Running a tool over temporary files ------*- C++ -*-===//
//
// Owns running the programs the pipeline hands its output to (the CUDA
// toolkit's ptxas, the system linker): the input written to a temporary
// file, the program run with its diagnostics captured, the output file read
// back, every temporary removed.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_EXTERNALTOOL_H
#define HLO_PIPELINE_EXTERNALTOOL_H

#include "pipeline/Pipeline.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace hlo::pipeline {

/// Where runExternalTool puts the input and output files in `arguments`.
inline constexpr llvm::StringLiteral kToolInput = "{input}";
inline constexpr llvm::StringLiteral kToolOutput = "{output}";

/// Writes `input` to a temporary `.inputSuffix` file, runs `program` with
/// `arguments` (kToolInput and kToolOutput replaced by the temporary input
/// and output paths) and returns the output file's bytes, or an error
/// "`what` failed:" with the program's diagnostics. With `log`, what the
/// program printed on success.
llvm::Expected<std::string> runExternalTool(const std::string &program,
                                            llvm::ArrayRef<std::string> arguments,
                                            const std::string &input,
                                            llvm::StringRef inputSuffix,
                                            llvm::StringRef outputSuffix,
                                            const std::string &what,
                                            std::string *log = nullptr);

/// What `program arguments...` prints (stdout and stderr), if it exits 0.
std::optional<std::string> captureToolOutput(const std::string &program,
                                             llvm::ArrayRef<std::string> arguments);

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_EXTERNALTOOL_H
