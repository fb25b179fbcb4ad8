//===- XlaGpuDialect.td - The emitters' dialect ------------*- tablegen -*-===//
//
// The dialect the emitters produce and the pipeline lowers (XLA's "XLA:GPU Emitters"):
// indexing maps as attributes, loops over a map's domain, indexing applied
// to index values, side-effect-free calls between subgraph functions, and
// the cooperation of a block's threads (shared tiles, barriers, warp
// shuffle reductions, predicated accesses).
// Everything else comes from upstream dialects (func, arith, math, scf,
// tensor, vector, gpu, complex).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DIALECT_XLAGPUDIALECT_TD
#define HLO_DIALECT_XLAGPUDIALECT_TD

include "mlir/IR/DialectBase.td"

def XlaGpuDialect : Dialect {
  let name = "xla_gpu";
  let summary = "Loops, indexing and calls of the HLO emitters";
  let cppNamespace = "::hlo::xla_gpu";
  let useDefaultAttributePrinterParser = 1;
  // The kernel contract's attributes (KernelContract.h) are verified
  // wherever they appear.
  let hasOperationAttrVerify = 1;
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // HLO_DIALECT_XLAGPUDIALECT_TD
