//===- Json.h - A small JSON reader ----------------------------*- C++ -*-===//
//
// The project's one JSON library: reads JSON (the launch manifest, an
// instruction's backend_config) into a tree of values, and quotes strings
// for writing it. hlo-run cannot use LLVM's JSON library: it links no LLVM
// so that it can be copied to machines that have only the NVIDIA driver;
// so the compiler uses this one too.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_SUPPORT_JSON_H
#define HLO_SUPPORT_JSON_H

#include "support/ErrorOr.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hlo {

class JsonValue {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Kind kind() const { return kindValue; }
  bool isObject() const { return kindValue == Kind::Object; }
  bool isArray() const { return kindValue == Kind::Array; }
  bool isString() const { return kindValue == Kind::String; }
  bool isNumber() const { return kindValue == Kind::Number; }

  double number() const { return numberValue; }
  bool boolean() const { return boolValue; }
  const std::string &string() const { return stringValue; }
  const std::vector<JsonValue> &array() const { return arrayValue; }
  /// Member `key` of an object, or null.
  const JsonValue *find(const std::string &key) const;

  /// Parses `text`, or says what is wrong: "line L, column C: ...".
  static ErrorOr<JsonValue> parse(const std::string &text);

private:
  friend class JsonParser;
  Kind kindValue = Kind::Null;
  bool boolValue = false;
  double numberValue = 0;
  std::string stringValue;
  std::vector<JsonValue> arrayValue;
  std::vector<std::pair<std::string, JsonValue>> members;
};

/// `text` as a JSON string literal (quotes, escapes).
std::string quoteJson(const std::string &text);

} // namespace hlo

#endif // HLO_SUPPORT_JSON_H
