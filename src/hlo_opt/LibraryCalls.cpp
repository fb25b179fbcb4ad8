//===- LibraryCalls.cpp - Ops XLA hands to libraries, as XLA calls them ---===//
//
// Rewrites the ops that XLA's GPU compiler gives to a library into the
// custom-calls its optimized modules have, which the runtime runs as
// library steps (and the interpreter evaluates):
//  - convolution -> `__cudnn$convForward` (result, u8[0] scratch), with
//    the window, dim_labels and group counts; its value is element 0;
//  - topk with largest=true -> `__gpu$TopK` (values, indices) on rows
//    along the last dimension, XLA's TopK kernel.
// A topk with largest=false stays, and is reported as unsupported.
//
//===----------------------------------------------------------------------===//
#include "HloPass.h"

namespace hlo::opt {
namespace {

AttrValue stringValue(std::string text) {
  AttrValue value;
  value.kind = AttrKind::String;
  value.text = std::move(text);
  return value;
}

HloInstruction *makeCustomCall(HloInstruction &original, const Shape &shape,
                               const std::string &target, PassContext &context,
                               const std::vector<std::string_view> &keep) {
  std::vector<HloAttribute> attributes = {{"custom_call_target", stringValue(target)}};
  for (const HloAttribute &attribute : original.attributes())
    if (std::find(keep.begin(), keep.end(), attribute.name) != keep.end())
      attributes.push_back(attribute);
  return addInstruction(*original.parent(), HloOpcode::CustomCall,
                        context.names.unique(original.name()), shape, original.operands(),
                        std::move(attributes), original.sourceOffset());
}

class LibraryCalls : public HloPass {
public:
  llvm::StringRef name() const override { return "library-calls"; }

  llvm::Expected<bool> run(HloModule &module, PassContext &context) override {
    bool changed = false;
    for (HloComputation *computation : hostComputations(module)) {
      std::vector<HloInstruction *> candidates;
      for (const auto &instruction : computation->instructions())
        if (instruction->opcode() == HloOpcode::Convolution ||
            (instruction->opcode() == HloOpcode::TopK && instruction->boolAttr("largest", true)))
          candidates.push_back(instruction.get());
      for (HloInstruction *instruction : candidates) {
        if (instruction->opcode() == HloOpcode::Convolution) {
          Shape shape = Shape::tuple(
              {instruction->shape(), Shape(PrimitiveType::U8, std::vector<int64_t>{0})});
          HloInstruction *call = makeCustomCall(
              *instruction, shape, "__cudnn$convForward", context,
              {"window", "dim_labels", "feature_group_count", "batch_group_count", "metadata"});
          AttrValue config;
          config.kind = AttrKind::Raw;
          config.text = R"({"cudnn_conv_backend_config":{"activation_mode":"kNone",)"
                        R"("conv_result_scale":1,"side_input_scale":0}})";
          call->addAttribute({"backend_config", config});
          instruction->replaceAllUsesWith(
              addGetTupleElement(*call, 0, context.names.unique("get-tuple-element")));
        } else {
          HloInstruction *call = makeCustomCall(*instruction, instruction->shape(),
                                                "__gpu$TopK", context, {"metadata"});
          instruction->replaceAllUsesWith(call);
        }
        changed = true;
      }
      if (!candidates.empty()) {
        removeDeadInstructions(*computation);
        computation->sortTopologically();
      }
    }
    return changed;
  }
};

} // namespace

std::unique_ptr<HloPass> createLibraryCallsPass() { return std::make_unique<LibraryCalls>(); }

} // namespace hlo::opt
