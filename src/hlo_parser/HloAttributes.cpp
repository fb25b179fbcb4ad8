//===- HloAttributes.cpp - Attributes of HLO instructions -----------------===//
#include "HloAttributes.h"

#include "HloComputation.h"
#include "Literal.h"

#include <unordered_map>
#include <unordered_set>

namespace hlo {

namespace {
using K = AttrKind;

const std::unordered_map<std::string_view, AttrKind> &kindTable() {
  static const std::unordered_map<std::string_view, AttrKind> table = {
      // Shape-manipulating ops.
      {"dimensions", K::IntList},
      {"slice", K::SliceRanges},
      {"padding", K::Padding},
      {"window", K::Window},
      {"dim_labels", K::DimLabels},
      {"index", K::Int},
      {"iota_dimension", K::Int},
      {"inferred_dimension", K::Int},
      {"dynamic_slice_sizes", K::IntList},
      {"slice_sizes", K::IntList},
      // Dot.
      {"lhs_contracting_dims", K::IntList},
      {"rhs_contracting_dims", K::IntList},
      {"lhs_batch_dims", K::IntList},
      {"rhs_batch_dims", K::IntList},
      {"lhs_ragged_dims", K::IntList},
      {"rhs_group_dims", K::IntList},
      {"operand_precision", K::Raw},
      {"algorithm", K::Enum},
      {"sparsity", K::Raw},
      {"sparsity_config", K::Raw},
      // Convolution.
      {"feature_group_count", K::Int},
      {"batch_group_count", K::Int},
      // Gather / scatter (incl. batching dims).
      {"offset_dims", K::IntList},
      {"collapsed_slice_dims", K::IntList},
      {"start_index_map", K::IntList},
      {"operand_batching_dims", K::IntList},
      {"start_indices_batching_dims", K::IntList},
      {"index_vector_dim", K::Int},
      {"indices_are_sorted", K::Bool},
      {"update_window_dims", K::IntList},
      {"inserted_window_dims", K::IntList},
      {"scatter_dims_to_operand_dims", K::IntList},
      {"input_batching_dims", K::IntList},
      {"scatter_indices_batching_dims", K::IntList},
      {"unique_indices", K::Bool},
      // Called computations.
      {"to_apply", K::Computation},
      {"calls", K::Computation},
      {"condition", K::Computation},
      {"body", K::Computation},
      {"select", K::Computation},
      {"scatter", K::Computation},
      {"true_computation", K::Computation},
      {"false_computation", K::Computation},
      {"branch_computations", K::ComputationList},
      {"called_computations", K::ComputationList},
      // Misc op attributes.
      {"direction", K::Enum},
      {"type", K::Enum},
      {"kind", K::Enum},
      {"custom_call_target", K::String},
      {"api_version", K::Enum},
      {"custom_call_has_side_effect", K::Bool},
      {"custom_call_schedule", K::Enum},
      {"schedule", K::Enum},
      {"output_to_operand_aliasing", K::Raw},
      {"operand_layout_constraints", K::Raw},
      {"literal", K::Raw},
      {"padding_type", K::Enum},
      {"is_stable", K::Bool},
      {"k", K::Int},
      {"largest", K::Bool},
      {"exponent_bits", K::Int},
      {"mantissa_bits", K::Int},
      {"distribution", K::Enum},
      {"delta", K::Int},
      {"fft_type", K::Enum},
      {"fft_length", K::IntList},
      {"left_side", K::Bool},
      {"lower", K::Bool},
      {"unit_diagonal", K::Bool},
      {"transpose_a", K::Enum},
      {"epsilon", K::Float},
      {"feature_index", K::Int},
      {"is_composite", K::Bool},
      {"parameter_replication", K::Raw},
      {"infeed_config", K::String},
      {"outfeed_config", K::String},
      {"outfeed_shape", K::ShapeValue},
      {"domain", K::Raw},
      {"cross_program_prefetch_index", K::Int},
      {"async_execution_thread", K::String},
      {"async_group_id", K::Int},
      // Collectives.
      {"replica_groups", K::Raw},
      {"source_target_pairs", K::IntListList},
      {"channel_id", K::Int},
      {"constrain_layout", K::Bool},
      {"use_global_device_ids", K::Bool},
      {"is_host_transfer", K::Bool},
      {"split_dimension", K::Int},
      {"scatter_dimension", K::Int},
      {"inplace", K::Bool},
      // Scan.
      {"is_reverse", K::Bool},
      {"num_carries", K::Int},
      // Every instruction.
      {"metadata", K::Raw},
      {"sharding", K::Raw},
      {"backend_config", K::Raw},
      {"frontend_attributes", K::Raw},
      {"control-predecessors", K::InstructionList},
      {"statistics", K::Raw},
      {"origin", K::Raw},
      {"original_value", K::Raw},
      {"result_accuracy", K::Raw},
  };
  return table;
}

using NameSet = std::unordered_set<std::string_view>;

const NameSet &commonAttributes() {
  static const NameSet names = {
      "metadata", "sharding",   "backend_config", "frontend_attributes",
      "control-predecessors",   "statistics",     "origin",
      "original_value",         "result_accuracy"};
  return names;
}

const NameSet &collectiveAttributes() {
  static const NameSet names = {"replica_groups", "channel_id",
                                "constrain_layout", "use_global_device_ids",
                                "dimensions", "to_apply"};
  return names;
}

const NameSet *opcodeAttributes(HloOpcode opcode) {
  using O = HloOpcode;
  static const NameSet dims = {"dimensions"};
  static const NameSet reduce = {"dimensions", "to_apply"};
  static const NameSet dot = {"lhs_contracting_dims", "rhs_contracting_dims",
                              "lhs_batch_dims",       "rhs_batch_dims",
                              "operand_precision",    "algorithm",
                              "sparsity",             "sparsity_config",
                              "lhs_ragged_dims",
                              "rhs_group_dims"};
  static const NameSet conv = {"window",           "dim_labels",
                               "feature_group_count", "batch_group_count",
                               "operand_precision", "algorithm",
                               "sparsity_config"};
  static const NameSet gather = {"offset_dims",          "collapsed_slice_dims",
                                 "start_index_map",      "index_vector_dim",
                                 "slice_sizes",          "indices_are_sorted",
                                 "operand_batching_dims",
                                 "start_indices_batching_dims"};
  static const NameSet scatter = {"update_window_dims",
                                  "inserted_window_dims",
                                  "scatter_dims_to_operand_dims",
                                  "index_vector_dim",
                                  "indices_are_sorted",
                                  "unique_indices",
                                  "to_apply",
                                  "input_batching_dims",
                                  "scatter_indices_batching_dims"};
  static const NameSet customCall = {"custom_call_target",
                                     "api_version",
                                     "custom_call_has_side_effect",
                                     "custom_call_schedule",
                                     "schedule",
                                     "output_to_operand_aliasing",
                                     "operand_layout_constraints",
                                     "literal",
                                     "window",
                                     "dim_labels",
                                     "feature_group_count",
                                     "batch_group_count",
                                     "padding_type",
                                     "operand_precision",
                                     "to_apply",
                                     "called_computations",
                                     "sparsity"};
  static const NameSet sendRecv = {"channel_id", "is_host_transfer"};
  static const NameSet async = {"calls", "async_execution_thread",
                                "async_group_id", "output_to_operand_aliasing"};
  static const NameSet permute = {"source_target_pairs", "channel_id",
                                  "slice_sizes", "inplace"};
  static const NameSet allToAll = {"dimensions", "replica_groups",
                                   "channel_id", "constrain_layout",
                                   "split_dimension"};
  static const NameSet batchNorm = {"epsilon", "feature_index"};
  static const NameSet triangular = {"left_side", "lower", "unit_diagonal",
                                     "transpose_a"};
  static const NameSet scan = {"to_apply", "dimensions", "is_reverse",
                               "num_carries"};
  switch (opcode) {
  case O::Broadcast:
  case O::Transpose:
  case O::Reverse:
  case O::Concatenate:
  case O::GetDimensionSize:
  case O::SetDimensionSize: {
    return &dims;
  }
  case O::Reduce:
  case O::Map: {
    return &reduce;
  }
  case O::Reshape: {
    static const NameSet names = {"inferred_dimension"};
    return &names;
  }
  case O::Slice: {
    static const NameSet names = {"slice"};
    return &names;
  }
  case O::DynamicSlice: {
    static const NameSet names = {"dynamic_slice_sizes"};
    return &names;
  }
  case O::Pad: {
    static const NameSet names = {"padding"};
    return &names;
  }
  case O::Iota: {
    static const NameSet names = {"iota_dimension"};
    return &names;
  }
  case O::GetTupleElement: {
    static const NameSet names = {"index"};
    return &names;
  }
  case O::Compare: {
    static const NameSet names = {"direction", "type"};
    return &names;
  }
  case O::Dot:
  case O::RaggedDot:
  case O::ScaledDot:
    return &dot;
  case O::Convolution:
    return &conv;
  case O::ReduceWindow: {
    static const NameSet names = {"window", "to_apply"};
    return &names;
  }
  case O::SelectAndScatter: {
    static const NameSet names = {"window", "select", "scatter"};
    return &names;
  }
  case O::Gather:
    return &gather;
  case O::Scatter:
    return &scatter;
  case O::Call: {
    static const NameSet names = {"to_apply", "is_composite"};
    return &names;
  }
  case O::Fusion: {
    static const NameSet names = {"kind", "calls",
                                  "output_to_operand_aliasing"};
    return &names;
  }
  case O::While: {
    static const NameSet names = {"condition", "body"};
    return &names;
  }
  case O::Conditional: {
    static const NameSet names = {"branch_computations", "true_computation",
                                  "false_computation"};
    return &names;
  }
  case O::CustomCall:
    return &customCall;
  case O::Sort: {
    static const NameSet names = {"dimensions", "is_stable", "to_apply"};
    return &names;
  }
  case O::TopK: {
    static const NameSet names = {"k", "largest", "is_stable"};
    return &names;
  }
  case O::ReducePrecision: {
    static const NameSet names = {"exponent_bits", "mantissa_bits"};
    return &names;
  }
  case O::Rng: {
    static const NameSet names = {"distribution"};
    return &names;
  }
  case O::RngBitGenerator: {
    static const NameSet names = {"algorithm"};
    return &names;
  }
  case O::RngGetAndUpdateState: {
    static const NameSet names = {"delta"};
    return &names;
  }
  case O::Fft: {
    static const NameSet names = {"fft_type", "fft_length"};
    return &names;
  }
  case O::TriangularSolve:
    return &triangular;
  case O::Cholesky: {
    static const NameSet names = {"lower"};
    return &names;
  }
  case O::BatchNormGrad:
  case O::BatchNormInference:
  case O::BatchNormTraining:
    return &batchNorm;
  case O::AllReduce:
  case O::AllReduceStart:
  case O::AllGather:
  case O::AllGatherStart:
  case O::ReduceScatter:
  case O::CollectiveBroadcast:
  case O::CollectiveReduce:
  case O::RaggedAllToAll:
    return &collectiveAttributes();
  case O::AllToAll:
    return &allToAll;
  case O::CollectivePermute:
  case O::CollectivePermuteStart:
    return &permute;
  case O::Send:
  case O::Recv:
  case O::SendDone:
  case O::RecvDone:
    return &sendRecv;
  case O::Infeed: {
    static const NameSet names = {"infeed_config"};
    return &names;
  }
  case O::Outfeed: {
    static const NameSet names = {"outfeed_shape", "outfeed_config"};
    return &names;
  }
  case O::Domain: {
    static const NameSet names = {"domain"};
    return &names;
  }
  case O::CopyStart: {
    static const NameSet names = {"cross_program_prefetch_index"};
    return &names;
  }
  case O::AsyncStart:
  case O::AsyncUpdate:
  case O::AsyncDone:
    return &async;
  case O::Parameter: {
    static const NameSet names = {"parameter_replication"};
    return &names;
  }
  case O::Scan:
    return &scan;
  default:
    return nullptr;
  }
}
} // namespace

std::optional<AttrKind> attributeKind(std::string_view name) {
  const auto &table = kindTable();
  auto it = table.find(name);
  if (it == table.end())
    return std::nullopt;
  return it->second;
}

bool isShardingAnnotation(std::string_view target) {
  return target == "Sharding" || target == "SPMDFullToShardShape" ||
         target == "SPMDShardToFullShape";
}

bool opcodeAcceptsAttribute(HloOpcode opcode, std::string_view name) {
  if (commonAttributes().count(name))
    return true;
  const NameSet *names = opcodeAttributes(opcode);
  return names && names->count(name);
}

const std::vector<std::string_view> &requiredAttributes(HloOpcode opcode) {
  using O = HloOpcode;
  static const std::vector<std::string_view> none;
  static const std::vector<std::string_view> dims = {"dimensions"};
  static const std::vector<std::string_view> reduce = {"dimensions",
                                                       "to_apply"};
  static const std::vector<std::string_view> gather = {
      "offset_dims", "collapsed_slice_dims", "start_index_map",
      "index_vector_dim", "slice_sizes"};
  static const std::vector<std::string_view> scatter = {
      "update_window_dims", "inserted_window_dims",
      "scatter_dims_to_operand_dims", "index_vector_dim", "to_apply"};
  static const std::vector<std::string_view> slice = {"slice"};
  static const std::vector<std::string_view> pad = {"padding"};
  static const std::vector<std::string_view> iota = {"iota_dimension"};
  static const std::vector<std::string_view> gte = {"index"};
  static const std::vector<std::string_view> compare = {"direction"};
  static const std::vector<std::string_view> dynSlice = {
      "dynamic_slice_sizes"};
  static const std::vector<std::string_view> whileAttrs = {"condition",
                                                           "body"};
  static const std::vector<std::string_view> toApply = {"to_apply"};
  static const std::vector<std::string_view> fusion = {"kind", "calls"};
  static const std::vector<std::string_view> reduceWindow = {"to_apply"};
  static const std::vector<std::string_view> selectAndScatter = {
      "window", "select", "scatter"};
  static const std::vector<std::string_view> customCall = {
      "custom_call_target"};
  static const std::vector<std::string_view> conv = {"dim_labels"};
  switch (opcode) {
  case O::Transpose:
  case O::Reverse:
  case O::Concatenate:
    return dims;
  case O::Reduce:
    return reduce;
  case O::Map:
  case O::Call:
    return toApply;
  case O::Gather:
    return gather;
  case O::Scatter:
    return scatter;
  case O::Slice:
    return slice;
  case O::Pad:
    return pad;
  case O::Iota:
    return iota;
  case O::GetTupleElement:
    return gte;
  case O::Compare:
    return compare;
  case O::DynamicSlice:
    return dynSlice;
  case O::While:
    return whileAttrs;
  case O::Fusion:
    return fusion;
  case O::ReduceWindow:
    return reduceWindow;
  case O::SelectAndScatter:
    return selectAndScatter;
  case O::CustomCall:
    return customCall;
  case O::Convolution:
    return conv;
  default:
    return none;
  }
}

ErrorOr<ConvDimLabels> parseConvDimLabels(std::string_view text) {
  ConvDimLabels out;
  out.text = std::string(text);
  size_t underscore = text.find('_');
  size_t arrow = text.find("->");
  if (underscore == std::string_view::npos || arrow == std::string_view::npos ||
      underscore > arrow)
    return makeError("dim_labels must look like 'b01f_01io->b01f'");
  std::string_view input = text.substr(0, underscore);
  std::string_view kernel = text.substr(underscore + 1, arrow - underscore - 1);
  std::string_view output = text.substr(arrow + 2);
  std::string error; // set by parsePart when it returns false
  auto parsePart = [&](std::string_view part, char first, char second,
                       int64_t &firstDim, int64_t &secondDim,
                       std::vector<int64_t> &spatial) {
    spatial.assign(part.size() >= 2 ? part.size() - 2 : 0, -1);
    for (size_t i = 0; i < part.size(); ++i) {
      char c = part[i];
      if (c == first) {
        firstDim = static_cast<int64_t>(i);
      } else if (c == second) {
        secondDim = static_cast<int64_t>(i);
      } else if (c >= '0' && c <= '9') {
        size_t index = static_cast<size_t>(c - '0');
        if (index >= spatial.size()) {
          error = "dim_labels spatial dimension '" + std::string(1, c) +
                  "' out of range in '" + std::string(part) + "'";
          return false;
        }
        spatial[index] = static_cast<int64_t>(i);
      } else if (c != '?') {
        error = "unexpected character '" + std::string(1, c) +
                "' in dim_labels '" + std::string(text) + "'";
        return false;
      }
    }
    return true;
  };
  if (!parsePart(input, 'b', 'f', out.inputBatch, out.inputFeature,
                 out.inputSpatial) ||
      !parsePart(kernel, 'i', 'o', out.kernelInputFeature,
                 out.kernelOutputFeature, out.kernelSpatial) ||
      !parsePart(output, 'b', 'f', out.outputBatch, out.outputFeature,
                 out.outputSpatial))
    return makeError(error);
  return out;
}

std::string quoteString(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      out += c;
    }
  }
  out += '"';
  return out;
}

