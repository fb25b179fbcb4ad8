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
//===----------------------------------------------------------------------===//
#include "Ops.h"

#include "hlo_parser/FloatFormat.h"

namespace hlo::interp {
namespace {

/// Row-major element strides of `shape`'s logical dimensions.
std::vector<int64_t> stridesOf(const Shape &shape) {
  std::vector<int64_t> strides(static_cast<size_t>(shape.rank()), 1);
  for (int64_t d = shape.rank() - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape.dimension(d + 1);
  return strides;
}

} // namespace

ConvolutionSpec convolutionSpecOf(const HloInstruction &instruction) {
  ConvolutionSpec spec;
  const AttrValue *labels = instruction.findAttribute("dim_labels");
  if (!labels || !labels->dimLabels)
    fail(instruction, "a convolution needs dim_labels");
  spec.labels = *labels->dimLabels;
  if (const AttrValue *window = instruction.findAttribute("window"))
    spec.window = window->window;
  // No window: every spatial dimension a window of one.
  spec.window.resize(spec.labels.inputSpatial.size());
  spec.featureGroups = instruction.intAttr("feature_group_count", 1);
  spec.batchGroups = instruction.intAttr("batch_group_count", 1);
  return spec;
}

std::vector<double> floatConvolutionSums(const HloInstruction &instruction,
                                         const ConvolutionSpec &spec, const Literal &lhs,
                                         const Literal &rhs, const Shape &output) {
  const ConvDimLabels &labels = spec.labels;
  const Shape &in = lhs.shape(), &kernel = rhs.shape();
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
      in.dimension(labels.inputBatch) != outputBatch * batchGroups)
    fail(instruction, "the convolution's feature or batch groups do not divide its operands");
  for (size_t s = 0; s < spatialRank; ++s)
    if (spec.window[s].size != kernel.dimension(labels.kernelSpatial[s]))
      fail(instruction, "window size " + std::to_string(spec.window[s].size) +
                            " differs from the kernel's spatial dimension " +
                            std::to_string(kernel.dimension(labels.kernelSpatial[s])));

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
