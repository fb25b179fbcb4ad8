//===- BackendConfig.h - backend_config read as XLA reads it ---*- C++ -*-===//
//
// XLA reads an instruction's backend_config with protobuf's JSON parser,
// which accepts object keys without quotes (`{kind: "__triton"}`); XLA's
// own tests and hand-written modules use that form. This reads the same
// text (support/Json.h), so a fusion's kind and tiles, or a library call's
// dimension numbers, are found in either form by the analysis, the
// interpreter and hlo-run alike.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_SUPPORT_BACKENDCONFIG_H
#define HLO_SUPPORT_BACKENDCONFIG_H

#include "support/Json.h"

#include <optional>
#include <string>
#include <string_view>

namespace hlo {

/// `text` with every unquoted object key quoted; strings and everything
/// else unchanged.
std::string quoteBareJsonKeys(std::string_view text);

/// The backend_config's JSON value (the text, or, where the text is a JSON
/// string as in `backend_config="{...}"`, the string's content); nullopt
/// where it is not JSON even with its keys quoted.
std::optional<JsonValue> parseBackendConfig(std::string_view text);

} // namespace hlo

#endif // HLO_SUPPORT_BACKENDCONFIG_H
