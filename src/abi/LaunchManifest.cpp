//===- LaunchManifest.cpp - The launch manifest's schema -------------------===//
#include "LaunchManifest.h"

#include "support/Json.h"
#include "ManifestProgram.h"

#include <algorithm>

namespace hlo::abi {
namespace {

class ManifestReader {
public:
  std::string error;

  bool fail(const std::string &where, const std::string &message) {
    error = where + ": " + message;
    return false;
  }

  bool readString(const JsonValue &object, const char *key, std::string &out,
                  const std::string &where, bool required = true) {
    const JsonValue *value = object.find(key);
    if (!value)
      return !required || fail(where, std::string("missing \"") + key + "\"");
    if (value->kind() != JsonValue::Kind::String)
      return fail(where, std::string("\"") + key + "\" must be a string");
    out = value->string();
    return true;
  }

  bool readInt(const JsonValue &object, const char *key, int64_t &out,
               const std::string &where) {
    const JsonValue *value = object.find(key);
    if (!value || value->kind() != JsonValue::Kind::Number)
      return fail(where, std::string("missing or non-numeric \"") + key + "\"");
    out = static_cast<int64_t>(value->number());
    return true;
  }

  bool readInts(const JsonValue &object, const char *key, std::vector<int64_t> &out,
                const std::string &where) {
    const JsonValue *value = object.find(key);
    if (!value || !value->isArray())
      return fail(where, std::string("missing or non-array \"") + key + "\"");
    for (const JsonValue &element : value->array()) {
      if (element.kind() != JsonValue::Kind::Number)
        return fail(where, std::string("\"") + key + "\" must hold numbers");
      out.push_back(static_cast<int64_t>(element.number()));
    }
    return true;
  }

  /// An optional boolean member (`out` keeps its value when absent).
  bool readOptionalInt(const JsonValue &object, const char *key, int64_t &out,
                       const std::string &where) {
    return !object.find(key) || readInt(object, key, out, where);
  }

  bool readOptionalBool(const JsonValue &object, const char *key, bool &out,
                        const std::string &where) {
    const JsonValue *value = object.find(key);
    if (!value)
      return true;
    if (value->kind() != JsonValue::Kind::Bool)
      return fail(where, std::string("\"") + key + "\" must be true or false");
    out = value->boolean();
    return true;
  }

  bool readTriple(const JsonValue &object, const char *key, std::array<unsigned, 3> &out,
                  const std::string &where) {
    std::vector<int64_t> values;
    if (!readInts(object, key, values, where))
      return false;
    if (values.size() != 3)
      return fail(where, std::string("\"") + key + "\" must have 3 entries");
    for (int i = 0; i < 3; ++i) {
      if (values[i] < 1 || values[i] > UINT32_MAX)
        return fail(where, std::string("\"") + key + "\" entries must be positive");
      out[i] = static_cast<unsigned>(values[i]);
    }
    return true;
  }

  bool readParameter(const JsonValue &json, KernelParameter &parameter,
                     const std::string &where) {
    if (!json.isObject())
      return fail(where, "must be an object");
    std::string direction, binds, elementType;
    if (!readString(json, "direction", direction, where) ||
        !readString(json, "binds", binds, where) ||
        !readString(json, "element_type", elementType, where))
      return false;
    if (direction != "in" && direction != "out")
      return fail(where, "\"direction\" must be \"in\" or \"out\"");
    parameter.isOutput = direction == "out";
    if (binds == "parameter") {
      parameter.binding = BufferBinding::Parameter;
      if (!readInt(json, "parameter", parameter.number, where))
        return false;
    } else if (binds == "output") {
      parameter.binding = BufferBinding::Output;
      if (!readInt(json, "output", parameter.number, where))
        return false;
    } else if (binds == "buffer" || binds == "scratch") {
      parameter.binding = binds == "buffer" ? BufferBinding::Buffer : BufferBinding::Scratch;
      if (!readString(json, "buffer", parameter.bufferName, where))
        return false;
    } else {
      return fail(where, "unknown binding \"" + binds + "\"");
    }
    if (parameter.number < 0)
      return fail(where, "negative parameter or output number");
    if (!isArrayElementType(elementType))
      return fail(where, "unknown element type \"" + elementType + "\"");
    std::vector<int64_t> dims, layout;
    if (!readInts(json, "shape", dims, where) || !readInts(json, "layout", layout, where) ||
        !readInt(json, "bytes", parameter.bytes, where))
      return false;
    if (json.find("alignment") &&
        (!readInt(json, "alignment", parameter.alignment, where) || parameter.alignment < 1))
      return fail(where, "\"alignment\" must be a positive number");
    if (json.find("aliases") &&
        (!parameter.isOutput || !readInt(json, "aliases", parameter.aliases, where) ||
         parameter.aliases < 0))
      return fail(where, "\"aliases\" must be an output's input position");
    if (json.find("may_reuse") &&
        (!parameter.isOutput || !readInt(json, "may_reuse", parameter.mayReuse, where) ||
         parameter.mayReuse < 0))
      return fail(where, "\"may_reuse\" must be an output's input position");
    if (const JsonValue *tensorMap = json.find("tensor_map")) {
      TensorMapSpec spec;
      if (!tensorMap->isObject() || !readInts(*tensorMap, "box", spec.box, where) ||
          !readOptionalInt(*tensorMap, "swizzle_bytes", spec.swizzleBytes, where))
        return fail(where, "\"tensor_map\" must be an object with a \"box\"");
      if (spec.box.size() != dims.size() ||
          std::any_of(spec.box.begin(), spec.box.end(), [](int64_t extent) { return extent < 1 || extent > 256; }))
        return fail(where, "a tensor map's \"box\" has an extent of 1 to 256 per dimension");
      if (spec.swizzleBytes != 0 && spec.swizzleBytes != 32 && spec.swizzleBytes != 64 &&
          spec.swizzleBytes != 128)
        return fail(where, "a tensor map's \"swizzle_bytes\" is 0, 32, 64 or 128");
      parameter.tensorMap = std::move(spec);
    }
    for (int64_t dim : dims)
      if (dim < 0)
        return fail(where, "negative dimension");
    // The layout must be a permutation of the dimensions.
    std::vector<bool> seen(dims.size(), false);
    if (layout.size() != dims.size())
      return fail(where, "layout and shape ranks differ");
    for (int64_t d : layout) {
      if (d < 0 || d >= static_cast<int64_t>(dims.size()) || seen[d])
        return fail(where, "layout is not a permutation of the dimensions");
      seen[d] = true;
    }
    parameter.shape = ArrayShape{elementType, std::move(dims), std::move(layout)};
    return true;
  }

