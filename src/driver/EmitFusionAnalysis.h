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

namespace hlo::driver {

bool emitFusionAnalysis(const HloModule &module, const GpuDeviceInfo &device,
                        std::string &out, DiagnosticEngine &diagnostics);

} // namespace hlo::driver

#endif // HLO_DRIVER_EMITFUSIONANALYSIS_H
