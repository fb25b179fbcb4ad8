//===- xla-gpu-opt.cpp - mlir-opt with the emitters' dialect --------------===//
//
// MLIR's opt driver with the xla_gpu dialect and the upstream dialects the
// emitters use registered: parses, verifies and prints (round trips) the
// emitted IR in the lit tests. Passes join it as the pipeline lands.
//
//===----------------------------------------------------------------------===//
#include "emitters/FusionEmitter.h"
#include "dialect/XlaGpuDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<hlo::xla_gpu::XlaGpuDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect, mlir::tensor::TensorDialect,
                  mlir::complex::ComplexDialect, mlir::gpu::GPUDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "xla_gpu dialect test driver\n", registry));
}
