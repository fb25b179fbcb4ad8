//===- SourceFile.h - Source text and diagnostics ---------------*- C++ -*-===//
//
// Owns the text of an input file and the rendering of diagnostics in the
// compiler's one format:
//
//   file:line:col: error: message
//   <the source line>
//       ^
//
// Plain C++ on purpose: the parser is also linked into hlo-run, which must
// not depend on LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PARSER_SOURCEFILE_H
#define HLO_PARSER_SOURCEFILE_H

#include "support/ErrorOr.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace hlo {

inline constexpr uint32_t kNoOffset = UINT32_MAX;

class SourceFile {
public:
  SourceFile(std::string name, std::string text);
  /// Reads a file ("-" = stdin), or says why it cannot.
  static ErrorOr<std::shared_ptr<SourceFile>> read(const std::string &path);

  const std::string &name() const { return fileName; }
  std::string_view text() const { return contents; }

  /// 1-based line and column (in bytes) of a byte offset.
  std::pair<int, int> lineAndColumn(uint32_t offset) const;
  std::string_view lineText(int line) const;

private:
  /// Line start offsets, computed on the first diagnostic.
  const std::vector<uint32_t> &lines() const;

  std::string fileName;
  std::string contents;
  mutable std::vector<uint32_t> lineStarts;
};

enum class Severity { Error, Warning, Note };

/// Whether a diagnostic echoes its source line under it (with a caret), or
/// is one line (`file:line:col: warning: ...` alone: for instructions whose
/// text is long and beside the point, such as a library call's config).
enum class SourceEcho { Line, None };

/// Renders one diagnostic. With `offset == kNoOffset`, only `file: error:`.
std::string formatDiagnostic(const SourceFile *file, uint32_t offset,
                             Severity severity, std::string_view message,
                             SourceEcho echo = SourceEcho::Line);

/// What becomes of warnings: shown, dropped (-w), or made errors (-Werror).
enum class WarningPolicy { Show, Ignore, Error };

/// Collects diagnostics; the first error makes `hasErrors()` true.
class DiagnosticEngine {
public:
  explicit DiagnosticEngine(std::shared_ptr<const SourceFile> file)
      : file(std::move(file)) {}
  void report(uint32_t offset, Severity severity, std::string message,
              SourceEcho echo = SourceEcho::Line);
  void error(uint32_t offset, std::string message) {
    report(offset, Severity::Error, std::move(message));
  }
  void warning(uint32_t offset, std::string message, SourceEcho echo = SourceEcho::Line) {
    report(offset, Severity::Warning, std::move(message), echo);
  }
  void note(uint32_t offset, std::string message) {
    report(offset, Severity::Note, std::move(message));
  }
  void setWarningPolicy(WarningPolicy policy) { warnings = policy; }
  bool hasErrors() const { return errorCount > 0; }
  /// All diagnostics rendered, in order.
  const std::string &rendered() const { return text; }
  const SourceFile *source() const { return file.get(); }

private:
  std::shared_ptr<const SourceFile> file;
  std::string text;
  int errorCount = 0;
  WarningPolicy warnings = WarningPolicy::Show;
};

} // namespace hlo

#endif // HLO_PARSER_SOURCEFILE_H