  bool readKernel(const JsonValue &json, KernelSpec &kernel, const std::string &where) {
    if (!json.isObject())
      return fail(where, "must be an object");
    int64_t shared = 0, dynamicShared = 0;
    if (!readString(json, "name", kernel.name, where) ||
        !readString(json, "hlo_instruction", kernel.hloInstruction, where) ||
        !readString(json, "hlo_computation", kernel.hloComputation, where,
                    /*required=*/false) ||
        !readString(json, "emitter", kernel.emitter, where, /*required=*/false) ||
        !readTriple(json, "grid", kernel.grid, where) ||
        !readTriple(json, "block", kernel.block, where) ||
        !readInt(json, "shared_memory_bytes", shared, where) ||
        !readOptionalInt(json, "dynamic_shared_memory_bytes", dynamicShared, where) ||
        !readOptionalBool(json, "concurrent_threads", kernel.concurrentThreads, where) ||
        !readOptionalInt(json, "launch_index", kernel.launchIndex, where) ||
        !readOptionalInt(json, "launch_count", kernel.launchCount, where))
      return false;
    if (kernel.launchCount < 1 || kernel.launchIndex < 0 ||
        kernel.launchIndex >= kernel.launchCount)
      return fail(where, "\"launch_index\" must lie in [0, \"launch_count\")");
    if (shared < 0 || shared > UINT32_MAX)
      return fail(where, "\"shared_memory_bytes\" out of range");
    kernel.sharedMemoryBytes = static_cast<unsigned>(shared);
    if (dynamicShared < 0 || dynamicShared > UINT32_MAX)
      return fail(where, "\"dynamic_shared_memory_bytes\" out of range");
    kernel.dynamicSharedMemoryBytes = static_cast<unsigned>(dynamicShared);
    if (json.find("cluster")) {
      std::array<unsigned, 3> cluster;
      if (!readTriple(json, "cluster", cluster, where))
        return false;
      for (int i = 0; i < 3; ++i)
        if (kernel.grid[i] % cluster[i] != 0)
          return fail(where, "the grid is not a whole number of \"cluster\"s");
      kernel.cluster = cluster;
    }
    int64_t maxRegisters = 0;
    if (!readOptionalInt(json, "max_registers", maxRegisters, where))
      return false;
    if (maxRegisters < 0 || maxRegisters > 255)
      return fail(where, "\"max_registers\" out of range");
    kernel.maxRegisters = static_cast<unsigned>(maxRegisters);
    if (const JsonValue *gemm = json.find("gemm")) {
      const JsonValue *key = gemm->isObject() ? gemm->find("key") : nullptr;
      if (!key || !key->isString())
        return fail(where, "\"gemm\" must be an object with a \"key\"");
      ErrorOr<GemmTuning> tuning = readGemmTuning(*gemm);
      if (!tuning)
        return fail(where + " \"gemm\"", tuning.error());
      kernel.gemm = GemmKernel{key->string(), *tuning};
    }
    const JsonValue *parameters = json.find("parameters");
    if (!parameters || !parameters->isArray())
      return fail(where, "missing \"parameters\"");
    for (size_t i = 0; i < parameters->array().size(); ++i) {
      KernelParameter parameter;
      if (!readParameter(parameters->array()[i], parameter,
                         where + " parameter " + std::to_string(i)))
        return false;
      kernel.parameters.push_back(std::move(parameter));
    }
    // An aliased output shares an input's buffer (one that may reuse it,
    // may): that input, as large.
    for (size_t i = 0; i < kernel.parameters.size(); ++i) {
      const KernelParameter &output = kernel.parameters[i];
      for (auto [key, position] : {std::pair{"aliases", output.aliases},
                                   std::pair{"may_reuse", output.mayReuse}}) {
        if (position < 0)
          continue;
        size_t input = static_cast<size_t>(position);
        if (input >= kernel.parameters.size() || kernel.parameters[input].isOutput ||
            kernel.parameters[input].bytes != output.bytes)
          return fail(where + " parameter " + std::to_string(i),
                      std::string("\"") + key + "\" must name an input of the same size");
      }
    }
    return true;
  }
};

} // namespace

ErrorOr<LaunchManifest> parseLaunchManifest(const std::string &json) {
  ErrorOr<JsonValue> root = JsonValue::parse(json);
  if (!root)
    return root.status();
  ManifestReader reader;
  LaunchManifest manifest;
  if (!root->isObject())
    return makeError("the manifest must be a JSON object");
  const JsonValue *kernels = root->find("kernels");
  if (!reader.readString(*root, "module", manifest.module, "manifest") ||
      !reader.readString(*root, "gpu_arch", manifest.gpuArch, "manifest") ||
      !reader.readString(*root, "code", manifest.codeFile, "manifest", /*required=*/false) ||
      !reader.readString(*root, "compiled_hlo", manifest.compiledHloFile, "manifest",
                         /*required=*/false))
    return makeError(reader.error);
  if (!reader.readString(*root, "target", manifest.target, "manifest", /*required=*/false))
    return makeError(reader.error);
  if (manifest.target != "nvptx" && manifest.target != "host")
    return makeError("manifest: unknown \"target\" \"" + manifest.target +
                     "\" (expected \"nvptx\" or \"host\")");
  if (manifest.target == "host" &&
      !reader.readInt(*root, "host_abi_version", manifest.hostAbiVersion, "manifest"))
    return makeError(reader.error);
  if (!kernels || !kernels->isArray())
    return makeError("manifest: missing \"kernels\"");
  for (size_t i = 0; i < kernels->array().size(); ++i) {
    KernelSpec kernel;
    if (!reader.readKernel(kernels->array()[i], kernel, "kernel " + std::to_string(i)))
      return makeError(reader.error);
    manifest.kernels.push_back(std::move(kernel));
  }
  if (const JsonValue *notEmitted = root->find("not_emitted"))
    for (const JsonValue &entry : notEmitted->array()) {
      const JsonValue *name = entry.find("name"), *opcode = entry.find("opcode");
      manifest.notEmitted.emplace_back(name ? name->string() : "",
                                       opcode ? opcode->string() : "");
    }
  if (Status read = readProgramSections(*root, manifest); !read)
    return read;
  return manifest;
}

namespace {

std::string intList(const std::vector<int64_t> &values) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text;
}

std::string triple(const std::array<unsigned, 3> &values) {
  return "[" + std::to_string(values[0]) + ", " + std::to_string(values[1]) + ", " +
         std::to_string(values[2]) + "]";
}

} // namespace

