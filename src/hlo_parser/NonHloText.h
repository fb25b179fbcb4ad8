//===- NonHloText.h - Naming inputs that are not HLO text ---------*- C++ -*-===//
//
// Owns the recognition of the files that sit beside HLO modules (in an XLA
// dump folder above all: buffer assignments, thunk sequences, LLVM IR, PTX,
// options) so that giving one is answered in one line that names what it
// is, not with a parse error somewhere in its third line.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PARSER_NONHLOTEXT_H
#define HLO_PARSER_NONHLOTEXT_H

#include <optional>
#include <string>
#include <string_view>

namespace hlo {

/// What `text` is when its beginning shows it is not HLO text ("LLVM IR",
/// "XLA's buffer assignment", ...); nullopt when it may be HLO text, which
/// the parser then decides.
std::optional<std::string> describeNonHloText(std::string_view text);

} // namespace hlo

#endif // HLO_PARSER_NONHLOTEXT_H
