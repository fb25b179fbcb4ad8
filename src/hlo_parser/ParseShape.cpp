//===- ParseShape.cpp - Shapes and layouts in HLO text --------------------===//
//
// `f32[2,<=3,?]{1,0,2:T(8,128)(2,1)E(4)S(1)}`, `(f32[], (s32[2], token[]))`.
//
//===----------------------------------------------------------------------===//
#include "ParserImpl.h"

#include <cctype>
#include <charconv>

namespace hlo {

bool ParserImpl::glued(char c) const {
  uint32_t pos = lexer.position();
  std::string_view text = lexer.buffer();
  return pos < text.size() && text[pos] == c;
}

bool ParserImpl::parseInt64(int64_t &value) {
  if (tok.kind != TokenKind::Integer)
    return errorHere("expected an integer");
  const char *begin = tok.text.data();
  const char *end = begin + tok.text.size();
  auto result = std::from_chars(begin, end, value);
  if (result.ec != std::errc() || result.ptr != end)
    return errorHere("integer '" + std::string(tok.text) + "' is out of range");
  advance();
  return true;
}

bool ParserImpl::parseIntList(std::vector<int64_t> &values) {
  values.clear();
  if (!expect(TokenKind::LBrace, "'{'"))
    return false;
  if (consumeIf(TokenKind::RBrace))
    return true;
  do {
    int64_t value;
    if (!parseInt64(value))
      return false;
    values.push_back(value);
  } while (consumeIf(TokenKind::Comma));
  return expect(TokenKind::RBrace, "'}'");
}

bool ParserImpl::enterNested(uint32_t offset) {
  if (++nesting > kMaxNesting)
    return error(offset, "nesting is deeper than " +
                             std::to_string(kMaxNesting) + " levels");
  return true;
}

uint32_t ParserImpl::shapeTextEnd(uint32_t begin) const {
  std::string_view text = lexer.buffer();
  uint32_t pos = begin;
  auto skipGroup = [&](char open, char close) -> bool {
    if (pos >= text.size() || text[pos] != open)
      return false;
    int depth = 0;
    while (pos < text.size()) {
      char c = text[pos++];
      if (c == '/' && pos < text.size() && text[pos] == '*') {
        // Dumps annotate long tuples with /*index=5*/.
        size_t close = text.find("*/", pos + 1);
        if (close == std::string_view::npos)
          return false;
        pos = static_cast<uint32_t>(close + 2);
        continue;
      }
      if (c == '/' || c == '"')
        return false; // line comments or strings: take the slow path
      if (c == open)
        ++depth;
      else if (c == close && --depth == 0)
        return true;
    }
    return false;
  };
  if (pos < text.size() && text[pos] == '(')
    return skipGroup('(', ')') ? pos : 0;
  while (pos < text.size() &&
         (std::isalnum(static_cast<unsigned char>(text[pos]))))
    ++pos;
  if (!skipGroup('[', ']'))
    return 0;
  if (pos < text.size() && text[pos] == '{' && !skipGroup('{', '}'))
    return 0;
  return pos;
}

const Shape *ParserImpl::parseDeclaredShape() {
  uint32_t begin = tok.offset;
  uint32_t end = shapeTextEnd(begin);
  std::string_view key;
  if (end) {
    key = lexer.buffer().substr(begin, end - begin);
    auto it = declaredShapes.find(key);
    if (it != declaredShapes.end()) {
      lexer.reset(end);
      advance();
      return it->second.get();
    }
  }
  auto shape = std::make_unique<Shape>();
  if (!parseShape(*shape))
    return nullptr;
  const Shape *result = shape.get();
  // Cache only if the parse consumed exactly the delimited text.
  if (end && lexer.skipTrivia(end) == tok.offset)
    declaredShapes.emplace(key, std::move(shape));
  else
    uncachedShapes.push_back(std::move(shape));
  return result;
}

bool ParserImpl::parseShape(Shape &shape) {
  if (tok.kind == TokenKind::LParen) {
    if (!enterNested(tok.offset))
      return false;
    advance();
    std::vector<Shape> elements;
    if (!consumeIf(TokenKind::RParen)) {
      do {
        Shape element;
        if (!parseShape(element))
          return false;
        elements.push_back(std::move(element));
      } while (consumeIf(TokenKind::Comma));
      if (!expect(TokenKind::RParen, "')' at the end of a tuple shape"))
        return false;
    }
    shape = Shape::tuple(std::move(elements));
    leaveNested();
    return true;
  }
  return parseArrayShape(shape);
}

/// Scans a comma-separated list of non-negative integers at `pos` up to
/// `close` into `out`. Returns the position after `close`, or 0 if the text
/// is anything else (then the caller takes the general path).
static uint32_t scanIntList(std::string_view text, uint32_t pos, char close,
                            std::vector<int64_t> &out) {
  auto skipSpaces = [&]() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t'))
      ++pos;
  };
  skipSpaces();
  if (pos < text.size() && text[pos] == close)
    return pos + 1;
  int64_t buffer[16];
  size_t count = 0;
  while (true) {
    if (pos >= text.size() || text[pos] < '0' || text[pos] > '9' ||
        count == 16)
      return 0;
    int64_t value = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (value > (INT64_MAX - 9) / 10)
        return 0;
      value = value * 10 + (text[pos++] - '0');
    }
    buffer[count++] = value;
    skipSpaces();
    if (pos < text.size() && text[pos] == ',') {
      ++pos;
      skipSpaces();
      continue;
    }
    if (pos < text.size() && text[pos] == close)
      break;
    return 0;
  }
  out.assign(buffer, buffer + count);
  return pos + 1;
}