std::string bindingJson(const KernelParameter &parameter) {
  std::string binding;
  switch (parameter.binding) {
  case BufferBinding::Parameter:
    binding = "\"binds\": \"parameter\", \"parameter\": " + std::to_string(parameter.number);
    break;
  case BufferBinding::Output:
    binding = "\"binds\": \"output\", \"output\": " + std::to_string(parameter.number);
    break;
  case BufferBinding::Buffer:
    binding = "\"binds\": \"buffer\", \"buffer\": " + quoteJson(parameter.bufferName);
    break;
  case BufferBinding::Scratch:
    binding = "\"binds\": \"scratch\", \"buffer\": " + quoteJson(parameter.bufferName);
    break;
  }
  const ArrayShape &shape = parameter.shape;
  return std::string("{\"direction\": \"") + (parameter.isOutput ? "out" : "in") +
         "\", " + binding + ", \"shape\": [" + intList(shape.dimensions) +
         "], \"element_type\": \"" + shape.elementType +
         "\", \"layout\": [" + intList(shape.minorToMajor) +
         "], \"bytes\": " + std::to_string(parameter.bytes) +
         ", \"alignment\": " + std::to_string(parameter.alignment) +
         (parameter.aliases >= 0 ? ", \"aliases\": " + std::to_string(parameter.aliases) : "") +
         (parameter.mayReuse >= 0 ? ", \"may_reuse\": " + std::to_string(parameter.mayReuse)
                                  : "") +
         (parameter.tensorMap ? ", \"tensor_map\": {\"box\": [" +
                                    intList(parameter.tensorMap->box) +
                                    "], \"swizzle_bytes\": " +
                                    std::to_string(parameter.tensorMap->swizzleBytes) + "}"
                              : "") +
         "}";
}

