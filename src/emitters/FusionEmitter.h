//===- FusionEmitter.h - A module's fusions as MLIR -------------*- C++ -*-===//
//
// Turns each kernel of an HLO module's KernelPlan (its fusions, the
// instructions wrapped into fusions of their own, or a bare fused entry)
// into MLIR: the subgraph functions and the entry function of the fusion's
// emitter. Fusions whose emitter is not implemented yet are reported by
// kind; ops no emitter handles are reported by name; library calls get a
// warning that no kernel is emitted for them.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_FUSIONEMITTER_H
#define HLO_EMITTERS_FUSIONEMITTER_H

#include "analysis/DeviceInfo.h"
#include "emitters/ElementalEmitter.h"
#include "hlo_parser/HloModule.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace hlo {

/// Loads every dialect the emitters produce.
void loadEmitterDialects(mlir::MLIRContext &context);

/// Emits all fusions of `module`; null on error (reported through
/// `diagnostics` at the failing instruction).
mlir::OwningOpRef<mlir::ModuleOp>
emitModuleFusions(const HloModule &module, const GpuDeviceInfo &device,
                  mlir::MLIRContext &context, DiagnosticEngine &diagnostics);

} // namespace hlo

#endif // HLO_EMITTERS_FUSIONEMITTER_H
