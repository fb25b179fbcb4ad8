//===- ManifestProgram.cpp - The manifest's program and buffers -----------===//
#include "abi/ManifestProgram.h"


#include <array>
#include <utility>

namespace hlo::abi {
namespace {

constexpr std::array<std::pair<ProgramStep::Kind, const char *>, 7> kStepKinds = {{
    {ProgramStep::Kind::Launch, "launch"},
    {ProgramStep::Kind::Copy, "copy"},
    {ProgramStep::Kind::Library, "library"},
    {ProgramStep::Kind::While, "while"},
    {ProgramStep::Kind::Conditional, "conditional"},
    {ProgramStep::Kind::Call, "call"},
    {ProgramStep::Kind::Failed, "failed"},
}};

constexpr std::array<std::pair<BufferSpec::Kind, const char *>, 4> kBufferKinds = {{
    {BufferSpec::Kind::Parameter, "parameter"},
    {BufferSpec::Kind::Output, "output"},
    {BufferSpec::Kind::Constant, "constant"},
    {BufferSpec::Kind::Temporary, "temporary"},
}};

template <typename Kind, size_t N>
const char *kindName(const std::array<std::pair<Kind, const char *>, N> &names, Kind kind) {
  for (const auto &[value, name] : names)
    if (value == kind)
      return name;
  return "?";
}

std::string stringList(const std::vector<std::string> &values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + quoteJson(values[i]);
  return text + "]";
}

} // namespace

const char *stepKindName(ProgramStep::Kind kind) { return kindName(kStepKinds, kind); }

namespace {

std::string stepJson(const ProgramStep &step) {
  std::string json = std::string("    {\"step\": \"") + kindName(kStepKinds, step.kind) +
                     "\", \"computation\": " + quoteJson(step.computation) +
                     ", \"instruction\": " + quoteJson(step.instruction);
  if (step.kind == ProgramStep::Kind::Launch)
    json += ", \"launch\": " + std::to_string(step.launch);
  if (!step.opcode.empty())
    json += ", \"opcode\": " + quoteJson(step.opcode);
  if (!step.target.empty())
    json += ", \"target\": " + quoteJson(step.target);
  if (!step.operands.empty())
    json += ", \"operands\": " + stringList(step.operands);
  if (!step.computations.empty())
    json += ", \"computations\": " + stringList(step.computations);
  if (!step.predicate.empty())
    json += ", \"predicate\": " + quoteJson(step.predicate);
  if (step.bytes)
    json += ", \"bytes\": " + std::to_string(step.bytes);
  if (step.sourceOffset)
    json += ", \"source_offset\": " + std::to_string(step.sourceOffset);
  auto bindings = [&](const char *key, const std::vector<KernelParameter> &list) {
    if (list.empty())
      return;
    json += std::string(", \"") + key + "\": [";
    for (size_t i = 0; i < list.size(); ++i)
      json += (i ? ", " : "") + bindingJson(list[i]);
    json += "]";
  };
  bindings("arguments", step.arguments);
  bindings("results", step.results);
  bindings("body_results", step.bodyResults);
  auto nested = [&](const char *key, const std::vector<std::vector<KernelParameter>> &lists) {
    if (lists.empty())
      return;
    json += std::string(", \"") + key + "\": [";
    for (size_t b = 0; b < lists.size(); ++b) {
      json += b ? ", [" : "[";
      for (size_t i = 0; i < lists[b].size(); ++i)
        json += (i ? ", " : "") + bindingJson(lists[b][i]);
      json += "]";
    }
    json += "]";
  };
  nested("branch_arguments", step.branchArguments);
  nested("branch_results", step.branchResults);
  if (!step.parameterBuffers.empty()) {
    json += ", \"parameter_buffers\": [";
    for (size_t c = 0; c < step.parameterBuffers.size(); ++c)
      json += (c ? ", " : "") + stringList(step.parameterBuffers[c]);
    json += "]";
  }
  if (step.inPlaceArgument >= 0)
    json += ", \"in_place_argument\": " + std::to_string(step.inPlaceArgument);
  if (!step.backendConfig.empty())
    json += ", \"backend_config\": " + quoteJson(step.backendConfig);
  return json + "}";
}

std::string bufferJson(const BufferSpec &buffer) {
  std::string json = std::string("    {\"buffer\": ") + quoteJson(buffer.name) +
                     ", \"kind\": \"" + kindName(kBufferKinds, buffer.kind) + "\"";
  if (!buffer.computation.empty())
    json += ", \"computation\": " + quoteJson(buffer.computation);
  if (buffer.number >= 0)
    json += ", \"number\": " + std::to_string(buffer.number);
  json += ", \"shape\": " + quoteJson(buffer.shape) +
          ", \"bytes\": " + std::to_string(buffer.bytes);
  if (!buffer.data.empty())
    json += ", \"data\": " + quoteJson(buffer.data);
  if (buffer.filled)
    json += ", \"filled\": true";
  if (buffer.donatedParameter >= 0)
    json += ", \"donated_parameter\": " + std::to_string(buffer.donatedParameter);
  return json + "}";
}

std::string text(const JsonValue &object, const char *key) {
  const JsonValue *value = object.find(key);
  return value && value->kind() == JsonValue::Kind::String ? value->string() : "";
}

int64_t integer(const JsonValue &object, const char *key, int64_t otherwise) {
  const JsonValue *value = object.find(key);
  return value && value->kind() == JsonValue::Kind::Number
             ? static_cast<int64_t>(value->number())
             : otherwise;
}

std::vector<std::string> texts(const JsonValue &object, const char *key) {
  std::vector<std::string> values;
  if (const JsonValue *list = object.find(key))
    for (const JsonValue &value : list->array())
      values.push_back(value.string());
  return values;
}

} // namespace

std::string printProgramSections(const LaunchManifest &manifest) {
  std::string json;
  auto section = [&](const char *name, size_t count, auto &&print) {
    if (!count)
      return;
    json += std::string("  \"") + name + "\": [\n";
    for (size_t i = 0; i < count; ++i)
      json += print(i) + (i + 1 < count ? ",\n" : "\n");
    json += "  ],\n";
  };
  section("program", manifest.program.size(),
          [&](size_t i) { return stepJson(manifest.program[i]); });
  section("buffers", manifest.buffers.size(),
          [&](size_t i) { return bufferJson(manifest.buffers[i]); });
  section("allocations", manifest.allocations.size(), [&](size_t i) {
    const AllocationSpec &allocation = manifest.allocations[i];
    std::string line = "    {\"bytes\": " + std::to_string(allocation.bytes);
    if (allocation.parameter >= 0)
      line += ", \"parameter\": " + std::to_string(allocation.parameter);
    line += ", \"buffers\": [";
    for (size_t b = 0; b < allocation.buffers.size(); ++b) {
      const PlacedBuffer &buffer = allocation.buffers[b];
      line += std::string(b ? ",\n      " : "\n      ") + "{\"names\": " +
              stringList(buffer.names) + ", \"offset\": " + std::to_string(buffer.offset) +
              ", \"bytes\": " + std::to_string(buffer.bytes) + "}";
    }
    return line + "]}";
  });
  section("failed", manifest.failed.size(), [&](size_t i) {
    return "    {\"instruction\": " + quoteJson(manifest.failed[i].first) +
           ", \"error\": " + quoteJson(manifest.failed[i].second) + "}";
  });
  return json;
}

Status readProgramSections(const JsonValue &root, LaunchManifest &manifest) {
  if (const JsonValue *program = root.find("program"))
    for (const JsonValue &entry : program->array()) {
      ProgramStep step;
      std::string kind = text(entry, "step");
      bool known = false;
      for (const auto &[value, name] : kStepKinds)
        if (kind == name) {
          step.kind = value;
          known = true;
        }
      if (!known)
        return makeError("manifest: unknown program step \"" + kind + "\"");
      step.computation = text(entry, "computation");
      step.instruction = text(entry, "instruction");
      step.launch = integer(entry, "launch", -1);
      if (step.kind == ProgramStep::Kind::Launch &&
          (step.launch < 0 || step.launch >= static_cast<int64_t>(manifest.kernels.size())))
        return makeError("manifest: program step '" + step.instruction +
                         "' launches no listed kernel");
      step.opcode = text(entry, "opcode");
      step.target = text(entry, "target");
      step.operands = texts(entry, "operands");
      step.computations = texts(entry, "computations");
      step.predicate = text(entry, "predicate");
      step.backendConfig = text(entry, "backend_config");
      step.bytes = integer(entry, "bytes", 0);
      step.sourceOffset = integer(entry, "source_offset", 0);
      step.inPlaceArgument = integer(entry, "in_place_argument", -1);
      for (auto [key, list] : {std::pair{"arguments", &step.arguments},
                               std::pair{"results", &step.results},
                               std::pair{"body_results", &step.bodyResults}})
        if (const JsonValue *bindings = entry.find(key))
          for (size_t i = 0; i < bindings->array().size(); ++i) {
            ErrorOr<KernelParameter> binding =
                readBinding(bindings->array()[i], "manifest: program step '" +
                                                      step.instruction + "' " + key + "[" +
                                                      std::to_string(i) + "]");
            if (!binding)
              return binding.status();
            list->push_back(std::move(*binding));
          }
      for (auto [key, lists] : {std::pair{"branch_arguments", &step.branchArguments},
                                std::pair{"branch_results", &step.branchResults}})
        if (const JsonValue *branches = entry.find(key))
          for (size_t b = 0; b < branches->array().size(); ++b) {
            lists->emplace_back();
            const JsonValue &branch = branches->array()[b];
            for (size_t i = 0; i < branch.array().size(); ++i) {
              ErrorOr<KernelParameter> binding = readBinding(
                  branch.array()[i], "manifest: program step '" + step.instruction + "' " +
                                         key + "[" + std::to_string(b) + "][" +
                                         std::to_string(i) + "]");
              if (!binding)
                return binding.status();
              lists->back().push_back(std::move(*binding));
            }
          }
      if (const JsonValue *computations = entry.find("parameter_buffers"))
        for (const JsonValue &names : computations->array()) {
          step.parameterBuffers.emplace_back();
          for (const JsonValue &name : names.array())
            step.parameterBuffers.back().push_back(name.string());
        }
      manifest.program.push_back(std::move(step));
    }
  if (const JsonValue *buffers = root.find("buffers"))
    for (const JsonValue &entry : buffers->array()) {
      BufferSpec buffer;
      std::string kind = text(entry, "kind");
      for (const auto &[value, name] : kBufferKinds)
        if (kind == name)
          buffer.kind = value;
      buffer.name = text(entry, "buffer");
      buffer.computation = text(entry, "computation");
      buffer.number = integer(entry, "number", -1);
      buffer.bytes = integer(entry, "bytes", 0);
      buffer.data = text(entry, "data");
      const JsonValue *filled = entry.find("filled");
      buffer.filled = filled && filled->kind() == JsonValue::Kind::Bool && filled->boolean();
      buffer.donatedParameter = integer(entry, "donated_parameter", -1);
      manifest.buffers.push_back(std::move(buffer));
    }
  if (const JsonValue *allocations = root.find("allocations"))
    for (const JsonValue &entry : allocations->array()) {
      AllocationSpec allocation;
      allocation.bytes = integer(entry, "bytes", 0);
      allocation.parameter = integer(entry, "parameter", -1);
      if (const JsonValue *buffers = entry.find("buffers"))
        for (const JsonValue &buffer : buffers->array()) {
          PlacedBuffer placed;
          // Older manifests: one "buffer" per entry, its size the allocation's.
          placed.names = texts(buffer, "names");
          if (std::string name = text(buffer, "buffer"); !name.empty())
            placed.names.push_back(name);
          placed.offset = integer(buffer, "offset", 0);
          placed.bytes = integer(buffer, "bytes", allocation.bytes - placed.offset);
          if (placed.offset < 0 || placed.bytes < 0 ||
              placed.offset + placed.bytes > allocation.bytes || placed.names.empty())
            return makeError("manifest: an allocation of " + std::to_string(allocation.bytes) +
                             " bytes places " + std::to_string(placed.bytes) + " bytes of '" +
                             (placed.names.empty() ? "" : placed.names.front()) +
                             "' at offset " + std::to_string(placed.offset));
          allocation.buffers.push_back(std::move(placed));
        }
      manifest.allocations.push_back(std::move(allocation));
    }
  if (const JsonValue *failed = root.find("failed"))
    for (const JsonValue &entry : failed->array())
      manifest.failed.emplace_back(text(entry, "instruction"), text(entry, "error"));
  return Status::success();
}

} // namespace hlo::abi
