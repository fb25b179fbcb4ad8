//===- TestUtils.h - Helpers shared by the unit tests -----------*- C++ -*-===//
#ifndef HLO_TESTS_TESTUTILS_H
#define HLO_TESTS_TESTUTILS_H

#include "hlo_parser/Parser.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <optional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace hlo::testing_utils {

/// The shared corpus (../shared/corpus beside the checkout).
inline const std::filesystem::path kCorpus = HLO_CORPUS_DIR;

inline std::string readFile(const std::filesystem::path &path) {
  std::ifstream stream(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << stream.rdbuf();
  return buffer.str();
}

/// XLA's test files may call computations their C++ tests prepend: they are
/// parsed as declarations, as `hlo-compile --emit=hlo` does.
inline ParseOptions corpusParseOptions() {
  ParseOptions options;
  options.allowUndefinedComputations = true;
  return options;
}

/// Parses corpus/xla/`file`; null with `errors` set on failure.
inline std::unique_ptr<HloModule> parseCorpusModule(const std::string &file,
                                                    std::string &errors) {
  ParsedModule parsed =
      parseHloModuleText(readFile(kCorpus / "xla" / file), file, corpusParseOptions());
  errors = std::move(parsed.diagnostics);
  return std::move(parsed.module);
}

/// The rows of corpus/xla/INDEX.tsv after its header, split at tabs and
/// padded to five fields: file, category, source_path, expected_emitter, note.
inline std::vector<std::vector<std::string>> corpusIndexRows() {
  std::vector<std::vector<std::string>> rows;
  std::ifstream index(kCorpus / "xla" / "INDEX.tsv");
  std::string line;
  std::getline(index, line); // header
  while (std::getline(index, line)) {
    std::vector<std::string> fields;
    std::stringstream stream(line);
    std::string field;
    while (std::getline(stream, field, '\t'))
      fields.push_back(field);
    fields.resize(5);
    rows.push_back(std::move(fields));
  }
  return rows;
}

/// The corpus modules the loop emitter claims: categories loop,
/// input_slices, convert, and the loop-kind dynamic_update_slice modules.
inline std::vector<std::string> claimedLoopModules() {
  std::vector<std::string> files;
  for (const std::vector<std::string> &fields : corpusIndexRows()) {
    const std::string &category = fields[1];
    if (category == "loop" || category == "input_slices" || category == "convert" ||
        (category == "dynamic_update_slice" && fields[3].rfind("kLoop", 0) == 0))
      files.push_back(fields[0]);
  }
  return files;
}

/// The hero modules the compiler claims: the reduce_*, transpose,
/// concatenate and dynamic_update_slice categories and the modules of
/// tests/claimed-modules.txt (scripts/gpu-check.sh's list).
inline std::vector<std::string> claimedHeroModules() {
  std::vector<std::string> files;
  for (const std::vector<std::string> &fields : corpusIndexRows())
    if (fields[1].rfind("reduce_", 0) == 0 || fields[1] == "transpose" ||
        fields[1] == "concatenate" || fields[1] == "dynamic_update_slice" ||
        fields[1] == "scatter")
      files.push_back(fields[0]);
  if (files.empty())
    return files; // no corpus
  std::ifstream list(HLO_SOURCE_DIR "/tests/claimed-modules.txt");
  for (std::string line; std::getline(list, line);)
    if (!line.empty() && line[0] != '#')
      files.push_back(line);
  return files;
}

/// The reason tests/host/expected-skips.txt gives for corpus module
/// `file` (relative to shared/corpus/xla), if it lists the module.
inline std::optional<std::string> expectedSkipReason(const std::string &file) {
  std::ifstream list(HLO_SOURCE_DIR "/tests/host/expected-skips.txt");
  for (std::string line; std::getline(list, line);) {
    size_t tab = line.find('\t');
    if (line.empty() || line[0] == '#' || tab == std::string::npos)
      continue;
    if (line.substr(0, tab) == "xla/" + file)
      return line.substr(tab + 1);
  }
  return std::nullopt;
}

/// A GoogleTest-safe name: every character but letters and digits as '_'.
inline std::string gtestName(std::string text) {
  for (char &c : text)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return text;
}

} // namespace hlo::testing_utils

#endif // HLO_TESTS_TESTUTILS_H
