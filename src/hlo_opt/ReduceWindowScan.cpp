//===- ReduceWindowScan.cpp - Long prefix scans in two levels -------------===//
//
// JAX writes cumsum/cumprod/cummax as a reduce-window whose window is the
// whole of one dimension, padded n-1 elements low: each output element
// reduces up to n inputs (O(n^2) work; 32768-long rows take 10^9 adds per
// row). As XLA's reduce-window rewriter does, a scan longer than 128 along
// a dimension that 128 divides becomes two levels: the dimension split in
// [n/128, 128], a scan within each 128-long chunk, a scan of the chunks'
// totals (shifted by one: what comes before each chunk), and the reducer
// applied to both. O(128 n + (n/128)^2); a longer outer scan is split again
// by the next round. Only reducers that are one elementwise op of their two
// parameters (add, multiply, maximum, minimum, and, or) are rewritten.
//
//===----------------------------------------------------------------------===//
#include "HloPass.h"

namespace hlo::opt {
namespace {

constexpr int64_t kChunk = 128;

/// The dimension a reduce-window scans (window = the whole dimension,
/// padded n-1 low, nothing else), if it is such a scan over more than a
/// chunk that chunks divide.
std::optional<int64_t> scannedDimension(const HloInstruction &window) {
  const AttrValue *attribute = window.findAttribute("window");
  if (window.operandCount() != 2 || !window.shape().isArray() || !attribute)
    return std::nullopt;
  const Shape &shape = window.operand(0)->shape();
  if (!(shape == window.shape()) || attribute->window.size() != static_cast<size_t>(shape.rank()))
    return std::nullopt;
  std::optional<int64_t> scanned;
  for (int64_t d = 0; d < shape.rank(); ++d) {
    const WindowDimension &w = attribute->window[d];
    if (w.stride != 1 || w.baseDilation != 1 || w.windowDilation != 1 || w.reversal ||
        w.padHigh != 0)
      return std::nullopt;
    if (w.size == 1 && w.padLow == 0)
      continue;
    int64_t n = shape.dimension(d);
    if (scanned || w.size != n || w.padLow != n - 1)
      return std::nullopt;
    scanned = d;
  }
  if (!scanned || shape.dimension(*scanned) <= kChunk ||
      shape.dimension(*scanned) % kChunk != 0)
    return std::nullopt;
  return scanned;
}

class Builder {
public:
  Builder(HloInstruction &at, PassContext &context)
      : computation(*at.parent()), offset(at.sourceOffset()), context(context) {}

  HloInstruction *add(HloOpcode opcode, const std::string &name, Shape shape,
                      std::vector<HloInstruction *> operands,
                      std::vector<HloAttribute> attributes = {}) {
    return addInstruction(computation, opcode, context.names.unique(name), std::move(shape),
                          operands, std::move(attributes), offset);
  }

  /// A scan of `value` along `dimension` (all of it), with `like`'s reducer.
  HloInstruction *scan(HloInstruction *value, int64_t dimension, HloInstruction *init,
                       const HloInstruction &like) {
    AttrValue window;
    window.kind = AttrKind::Window;
    for (int64_t d = 0; d < value->shape().rank(); ++d) {
      WindowDimension w;
      if (d == dimension) {
        w.size = value->shape().dimension(d);
        w.padLow = w.size - 1;
      }
      window.window.push_back(w);
    }
    std::vector<HloAttribute> attributes = {{"window", window}};
    attributes.push_back(*like.findAttributeEntry("to_apply"));
    return add(HloOpcode::ReduceWindow, "scan", value->shape(), {value, init},
               std::move(attributes));
  }

