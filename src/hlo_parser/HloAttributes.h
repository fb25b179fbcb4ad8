//===- HloAttributes.h - Attributes of HLO instructions ---------*- C++ -*-===//
//
// Owns the value types of instruction attributes (`dimensions={0,1}`,
// `slice={[0:4:2]}`, `padding=0_1_0x2_2`, `window={size=3x3 ...}`,
// `dim_labels=b01f_01io->b01f`, computation references, ...), the registry
// that maps an attribute name to its kind, and which attributes each opcode
// accepts. Attributes no later stage interprets (metadata, sharding,
// frontend_attributes, ...) are kept as verbatim text.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PARSER_HLOATTRIBUTES_H
#define HLO_PARSER_HLOATTRIBUTES_H

#include "support/ErrorOr.h"
#include "HloOpcode.h"
#include "Shape.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hlo {

class HloComputation;
class HloInstruction;

enum class AttrKind : uint8_t {
  Int,             // index=1
  Bool,            // indices_are_sorted=true
  Float,           // epsilon=0.001
  String,          // custom_call_target="foo"
  Enum,            // direction=LT, kind=kLoop
  IntList,         // dimensions={0,1}
  IntListList,     // source_target_pairs={{0,1},{1,0}}
  SliceRanges,     // slice={[0:2], [1:5:2]}
  Padding,         // padding=0_0x1_1_0
  Window,          // window={size=3x3 stride=2x2 pad=1_1x1_1}
  DimLabels,       // dim_labels=b01f_01io->b01f
  Computation,     // to_apply=%add
  ComputationList, // branch_computations={%a, %b}
  InstructionList, // control-predecessors={%a, %b}
  ShapeValue,      // outfeed_shape=(f32[2], s32[])
  Raw,             // metadata={...}, sharding={...}: kept verbatim
};

struct SliceRange {
  int64_t start = 0;
  int64_t limit = 0;
  int64_t stride = 1;
  bool operator==(const SliceRange &o) const {
    return start == o.start && limit == o.limit && stride == o.stride;
  }
};

struct PaddingDimension {
  int64_t low = 0;
  int64_t high = 0;
  int64_t interior = 0;
  bool operator==(const PaddingDimension &o) const {
    return low == o.low && high == o.high && interior == o.interior;
  }
};

struct WindowDimension {
  int64_t size = 1;
  int64_t stride = 1;
  int64_t padLow = 0;
  int64_t padHigh = 0;
  int64_t baseDilation = 1;   // lhs_dilate
  int64_t windowDilation = 1; // rhs_dilate
  bool reversal = false;      // rhs_reversal
};

/// Convolution dimension numbers from `dim_labels`.
struct ConvDimLabels {
  std::string text; // as written, e.g. "b01f_01io->b01f"
  int64_t inputBatch = -1, inputFeature = -1;
  std::vector<int64_t> inputSpatial;
  int64_t kernelInputFeature = -1, kernelOutputFeature = -1;
  std::vector<int64_t> kernelSpatial;
  int64_t outputBatch = -1, outputFeature = -1;
  std::vector<int64_t> outputSpatial;
};

struct AttrValue {
  AttrKind kind = AttrKind::Raw;
  int64_t intValue = 0;
  bool boolValue = false;
  double floatValue = 0;
  std::string text; // String (unescaped), Enum, Raw, Float spelling
  std::vector<int64_t> ints;
  std::vector<std::vector<int64_t>> intLists;
  std::vector<SliceRange> slices;
  std::vector<PaddingDimension> padding;
  std::vector<WindowDimension> window;
  std::vector<HloComputation *> computations;
  std::vector<HloInstruction *> instructions;
  // Rare and large: kept out of line so attribute lists stay small.
  std::shared_ptr<const ConvDimLabels> dimLabels;
  std::shared_ptr<const Shape> shape;
};

struct HloAttribute {
  std::string name;
  AttrValue value;
  uint32_t offset = UINT32_MAX; // source offset of the attribute name
};

/// Kind of a known attribute name; nullopt for names no opcode takes.
std::optional<AttrKind> attributeKind(std::string_view name);
/// Whether `opcode` accepts attribute `name` (the attributes every
/// instruction may carry, such as metadata, included).
bool opcodeAcceptsAttribute(HloOpcode opcode, std::string_view name);
/// Attributes that must be present on `opcode` (e.g. gather's dims).
const std::vector<std::string_view> &requiredAttributes(HloOpcode opcode);

/// Whether a custom-call to `target` only annotates its operand for XLA's
/// SPMD partitioner (Sharding, SPMDFullToShardShape, SPMDShardToFullShape):
/// on one device, the identity, and no library call.
bool isShardingAnnotation(std::string_view target);

/// Parses `b01f_01io->b01f`, or says why the text is not a valid set of
/// labels.
ErrorOr<ConvDimLabels> parseConvDimLabels(std::string_view text);

/// Canonical HLO text of an attribute value (without `name=`).
void printAttrValue(std::string &out, const AttrValue &value);
std::string quoteString(std::string_view text);

} // namespace hlo

#endif // HLO_PARSER_HLOATTRIBUTES_H
