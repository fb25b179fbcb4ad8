//===- Lexer.h - Tokens of HLO text -----------------------------*- C++ -*-===//
//
// Owns tokenization of HLO text: names (`%add.1`, `add`), numbers, strings,
// punctuation, and the compound tokens HLO uses inside attributes — `3x3`
// (DxD), `0_1x2_3_1` (padding), `b01f_01io->b01f` (dim labels). Skips `//`
// and `/* */` comments. Tokens are views into the source buffer.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PARSER_LEXER_H
#define HLO_PARSER_LEXER_H

#include <cstdint>
#include <string>
#include <string_view>

namespace hlo {

enum class TokenKind : uint8_t {
  Eof,
  Error,      // lexing error; message in Lexer::errorMessage()
  Identifier, // add, f32, ENTRY, true, kLoop, foo.bar-baz
  PercentName, // %foo (text excludes '%')
  Integer,    // 12, -3
  Float,      // 1.5, -2e-3, .5
  String,     // "..." (text includes quotes)
  DxD,        // 3x3
  Pad,        // 0_0x1_1_2
  DimLabels,  // b01f_01io->b01f
  LParen,
  RParen,
  LBrace,
  RBrace,
  LSquare,
  RSquare,
  Comma,
  Colon,
  Equal,
  Arrow,    // ->
  Star,     // *
  Question, // ?
  LessEq,   // <=
  Hash,     // #
  Less,     // <
  Greater,  // >
  Minus,    // '-' not starting a number (e.g. "-inf")
  Other,    // any other single character
};

struct Token {
  TokenKind kind = TokenKind::Eof;
  std::string_view text;
  uint32_t offset = 0;
};

class Lexer {
public:
  /// A UTF-8 byte-order mark at the start is skipped.
  explicit Lexer(std::string_view source)
      : source(source), pos(source.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0) {}

  /// Lexes and returns the next token.
  Token next();
  /// Current position (just after the last token).
  uint32_t position() const { return pos; }
  /// Continues lexing at `offset`.
  void reset(uint32_t offset) { pos = offset; }
  std::string_view buffer() const { return source; }
  /// For an Error token: what went wrong.
  const std::string &errorMessage() const { return error; }

  /// Skips whitespace and comments from `offset`; returns the new offset,
  /// or UINT32_MAX on an unterminated comment (whose start then goes to
  /// `unterminatedAt`).
  uint32_t skipTrivia(uint32_t offset,
                      uint32_t *unterminatedAt = nullptr) const;

private:
  Token make(TokenKind kind, uint32_t begin, uint32_t end);
  Token lexNumberLike(uint32_t begin);
  Token lexIdentifierLike(uint32_t begin);
  Token lexString(uint32_t begin);
  bool matchDimLabels(uint32_t begin, uint32_t &end) const;
  bool matchPad(uint32_t begin, uint32_t &end) const;
  bool matchDxD(uint32_t begin, uint32_t &end) const;

  std::string_view source;
  uint32_t pos = 0;
  std::string error;
};

/// Decodes the escapes of a String token's text (quotes included).
std::string unescapeString(std::string_view quoted);

} // namespace hlo

#endif // HLO_PARSER_LEXER_H
