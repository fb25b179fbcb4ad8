//===- EmitFusionAnalysis.h - --emit=fusion-analysis -----------*- C++ -*-===//
//
// Prints, for every fusion of the module (or, for a module without fusions,
// the entry computation taken as one fusion, as XLA's test harness does),
// one line `<name>: <kind>` and one line per root with its hero:
//
//   fused_transpose: kTranspose/TransposeFusion
//     root %t: hero %t tiled transpose dims=[64, 1536] perm=[1, 0]
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DRIVER_EMITFUSIONANALYSIS_H
#define HLO_DRIVER_EMITFUSIONANALYSIS_H

#include "analysis/DeviceInfo.h"
#include "hlo_parser/HloModule.h"

#include <string>
#include <vector>

namespace hlo::driver {

/// Each fusion's analysis (`kernels`, when not empty: only the fusions it
/// names, by instruction or symbol name; an error for a name it does not
/// find); a module without fusions: its entry's.
bool emitFusionAnalysis(const HloModule &module, const GpuDeviceInfo &device,
                        const std::vector<std::string> &kernels, std::string &out,
                        DiagnosticEngine &diagnostics);

} // namespace hlo::driver

#endif // HLO_DRIVER_EMITFUSIONANALYSIS_H
