//===- XlaGpuDialect.h - The emitters' dialect ------------------*- C++ -*-===//
//
// The dialect the emitters (src/emitters) produce and the pipeline
// (src/pipeline) lowers. It has its own folder because both later stages
// depend on it: it sits after src/analysis (it embeds IndexingMap) and
// before the emitters. Ops and the attribute are declared in the .td files
// beside this header.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DIALECT_XLAGPUDIALECT_H
#define HLO_DIALECT_XLAGPUDIALECT_H

#include "analysis/IndexingMap.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialect/XlaGpuDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialect/XlaGpuAttrs.h.inc"

#define GET_OP_CLASSES
#include "dialect/XlaGpuOps.h.inc"

#endif // HLO_DIALECT_XLAGPUDIALECT_H
