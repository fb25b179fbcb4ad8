//===- Lexer.cpp - Tokens of HLO text -------------------------------------===//
#include "Lexer.h"

namespace hlo {

static bool isDigit(char c) { return c >= '0' && c <= '9'; }
static bool isLetter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool isNameChar(char c) {
  return isLetter(c) || isDigit(c) || c == '.' || c == '-';
}
static bool isLabelChar(char c) {
  return isDigit(c) || (c >= 'a' && c <= 'z') || c == '?';
}

uint32_t Lexer::skipTrivia(uint32_t offset, uint32_t *unterminatedAt) const {
  const uint32_t size = static_cast<uint32_t>(source.size());
  while (offset < size) {
    char c = source[offset];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
        c == '\v') {
      ++offset;
      continue;
    }
    if (c == '/' && offset + 1 < size && source[offset + 1] == '/') {
      while (offset < size && source[offset] != '\n')
        ++offset;
      continue;
    }
    if (c == '/' && offset + 1 < size && source[offset + 1] == '*') {
      size_t end = source.find("*/", offset + 2);
      if (end == std::string_view::npos) {
        if (unterminatedAt)
          *unterminatedAt = offset;
        return UINT32_MAX;
      }
      offset = static_cast<uint32_t>(end + 2);
      continue;
    }
    break;
  }
  return offset;
}

Token Lexer::make(TokenKind kind, uint32_t begin, uint32_t end) {
  pos = end;
  return Token{kind, source.substr(begin, end - begin), begin};
}

Token Lexer::next() {
  uint32_t commentStart = 0;
  uint32_t begin = skipTrivia(pos, &commentStart);
  if (begin == UINT32_MAX) {
    error = "unterminated /* comment";
    pos = static_cast<uint32_t>(source.size());
    return Token{TokenKind::Error, source.substr(commentStart, 2),
                 commentStart};
  }
  const uint32_t size = static_cast<uint32_t>(source.size());
  if (begin >= size)
    return make(TokenKind::Eof, size, size);
  char c = source[begin];
  char nextChar = begin + 1 < size ? source[begin + 1] : '\0';
  switch (c) {
  case '(':
    return make(TokenKind::LParen, begin, begin + 1);
  case ')':
    return make(TokenKind::RParen, begin, begin + 1);
  case '{':
    return make(TokenKind::LBrace, begin, begin + 1);
  case '}':
    return make(TokenKind::RBrace, begin, begin + 1);
  case '[':
    return make(TokenKind::LSquare, begin, begin + 1);
  case ']':
    return make(TokenKind::RSquare, begin, begin + 1);
  case ',':
    return make(TokenKind::Comma, begin, begin + 1);
  case ':':
    return make(TokenKind::Colon, begin, begin + 1);
  case '=':
    return make(TokenKind::Equal, begin, begin + 1);
  case '*':
    return make(TokenKind::Star, begin, begin + 1);
  case '?':
    return make(TokenKind::Question, begin, begin + 1);
  case '#':
    return make(TokenKind::Hash, begin, begin + 1);
  case '>':
    return make(TokenKind::Greater, begin, begin + 1);
  case '<':
    if (nextChar == '=')
      return make(TokenKind::LessEq, begin, begin + 2);
    return make(TokenKind::Less, begin, begin + 1);
  case '"':
    return lexString(begin);
  case '%': {
    uint32_t end = begin + 1;
    while (end < size && isNameChar(source[end])) {
      if (source[end] == '-' && end + 1 < size && source[end + 1] == '>')
        break;
      ++end;
    }
    pos = end;
    return Token{TokenKind::PercentName,
                 source.substr(begin + 1, end - begin - 1), begin};
  }
  case '-':
    if (nextChar == '>')
      return make(TokenKind::Arrow, begin, begin + 2);
    if (isDigit(nextChar) || nextChar == '.')
      return lexNumberLike(begin);
    return make(TokenKind::Minus, begin, begin + 1);
  default:
    break;
  }
  if (isDigit(c) || (c == '.' && isDigit(nextChar)))
    return lexNumberLike(begin);
  if (isLetter(c))
    return lexIdentifierLike(begin);
  return make(TokenKind::Other, begin, begin + 1);
}

bool Lexer::matchDimLabels(uint32_t begin, uint32_t &end) const {
  const uint32_t size = static_cast<uint32_t>(source.size());
  uint32_t i = begin;
  auto run = [&]() {
    uint32_t start = i;
    while (i < size && isLabelChar(source[i]))
      ++i;
    return i > start;
  };
  if (!run() || i >= size || source[i] != '_')
    return false;
  ++i;
  if (!run() || i + 1 >= size || source[i] != '-' || source[i + 1] != '>')
    return false;
  i += 2;
  if (!run())
    return false;
  end = i;
  return true;
}

