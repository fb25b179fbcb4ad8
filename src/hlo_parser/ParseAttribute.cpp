//===- ParseAttribute.cpp - Instruction attributes in HLO text ------------===//
//
// `name=value` after an instruction's operands. The attribute registry
// (HloAttributes.h) says what kind of value each name takes and which
// opcodes accept it; values no stage interprets are kept verbatim.
//
//===----------------------------------------------------------------------===//
#include "ParserImpl.h"

#include <charconv>
#include <cstring>

namespace hlo {

bool ParserImpl::parseAttribute(HloInstruction &instruction,
                                HloOpcode opcodeForCheck) {
  uint32_t nameOffset = tok.offset;
  if (tok.kind != TokenKind::Identifier)
    return errorHere("expected an attribute name");
  std::string name(tok.text);
  advance();
  if (tok.kind != TokenKind::Equal)
    return expect(TokenKind::Equal, "'=' after attribute name '" + name + "'");
  advance();
  std::optional<AttrKind> kind = attributeKind(name);
  bool accepted = kind && (opcodeAcceptsAttribute(opcodeForCheck, name) ||
                           (instruction.opcode() != opcodeForCheck &&
                            opcodeAcceptsAttribute(instruction.opcode(), name)));
  if (!accepted)
    return error(nameOffset, "unexpected attribute \"" + name + "\" for " +
                                 std::string(opcodeName(opcodeForCheck)));
  if (instruction.findAttributeEntry(name))
    return error(nameOffset, "attribute \"" + name + "\" is given twice");
  HloAttribute attribute;
  attribute.name = name;
  attribute.offset = nameOffset;
  attribute.value.kind = *kind;
  if (!parseAttrValue(*kind, name, attribute.value))
    return false;
  instruction.addAttribute(std::move(attribute));
  // Names are resolved once every computation / instruction is known.
  PendingComputationRef ref{&instruction, instruction.attributes().size() - 1,
                            {}};
  ref.names.swap(pendingNames);
  if (*kind == AttrKind::Computation || *kind == AttrKind::ComputationList)
    pendingComputationRefs.push_back(std::move(ref));
  else if (*kind == AttrKind::InstructionList)
    pendingControlDeps.push_back(std::move(ref));
  return true;
}

bool ParserImpl::parseNameList(
    std::vector<std::pair<std::string, uint32_t>> &names) {
  if (!expect(TokenKind::LBrace, "'{'"))
    return false;
  if (consumeIf(TokenKind::RBrace))
    return true;
  do {
    if (tok.kind != TokenKind::PercentName && tok.kind != TokenKind::Identifier)
      return errorHere("expected a name");
    names.emplace_back(std::string(tok.text), tok.offset);
    advance();
  } while (consumeIf(TokenKind::Comma));
  return expect(TokenKind::RBrace, "'}'");
}

bool ParserImpl::parseAttrValue(AttrKind kind, std::string_view name,
                                AttrValue &value) {
  switch (kind) {
  case AttrKind::Int:
    return parseInt64(value.intValue);
  case AttrKind::Bool:
    if (isIdentifier("true") || isIdentifier("false")) {
      value.boolValue = tok.text == "true";
      advance();
      return true;
    }
    return errorHere("expected true or false for attribute '" +
                     std::string(name) + "'");
  case AttrKind::Float: {
    if (tok.kind != TokenKind::Float && tok.kind != TokenKind::Integer)
      return errorHere("expected a number for attribute '" +
                       std::string(name) + "'");
    value.text = std::string(tok.text);
    value.floatValue = std::strtod(value.text.c_str(), nullptr);
    advance();
    return true;
  }
  case AttrKind::String:
    if (tok.kind != TokenKind::String)
      return errorHere("expected a string for attribute '" + std::string(name) +
                       "'");
    value.text = unescapeString(tok.text);
    advance();
    return true;
  case AttrKind::Enum:
    if (tok.kind != TokenKind::Identifier && tok.kind != TokenKind::Integer)
      return errorHere("expected a value for attribute '" + std::string(name) +
                       "'");
    // A comparison's direction is one of six: anything else must not
    // reach the emitters and the interpreter, which would read it as GE.
    if (name == "direction" && tok.text != "EQ" && tok.text != "NE" && tok.text != "LT" &&
        tok.text != "LE" && tok.text != "GT" && tok.text != "GE")
      return errorHere("unknown comparison direction '" + std::string(tok.text) +
                       "'; expected EQ, NE, LT, LE, GT or GE");
    value.text = std::string(tok.text);
    advance();
    return true;
  case AttrKind::IntList:
    if (tok.kind == TokenKind::LBrace) {
      // collective-permute's slice_sizes is a list of lists.
      uint32_t after = lexer.skipTrivia(lexer.position());
      if (after < lexer.buffer().size() && lexer.buffer()[after] == '{') {
        value.kind = AttrKind::IntListList;
        return parseAttrValue(AttrKind::IntListList, name, value);
      }
    }
    return parseIntList(value.ints);
  case AttrKind::IntListList: {
    if (!expect(TokenKind::LBrace, "'{'"))
      return false;
    if (consumeIf(TokenKind::RBrace))
      return true;
    do {
      std::vector<int64_t> list;
      if (!parseIntList(list))
        return false;
      value.intLists.push_back(std::move(list));
    } while (consumeIf(TokenKind::Comma));
    return expect(TokenKind::RBrace, "'}'");
  }
  case AttrKind::SliceRanges:
    return parseSliceRanges(value.slices);
  case AttrKind::Padding:
    return parsePadding(value.padding);
  case AttrKind::Window:
    return parseWindow(value.window);
  case AttrKind::DimLabels: {
    if (tok.kind != TokenKind::DimLabels)
      return errorHere("expected dim labels such as b01f_01io->b01f");
    ErrorOr<ConvDimLabels> labels = parseConvDimLabels(tok.text);
    if (!labels)
      return errorHere(labels.error());
    value.dimLabels = std::make_shared<ConvDimLabels>(std::move(*labels));
    advance();
    return true;
  }
  case AttrKind::Computation:
  case AttrKind::ComputationList:
  case AttrKind::InstructionList:
    pendingNames.clear();
    if (tok.kind == TokenKind::LBrace && kind == AttrKind::Computation &&
        looksLikeInlineComputation())
      return parseInlineComputation(name);
    if (tok.kind == TokenKind::LBrace)
      return parseNameList(pendingNames);
    if (kind == AttrKind::Computation &&
        (tok.kind == TokenKind::PercentName ||
         tok.kind == TokenKind::Identifier)) {
      pendingNames.emplace_back(std::string(tok.text), tok.offset);
      advance();
      return true;
    }
    return errorHere("expected a computation name for attribute '" +
                     std::string(name) + "'");
  case AttrKind::ShapeValue:
  {
    auto shape = std::make_shared<Shape>();
    if (!parseShape(*shape))
      return false;
    value.shape = std::move(shape);
    return true;
  }
  case AttrKind::Raw:
    if (tok.kind == TokenKind::Eof)
      return errorHere("expected a value for attribute '" + std::string(name) +
                       "'");
    value.text = scanRawValue();
    return !failed;
  }
  return false;
}

bool ParserImpl::parseSliceRanges(std::vector<SliceRange> &ranges) {
  if (!expect(TokenKind::LBrace, "'{' to start slice ranges"))
    return false;
  if (consumeIf(TokenKind::RBrace))
    return true;
  do {
    SliceRange range;
    if (!expect(TokenKind::LSquare, "'[' to start a slice range") ||
        !parseInt64(range.start) ||
        !expect(TokenKind::Colon, "':' in a slice range") ||
        !parseInt64(range.limit))
      return false;
    if (consumeIf(TokenKind::Colon) && !parseInt64(range.stride))
      return false;
    if (!expect(TokenKind::RSquare, "']' to end a slice range"))
      return false;
    ranges.push_back(range);
  } while (consumeIf(TokenKind::Comma));
  return expect(TokenKind::RBrace, "'}' to end slice ranges");
}

/// Splits `a_b_cxd_e` style text into per-dimension integer groups.
static bool splitDims(std::string_view text,
                      std::vector<std::vector<int64_t>> &groups) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t x = text.find('x', start);
    std::string_view part = text.substr(
        start, x == std::string_view::npos ? std::string_view::npos : x - start);
    std::vector<int64_t> numbers;
    size_t partStart = 0;
    while (partStart <= part.size()) {
      size_t underscore = part.find('_', partStart);
      std::string_view number = part.substr(
          partStart, underscore == std::string_view::npos
                         ? std::string_view::npos
                         : underscore - partStart);
      int64_t value;
      auto result =
          std::from_chars(number.data(), number.data() + number.size(), value);
      if (result.ec != std::errc() || result.ptr != number.data() + number.size())
        return false;
      numbers.push_back(value);
      if (underscore == std::string_view::npos)
        break;
      partStart = underscore + 1;
    }
    groups.push_back(std::move(numbers));
    if (x == std::string_view::npos)
      break;
    start = x + 1;
  }
  return true;
}

