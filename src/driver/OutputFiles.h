//===- OutputFiles.h - Where hlo-compile's results go -----------*- C++ -*-===//
//
// Owns the files a run writes, as clang and nvcc users expect them:
//  - the output goes to `-o FILE`, or stdout for `-o -` (and by default);
//  - the launch manifest goes where --manifest says, else beside a regular
//    output file, named after it (gelu.ptx.json, gelu.so.json: one per
//    target, as nvcc and clang name side files after -o), never beside
//    stdout or a device such as /dev/null;
//  - the manifest's "code" is the output's path relative to the manifest's
//    own directory (absent when the code went to stdout);
//  - when the HLO passes rewrote the input, the module compiled goes beside
//    the manifest (gelu.so.json: gelu.so.compiled.hlo), its "compiled_hlo";
//  - each file is written whole (a temporary file renamed into place) or
//    not at all, and a run that fails removes what an earlier run left at
//    its output paths, so no stale result survives an error.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DRIVER_OUTPUTFILES_H
#define HLO_DRIVER_OUTPUTFILES_H

#include "Options.h"

#include "llvm/Support/Error.h"

#include <string>

namespace hlo::driver {

class OutputFiles {
public:
  OutputFiles(const Options &options, bool writesManifest);

  /// Checks the paths before any work; an error if they clash (e.g. -o
  /// and --manifest naming one file).
  [[nodiscard]] llvm::Error validate() const;

  /// Where the manifest goes; empty when none is written.
  const std::string &manifestPath() const { return manifest; }
  /// The manifest's "code" entry: the output relative to the manifest's
  /// directory; empty when the output is stdout.
  std::string codePathForManifest() const;
  /// The manifest's "compiled_hlo" entry (a file name in the manifest's
  /// directory); empty when no manifest is written.
  std::string compiledModuleForManifest() const;

  /// Writes the output, the manifest, if any, and the module compiled
  /// (`compiledModuleText`, when not empty and a manifest is written), or
  /// says why it could not.
  [[nodiscard]] llvm::Error write(const std::string &text, const std::string &manifestText,
                                  const std::string &compiledModuleText = "") const;
  /// After a failed run: removes regular files left at the output and
  /// manifest paths by an earlier run.
  void removeStale() const;

private:
  std::string output;         // empty: stdout
  std::string manifest;       // empty: none
  std::string compiledModule; // beside the manifest; empty: none
  std::string input;
};

} // namespace hlo::driver

#endif // HLO_DRIVER_OUTPUTFILES_H
