//===- NvptxPasses.h - The NVPTX target's own passes ------------*- C++ -*-===//
//
// Declarations and registration of the passes in NvptxPasses.td.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_NVPTX_NVPTXPASSES_H
#define HLO_PIPELINE_NVPTX_NVPTXPASSES_H

#include "dialect/XlaGpuDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace hlo::pipeline {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "pipeline/nvptx/NvptxPasses.h.inc"

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_NVPTX_NVPTXPASSES_H
