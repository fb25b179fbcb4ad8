//===- Json.cpp - A small JSON reader -------------------------------------===//
#include "support/Json.h"

#include <cstdlib>

namespace hlo {

class JsonParser {
public:
  explicit JsonParser(const std::string &text) : text(text) {}

  bool parseDocument(JsonValue &value) {
    if (!parseValue(value, 0))
      return false;
    skipSpace();
    if (position != text.size())
      return failAt("trailing characters after the JSON value");
    return true;
  }
  std::string error;

private:
  bool failAt(const std::string &message) {
    int line = 1, column = 1;
    for (size_t i = 0; i < position && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    error = "line " + std::to_string(line) + ", column " + std::to_string(column) +
            ": " + message;
    return false;
  }
  void skipSpace() {
    while (position < text.size() &&
           (text[position] == ' ' || text[position] == '\n' || text[position] == '\t' ||
            text[position] == '\r'))
      ++position;
  }
  bool consume(const char *word) {
    size_t length = std::char_traits<char>::length(word);
    if (text.compare(position, length, word) != 0)
      return false;
    position += length;
    return true;
  }
  bool parseString(std::string &out) {
    ++position; // opening quote
    while (position < text.size() && text[position] != '"') {
      char c = text[position++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (position >= text.size())
        break;
      char escaped = text[position++];
      switch (escaped) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'u': {
        if (position + 4 > text.size())
          return failAt("bad \\u escape");
        unsigned code = std::strtoul(text.substr(position, 4).c_str(), nullptr, 16);
        position += 4;
        if (code < 0x80) {
          out += static_cast<char>(code);
        } else if (code < 0x800) {
          out += static_cast<char>(0xc0 | (code >> 6));
          out += static_cast<char>(0x80 | (code & 0x3f));
        } else {
          out += static_cast<char>(0xe0 | (code >> 12));
          out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
          out += static_cast<char>(0x80 | (code & 0x3f));
        }
        break;
      }
      default: out += escaped; break;
      }
    }
    if (position >= text.size())
      return failAt("unterminated string");
    ++position; // closing quote
    return true;
  }
  bool parseValue(JsonValue &value, int depth) {
    if (depth > 64)
      return failAt("nesting too deep");
    skipSpace();
    if (position >= text.size())
      return failAt("expected a value");
    char c = text[position];
    if (c == '{') {
      value.kindValue = JsonValue::Kind::Object;
      ++position;
      skipSpace();
      if (position < text.size() && text[position] == '}') {
        ++position;
        return true;
      }
      while (true) {
        skipSpace();
        if (position >= text.size() || text[position] != '"')
          return failAt("expected a member name");
        std::string key;
        if (!parseString(key))
          return false;
        skipSpace();
        if (position >= text.size() || text[position] != ':')
          return failAt("expected ':'");
        ++position;
        JsonValue member;
        if (!parseValue(member, depth + 1))
          return false;
        value.members.emplace_back(std::move(key), std::move(member));
        skipSpace();
        if (position < text.size() && text[position] == ',') {
          ++position;
          continue;
        }
        if (position < text.size() && text[position] == '}') {
          ++position;
          return true;
        }
        return failAt("expected ',' or '}'");
      }
    }
    if (c == '[') {
      value.kindValue = JsonValue::Kind::Array;
      ++position;
      skipSpace();
      if (position < text.size() && text[position] == ']') {
        ++position;
        return true;
      }
      while (true) {
        JsonValue element;
        if (!parseValue(element, depth + 1))
          return false;
        value.arrayValue.push_back(std::move(element));
        skipSpace();
        if (position < text.size() && text[position] == ',') {
          ++position;
          continue;
        }
        if (position < text.size() && text[position] == ']') {
          ++position;
          return true;
        }
        return failAt("expected ',' or ']'");
      }
    }
    if (c == '"') {
      value.kindValue = JsonValue::Kind::String;
      return parseString(value.stringValue);
    }
    if (consume("true")) {
      value.kindValue = JsonValue::Kind::Bool;
      value.boolValue = true;
      return true;
    }
    if (consume("false")) {
      value.kindValue = JsonValue::Kind::Bool;
      return true;
    }
    if (consume("null"))
      return true;
    if (c == '-' || (c >= '0' && c <= '9')) {
      const char *begin = text.c_str() + position;
      char *end = nullptr;
      value.kindValue = JsonValue::Kind::Number;
      value.numberValue = std::strtod(begin, &end);
      position += static_cast<size_t>(end - begin);
      return true;
    }
    return failAt(std::string("unexpected character '") + c + "'");
  }

  const std::string &text;
  size_t position = 0;
};

const JsonValue *JsonValue::find(const std::string &key) const {
  for (const auto &[name, value] : members)
    if (name == key)
      return &value;
  return nullptr;
}

std::string quoteJson(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    case '\r': out += "\\r"; break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        static const char digits[] = "0123456789abcdef";
        out += "\\u00";
        out += digits[(c >> 4) & 0xf];
        out += digits[c & 0xf];
      } else {
        out += c;
      }
    }
  }
  return out + "\"";
}

ErrorOr<JsonValue> JsonValue::parse(const std::string &text) {
  JsonParser parser(text);
  JsonValue value;
  if (!parser.parseDocument(value))
    return makeError(parser.error);
  return value;
}

} // namespace hlo
