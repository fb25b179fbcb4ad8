//===- xla-gpu-opt.cpp - mlir-opt with the emitters' dialect --------------===//
//
// MLIR's opt driver with the xla_gpu dialect, every upstream dialect and
// pass, and the pipeline's own passes registered: the lit tests round-trip
// the emitted IR through it and run each pipeline pass on its own.
//
//===----------------------------------------------------------------------===//
#include "dialect/XlaGpuDialect.h"
#include "pipeline/AtomicRmwBufferization.h"
#include "pipeline/Passes.h"
#include "pipeline/PredicatedInsertBufferization.h"
#include "pipeline/host/HostPasses.h"
#include "pipeline/nvptx/NvptxPasses.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllPasses();
  registry.insert<hlo::xla_gpu::XlaGpuDialect>();
  hlo::pipeline::registerAtomicRmwBufferization(registry);
  hlo::pipeline::registerPredicatedInsertBufferization(registry);
  hlo::pipeline::registerPipelinePasses();
  hlo::pipeline::registerNvptxPasses();
  hlo::pipeline::registerHostPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "xla_gpu dialect test driver\n", registry));
}
