//===- BackendConfig.cpp - backend_config read as XLA reads it ------------===//
#include "support/BackendConfig.h"

#include <cctype>

namespace hlo {

namespace {

bool startsIdentifier(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool continuesIdentifier(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

} // namespace

std::string quoteBareJsonKeys(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 16);
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '"') { // a string, copied with its escapes
      size_t end = i + 1;
      while (end < text.size() && text[end] != '"')
        end += text[end] == '\\' ? 2 : 1;
      end = std::min(end + 1, text.size());
      out.append(text.substr(i, end - i));
      i = end;
      continue;
    }
    if (startsIdentifier(c)) {
      size_t end = i + 1;
      while (end < text.size() && continuesIdentifier(text[end]))
        ++end;
      size_t next = end;
      while (next < text.size() && std::isspace(static_cast<unsigned char>(text[next])))
        ++next;
      std::string_view word = text.substr(i, end - i);
      if (next < text.size() && text[next] == ':')
        out.append("\"").append(word).append("\"");
      else
        out.append(word); // true, false, null, or not JSON at all
      i = end;
      continue;
    }
    out.push_back(c);
    ++i;
  }
  return out;
}

std::optional<JsonValue> parseBackendConfig(std::string_view text) {
  auto parse = [](std::string_view json) -> std::optional<JsonValue> {
    if (json.empty())
      return std::nullopt;
    if (ErrorOr<JsonValue> parsed = JsonValue::parse(std::string(json)))
      return std::move(*parsed);
    if (ErrorOr<JsonValue> quoted = JsonValue::parse(quoteBareJsonKeys(json)))
      return std::move(*quoted);
    return std::nullopt;
  };
  std::optional<JsonValue> value = parse(text);
  // `backend_config="{...}"`: the JSON is the string's text.
  if (value && value->isString())
    return parse(value->string());
  return value;
}

} // namespace hlo