static void printInts(std::string &out, const std::vector<int64_t> &values) {
  out += '{';
  for (size_t i = 0; i < values.size(); ++i) {
    if (i)
      out += ',';
    out += std::to_string(values[i]);
  }
  out += '}';
}

/// `3x3` for one field of every window dimension.
template <typename Getter>
static void printWindowField(std::string &out, const char *label,
                             const std::vector<WindowDimension> &window,
                             Getter get) {
  if (!out.empty() && out.back() != '{')
    out += ' ';
  out += label;
  out += '=';
  for (size_t i = 0; i < window.size(); ++i) {
    if (i)
      out += 'x';
    out += get(window[i]);
  }
}

static void printWindow(std::string &out,
                        const std::vector<WindowDimension> &window) {
  out += '{';
  if (window.empty()) {
    out += '}';
    return;
  }
  auto any = [&](auto predicate) {
    for (const WindowDimension &dim : window)
      if (predicate(dim))
        return true;
    return false;
  };
  auto num = [](int64_t v) { return std::to_string(v); };
  printWindowField(out, "size", window,
                   [&](const WindowDimension &d) { return num(d.size); });
  if (any([](const WindowDimension &d) { return d.stride != 1; }))
    printWindowField(out, "stride", window,
                     [&](const WindowDimension &d) { return num(d.stride); });
  if (any([](const WindowDimension &d) {
        return d.padLow != 0 || d.padHigh != 0;
      }))
    printWindowField(out, "pad", window, [&](const WindowDimension &d) {
      return num(d.padLow) + "_" + num(d.padHigh);
    });
  if (any([](const WindowDimension &d) { return d.baseDilation != 1; }))
    printWindowField(out, "lhs_dilate", window, [&](const WindowDimension &d) {
      return num(d.baseDilation);
    });
  if (any([](const WindowDimension &d) { return d.windowDilation != 1; }))
    printWindowField(out, "rhs_dilate", window, [&](const WindowDimension &d) {
      return num(d.windowDilation);
    });
  if (any([](const WindowDimension &d) { return d.reversal; }))
    printWindowField(out, "rhs_reversal", window,
                     [&](const WindowDimension &d) {
                       return std::string(d.reversal ? "1" : "0");
                     });
  out += '}';
}