bool Lexer::matchPad(uint32_t begin, uint32_t &end) const {
  const uint32_t size = static_cast<uint32_t>(source.size());
  uint32_t i = begin;
  auto number = [&]() {
    if (i < size && source[i] == '-')
      ++i;
    uint32_t start = i;
    while (i < size && isDigit(source[i]))
      ++i;
    return i > start;
  };
  while (true) {
    if (!number() || i >= size || source[i] != '_')
      return false;
    ++i;
    if (!number())
      return false;
    if (i < size && source[i] == '_') {
      ++i;
      if (!number())
        return false;
    }
    if (i < size && source[i] == 'x' && i + 1 < size &&
        (isDigit(source[i + 1]) || source[i + 1] == '-')) {
      ++i;
      continue;
    }
    break;
  }
  if (i < size && (isLetter(source[i]) || isDigit(source[i])))
    return false;
  end = i;
  return true;
}

bool Lexer::matchDxD(uint32_t begin, uint32_t &end) const {
  const uint32_t size = static_cast<uint32_t>(source.size());
  uint32_t i = begin;
  int parts = 0;
  while (true) {
    uint32_t start = i;
    while (i < size && isDigit(source[i]))
      ++i;
    if (i == start)
      return false;
    ++parts;
    if (i < size && source[i] == 'x' && i + 1 < size && isDigit(source[i + 1])) {
      ++i;
      continue;
    }
    break;
  }
  if (parts < 2 || (i < size && (isLetter(source[i]) || source[i] == '.')))
    return false;
  end = i;
  return true;
}

Token Lexer::lexNumberLike(uint32_t begin) {
  const uint32_t size = static_cast<uint32_t>(source.size());
  // Compound tokens continue a leading integer with '_', 'x' or a label
  // letter; plain numbers (the common case) skip the matchers.
  uint32_t digitsEnd = begin + (source[begin] == '-' ? 1 : 0);
  while (digitsEnd < size && isDigit(source[digitsEnd]))
    ++digitsEnd;
  char after = digitsEnd < size ? source[digitsEnd] : '\0';
  if (after == '_' || after == 'x' || after == '?' ||
      (after >= 'a' && after <= 'z' && after != 'e')) {
    uint32_t end;
    if (matchDimLabels(begin, end))
      return make(TokenKind::DimLabels, begin, end);
    if (matchPad(begin, end))
      return make(TokenKind::Pad, begin, end);
    if (matchDxD(begin, end))
      return make(TokenKind::DxD, begin, end);
  }
  uint32_t i = begin;
  if (source[i] == '-')
    ++i;
  bool isFloat = false;
  while (i < size && isDigit(source[i]))
    ++i;
  if (i < size && source[i] == '.') {
    isFloat = true;
    ++i;
    while (i < size && isDigit(source[i]))
      ++i;
  }
  if (i < size && (source[i] == 'e' || source[i] == 'E')) {
    uint32_t j = i + 1;
    if (j < size && (source[j] == '+' || source[j] == '-'))
      ++j;
    if (j < size && isDigit(source[j])) {
      isFloat = true;
      i = j;
      while (i < size && isDigit(source[i]))
        ++i;
    }
  }
  // A number glued to letters (e.g. "2x", "0abc") is a malformed token.
  if (i < size && (isLetter(source[i]))) {
    uint32_t j = i;
    while (j < size && isNameChar(source[j]))
      ++j;
    error = "malformed number '" + std::string(source.substr(begin, j - begin)) +
            "'";
    pos = j;
    return Token{TokenKind::Error, source.substr(begin, j - begin), begin};
  }
  return make(isFloat ? TokenKind::Float : TokenKind::Integer, begin, i);
}

Token Lexer::lexIdentifierLike(uint32_t begin) {
  const uint32_t size = static_cast<uint32_t>(source.size());
  uint32_t i = begin;
  while (i < size && isNameChar(source[i])) {
    if (source[i] == '-' && i + 1 < size && source[i + 1] == '>')
      break;
    ++i;
  }
  // Dim labels (b01f_01io->b01f) are the only words an arrow follows.
  uint32_t end;
  if (i + 1 < size && source[i] == '-' && source[i + 1] == '>' &&
      matchDimLabels(begin, end))
    return make(TokenKind::DimLabels, begin, end);
  return make(TokenKind::Identifier, begin, i);
}

Token Lexer::lexString(uint32_t begin) {
  const uint32_t size = static_cast<uint32_t>(source.size());
  uint32_t i = begin + 1;
  while (i < size && source[i] != '"') {
    if (source[i] == '\\' && i + 1 < size)
      ++i;
    ++i;
  }
  if (i >= size) {
    error = "unterminated string";
    pos = size;
    return Token{TokenKind::Error, source.substr(begin, 1), begin};
  }
  return make(TokenKind::String, begin, i + 1);
}

std::string unescapeString(std::string_view quoted) {
  std::string out;
  if (quoted.size() < 2)
    return out;
  std::string_view body = quoted.substr(1, quoted.size() - 2);
  out.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\' || i + 1 == body.size()) {
      out += c;
      continue;
    }
    char escaped = body[++i];
    switch (escaped) {
    case 'n':
      out += '\n';
      break;
    case 't':
      out += '\t';
      break;
    case 'r':
      out += '\r';
      break;
    case '"':
    case '\\':
    case '\'':
      out += escaped;
      break;
    default:
      out += '\\';
      out += escaped;
    }
  }
  return out;
}

} // namespace hlo
