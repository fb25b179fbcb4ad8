//===- Passes.h - The pipeline's own passes ---------------------*- C++ -*-===//
//
// Declarations and registration of the passes in Passes.td (generated).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_PASSES_H
#define HLO_PIPELINE_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "dialect/XlaGpuDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace hlo::pipeline {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "pipeline/Passes.h.inc"

/// Floats narrower than 16 bits (the f8, f6 and f4 kinds), scalars or
/// vectors: LLVM has no type for them (ExpandSmallFloats.cpp).
bool isSmallFloat(mlir::Type type);

/// Adds what every target runs first: arithmetic on the small floats in
/// f32 (arith-emulate-unsupported-floats), then xla-gpu-expand-small-floats.
void addSmallFloatLowering(mlir::PassManager &pm);

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_PASSES_H