bool ParserImpl::parsePadding(std::vector<PaddingDimension> &padding) {
  if (tok.kind != TokenKind::Pad)
    return errorHere("expected padding such as 0_0x1_1");
  std::vector<std::vector<int64_t>> groups;
  if (!splitDims(tok.text, groups))
    return errorHere("malformed padding '" + std::string(tok.text) + "'");
  for (const auto &group : groups) {
    if (group.size() < 2 || group.size() > 3)
      return errorHere("padding needs low_high or low_high_interior per "
                       "dimension");
    PaddingDimension dim;
    dim.low = group[0];
    dim.high = group[1];
    dim.interior = group.size() == 3 ? group[2] : 0;
    padding.push_back(dim);
  }
  advance();
  return true;
}

bool ParserImpl::parseWindow(std::vector<WindowDimension> &window) {
  if (!expect(TokenKind::LBrace, "'{' to start a window"))
    return false;
  bool haveSize = false;
  while (tok.kind != TokenKind::RBrace) {
    if (tok.kind != TokenKind::Identifier)
      return errorHere("expected a window field (size, stride, pad, "
                       "lhs_dilate, rhs_dilate, rhs_reversal)");
    std::string field(tok.text);
    uint32_t fieldOffset = tok.offset;
    advance();
    if (!expect(TokenKind::Equal, "'=' after window field"))
      return false;
    std::vector<std::vector<int64_t>> groups;
    if (tok.kind != TokenKind::DxD && tok.kind != TokenKind::Integer &&
        tok.kind != TokenKind::Pad)
      return errorHere("expected a value such as 3x3 for window field '" +
                       field + "'");
    if (!splitDims(tok.text, groups))
      return errorHere("malformed window value '" + std::string(tok.text) + "'");
    advance();
    if (field == "size") {
      haveSize = true;
      window.resize(groups.size());
    } else if (!haveSize) {
      return error(fieldOffset, "window 'size' must come first");
    }
    if (groups.size() != window.size())
      return error(fieldOffset, "window field '" + field + "' has " +
                                    std::to_string(groups.size()) +
                                    " dimensions, but size has " +
                                    std::to_string(window.size()));
    for (size_t i = 0; i < groups.size(); ++i) {
      const auto &group = groups[i];
      WindowDimension &dim = window[i];
      bool pair = field == "pad";
      if (group.size() != (pair ? 2u : 1u))
        return error(fieldOffset, "malformed window field '" + field + "'");
      if (field == "size")
        dim.size = group[0];
      else if (field == "stride")
        dim.stride = group[0];
      else if (field == "pad") {
        dim.padLow = group[0];
        dim.padHigh = group[1];
      } else if (field == "lhs_dilate")
        dim.baseDilation = group[0];
      else if (field == "rhs_dilate")
        dim.windowDilation = group[0];
      else if (field == "rhs_reversal")
        dim.reversal = group[0] != 0;
      else
        return error(fieldOffset, "unknown window field '" + field + "'");
    }
  }
  advance();
  return true;
}

