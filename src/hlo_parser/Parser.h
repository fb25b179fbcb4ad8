//===- Parser.h - HLO text to HLO IR ----------------------------*- C++ -*-===//
//
// Public entry points of the HLO text parser. It accepts HLO as XLA prints
// and dumps it, and the relaxed form of XLA's tests: no `HloModule` header,
// no `ENTRY` (the last computation is the entry), no `ROOT` (the last
// instruction is the root), optional `%`, operands with or without shapes.
// Errors are reported as `file:line:col: error: ...` through the engine.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PARSER_PARSER_H
#define HLO_PARSER_PARSER_H

#include "support/ErrorOr.h"
#include "HloModule.h"
#include "SourceFile.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace hlo {

struct ParseOptions {
  /// A computation that is referenced but not defined (XLA's C++ tests
  /// often prepend such helpers) becomes an external declaration, with a
  /// warning, instead of an error: for printing and analysing such files;
  /// anything that needs its body reports it.
  bool allowUndefinedComputations = false;
  /// A constant printed without its values (`constant({...})`) gets
  /// made-up values seeded by its name (FillElidedLiteral.h), as XLA's
  /// parser fills them by default; off: it stays elided, and what needs
  /// its values reports it.
  bool fillElidedConstants = true;
};

/// Parses a whole module; null on error (the engine holds the diagnostics).
std::unique_ptr<HloModule> parseHloModule(std::shared_ptr<const SourceFile> file,
                                          DiagnosticEngine &diagnostics,
                                          ParseOptions options = {});

/// What parseHloModuleText returns: the module, null on error, and the
/// rendered diagnostics: the errors, or the warnings of a module that
/// parsed (empty if none).
struct [[nodiscard]] ParsedModule {
  std::unique_ptr<HloModule> module;
  std::string diagnostics;
};

/// Convenience for tests and tools: parses `text` named `name`.
ParsedModule parseHloModuleText(std::string_view text, std::string name = "<text>",
                                ParseOptions options = {});

/// Parses a lone shape such as `f32[2,<=3]{1,0:T(2,128)}` or a tuple, or
/// returns the rendered diagnostics.
ErrorOr<Shape> parseShapeText(std::string_view text);

} // namespace hlo

#endif // HLO_PARSER_PARSER_H
