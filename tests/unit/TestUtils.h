//===- TestUtils.h - Helpers shared by the unit tests -----------*- C++ -*-===//
#ifndef HLO_TESTS_TESTUTILS_H
#define HLO_TESTS_TESTUTILS_H

#include <filesystem>
#include <fstream>
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

} // namespace hlo::testing_utils

#endif // HLO_TESTS_TESTUTILS_H