  static HloAttribute ints(const std::string &name, std::vector<int64_t> values) {
    AttrValue value;
    value.kind = AttrKind::IntList;
    value.ints = std::move(values);
    return {name, value};
  }

private:
  HloComputation &computation;
  uint32_t offset;
  PassContext &context;
};

Shape withDimensions(const Shape &like, std::vector<int64_t> dimensions) {
  return Shape(like.elementType(), std::move(dimensions));
}

/// The two-level form of scan `window` along `d`; returns its value.
HloInstruction *splitScan(HloInstruction &window, int64_t d, HloOpcode reducer,
                          PassContext &context) {
  Builder b(window, context);
  HloInstruction *input = window.operand(0), *init = window.operand(1);
  const Shape &shape = input->shape();
  std::vector<int64_t> split = shape.dimensions();
  int64_t chunks = split[d] / kChunk;
  split[d] = kChunk;
  split.insert(split.begin() + d, chunks);
  HloInstruction *chunked =
      b.add(HloOpcode::Reshape, "chunked", withDimensions(shape, split), {input});
  HloInstruction *inner = b.scan(chunked, d + 1, init, window);
  // Each chunk's total: its scan's last element.
  AttrValue slice;
  slice.kind = AttrKind::SliceRanges;
  for (int64_t i = 0; i < static_cast<int64_t>(split.size()); ++i)
    slice.slices.push_back({i == d + 1 ? kChunk - 1 : 0, i == d + 1 ? kChunk : split[i], 1});
  std::vector<int64_t> lastDims = split;
  lastDims[d + 1] = 1;
  HloInstruction *last = b.add(HloOpcode::Slice, "chunk_total", withDimensions(shape, lastDims),
                               {inner}, {{"slice", slice}});
  std::vector<int64_t> totalsDims = split;
  totalsDims.erase(totalsDims.begin() + d + 1);
  HloInstruction *totals =
      b.add(HloOpcode::Reshape, "chunk_totals", withDimensions(shape, totalsDims), {last});
  HloInstruction *outer = b.scan(totals, d, init, window);
  // What comes before each chunk: the outer scan shifted by one, the
  // reducer's identity (the init value) first.
  AttrValue padding;
  padding.kind = AttrKind::Padding;
  for (int64_t i = 0; i < static_cast<int64_t>(totalsDims.size()); ++i)
    padding.padding.push_back({i == d ? 1 : 0, 0, 0});
  std::vector<int64_t> paddedDims = totalsDims;
  ++paddedDims[d];
  HloInstruction *padded = b.add(HloOpcode::Pad, "chunk_prefix",
                                 withDimensions(shape, paddedDims), {outer, init},
                                 {{"padding", padding}});
  AttrValue front;
  front.kind = AttrKind::SliceRanges;
  for (int64_t i = 0; i < static_cast<int64_t>(totalsDims.size()); ++i)
    front.slices.push_back({0, totalsDims[i], 1});
  HloInstruction *before = b.add(HloOpcode::Slice, "chunk_prefix", outer->shape(), {padded},
                                 {{"slice", front}});
  std::vector<int64_t> keep;
  for (int64_t i = 0; i < static_cast<int64_t>(split.size()); ++i)
    if (i != d + 1)
      keep.push_back(i);
  HloInstruction *spread = b.add(HloOpcode::Broadcast, "chunk_prefix", chunked->shape(), {before},
                                 {Builder::ints("dimensions", keep)});
  HloInstruction *combined = b.add(reducer, "scan", chunked->shape(), {inner, spread});
  return b.add(HloOpcode::Reshape, window.name(), window.shape(), {combined});
}

class ReduceWindowScan : public HloPass {
public:
  llvm::StringRef name() const override { return "reduce-window-scan"; }

  llvm::Expected<bool> run(HloModule &module, PassContext &context) override {
    bool changed = false;
    for (HloComputation *computation : hostComputations(module)) {
      // Each round splits the scans it finds; their outer scans may need
      // another.
      for (bool again = true; again;) {
        again = false;
        std::vector<HloInstruction *> windows;
        for (const auto &instruction : computation->instructions())
          if (instruction->opcode() == HloOpcode::ReduceWindow)
            windows.push_back(instruction.get());
        for (HloInstruction *window : windows) {
          std::optional<int64_t> d = scannedDimension(*window);
          HloComputation *reducer = window->computationAttr("to_apply");
          std::optional<HloOpcode> opcode = reducer ? reducerOpcode(*reducer) : std::nullopt;
          if (!d || !opcode)
            continue;
          window->replaceAllUsesWith(splitScan(*window, *d, *opcode, context));
          again = changed = true;
        }
        removeDeadInstructions(*computation);
        computation->sortTopologically();
      }
    }
    return changed;
  }
};

} // namespace

std::unique_ptr<HloPass> createReduceWindowScanPass() {
  return std::make_unique<ReduceWindowScan>();
}

} // namespace hlo::opt