void printAttrValue(std::string &out, const AttrValue &value) {
  switch (value.kind) {
  case AttrKind::Int:
    out += std::to_string(value.intValue);
    return;
  case AttrKind::Bool:
    out += value.boolValue ? "true" : "false";
    return;
  case AttrKind::Float:
  case AttrKind::Enum:
  case AttrKind::Raw:
    out += value.text;
    return;
  case AttrKind::String:
    out += quoteString(value.text);
    return;
  case AttrKind::IntList:
    printInts(out, value.ints);
    return;
  case AttrKind::IntListList:
    out += '{';
    for (size_t i = 0; i < value.intLists.size(); ++i) {
      if (i)
        out += ',';
      printInts(out, value.intLists[i]);
    }
    out += '}';
    return;
  case AttrKind::SliceRanges:
    out += '{';
    for (size_t i = 0; i < value.slices.size(); ++i) {
      if (i)
        out += ", ";
      const SliceRange &range = value.slices[i];
      out += '[' + std::to_string(range.start) + ':' +
             std::to_string(range.limit);
      if (range.stride != 1)
        out += ':' + std::to_string(range.stride);
      out += ']';
    }
    out += '}';
    return;
  case AttrKind::Padding:
    for (size_t i = 0; i < value.padding.size(); ++i) {
      if (i)
        out += 'x';
      const PaddingDimension &dim = value.padding[i];
      out += std::to_string(dim.low) + '_' + std::to_string(dim.high);
      if (dim.interior != 0)
        out += '_' + std::to_string(dim.interior);
    }
    return;
  case AttrKind::Window:
    printWindow(out, value.window);
    return;
  case AttrKind::DimLabels:
    out += value.dimLabels->text;
    return;
  case AttrKind::Computation:
    if (value.computations.size() == 1) {
      out += '%' + value.computations.front()->name();
      return;
    }
    [[fallthrough]];
  case AttrKind::ComputationList:
    out += '{';
    for (size_t i = 0; i < value.computations.size(); ++i) {
      if (i)
        out += ", ";
      out += '%' + value.computations[i]->name();
    }
    out += '}';
    return;
  case AttrKind::InstructionList:
    out += '{';
    for (size_t i = 0; i < value.instructions.size(); ++i) {
      if (i)
        out += ", ";
      out += '%' + value.instructions[i]->name();
    }
    out += '}';
    return;
  case AttrKind::ShapeValue:
    value.shape->print(out);
    return;
  }
}

} // namespace hlo
