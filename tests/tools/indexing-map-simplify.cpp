//===- indexing-map-simplify.cpp - Test tool for indexing maps ------------===//
//
// Reads indexing maps in the text form of XLA's "Indexing Analysis" from a
// file (maps separated by lines holding `// -----`; `//` comments are
// skipped), simplifies each and prints it. With --compose, each chunk holds
// two maps separated by `&&`: it prints the simplified composition (second
// after first). Used by the lit tests of the simplifier.
//
//===----------------------------------------------------------------------===//
#include "analysis/IndexingMap.h"

#include "mlir/IR/MLIRContext.h"

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  bool compose = false;
  std::string path;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--compose")
      compose = true;
    else
      path = arg;
  }
  std::ifstream file(path);
  if (!file) {
    std::cerr << "indexing-map-simplify: cannot open '" << path << "'\n";
    return 1;
  }
  std::vector<std::string> chunks(1);
  std::string line;
  while (std::getline(file, line)) {
    if (line.rfind("// -----", 0) == 0) {
      chunks.emplace_back();
      continue;
    }
    size_t comment = line.find("//");
    if (comment != std::string::npos)
      line = line.substr(0, comment);
    chunks.back() += line + "\n";
  }
  mlir::MLIRContext context;
  int status = 0;
  for (const std::string &chunk : chunks) {
    if (chunk.find_first_not_of(" \n\t") == std::string::npos)
      continue;
    std::vector<std::string> parts;
    if (compose) {
      size_t split = chunk.find("&&");
      parts = {chunk.substr(0, split),
               split == std::string::npos ? "" : chunk.substr(split + 2)};
    } else {
      parts = {chunk};
    }
    std::vector<hlo::IndexingMap> maps;
    for (const std::string &part : parts) {
      llvm::Expected<hlo::IndexingMap> map = hlo::parseIndexingMap(part, &context);
      if (!map) {
        std::cerr << "error: " << llvm::toString(map.takeError()) << "\n";
        status = 1;
        break;
      }
      maps.push_back(*map);
    }
    if (maps.size() != parts.size())
      continue;
    hlo::IndexingMap result =
        compose ? hlo::composeIndexingMaps(maps[0], maps[1]) : maps[0];
    result.simplify();
    result.removeUnusedSymbols();
    std::cout << result.toString() << "\n// -----\n";
  }
  return status;
}
