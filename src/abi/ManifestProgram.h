//===- ManifestProgram.h - The manifest's program and buffers ---*- C++ -*-===//
//
// The JSON of the launch manifest's module-level sections (LaunchManifest.h:
// "program", "buffers", "failed"), written and read here so that
// LaunchManifest.cpp keeps to the kernels. Internal to HloAbi.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ABI_MANIFESTPROGRAM_H
#define HLO_ABI_MANIFESTPROGRAM_H

#include "support/ErrorOr.h"
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
ErrorOr<KernelParameter> readBinding(const JsonValue &json, const std::string &where);

/// A program step's kind as the manifest spells it ("copy", "while", ...).
const char *stepKindName(ProgramStep::Kind kind);

/// Reads the sections of `root` into `manifest`, or says which section is
/// malformed. Absent sections are empty.
Status readProgramSections(const JsonValue &root, LaunchManifest &manifest);

} // namespace hlo::abi

#endif // HLO_ABI_MANIFESTPROGRAM_H
