//===- ConvolutionOp.cpp - convolution ------------------------------------===//
//
// convolution with its dim_labels (which dimension of each operand and of
// the output is batch, feature, spatial), window (size, stride, padding,
// lhs and rhs dilation, reversal) and feature and batch groups, as the HLO
// semantics define them:
//
//   out[b, o..., f] = sum over the window positions k and the input
//                     features i of f's group of
//                     lhs[b', o*stride + k*rhs_dilation - pad_low, i]
//                       * rhs[k..., i, f]
//
// where the lhs position is in the lhs dilated by lhs_dilation (positions
// between its elements, and outside it, read zero) and b' picks f's batch
// group. Float sums accumulate in double, window positions (row-major)
// outer and input features inner, and round once at the end; outputs run
// on every core. The cuDNN convolution custom-calls (LibraryCalls.cpp)
// carry the same attributes and share floatConvolutionSums.
//
// The backward convolutions of cuDNN (`__cudnn$convBackwardInput`,
// `__cudnn$convBackwardFilter`) carry the window and dim_labels of the
// FORWARD convolution whose gradient they compute (XLA's conv rewriter
// swaps the labels so): for the input gradient, the forward input is the
// custom-call's result, the kernel its second operand and the forward
// output (the output gradient dy) its first; for the filter gradient, the
// forward input is the first operand, dy the second and the kernel the
// result. Both are the transposes of the forward sum above:
//
//   dx[b, x, c] = sum over k and the output features f of c's group of
//                 dy[b, o, f] * rhs[k, c % group inputs, f]
//                 where o * stride + k * rhs_dilation - pad_low == x
//   dw[k, i, f] = sum over b and the forward outputs o of
//                 x[b, o * stride + k * rhs_dilation - pad_low, i + f's
//                   group * group inputs] * dy[b, o, f]
//
// (positions outside the input read zero; pad_high only fixes the forward
// output's extent, which is checked against dy's). No lhs dilation, no
// batch groups.
//
//===----------------------------------------------------------------------===//
#include "Ops.h"

#include "hlo_parser/FloatFormat.h"
#include "hlo_parser/OpAttributes.h"

