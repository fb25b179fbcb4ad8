//===- Ops.h - The interpreter's op families -------------------*- C++ -*-===//
//
// Internal: one entry point per op family, each in its own file. Every
// function takes the instruction and its evaluated operands and returns the
// instruction's value; families that call computations (reduce, sort, ...)
// take the Evaluator.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_INTERPRETER_OPS_H
#define HLO_INTERPRETER_OPS_H

#include "ArrayUtils.h"
#include "hlo_parser/OpAttributes.h"

namespace hlo::interp {

class Evaluator;
using Operands = std::vector<const Literal *>;

/// broadcast, reshape, bitcast, transpose, slice, dynamic-slice,
/// dynamic-update-slice, pad, concatenate, reverse, iota, copy.
bool isShapeOpcode(HloOpcode opcode);
Literal evaluateShapeOp(const HloInstruction &instruction, const Operands &operands);

/// reduce, reduce-window, select-and-scatter, map.
Literal evaluateReduce(const HloInstruction &instruction, const Operands &operands,
                       Evaluator &evaluator);
Literal evaluateReduceWindow(const HloInstruction &instruction,
                             const Operands &operands, Evaluator &evaluator);
Literal evaluateSelectAndScatter(const HloInstruction &instruction,
                                 const Operands &operands, Evaluator &evaluator);
Literal evaluateMap(const HloInstruction &instruction, const Operands &operands,
                    Evaluator &evaluator);

Literal evaluateGather(const HloInstruction &instruction, const Operands &operands);
Literal evaluateScatter(const HloInstruction &instruction, const Operands &operands,
                        Evaluator &evaluator);
/// A dot's dimension numbers (dot's attributes, or a GEMM custom-call's
/// backend_config).
using DotDimensions = DotDimensionNumbers;
/// The products' sums of a floating-point dot, in the dot's output order,
/// operands converted to `operandType` first, accumulated in double and
/// not rounded.
std::vector<double> floatDotSums(const DotDimensions &dimensions, const Literal &lhs,
                                 const Literal &rhs, PrimitiveType operandType);
Literal evaluateDot(const HloInstruction &instruction, const Operands &operands);
/// A convolution's dimension numbers, window and groups (a convolution's
/// attributes, or a cuDNN convolution custom-call's).
struct ConvolutionSpec {
  ConvDimLabels labels;
  std::vector<WindowDimension> window; // one per spatial dimension
  int64_t featureGroups = 1, batchGroups = 1;
};
ConvolutionSpec convolutionSpecOf(const HloInstruction &instruction);
/// The sums of a float convolution of `lhs` and `rhs` into `output`'s
/// shape, in its order, accumulated in double and not rounded.
std::vector<double> floatConvolutionSums(const HloInstruction &instruction,
                                         const ConvolutionSpec &spec, const Literal &lhs,
                                         const Literal &rhs, const Shape &output);
/// The gradients of the forward convolution `spec` describes (the window
/// and dim_labels of cuDNN's backward custom-calls): with respect to its
/// input, shaped `input`, from the output gradient and the kernel; and with
/// respect to its kernel, shaped `filter`, from the input and the output
/// gradient. Accumulated in double and not rounded.
std::vector<double> floatConvolutionInputGradient(const HloInstruction &instruction,
                                                  const ConvolutionSpec &spec,
                                                  const Literal &outputGradient,
                                                  const Literal &filter, const Shape &input);
std::vector<double> floatConvolutionFilterGradient(const HloInstruction &instruction,
                                                   const ConvolutionSpec &spec,
                                                   const Literal &inputValues,
                                                   const Literal &outputGradient,
                                                   const Shape &filter);
Literal evaluateConvolution(const HloInstruction &instruction, const Operands &operands);
/// The library calls XLA makes at custom-calls that have an HLO meaning:
/// cuBLAS GEMMs with their epilogues, cuDNN forward convolutions with
/// their bias, side input and activation, cuDNN backward-input and
/// backward-filter convolutions, TopK.
bool isInterpretedCustomCall(const HloInstruction &instruction);
/// `topk` and XLA's `__gpu$TopK`: the k largest (or, for topk with
/// largest=false, smallest) elements of each row and their indices, ties
/// in index order.
Literal evaluateTopK(const HloInstruction &instruction, const Operands &operands);
Literal evaluateCustomCall(const HloInstruction &instruction, const Operands &operands);
Literal evaluateSort(const HloInstruction &instruction, const Operands &operands,
                     Evaluator &evaluator);

} // namespace hlo::interp

#endif // HLO_INTERPRETER_OPS_H
