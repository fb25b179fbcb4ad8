//===- XlaDumpInputs.h - XLA dump folders and file names as inputs -*- C++ -*-===//
//
// Owns what hlo-compile makes of XLA's --xla_dump_to output, the input its
// users most often have:
//  - a folder on the command line stands for the modules XLA dumped there
//    after optimizations (`module_NNNN.NAME.sm_9.0a_gpu_after_optimizations.txt`),
//    in file-name order; the buffer assignments, thunk sequences, PTX and
//    LLVM IR beside them are not modules and are left alone;
//  - such a file name says the module's name (NAME, which names its output
//    in batch mode) and the architecture XLA compiled for (sm_9.0a is
//    sm_90a), which hlo-compile targets unless -arch says otherwise.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DRIVER_XLADUMPINPUTS_H
#define HLO_DRIVER_XLADUMPINPUTS_H

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace hlo::driver {

/// What the name of a file XLA dumped after optimizations says.
struct XlaDumpFileName {
  /// "module_0001": XLA's unique id of the module in this process.
  std::string moduleId;
  /// The HloModule's name ("jit_gelu").
  std::string moduleName;
  /// The architecture in LLVM's spelling ("sm_90a"); empty for a file name
  /// without one (a CPU dump, or a stage XLA names without it).
  std::string gpuArch;
};

/// Reads `fileName` (no directory) as XLA names its after-optimizations
/// dumps; nullopt for any other name.
std::optional<XlaDumpFileName> parseXlaDumpFileName(const std::string &fileName);

/// The inputs with every folder replaced by the after-optimizations
/// modules in it, sorted by name. A folder with none is an error that says
/// what the folder holds instead.
llvm::Expected<std::vector<std::string>> expandInputFolders(const std::vector<std::string> &inputs);

} // namespace hlo::driver

#endif // HLO_DRIVER_XLADUMPINPUTS_H