bool ParserImpl::tryParseSimpleArrayShape(PrimitiveType type, Shape &shape) {
  if (tok.kind != TokenKind::LSquare)
    return false;
  std::string_view text = lexer.buffer();
  std::vector<int64_t> dims;
  uint32_t pos = scanIntList(text, tok.offset + 1, ']', dims);
  if (pos == 0)
    return false;
  Layout layout;
  bool hasLayout = pos < text.size() && text[pos] == '{';
  uint32_t layoutOffset = pos;
  if (hasLayout) {
    pos = scanIntList(text, pos + 1, '}', layout.minorToMajor);
    if (pos == 0)
      return false; // layout items (':') or anything unusual
  }
  shape = Shape(type, std::move(dims));
  lexer.reset(pos);
  advance();
  if (hasLayout)
    return validateLayout(shape, layout, layoutOffset);
  return true;
}

bool ParserImpl::validateLayout(Shape &shape, Layout &layout, uint32_t offset) {
  if (!layout.minorToMajor.empty() &&
      static_cast<int64_t>(layout.minorToMajor.size()) != shape.rank())
    return error(offset,
                 "layout has " + std::to_string(layout.minorToMajor.size()) +
                     " dimensions but the shape has rank " +
                     std::to_string(shape.rank()));
  uint64_t seen = 0;
  std::vector<bool> seenWide;
  for (int64_t dim : layout.minorToMajor) {
    bool repeated;
    if (dim < 0 || dim >= shape.rank()) {
      repeated = true;
    } else if (shape.rank() <= 64) {
      repeated = seen & (uint64_t(1) << dim);
      seen |= uint64_t(1) << dim;
    } else {
      seenWide.resize(shape.rank());
      repeated = seenWide[dim];
      seenWide[dim] = true;
    }
    if (repeated)
      return error(offset, "layout minor_to_major is not a permutation of the "
                           "dimensions");
  }
  if (layout.minorToMajor.empty() && shape.rank() > 0)
    layout.minorToMajor = Layout::defaultForRank(shape.rank()).minorToMajor;
  shape.setLayout(std::move(layout));
  return true;
}

bool ParserImpl::parseArrayShape(Shape &shape) {
  if (tok.kind != TokenKind::Identifier)
    return errorHere("expected a shape");
  std::optional<PrimitiveType> type = parsePrimitiveTypeName(tok.text);
  if (!type)
    return errorHere("unknown element type '" + std::string(tok.text) + "'");
  advance();
  if (tryParseSimpleArrayShape(*type, shape))
    return true;
  if (failed)
    return false;
  if (!expect(TokenKind::LSquare, "'[' after the element type"))
    return false;
  std::vector<int64_t> dims;
  std::vector<bool> dynamic;
  bool anyDynamic = false;
  if (tok.kind != TokenKind::RSquare) {
    do {
      if (consumeIf(TokenKind::Question)) {
        dims.push_back(kUnboundedSize);
        dynamic.push_back(true);
        anyDynamic = true;
        continue;
      }
      bool isDynamic = consumeIf(TokenKind::LessEq);
      anyDynamic |= isDynamic;
      if (isDynamic && consumeIf(TokenKind::Question)) {
        dims.push_back(kUnboundedSize);
        dynamic.push_back(true);
        continue;
      }
      int64_t size;
      uint32_t sizeOffset = tok.offset;
      if (!parseInt64(size))
        return false;
      if (size < 0)
        return error(sizeOffset, "negative dimension size " +
                                     std::to_string(size));
      dims.push_back(size);
      dynamic.push_back(isDynamic);
    } while (consumeIf(TokenKind::Comma));
  }
  bool layoutFollows = glued('{');
  if (!expect(TokenKind::RSquare, "']' at the end of the dimensions"))
    return false;
  shape = Shape(*type, std::move(dims));
  if (anyDynamic)
    for (size_t i = 0; i < dynamic.size(); ++i)
      shape.setDynamicDimension(static_cast<int64_t>(i), dynamic[i]);
  if (layoutFollows && tok.kind == TokenKind::LBrace) {
    Layout layout;
    uint32_t layoutOffset = tok.offset;
    if (!parseLayout(layout))
      return false;
    return validateLayout(shape, layout, layoutOffset);
  }
  return true;
}

