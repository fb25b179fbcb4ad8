//===- HloModule.h - An HLO module ------------------------------*- C++ -*-===//
//
// Owns HloModule: its computations in textual order, the entry computation,
// module-level attributes (kept verbatim) and the source it was parsed from,
// so that any later stage can report errors at an instruction's location.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PARSER_HLOMODULE_H
#define HLO_PARSER_HLOMODULE_H

#include "HloComputation.h"
#include "SourceFile.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace hlo {

struct ModuleAttribute {
  std::string name;
  std::string text; // verbatim value
};

/// One of the stack-frame index sections XLA prints after the header
/// (FileNames, FunctionNames, FileLocations, StackFrames): `id text` lines.
struct ModuleSection {
  std::string name;
  std::vector<std::pair<int64_t, std::string>> entries;
};

class HloModule {
public:
  explicit HloModule(std::string name) : nameValue(std::move(name)) {}

  const std::string &name() const { return nameValue; }
  bool hasHeader() const { return headerPresent; }
  void setHasHeader(bool value) { headerPresent = value; }

  HloComputation *addComputation(std::unique_ptr<HloComputation> computation);
  const std::vector<std::unique_ptr<HloComputation>> &computations() const {
    return computationList;
  }
  HloComputation *findComputation(std::string_view name) const;
  /// Rewriting (src/hlo_opt): removes the computations for which `unused`
  /// holds (none may still be called); true if any was removed.
  bool removeComputationsIf(const std::function<bool(const HloComputation &)> &unused);
  /// Rewriting: orders the computations so that each comes after those
  /// its instructions call (the entry last), as XLA prints them.
  void sortComputations();
  HloComputation *entry() const { return entryValue; }
  void setEntry(HloComputation *computation) { entryValue = computation; }

  /// Referenced but undefined computations (see isDeclaration()).
  HloComputation *addDeclaration(std::unique_ptr<HloComputation> computation);
  const std::vector<std::unique_ptr<HloComputation>> &declarations() const {
    return declarationList;
  }

  const std::vector<ModuleSection> &sections() const { return sectionList; }
  void addSection(ModuleSection section) {
    sectionList.push_back(std::move(section));
  }

  const std::vector<ModuleAttribute> &attributes() const { return attrs; }
  void addAttribute(ModuleAttribute attribute) {
    attrs.push_back(std::move(attribute));
  }

  const std::shared_ptr<const SourceFile> &source() const { return sourceFile; }
  void setSource(std::shared_ptr<const SourceFile> file) {
    sourceFile = std::move(file);
  }

private:
  std::string nameValue;
  bool headerPresent = false;
  std::vector<std::unique_ptr<HloComputation>> computationList;
  HloComputation *entryValue = nullptr;
  std::vector<std::unique_ptr<HloComputation>> declarationList;
  std::vector<ModuleSection> sectionList;
  std::vector<ModuleAttribute> attrs;
  std::shared_ptr<const SourceFile> sourceFile;
};

} // namespace hlo

#endif // HLO_PARSER_HLOMODULE_H
