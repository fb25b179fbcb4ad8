//===- ParserFuzzer.cpp - libFuzzer entry point for the HLO parser --------===//
//
// Feeds arbitrary bytes to the parser; whatever parses is verified, printed,
// re-parsed and re-printed, and the two prints must agree (round trip).
//
//===----------------------------------------------------------------------===//
#include "hlo_parser/Parser.h"
#include "hlo_parser/Printer.h"
#include "hlo_parser/Verifier.h"

#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  auto [module, errors] = hlo::parseHloModuleText(text, "fuzz.hlo");
  if (!module)
    return 0;
  hlo::verifyModuleToString(*module);
  std::string printed = hlo::printModule(*module);
  auto [reparsed, reparseErrors] = hlo::parseHloModuleText(printed, "printed.hlo");
  if (!reparsed) {
    std::fprintf(stderr, "printed module does not parse:\n%s\n%s\n",
                 printed.c_str(), reparseErrors.c_str());
    std::abort();
  }
  if (hlo::printModule(*reparsed) != printed) {
    std::fprintf(stderr, "round trip differs for:\n%s\n", printed.c_str());
    std::abort();
  }
  return 0;
}