ErrorOr<KernelParameter> readBinding(const JsonValue &json, const std::string &where) {
  ManifestReader reader;
  KernelParameter parameter;
  if (!reader.readParameter(json, parameter, where))
    return makeError(reader.error);
  return parameter;
}

std::string printLaunchManifest(const LaunchManifest &manifest) {
  bool host = manifest.target == "host";
  std::string json = "{\n";
  json += "  \"module\": " + quoteJson(manifest.module) + ",\n";
  json += "  \"gpu_arch\": " + quoteJson(manifest.gpuArch) + ",\n";
  json += "  \"target\": " + quoteJson(manifest.target) + ",\n";
  if (host)
    json += "  \"host_abi_version\": " + std::to_string(manifest.hostAbiVersion) + ",\n";
  if (!manifest.codeFile.empty())
    json += "  \"code\": " + quoteJson(manifest.codeFile) + ",\n";
  if (!manifest.compiledHloFile.empty())
    json += "  \"compiled_hlo\": " + quoteJson(manifest.compiledHloFile) + ",\n";
  json += "  \"kernels\": [";
  for (size_t k = 0; k < manifest.kernels.size(); ++k) {
    const KernelSpec &kernel = manifest.kernels[k];
    json += k ? ",\n" : "\n";
    json += "    {\n      \"name\": " + quoteJson(kernel.name) + ",\n";
    json += "      \"hlo_instruction\": " + quoteJson(kernel.hloInstruction) + ",\n";
    if (!kernel.hloComputation.empty())
      json += "      \"hlo_computation\": " + quoteJson(kernel.hloComputation) + ",\n";
    json += "      \"emitter\": " + quoteJson(kernel.emitter) + ",\n";
    json += "      \"grid\": " + triple(kernel.grid) + ",\n";
    json += "      \"block\": " + triple(kernel.block) + ",\n";
    json += "      \"shared_memory_bytes\": " + std::to_string(kernel.sharedMemoryBytes) + ",\n";
    if (kernel.dynamicSharedMemoryBytes)
      json += "      \"dynamic_shared_memory_bytes\": " +
              std::to_string(kernel.dynamicSharedMemoryBytes) + ",\n";
    if (kernel.cluster)
      json += "      \"cluster\": " + triple(*kernel.cluster) + ",\n";
    if (kernel.maxRegisters)
      json += "      \"max_registers\": " + std::to_string(kernel.maxRegisters) + ",\n";
    if (kernel.gemm)
      json += "      \"gemm\": {\"key\": " + quoteJson(kernel.gemm->key) + ", " +
              gemmTuningMembers(kernel.gemm->tuning) + "},\n";
    // The host launcher runs a block's threads one after another unless
    // they must run concurrently.
    if (host)
      json += std::string("      \"concurrent_threads\": ") +
              (kernel.concurrentThreads ? "true" : "false") + ",\n";
    if (kernel.launchCount > 1)
      json += "      \"launch_index\": " + std::to_string(kernel.launchIndex) +
              ",\n      \"launch_count\": " + std::to_string(kernel.launchCount) + ",\n";
    json += "      \"parameters\": [\n";
    for (size_t i = 0; i < kernel.parameters.size(); ++i)
      json += "        " + bindingJson(kernel.parameters[i]) +
              (i + 1 < kernel.parameters.size() ? ",\n" : "\n");
    json += "      ]\n    }";
  }
  json += "\n  ],\n";
  json += printProgramSections(manifest);
  json += "  \"not_emitted\": [";
  for (size_t i = 0; i < manifest.notEmitted.size(); ++i)
    json += std::string(i ? "," : "") + "\n    {\"name\": " +
            quoteJson(manifest.notEmitted[i].first) + ", \"opcode\": " +
            quoteJson(manifest.notEmitted[i].second) + "}";
  json += manifest.notEmitted.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return json;
}

std::string launchLabel(const std::vector<KernelSpec> &kernels, size_t k) {
  const KernelSpec &kernel = kernels.at(k);
  for (size_t i = 0; i < k; ++i)
    if (kernels[i].name == kernel.name && kernels[i].hloInstruction != kernel.hloInstruction)
      return kernel.name + "[" + kernel.hloInstruction + "]";
  return kernel.name;
}

} // namespace hlo::abi
