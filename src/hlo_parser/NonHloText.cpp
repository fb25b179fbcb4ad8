//===- NonHloText.cpp - Naming inputs that are not HLO text ---------------===//
#include "NonHloText.h"

#include <regex>
#include <utility>
#include <vector>

namespace hlo {

namespace {

/// The text from its first line that is neither blank nor a `//` comment.
std::string_view skipBlankAndCommentLines(std::string_view text) {
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    std::string_view line = text.substr(at, end == std::string_view::npos ? text.npos : end - at);
    size_t first = line.find_first_not_of(" \t\r");
    if (first != std::string_view::npos && line.substr(first, 2) != "//")
      return text.substr(at + first);
    if (end == std::string_view::npos)
      return {};
    at = end + 1;
  }
  return {};
}

std::string_view firstLine(std::string_view text) {
  return text.substr(0, text.find('\n'));
}

bool startsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

} // namespace

std::optional<std::string> describeNonHloText(std::string_view text) {
  std::string_view start = skipBlankAndCommentLines(text);
  std::string_view line = firstLine(start);
  if (startsWith(line, "HloModule") || startsWith(line, "ENTRY"))
    return std::nullopt;
  static const std::vector<std::pair<std::string_view, std::string>> kPrefixes = {
      {"BufferAssignment:", "XLA's buffer assignment"},
      {"Total bytes used:", "XLA's buffer assignment values"},
      {"HloLiveRange", "XLA's live ranges"},
      {"Memory Space:", "XLA's memory usage report"},
      {"; ModuleID", "LLVM IR"},
      {"source_filename", "LLVM IR"},
      {"target datalayout", "LLVM IR"},
      {"target triple", "LLVM IR"},
      {"define ", "LLVM IR"},
      {".version", "PTX"},
      {".target", "PTX"},
      {"module {", "MLIR (StableHLO?)"},
      {"module @", "MLIR (StableHLO?)"},
      {"func.func", "MLIR"},
      {"#loc", "MLIR"},
  };
  for (const auto &[prefix, kind] : kPrefixes)
    if (startsWith(line, prefix))
      return kind;
  std::string first(line);
  // 001: kCustomKernel [source | sink] gelu_fusion grid: ...
  static const std::regex kThunk(R"(^[0-9]+: k[A-Z]\w*.*)");
  if (std::regex_match(first, kThunk))
    return "XLA's thunk sequence";
  // Protocol-buffer text: `key: value`, or `key {` opening `key: value`.
  static const std::regex kField(R"(^[A-Za-z_]\w*:(\s.*)?$)");
  static const std::regex kMessage(R"(^[A-Za-z_]\w*\s*\{\s*$)");
  static const std::regex kInnerField(R"(^\s*[A-Za-z_]\w*(:\s.*|\s*\{\s*)$)");
  if (std::regex_match(first, kField))
    return "protocol-buffer text (XLA's options or configuration)";
  if (std::regex_match(first, kMessage)) {
    std::string_view rest = start.substr(std::min(start.size(), line.size() + 1));
    std::string second(firstLine(skipBlankAndCommentLines(rest)));
    if (std::regex_match(second, kInnerField))
      return "protocol-buffer text (XLA's options or configuration)";
  }
  return std::nullopt;
}

} // namespace hlo
