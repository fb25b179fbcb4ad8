//===- CorpusTest.cpp - Every corpus module parses, verifies, round-trips -===//
//
// One test per module of ../shared/corpus (xla/* except parser_negative, and
// models/*), named after the file; one per parser_negative module, checking
// the diagnostic against the substring in INDEX.tsv (XLA's "was parsing
// L:C: error: M" becomes our "file:L:C: ...: M").
//
//===----------------------------------------------------------------------===//
#include "hlo_parser/Parser.h"
#include "hlo_parser/Printer.h"
#include "hlo_parser/Verifier.h"

#include "TestUtils.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;
using namespace hlo;

namespace {

using testing_utils::kCorpus;
using testing_utils::readFile;

/// Relative paths of the positive corpus modules, sorted.
std::vector<std::string> positiveModules() {
  std::vector<std::string> files;
  if (!fs::exists(kCorpus))
    return files;
  for (const char *top : {"xla", "models"})
    for (const auto &entry : fs::recursive_directory_iterator(kCorpus / top))
      if (entry.path().extension() == ".hlo" &&
          entry.path().parent_path().filename() != "parser_negative")
        files.push_back(fs::relative(entry.path(), kCorpus).string());
  std::sort(files.begin(), files.end());
  return files;
}

struct NegativeCase {
  std::string file;
  std::string expected; // substring from INDEX.tsv
};

void PrintTo(const NegativeCase &test, std::ostream *out) { *out << test.file; }

std::vector<NegativeCase> negativeModules() {
  std::vector<NegativeCase> cases;
  for (const std::vector<std::string> &fields :
       testing_utils::corpusIndexRows()) {
    if (fields[1] != "parser_negative")
      continue;
    const std::string marker = "error contains: ";
    size_t at = fields[4].find(marker);
    if (at != std::string::npos)
      cases.push_back({fields[0], fields[4].substr(at + marker.size())});
  }
  return cases;
}

using testing_utils::gtestName;

/// Collapses whitespace runs (diagnostics span lines; INDEX.tsv is one line).
std::string foldSpaces(const std::string &text) {
  std::string out;
  for (char c : text) {
    bool space = c == ' ' || c == '\n' || c == '\t';
    if (space) {
      if (!out.empty() && out.back() != ' ')
        out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

class CorpusModule : public testing::TestWithParam<std::string> {};

TEST_P(CorpusModule, ParsesVerifiesAndRoundTrips) {
  fs::path path = kCorpus / GetParam();
  auto [module, errors] =
      parseHloModuleText(readFile(path), path.string(), testing_utils::corpusParseOptions());
  ASSERT_NE(module, nullptr) << errors;
  EXPECT_EQ(errors.find("error:"), std::string::npos) << errors;
  std::string verifyErrors = verifyModuleToString(*module);
  EXPECT_EQ(verifyErrors, "") << verifyErrors;

  std::string first = printModule(*module);
  auto [reparsed, reparseErrors] =
      parseHloModuleText(first, "printed.hlo", testing_utils::corpusParseOptions());
  ASSERT_NE(reparsed, nullptr) << reparseErrors << "\n" << first;
  EXPECT_EQ(verifyModuleToString(*reparsed), "");
  std::string second = printModule(*reparsed);
  EXPECT_EQ(first, second);
  EXPECT_EQ(module->computations().size(), reparsed->computations().size());
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, CorpusModule, testing::ValuesIn(positiveModules()),
    [](const testing::TestParamInfo<std::string> &info) {
      return gtestName(info.param);
    });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CorpusModule);

class NegativeModule : public testing::TestWithParam<NegativeCase> {};

TEST_P(NegativeModule, IsRejectedWithTheExpectedDiagnostic) {
  const NegativeCase &test = GetParam();
  fs::path path = kCorpus / "xla" / test.file;
  auto [module, errors] =
      parseHloModuleText(readFile(path), test.file, testing_utils::corpusParseOptions());
  if (module)
    errors += verifyModuleToString(*module);
  ASSERT_NE(errors.find(": error: "), std::string::npos)
      << test.file << " was accepted";
  // Every diagnostic is file:line:col: error: message.
  EXPECT_TRUE(std::regex_search(
      errors, std::regex("^" + std::regex_replace(test.file,
                                                  std::regex(R"([.^$|()\[\]{}*+?\\])"),
                                                  R"(\$&)") +
                         R"(:\d+:\d+: error: )")))
      << errors;

  std::string expected = test.expected;
  // INDEX.tsv escapes quotes and newlines.
  expected = std::regex_replace(expected, std::regex(R"(\\")"), "\"");
  expected = std::regex_replace(expected, std::regex(R"(\\n)"), "\n");
  if (expected.size() > 1 && expected.front() == '(' && expected.back() == ')')
    expected = expected.substr(1, expected.size() - 2);
  std::smatch location;
  if (std::regex_search(expected, location,
                        std::regex(R"(was parsing (\d+):(\d+): error: )"))) {
    std::string where = ":" + location[1].str() + ":" + location[2].str() + ": ";
    EXPECT_NE(errors.find(where), std::string::npos)
        << "expected a diagnostic at " << where << "\n" << errors;
    expected = location.suffix().str();
  }
  EXPECT_NE(foldSpaces(errors).find(foldSpaces(expected)), std::string::npos)
      << "expected '" << expected << "' in:\n" << errors;
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, NegativeModule, testing::ValuesIn(negativeModules()),
    [](const testing::TestParamInfo<NegativeCase> &info) {
      return gtestName(info.param.file);
    });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(NegativeModule);

TEST(Corpus, IsPresentAndComplete) {
  if (!fs::exists(kCorpus))
    GTEST_SKIP() << "no corpus at " << kCorpus;
  EXPECT_GE(positiveModules().size(), 342u);
  EXPECT_EQ(negativeModules().size(), 16u);
}

} // namespace