namespace hlo::interp {
namespace {

/// Row-major element strides of `shape`'s logical dimensions.
std::vector<int64_t> stridesOf(const Shape &shape) {
  std::vector<int64_t> strides(static_cast<size_t>(shape.rank()), 1);
  for (int64_t d = shape.rank() - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape.dimension(d + 1);
  return strides;
}

/// Fails unless `in`, `kernel` and `output` are the input, kernel and
/// output of the convolution `spec` describes (ranks, features, groups,
/// window sizes), all of them floats.
void checkConvolutionShapes(const HloInstruction &instruction, const ConvolutionSpec &spec,
                            const Shape &in, const Shape &kernel, const Shape &output) {
  const ConvDimLabels &labels = spec.labels;
  if (!isFloatingPoint(in.elementType()) || !isFloatingPoint(kernel.elementType()))
    fail(instruction, "a convolution of " + std::string(primitiveTypeName(in.elementType())) +
                          " and " + std::string(primitiveTypeName(kernel.elementType())) +
                          " is not supported by the interpreter");
  size_t spatialRank = labels.inputSpatial.size();
  if (labels.kernelSpatial.size() != spatialRank || labels.outputSpatial.size() != spatialRank ||
      in.rank() != static_cast<int64_t>(spatialRank) + 2 ||
      kernel.rank() != static_cast<int64_t>(spatialRank) + 2 ||
      output.rank() != static_cast<int64_t>(spatialRank) + 2)
    fail(instruction, "dim_labels " + labels.text + " do not match the operands' ranks");
  int64_t inputFeatures = kernel.dimension(labels.kernelInputFeature);
  int64_t outputFeatures = output.dimension(labels.outputFeature);
  int64_t outputBatch = output.dimension(labels.outputBatch);
  int64_t featureGroups = std::max<int64_t>(spec.featureGroups, 1);
  int64_t batchGroups = std::max<int64_t>(spec.batchGroups, 1);
  if (in.dimension(labels.inputFeature) != inputFeatures * featureGroups ||
      outputFeatures % featureGroups != 0 || outputFeatures % batchGroups != 0 ||
      kernel.dimension(labels.kernelOutputFeature) != outputFeatures ||
      in.dimension(labels.inputBatch) != outputBatch * batchGroups)
    fail(instruction, "the convolution's feature or batch groups do not divide its operands");
  for (size_t s = 0; s < spatialRank; ++s)
    if (spec.window[s].size != kernel.dimension(labels.kernelSpatial[s]))
      fail(instruction, "window size " + std::to_string(spec.window[s].size) +
                            " differs from the kernel's spatial dimension " +
                            std::to_string(kernel.dimension(labels.kernelSpatial[s])));
}

/// The spatial extents of the forward convolution `spec` describes, checked
/// for the backward convolutions: no lhs dilation, no batch groups, and the
/// forward output's extents those of `output` (HLO's shape rule,
/// (in + pad_low + pad_high - (size - 1) * rhs_dilation - 1) / stride + 1).
void checkBackwardWindow(const HloInstruction &instruction, const ConvolutionSpec &spec,
                         const Shape &in, const Shape &output) {
  const ConvDimLabels &labels = spec.labels;
  if (!isFloatingPoint(output.elementType()))
    fail(instruction, "an output gradient of " +
                          std::string(primitiveTypeName(output.elementType())) +
                          " is not supported by the interpreter");
  if (std::max<int64_t>(spec.batchGroups, 1) != 1)
    fail(instruction, "a backward convolution with batch groups is not supported by the "
                      "interpreter");
  for (size_t s = 0; s < labels.inputSpatial.size(); ++s) {
    const WindowDimension &window = spec.window[s];
    if (window.baseDilation != 1 || window.stride < 1 || window.windowDilation < 1)
      fail(instruction, "a backward convolution's window needs no lhs dilation and positive "
                        "strides and rhs dilations");
    int64_t padded = in.dimension(labels.inputSpatial[s]) + window.padLow + window.padHigh;
    int64_t span = (window.size - 1) * window.windowDilation + 1;
    int64_t extent = padded < span ? 0 : (padded - span) / window.stride + 1;
    if (extent != output.dimension(labels.outputSpatial[s]))
      fail(instruction, "the forward convolution's window gives " + std::to_string(extent) +
                            " outputs in spatial dimension " + std::to_string(s) + ", not " +
                            std::to_string(output.dimension(labels.outputSpatial[s])));
  }
}

/// Where a logical index of `shape` (row-major) is, per dimension.
void unflatten(int64_t index, const Shape &shape, const std::vector<int64_t> &strides,
               std::vector<int64_t> &at) {
  at.resize(static_cast<size_t>(shape.rank()));
  for (int64_t d = 0; d < shape.rank(); ++d)
    at[d] = index / strides[d] % shape.dimension(d);
}

} // namespace

ConvolutionSpec convolutionSpecOf(const HloInstruction &instruction) {
  ConvolutionSpec spec;
  const ConvDimLabels *labels = convDimLabelsOf(instruction);
  if (!labels)
    fail(instruction, "a convolution needs dim_labels");
  spec.labels = *labels;
  spec.window = windowOf(instruction);
  // No window: every spatial dimension a window of one.
  spec.window.resize(spec.labels.inputSpatial.size());
  spec.featureGroups = featureGroupCount(instruction);
  spec.batchGroups = batchGroupCount(instruction);
  return spec;
}

std::vector<double> floatConvolutionSums(const HloInstruction &instruction,
                                         const ConvolutionSpec &spec, const Literal &lhs,
                                         const Literal &rhs, const Shape &output) {
  const ConvDimLabels &labels = spec.labels;
  const Shape &in = lhs.shape(), &kernel = rhs.shape();
  checkConvolutionShapes(instruction, spec, in, kernel, output);
  size_t spatialRank = labels.inputSpatial.size();
  int64_t inputFeatures = kernel.dimension(labels.kernelInputFeature);
  int64_t outputFeatures = output.dimension(labels.outputFeature);
  int64_t outputBatch = output.dimension(labels.outputBatch);
  int64_t featureGroups = std::max<int64_t>(spec.featureGroups, 1);
  int64_t batchGroups = std::max<int64_t>(spec.batchGroups, 1);

  std::vector<int64_t> inStrides = stridesOf(in), kernelStrides = stridesOf(kernel),
                       outStrides = stridesOf(output);
  // Window positions (row-major over the spatial dimensions).
  int64_t positions = 1;
  for (size_t s = 0; s < spatialRank; ++s)
    positions *= spec.window[s].size;
  const double *lhsData = lhs.realData().data(), *rhsData = rhs.realData().data();
  int64_t outputs = output.elementCount();
  std::vector<double> sums(static_cast<size_t>(outputs));
  int64_t featuresPerGroup = outputFeatures / featureGroups;
  int64_t featuresPerBatchGroup = outputFeatures / batchGroups;
  // Consecutive input features of the lhs and the kernel.
  int64_t lhsStep = inStrides[labels.inputFeature];
  int64_t rhsStep = kernelStrides[labels.kernelInputFeature];
  // One task per 4096 outputs.
  constexpr int64_t kChunk = 4096;
  forEachTask((outputs + kChunk - 1) / kChunk, double(outputs) * positions * inputFeatures,
              [&](int64_t task) {
                std::vector<int64_t> outputAt(spatialRank);
                for (int64_t o = task * kChunk; o < std::min(outputs, (task + 1) * kChunk); ++o) {
                  for (size_t s = 0; s < spatialRank; ++s)
                    outputAt[s] = o / outStrides[labels.outputSpatial[s]] %
                                  output.dimension(labels.outputSpatial[s]);
                  int64_t f = o / outStrides[labels.outputFeature] %
                              output.dimension(labels.outputFeature);
                  int64_t b = o / outStrides[labels.outputBatch] % outputBatch;
                  int64_t batch = f / featuresPerBatchGroup * outputBatch + b;
                  int64_t firstFeature = f / featuresPerGroup * inputFeatures;
                  const double *lhsBase = lhsData + batch * inStrides[labels.inputBatch] +
                                          firstFeature * inStrides[labels.inputFeature];
                  const double *rhsBase =
                      rhsData + f * kernelStrides[labels.kernelOutputFeature];
                  double sum = 0;
                  for (int64_t k = 0; k < positions; ++k) {
                    int64_t rest = k;
                    bool inside = true;
                    int64_t lhsOffset = 0, rhsOffset = 0;
                    for (size_t s = spatialRank; s-- > 0;) {
                      const WindowDimension &window = spec.window[s];
                      int64_t windowAt = rest % window.size;
                      rest /= window.size;
                      int64_t tap = window.reversal ? window.size - 1 - windowAt : windowAt;
                      rhsOffset += tap * kernelStrides[labels.kernelSpatial[s]];
                      int64_t dilated = outputAt[s] * window.stride +
                                        windowAt * window.windowDilation - window.padLow;
                      int64_t extent = in.dimension(labels.inputSpatial[s]);
                      if (dilated < 0 || dilated % window.baseDilation != 0 ||
                          dilated / window.baseDilation >= extent) {
                        inside = false;
                        break;
                      }
                      lhsOffset += dilated / window.baseDilation * inStrides[labels.inputSpatial[s]];
                    }
                    if (!inside)
                      continue;
                    const double *l = lhsBase + lhsOffset, *r = rhsBase + rhsOffset;
                    for (int64_t i = 0; i < inputFeatures; ++i)
                      sum += l[i * lhsStep] * r[i * rhsStep];
                  }
                  sums[static_cast<size_t>(o)] = sum;
                }
              });
  return sums;
}

std::vector<double> floatConvolutionInputGradient(const HloInstruction &instruction,
                                                  const ConvolutionSpec &spec,
                                                  const Literal &outputGradient,
                                                  const Literal &filter, const Shape &input) {
  const ConvDimLabels &labels = spec.labels;
  const Shape &output = outputGradient.shape(), &kernel = filter.shape();
  checkConvolutionShapes(instruction, spec, input, kernel, output);
  checkBackwardWindow(instruction, spec, input, output);
  size_t spatialRank = labels.inputSpatial.size();
  int64_t groupInputs = kernel.dimension(labels.kernelInputFeature);
  int64_t groupOutputs =
      output.dimension(labels.outputFeature) / std::max<int64_t>(spec.featureGroups, 1);
  std::vector<int64_t> inStrides = stridesOf(input), kernelStrides = stridesOf(kernel),
                       outStrides = stridesOf(output);
  int64_t positions = 1;
  for (size_t s = 0; s < spatialRank; ++s)
    positions *= spec.window[s].size;
  const double *dyData = outputGradient.realData().data(), *wData = filter.realData().data();
  int64_t inputs = input.elementCount();
  std::vector<double> sums(static_cast<size_t>(inputs));
  int64_t dyStep = outStrides[labels.outputFeature];
  int64_t wStep = kernelStrides[labels.kernelOutputFeature];
  constexpr int64_t kChunk = 4096;
  forEachTask(
      (inputs + kChunk - 1) / kChunk, double(inputs) * positions * groupOutputs,
      [&](int64_t task) {
        std::vector<int64_t> at;
        for (int64_t x = task * kChunk; x < std::min(inputs, (task + 1) * kChunk); ++x) {
          unflatten(x, input, inStrides, at);
          int64_t c = at[labels.inputFeature];
          // The group's output features, and c's place among its inputs.
          int64_t firstOutput = c / groupInputs * groupOutputs;
          const double *dyBase = dyData + at[labels.inputBatch] * outStrides[labels.outputBatch] +
                                 firstOutput * dyStep;
          const double *wBase = wData + c % groupInputs * kernelStrides[labels.kernelInputFeature] +
                                firstOutput * wStep;
          double sum = 0;
          for (int64_t k = 0; k < positions; ++k) {
            int64_t rest = k, dyOffset = 0, wOffset = 0;
            bool inside = true;
            for (size_t s = spatialRank; s-- > 0;) {
              const WindowDimension &window = spec.window[s];
              int64_t windowAt = rest % window.size;
              rest /= window.size;
              int64_t tap = window.reversal ? window.size - 1 - windowAt : windowAt;
              wOffset += tap * kernelStrides[labels.kernelSpatial[s]];
              // The forward output o with o * stride + windowAt * dilation - pad_low == x.
              int64_t scaled =
                  at[labels.inputSpatial[s]] + window.padLow - windowAt * window.windowDilation;
              if (scaled < 0 || scaled % window.stride != 0 ||
                  scaled / window.stride >= output.dimension(labels.outputSpatial[s])) {
                inside = false;
                break;
              }
              dyOffset += scaled / window.stride * outStrides[labels.outputSpatial[s]];
            }
            if (!inside)
              continue;
            const double *dy = dyBase + dyOffset, *w = wBase + wOffset;
            for (int64_t f = 0; f < groupOutputs; ++f)
              sum += dy[f * dyStep] * w[f * wStep];
          }
          sums[static_cast<size_t>(x)] = sum;
        }
      });
  return sums;
}

std::vector<double> floatConvolutionFilterGradient(const HloInstruction &instruction,
                                                   const ConvolutionSpec &spec,
                                                   const Literal &inputValues,
                                                   const Literal &outputGradient,
                                                   const Shape &filter) {
  const ConvDimLabels &labels = spec.labels;
  const Shape &input = inputValues.shape(), &output = outputGradient.shape();
  checkConvolutionShapes(instruction, spec, input, filter, output);
  checkBackwardWindow(instruction, spec, input, output);
  size_t spatialRank = labels.inputSpatial.size();
  int64_t groupInputs = filter.dimension(labels.kernelInputFeature);
  int64_t groupOutputs =
      output.dimension(labels.outputFeature) / std::max<int64_t>(spec.featureGroups, 1);
  std::vector<int64_t> inStrides = stridesOf(input), kernelStrides = stridesOf(filter),
                       outStrides = stridesOf(output);
  // Forward output positions (row-major over the spatial dimensions).
  int64_t positions = 1;
  for (size_t s = 0; s < spatialRank; ++s)
    positions *= output.dimension(labels.outputSpatial[s]);
  int64_t batch = output.dimension(labels.outputBatch);
  const double *xData = inputValues.realData().data(), *dyData = outputGradient.realData().data();
  int64_t weights = filter.elementCount();
  std::vector<double> sums(static_cast<size_t>(weights));
  constexpr int64_t kChunk = 256;
  forEachTask(
      (weights + kChunk - 1) / kChunk, double(weights) * positions * batch,
      [&](int64_t task) {
        std::vector<int64_t> at;
        for (int64_t w = task * kChunk; w < std::min(weights, (task + 1) * kChunk); ++w) {
          unflatten(w, filter, kernelStrides, at);
          int64_t f = at[labels.kernelOutputFeature];
          int64_t c = f / groupOutputs * groupInputs + at[labels.kernelInputFeature];
          double sum = 0;
          for (int64_t b = 0; b < batch; ++b) {
            const double *xBase =
                xData + b * inStrides[labels.inputBatch] + c * inStrides[labels.inputFeature];
            const double *dyBase =
                dyData + b * outStrides[labels.outputBatch] + f * outStrides[labels.outputFeature];
            for (int64_t o = 0; o < positions; ++o) {
              int64_t rest = o, xOffset = 0, dyOffset = 0;
              bool inside = true;
              for (size_t s = spatialRank; s-- > 0;) {
                const WindowDimension &window = spec.window[s];
                int64_t extent = output.dimension(labels.outputSpatial[s]);
                int64_t outputAt = rest % extent;
                rest /= extent;
                dyOffset += outputAt * outStrides[labels.outputSpatial[s]];
                int64_t tap = at[labels.kernelSpatial[s]];
                int64_t windowAt = window.reversal ? window.size - 1 - tap : tap;
                int64_t position =
                    outputAt * window.stride + windowAt * window.windowDilation - window.padLow;
                if (position < 0 || position >= input.dimension(labels.inputSpatial[s])) {
                  inside = false;
                  break;
                }
                xOffset += position * inStrides[labels.inputSpatial[s]];
              }
              if (inside)
                sum += xBase[xOffset] * dyBase[dyOffset];
            }
          }
          sums[static_cast<size_t>(w)] = sum;
        }
      });
  return sums;
}

Literal evaluateConvolution(const HloInstruction &instruction, const Operands &operands) {
  PrimitiveType type = instruction.shape().elementType();
  if (!isFloatingPoint(type))
    fail(instruction, "a convolution giving " + std::string(primitiveTypeName(type)) +
                          " is not supported by the interpreter");
  std::vector<double> sums = floatConvolutionSums(instruction, convolutionSpecOf(instruction),
                                                  *operands[0], *operands[1],
                                                  instruction.shape());
  Literal result(instruction.shape());
  for (size_t i = 0; i < sums.size(); ++i)
    result.realData()[i] = roundToFloatType(sums[i], type);
  return result;
}

} // namespace hlo::interp
