//===- LaunchManifest.cpp - Reading hlo-compile's manifest ----------------===//
#include "LaunchManifest.h"

#include "Json.h"

namespace hlo::runtime {
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
    } else if (binds == "buffer") {
      parameter.binding = BufferBinding::Buffer;
      if (!readString(json, "buffer", parameter.bufferName, where))
        return false;
    } else {
      return fail(where, "unknown binding \"" + binds + "\"");
    }
    if (parameter.number < 0)
      return fail(where, "negative parameter or output number");
    std::optional<PrimitiveType> type = parsePrimitiveTypeName(elementType);
    if (!type || !isArrayType(*type))
      return fail(where, "unknown element type \"" + elementType + "\"");
    std::vector<int64_t> dims, layout;
    if (!readInts(json, "shape", dims, where) || !readInts(json, "layout", layout, where) ||
        !readInt(json, "bytes", parameter.bytes, where))
      return false;
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
    parameter.shape = Shape(*type, dims);
    Layout physical;
    physical.minorToMajor = layout;
    parameter.shape.setLayout(physical);
    return true;
  }

  bool readKernel(const JsonValue &json, KernelSpec &kernel, const std::string &where) {
    if (!json.isObject())
      return fail(where, "must be an object");
    int64_t shared = 0;
    if (!readString(json, "name", kernel.name, where) ||
        !readString(json, "hlo_instruction", kernel.hloInstruction, where) ||
        !readString(json, "emitter", kernel.emitter, where, /*required=*/false) ||
        !readTriple(json, "grid", kernel.grid, where) ||
        !readTriple(json, "block", kernel.block, where) ||
        !readInt(json, "shared_memory_bytes", shared, where) ||
        !readOptionalBool(json, "concurrent_threads", kernel.concurrentThreads, where))
      return false;
    if (shared < 0 || shared > UINT32_MAX)
      return fail(where, "\"shared_memory_bytes\" out of range");
    kernel.sharedMemoryBytes = static_cast<unsigned>(shared);
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
    return true;
  }
};

} // namespace

std::optional<LaunchManifest> parseLaunchManifest(const std::string &json,
                                                  std::string &error) {
  std::optional<JsonValue> root = JsonValue::parse(json, error);
  if (!root)
    return std::nullopt;
  ManifestReader reader;
  LaunchManifest manifest;
  if (!root->isObject()) {
    error = "the manifest must be a JSON object";
    return std::nullopt;
  }
  const JsonValue *kernels = root->find("kernels");
  if (!reader.readString(*root, "module", manifest.module, "manifest") ||
      !reader.readString(*root, "gpu_arch", manifest.gpuArch, "manifest") ||
      !reader.readString(*root, "code", manifest.codeFile, "manifest", /*required=*/false)) {
    error = reader.error;
    return std::nullopt;
  }
  if (!reader.readString(*root, "target", manifest.target, "manifest", /*required=*/false)) {
    error = reader.error;
    return std::nullopt;
  }
  if (manifest.target != "nvptx" && manifest.target != "host") {
    error = "manifest: unknown \"target\" \"" + manifest.target +
            "\" (expected \"nvptx\" or \"host\")";
    return std::nullopt;
  }
  if (manifest.target == "host" &&
      !reader.readInt(*root, "host_abi_version", manifest.hostAbiVersion, "manifest")) {
    error = reader.error;
    return std::nullopt;
  }
  if (!kernels || !kernels->isArray()) {
    error = "manifest: missing \"kernels\"";
    return std::nullopt;
  }
  for (size_t i = 0; i < kernels->array().size(); ++i) {
    KernelSpec kernel;
    if (!reader.readKernel(kernels->array()[i], kernel, "kernel " + std::to_string(i))) {
      error = reader.error;
      return std::nullopt;
    }
    manifest.kernels.push_back(std::move(kernel));
  }
  if (const JsonValue *notEmitted = root->find("not_emitted"))
    for (const JsonValue &entry : notEmitted->array()) {
      const JsonValue *name = entry.find("name"), *opcode = entry.find("opcode");
      manifest.notEmitted.emplace_back(name ? name->string() : "",
                                       opcode ? opcode->string() : "");
    }
  return manifest;
}

} // namespace hlo::runtime
