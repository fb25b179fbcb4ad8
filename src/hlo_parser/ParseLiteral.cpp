//===- ParseLiteral.cpp - Constant literals in HLO text -------------------===//
//
// `constant(42)`, `constant({{1, 2}, {3, 4}})`, `constant((1, {2, 3}))`,
// `constant(-inf)`, `constant((1, 2))` for complex, `constant({...})`
// (elided). Values are range-checked against the element type.
//
//===----------------------------------------------------------------------===//
#include "ParserImpl.h"

#include "FloatFormat.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace hlo {

std::string upperTypeName(PrimitiveType type) {
  std::string name(primitiveTypeName(type));
  for (char &c : name)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

bool ParserImpl::parseLiteral(const Shape &shape, Literal &literal) {
  if (shape.isTuple()) {
    if (!enterNested(tok.offset))
      return false;
    literal = Literal(shape);
    if (!expect(TokenKind::LParen, "'(' to start a tuple literal"))
      return false;
    auto &elements = literal.mutableTupleElements();
    for (size_t i = 0; i < elements.size(); ++i) {
      if (i && !expect(TokenKind::Comma, "',' between tuple elements"))
        return false;
      if (!parseLiteral(shape.tupleShapes()[i], elements[i]))
        return false;
    }
    leaveNested();
    return expect(TokenKind::RParen, "')' to end a tuple literal");
  }
  if (!shape.isArray()) {
    literal = Literal(shape);
    return true; // token[] constants have no value.
  }
  if (!shape.isStatic())
    return errorHere("constant of dynamic shape " + shape.toString() +
                     " is not supported");
  int64_t count = shape.elementCount();
  if (count < 0 || count > kMaxLiteralElements)
    return errorHere("constant " + shape.toString() + " is too large (over " +
                     std::to_string(kMaxLiteralElements) + " elements)");
  return parseArrayLiteral(shape, literal);
}

bool ParserImpl::parseArrayLiteral(const Shape &shape, Literal &literal) {
  literal = Literal(shape);
  const int64_t rank = shape.rank();
  // Elided literal: {...}
  if (tok.kind == TokenKind::LBrace) {
    std::string_view text = lexer.buffer();
    uint32_t after = lexer.skipTrivia(lexer.position());
    if (after != UINT32_MAX && text.substr(after, 3) == "...") {
      uint32_t close = lexer.skipTrivia(after + 3);
      if (close != UINT32_MAX && close < text.size() && text[close] == '}') {
        lexer.reset(close + 1);
        advance();
        literal.setElided(true);
        return true;
      }
    }
  }
  if (rank == 0) {
    // A scalar may be written bare or (rarely) in braces.
    if (tok.kind == TokenKind::LBrace &&
        lexer.buffer().substr(lexer.skipTrivia(lexer.position()), 1) != "}") {
      return errorHere("expects a scalar literal of type " +
                       std::string(primitiveTypeName(shape.elementType())) +
                       ", but sees '{'");
    }
    return parseScalarInto(literal, 0);
  }
  // Nested braces; `index` walks the elements in row-major order.
  int64_t index = 0;
  std::vector<int64_t> counts(rank, 0);
  int64_t depth = 0;
  if (tok.kind != TokenKind::LBrace)
    return expect(TokenKind::LBrace, "'{' to start an array literal of rank " +
                                         std::to_string(rank));
  advance();
  depth = 1;
  while (depth > 0) {
    if (tok.kind == TokenKind::RBrace) {
      int64_t dim = depth - 1;
      if (counts[dim] != shape.dimension(dim))
        return errorHere("expects " + std::to_string(shape.dimension(dim)) +
                         " elements in dimension " + std::to_string(dim) +
                         " of the literal, but sees " +
                         std::to_string(counts[dim]));
      counts[dim] = 0;
      advance();
      --depth;
      if (depth > 0)
        ++counts[depth - 1];
      if (depth > 0 && tok.kind == TokenKind::Comma)
        advance();
      continue;
    }
    if (tok.kind == TokenKind::LBrace) {
      if (depth == rank)
        return errorHere("expects nested array in rank " +
                         std::to_string(rank) + ", but sees larger");
      if (counts[depth - 1] >= shape.dimension(depth - 1))
        return errorHere("too many elements in dimension " +
                         std::to_string(depth - 1) + " of the literal");
      advance();
      ++depth;
      continue;
    }
    if (depth != rank)
      return errorHere("expects nested array in rank " + std::to_string(rank) +
                       ", but sees a scalar at depth " + std::to_string(depth));
    if (counts[depth - 1] >= shape.dimension(depth - 1))
      return errorHere("too many elements in dimension " +
                       std::to_string(depth - 1) + " of the literal (expects " +
                       std::to_string(shape.dimension(depth - 1)) + ")");
    if (index >= literal.elementCount())
      return errorHere("too many elements in the literal");
    if (!parseScalarInto(literal, index++))
      return false;
    ++counts[depth - 1];
    if (tok.kind == TokenKind::Comma)
      advance();
    else if (tok.kind != TokenKind::RBrace)
      return errorHere("expected ',' or '}' in an array literal");
  }
  return true;
}

/// Parses a float spelling (number, inf, nan, with sign) at the current
/// token into `value`.
static bool parseFloatToken(ParserImpl &p, double &value) {
  bool negative = false;
  if (p.tok.kind == TokenKind::Minus) {
    negative = true;
    p.advance();
  }
  if (p.tok.kind == TokenKind::Identifier) {
    std::string_view word = p.tok.text;
    if (word == "inf") {
      value = std::numeric_limits<double>::infinity();
    } else if (word == "nan") {
      value = std::numeric_limits<double>::quiet_NaN();
      // nan(0x...) payloads are accepted and dropped.
      if (p.glued('(')) {
        p.advance();
        p.advance();
        while (p.tok.kind != TokenKind::RParen && !p.atEnd())
          p.advance();
      }
    } else {
      return p.errorHere("expected a floating-point value, but sees '" +
                         std::string(word) + "'");
    }
    p.advance();
    value = negative ? -value : value;
    return true;
  }
  if (p.tok.kind != TokenKind::Integer && p.tok.kind != TokenKind::Float)
    return p.errorHere("expected a number");
  std::string text(p.tok.text);
  value = std::strtod(text.c_str(), nullptr);
  if (negative)
    value = -value;
  p.advance();
  return true;
}

bool ParserImpl::parseScalarInto(Literal &literal, int64_t index) {
  PrimitiveType type = literal.shape().elementType();
  uint32_t valueOffset = tok.offset;
  if (type == PrimitiveType::Pred) {
    if (isIdentifier("true") || isIdentifier("false")) {
      literal.setInt(index, tok.text == "true");
      advance();
      return true;
    }
    if (tok.kind == TokenKind::Integer && (tok.text == "0" || tok.text == "1")) {
      literal.setInt(index, tok.text == "1");
      advance();
      return true;
    }
    return errorHere("expects a pred literal (true or false)");
  }
  if (isIntegral(type)) {
    if (tok.kind != TokenKind::Integer)
      return errorHere("expects an integer literal of type " +
                       std::string(primitiveTypeName(type)));
    std::string_view text = tok.text;
    int bits = primitiveBitWidth(type);
    bool negative = !text.empty() && text[0] == '-';
    uint64_t magnitude = 0;
    std::string_view digits = negative ? text.substr(1) : text;
    auto result =
        std::from_chars(digits.data(), digits.data() + digits.size(), magnitude);
    bool ok = result.ec == std::errc();
    if (ok && isSignedIntegral(type)) {
      uint64_t limit = uint64_t(1) << (bits - 1);
      ok = negative ? magnitude <= limit : magnitude < limit;
    } else if (ok) {
      uint64_t max = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
      ok = !negative || magnitude == 0;
      ok = ok && magnitude <= max;
    }
    if (!ok)
      return error(valueOffset, std::string(text) +
                                    " is out of range for literal's primitive "
                                    "type " +
                                    upperTypeName(type));
    int64_t value = static_cast<int64_t>(magnitude);
    literal.setInt(index, negative ? -value : value);
    advance();
    return true;
  }
  if (isComplex(type)) {
    double re, im;
    if (!expect(TokenKind::LParen, "'(' to start a complex value") ||
        !parseFloatToken(*this, re) ||
        !expect(TokenKind::Comma, "',' in a complex value") ||
        !parseFloatToken(*this, im) ||
        !expect(TokenKind::RParen, "')' to end a complex value"))
      return false;
    PrimitiveType component = complexComponentType(type);
    literal.setComplex(index, {roundToFloatType(re, component),
                               roundToFloatType(im, component)});
    return true;
  }
  if (isFloatingPoint(type)) {
    double value;
    if (!parseFloatToken(*this, value))
      return false;
    if (overflowsFloatType(value, type))
      return error(valueOffset,
                   std::string(lexer.buffer().substr(
                       valueOffset, tok.offset - valueOffset)) +
                       " is out of range for literal's primitive type " +
                       upperTypeName(type));
    literal.setFloat(index, roundToFloatType(value, type));
    return true;
  }
  return errorHere("literals of type " + std::string(primitiveTypeName(type)) +
                   " are not supported");
}

} // namespace hlo
