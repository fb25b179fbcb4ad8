//===- OptimizedModuleCache.cpp - The HLO pipeline's result kept ----------===//
#include "OptimizedModuleCache.h"
#include "KernelCodegen.h"

#include "hlo_parser/Parser.h"
#include "hlo_parser/Printer.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <fmt/core.h>

namespace hlo::driver {
namespace {

/// `computation/instruction`: an instruction's name in the module.
std::string placeName(const HloComputation &computation, const HloInstruction &instruction) {
  return computation.name() + "/" + instruction.name();
}

} // namespace

std::string optimizedModuleKey(std::string_view input, const Options &options) {
  std::string passes;
  for (const std::string &pass : options.hloPasses)
    passes += pass + ",";
  pipeline::PipelineOptions build;
  build.cudaPath = options.cudaPath;
  return KernelCache::keyOf(fmt::format("hlo-compile optimized module 1;{};{};{};{};{}\n",
                                         codegenSalt(build), options.hloOpt, passes,
                                         options.gpuArch, options.gemmTiles) +
                             std::string(input));
}

std::string packOptimizedModule(const HloModule &module) {
  std::string places;
  size_t count = 0;
  for (const auto &computation : module.computations())
    for (const auto &instruction : computation->instructions()) {
      // A constant the parser filled (the input elided its values) is
      // printed in full: it says so again when read back.
      bool filled = instruction->hasLiteral() && instruction->literal().isFilled();
      if (instruction->sourceOffset() == kNoOffset && !filled)
        continue;
      places += fmt::format("{} {} {}\n", placeName(*computation, *instruction),
                            instruction->sourceOffset(), filled ? 1 : 0);
      ++count;
    }
  std::string text = printModule(module);
  return fmt::format("places {}\n{}text {}\n{}", count, places, text.size(), text);
}

std::unique_ptr<HloModule> unpackOptimizedModule(std::string_view entry,
                                                 std::shared_ptr<const SourceFile> input) {
  llvm::StringRef rest(entry.data(), entry.size());
  auto [header, afterHeader] = rest.split('\n');
  size_t count = 0;
  if (!header.consume_front("places ") || header.getAsInteger(10, count))
    return nullptr;
  rest = afterHeader;
  llvm::StringMap<std::pair<uint32_t, bool>> places;
  for (size_t i = 0; i < count; ++i) {
    auto [line, next] = rest.split('\n');
    auto [placed, filledText] = line.rsplit(' ');
    auto [name, offsetText] = placed.rsplit(' ');
    uint32_t offset = 0;
    if (offsetText.getAsInteger(10, offset) ||
        (offset != kNoOffset && offset > input->text().size()) ||
        (filledText != "0" && filledText != "1"))
      return nullptr;
    places[name] = {offset, filledText == "1"};
    rest = next;
  }
  auto [textHeader, text] = rest.split('\n');
  size_t size = 0;
  if (!textHeader.consume_front("text ") || textHeader.getAsInteger(10, size) ||
      text.size() != size)
    return nullptr;
  ParsedModule parsed = parseHloModuleText(std::string_view(text.data(), text.size()),
                                           input->name());
  if (!parsed.module)
    return nullptr;
  for (const auto &computation : parsed.module->computations())
    for (const auto &instruction : computation->instructions()) {
      auto place = places.find(placeName(*computation, *instruction));
      if (place == places.end()) {
        instruction->setSourceOffset(kNoOffset);
        continue;
      }
      instruction->setSourceOffset(place->second.first);
      if (place->second.second && instruction->hasLiteral()) {
        Literal literal = instruction->literal();
        literal.setFilled(true);
        instruction->setLiteral(std::move(literal));
      }
    }
  parsed.module->setSource(std::move(input));
  return std::move(parsed.module);
}

} // namespace hlo::driver
