//===- ManifestTypes.h - The manifest's schema in hlo-run --------*- C++ -*-===//
//
// The launch manifest's types (abi/LaunchManifest.h, shared with
// hlo-compile) under the runtime's namespace, where every command uses
// them.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_MANIFESTTYPES_H
#define HLO_RUNTIME_MANIFESTTYPES_H

#include "abi/LaunchManifest.h"

namespace hlo::runtime {

using abi::BufferBinding;
using abi::KernelParameter;
using abi::KernelSpec;
using abi::LaunchManifest;
using abi::ProgramStep;
using abi::launchLabel;
using abi::BufferId;
using abi::parseLaunchManifest;

} // namespace hlo::runtime

#endif // HLO_RUNTIME_MANIFESTTYPES_H
