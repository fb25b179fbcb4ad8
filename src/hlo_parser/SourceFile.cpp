//===- SourceFile.cpp - Source text and diagnostics -----------------------===//
#include "SourceFile.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sys/stat.h>
#include <iostream>
#include <iterator>
#include <sstream>

namespace hlo {

SourceFile::SourceFile(std::string name, std::string text)
    : fileName(std::move(name)), contents(std::move(text)) {}

const std::vector<uint32_t> &SourceFile::lines() const {
  if (lineStarts.empty()) {
    lineStarts.push_back(0);
    for (uint32_t i = 0; i < contents.size(); ++i)
      if (contents[i] == '\n')
        lineStarts.push_back(i + 1);
  }
  return lineStarts;
}

ErrorOr<std::shared_ptr<SourceFile>> SourceFile::read(const std::string &path) {
  std::string text;
  if (path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin),
                std::istreambuf_iterator<char>());
    return std::make_shared<SourceFile>("<stdin>", std::move(text));
  }
  struct stat status;
  if (::stat(path.c_str(), &status) == 0 && S_ISDIR(status.st_mode))
    return makeError("cannot read '" + path + "': it is a directory");
  errno = 0;
  std::ifstream stream(path, std::ios::binary);
  if (!stream)
    return makeError("cannot open '" + path + "': " +
                     (errno ? std::strerror(errno) : "unknown error"));
  std::ostringstream buffer;
  buffer << stream.rdbuf();
  if (stream.bad())
    return makeError("cannot read '" + path + "': " +
                     (errno ? std::strerror(errno) : "I/O error"));
  return std::make_shared<SourceFile>(path, buffer.str());
}

std::pair<int, int> SourceFile::lineAndColumn(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, contents.size());
  const std::vector<uint32_t> &starts = lines();
  auto it = std::upper_bound(starts.begin(), starts.end(), offset);
  int line = static_cast<int>(it - starts.begin());
  return {line, static_cast<int>(offset - starts[line - 1]) + 1};
}

std::string_view SourceFile::lineText(int line) const {
  const std::vector<uint32_t> &starts = lines();
  uint32_t begin = starts[line - 1];
  uint32_t end = line < static_cast<int>(starts.size())
                     ? starts[line] - 1
                     : static_cast<uint32_t>(contents.size());
  std::string_view text(contents.data() + begin, end - begin);
  if (!text.empty() && text.back() == '\r')
    text.remove_suffix(1);
  return text;
}

static std::string_view severityName(Severity severity) {
  switch (severity) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "error";
}

std::string formatDiagnostic(const SourceFile *file, uint32_t offset,
                             Severity severity, std::string_view message, SourceEcho echo) {
  std::string out = file ? file->name() : std::string("<unknown>");
  if (!file || offset == kNoOffset) {
    out += ": ";
    out += severityName(severity);
    out += ": ";
    out += message;
    out += '\n';
    return out;
  }
  auto [line, column] = file->lineAndColumn(offset);
  out += ':' + std::to_string(line) + ':' + std::to_string(column) + ": ";
  out += severityName(severity);
  out += ": ";
  out += message;
  out += '\n';
  std::string_view text = file->lineText(line);
  // A line of binary data is not echoed to a terminal.
  bool printable = std::none_of(text.begin(), text.end(), [](char c) {
    auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && c != '\t') || byte == 0x7f;
  });
  if (!printable || echo == SourceEcho::None)
    return out;
  out += text;
  out += '\n';
  for (int i = 0; i + 1 < column && i < static_cast<int>(text.size()); ++i)
    out += text[i] == '\t' ? '\t' : ' ';
  out += "^\n";
  return out;
}

void DiagnosticEngine::report(uint32_t offset, Severity severity,
                              std::string message, SourceEcho echo) {
  if (severity == Severity::Warning) {
    if (warnings == WarningPolicy::Ignore)
      return;
    if (warnings == WarningPolicy::Error) {
      severity = Severity::Error;
      message += " [-Werror]";
    }
  }
  if (severity == Severity::Error)
    ++errorCount;
  text += formatDiagnostic(file.get(), offset, severity, message, echo);
}

} // namespace hlo