std::string ParserImpl::scanRawValue() {
  std::string_view text = lexer.buffer();
  uint32_t i = tok.offset;
  uint32_t start = i;
  int depth = 0;
  bool needsFolding = false; // a newline, tab or run of spaces to fold
  while (i < text.size()) {
    char c = text[i];
    if (c == '\n' || c == '\t' || c == '\r' ||
        (c == ' ' && i > start && text[i - 1] == ' '))
      needsFolding = true;
    if (c == '"') {
      // Jump to the closing quote (one not preceded by an odd run of '\').
      uint32_t close = i + 1;
      while (true) {
        const void *quote = std::memchr(text.data() + close, '"',
                                        text.size() - close);
        if (!quote) {
          error(start, "unterminated string in attribute value");
          return {};
        }
        close = static_cast<uint32_t>(static_cast<const char *>(quote) -
                                      text.data());
        uint32_t backslashes = 0;
        while (close - backslashes > i + 1 &&
               text[close - backslashes - 1] == '\\')
          ++backslashes;
        if (backslashes % 2 == 0)
          break;
        ++close;
      }
      i = close + 1;
      continue;
    }
    if (c == '{' || c == '(' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ')' || c == ']') {
      if (depth == 0)
        break;
      --depth;
    } else if (depth == 0 && (c == ',' || c == '\n')) {
      break;
    }
    ++i;
  }
  if (depth != 0) {
    error(start, "unbalanced brackets in attribute value");
    return {};
  }
  // Fold whitespace outside strings (nothing to fold in most dumps).
  std::string_view raw = text.substr(start, i - start);
  while (!raw.empty() && raw.back() == ' ')
    raw.remove_suffix(1);
  if (!needsFolding) {
    lexer.reset(i);
    advance();
    return std::string(raw);
  }
  std::string out;
  out.reserve(raw.size());
  bool inString = false;
  for (uint32_t j = start; j < i; ++j) {
    char c = text[j];
    if (inString) {
      out += c;
      if (c == '\\' && j + 1 < i)
        out += text[++j];
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"')
      inString = true;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (!out.empty() && out.back() != ' ')
        out += ' ';
      continue;
    }
    out += c;
  }
  while (!out.empty() && out.back() == ' ')
    out.pop_back();
  lexer.reset(i);
  advance();
  return out;
}