/// Parses `(a,b,...)` of a layout item into `out` (text, verbatim).
static bool isLayoutItemLetter(char c) {
  return (c >= 'A' && c <= 'Z') || c == '#' || c == '*';
}

bool ParserImpl::parseLayout(Layout &layout) {
  if (!expect(TokenKind::LBrace, "'{'"))
    return false;
  while (tok.kind == TokenKind::Integer) {
    int64_t dim;
    if (!parseInt64(dim))
      return false;
    layout.minorToMajor.push_back(dim);
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  if (consumeIf(TokenKind::Colon)) {
    // Items are scanned on the raw text: T(2,*,128)(2,1)E(4)S(1)SC(0:1)...
    std::string_view text = lexer.buffer();
    uint32_t pos = tok.offset;
    while (pos < text.size() && text[pos] != '}') {
      uint32_t itemBegin = pos;
      while (pos < text.size() && isLayoutItemLetter(text[pos]))
        ++pos;
      std::string letters(text.substr(itemBegin, pos - itemBegin));
      if (letters.empty() || pos >= text.size() || text[pos] != '(')
        return error(itemBegin, "malformed layout item");
      std::vector<std::string> groups;
      while (pos < text.size() && text[pos] == '(') {
        size_t close = text.find(')', pos);
        if (close == std::string_view::npos)
          return error(pos, "unterminated layout item");
        groups.emplace_back(text.substr(pos + 1, close - pos - 1));
        pos = static_cast<uint32_t>(close + 1);
      }
      auto toInt = [&](std::string_view s, int64_t &v) {
        while (!s.empty() && s.front() == ' ')
          s.remove_prefix(1);
        while (!s.empty() && s.back() == ' ')
          s.remove_suffix(1);
        auto r = std::from_chars(s.data(), s.data() + s.size(), v);
        return r.ec == std::errc() && r.ptr == s.data() + s.size();
      };
      if (letters == "T") {
        for (const std::string &group : groups) {
          Tile tile;
          size_t start = 0;
          while (start <= group.size()) {
            size_t comma = group.find(',', start);
            std::string_view part = std::string_view(group).substr(
                start, comma == std::string::npos ? std::string::npos
                                                  : comma - start);
            std::string_view trimmed = part;
            while (!trimmed.empty() && trimmed.front() == ' ')
              trimmed.remove_prefix(1);
            while (!trimmed.empty() && trimmed.back() == ' ')
              trimmed.remove_suffix(1);
            int64_t value;
            if (trimmed == "*")
              tile.dimensions.push_back(kCombineTileDimension);
            else if (toInt(trimmed, value))
              tile.dimensions.push_back(value);
            else
              return error(itemBegin, "malformed tile in layout");
            if (comma == std::string::npos)
              break;
            start = comma + 1;
          }
          layout.tiles.push_back(std::move(tile));
        }
      } else if ((letters == "E" || letters == "S") && groups.size() == 1) {
        int64_t value;
        if (!toInt(groups[0], value))
          return error(itemBegin, "malformed " + letters + "(...) in layout");
        (letters == "E" ? layout.elementSizeInBits : layout.memorySpace) =
            value;
      } else {
        layout.extraItems += text.substr(itemBegin, pos - itemBegin);
      }
    }
    lexer.reset(pos);
    advance();
  }
  return expect(TokenKind::RBrace, "'}' at the end of the layout");
}

} // namespace hlo
