//===- ManifestTypes.cpp - The manifest's schema in hlo-run ---------------===//
#include "ManifestTypes.h"

#include "hlo_parser/PrimitiveType.h"
#include "hlo_parser/SourceFile.h"

#include <iostream>

namespace hlo::runtime {

Shape shapeOf(const abi::ArrayShape &shape) {
  // The manifest reader checked the name against the same list of types.
  Shape result(*parsePrimitiveTypeName(shape.elementType), shape.dimensions);
  Layout layout;
  layout.minorToMajor = shape.minorToMajor;
  result.setLayout(layout);
  return result;
}

std::string besideManifest(const std::string &manifestPath, const std::string &file) {
  if (!file.empty() && file[0] == '/')
    return file;
  size_t slash = manifestPath.rfind('/');
  std::string directory = slash == std::string::npos ? "." : manifestPath.substr(0, slash);
  return directory + "/" + file;
}

std::optional<LaunchManifest> loadLaunchManifest(const std::string &path) {
  ErrorOr<std::shared_ptr<SourceFile>> json = SourceFile::read(path);
  if (!json) {
    std::cerr << "hlo-run: error: manifest: " << json.error() << "\n";
    return std::nullopt;
  }
  ErrorOr<LaunchManifest> manifest = parseLaunchManifest(std::string((*json)->text()));
  if (!manifest) {
    std::cerr << path << ": error: " << manifest.error() << "\n";
    return std::nullopt;
  }
  return std::move(*manifest);
}
} // namespace hlo::runtime