bool ParserImpl::parseInputOutputAlias(std::string &text) {
  // { {output_index}: (param, {param_index}[, may-alias|must-alias]), ... }
  uint32_t start = tok.offset;
  auto shapeIndex = [&]() {
    if (!expect(TokenKind::LBrace, "'{' to start a ShapeIndex"))
      return false;
    while (tok.kind == TokenKind::Integer) {
      int64_t ignored;
      if (!parseInt64(ignored))
        return false;
      if (!consumeIf(TokenKind::Comma))
        break;
    }
    if (tok.kind != TokenKind::RBrace)
      return errorHere("Expects '}' at the end of ShapeIndex");
    advance();
    return true;
  };
  if (!expect(TokenKind::LBrace, "'{'"))
    return false;
  while (tok.kind != TokenKind::RBrace) {
    int64_t param;
    if (!shapeIndex() || !expect(TokenKind::Colon, "':'") ||
        !expect(TokenKind::LParen, "'('") || !parseInt64(param) ||
        !expect(TokenKind::Comma, "','") || !shapeIndex())
      return false;
    if (consumeIf(TokenKind::Comma)) {
      if (!isIdentifier("may-alias") && !isIdentifier("must-alias"))
        return errorHere("expected may-alias or must-alias");
      advance();
    }
    if (!expect(TokenKind::RParen, "')'"))
      return false;
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  uint32_t end = tok.offset + 1;
  if (!expect(TokenKind::RBrace, "'}'"))
    return false;
  std::string_view raw = lexer.buffer().substr(start, end - start);
  text.clear();
  for (char c : raw) {
    if (c == '\n' || c == '\t' || c == '\r')
      c = ' ';
    if (c == ' ' && !text.empty() && text.back() == ' ')
      continue;
    text += c;
  }
  return true;
}

} // namespace hlo
