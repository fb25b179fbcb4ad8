//===- TestUtils.h - Helpers shared by the unit tests -----------*- C++ -*-===//
#ifndef HLO_TESTS_TESTUTILS_H
#define HLO_TESTS_TESTUTILS_H

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace hlo::testing_utils {

/// The shared corpus (../shared/corpus beside the checkout).
inline const std::filesystem::path kCorpus = HLO_CORPUS_DIR;

inline std::string readFile(const std::filesystem::path &path) {
  std::ifstream stream(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << stream.rdbuf();
  return buffer.str();
}

} // namespace hlo::testing_utils

#endif // HLO_TESTS_TESTUTILS_H
