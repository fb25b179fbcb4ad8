//===- SymbolNamer.h - Unique function names for one module -----*- C++ -*-===//
//
// Owns the MLIR symbol names of the functions emitted for one module: an
// HLO name made a symbol (letters, digits and '_'), with the first free
// `_N` suffix when that name is taken. HLO names that sanitize alike
// (`fusion.3`, `fusion_3`), a fused computation or a reducer used by two
// fusions, and subgraphs named like kernels all get distinct names by
// construction. Kernels claim their names first, so they keep the plain
// ones.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_SYMBOLNAMER_H
#define HLO_EMITTERS_SYMBOLNAMER_H

#include "partitioner/ComputationPartitioner.h"

#include "llvm/ADT/StringSet.h"

#include <string>

namespace hlo {

class SymbolNamer {
public:
  /// A symbol name for `hloName` that no earlier claim returned.
  std::string claim(const std::string &hloName) {
    std::string base = symbolNameFor(hloName);
    std::string name = base;
    for (int suffix = 1; !used.insert(name).second; ++suffix)
      name = base + "_" + std::to_string(suffix);
    return name;
  }

private:
  llvm::StringSet<> used;
};

} // namespace hlo

#endif // HLO_EMITTERS_SYMBOLNAMER_H
