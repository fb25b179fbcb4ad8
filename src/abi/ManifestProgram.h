//===- ManifestProgram.h - The manifest's program and buffers ---*- C++ -*-===//
//
// The JSON of the launch manifest's module-level sections (LaunchManifest.h:
// "program", "buffers", "failed"), written and read here so that
// LaunchManifest.cpp keeps to the kernels. Internal to HloAbi.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ABI_MANIFESTPROGRAM_H
#define HLO_ABI_MANIFESTPROGRAM_H

#include "support/Json.h"
#include "abi/LaunchManifest.h"

#include <string>

namespace hlo::abi {

/// The sections as JSON members, each line ending in ",\n" (empty when
/// the manifest has none).
std::string printProgramSections(const LaunchManifest &manifest);

/// A buffer binding (a kernel parameter, a step's argument or result) as
/// one JSON object, and back (LaunchManifest.cpp); `where` prefixes errors.
std::string bindingJson(const KernelParameter &parameter);
bool readBinding(const JsonValue &json, KernelParameter &parameter, const std::string &where,
                 std::string &error);

/// A program step's kind as the manifest spells it ("copy", "while", ...).
const char *stepKindName(ProgramStep::Kind kind);

/// Reads the sections of `root` into `manifest`; false with `error` set on
/// a malformed section. Absent sections are empty.
bool readProgramSections(const JsonValue &root, LaunchManifest &manifest, std::string &error);

} // namespace hlo::abi

#endif // HLO_ABI_MANIFESTPROGRAM_H
