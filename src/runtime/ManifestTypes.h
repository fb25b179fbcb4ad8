//===- ManifestTypes.h - The manifest's schema in hlo-run --------*- C++ -*-===//
//
// The launch manifest's types (abi/LaunchManifest.h, shared with
// hlo-compile) under the runtime's namespace, where every command uses
// them, and the one conversion of a manifest's array shape to the
// interpreter's.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_MANIFESTTYPES_H
#define HLO_RUNTIME_MANIFESTTYPES_H

#include "abi/LaunchManifest.h"
#include "hlo_parser/Shape.h"

#include <optional>
#include <string>

namespace hlo::runtime {

using abi::BufferBinding;
using abi::KernelParameter;
using abi::KernelSpec;
using abi::LaunchManifest;
using abi::ProgramStep;
using abi::launchLabel;
using abi::BufferId;
using abi::parseLaunchManifest;

/// The interpreter's shape of a manifest's array (element type, dimensions
/// and layout); the reader accepted only element types HLO names.
Shape shapeOf(const abi::ArrayShape &shape);

/// A file the manifest at `manifestPath` names ("code", "compiled_hlo"):
/// absolute, or relative to the manifest's directory.
std::string besideManifest(const std::string &manifestPath, const std::string &file);

/// The manifest at `path`, read and parsed; nullopt after an error
/// (printed to stderr).
std::optional<LaunchManifest> loadLaunchManifest(const std::string &path);

} // namespace hlo::runtime

#endif // HLO_RUNTIME_MANIFESTTYPES_H
