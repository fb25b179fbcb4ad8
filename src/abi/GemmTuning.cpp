//===- GemmTuning.cpp - Tuned GEMM configs, as files and records ----------===//
#include "abi/GemmTuning.h"

#include "support/Json.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace hlo::abi {
namespace {

std::string boolText(bool value) { return value ? "true" : "false"; }

/// A whole number member `key` of `object` (1 to 2^20).
ErrorOr<int64_t> readCount(const JsonValue &value, const std::string &what) {
  if (!value.isNumber() || value.number() != std::floor(value.number()) || value.number() < 1 ||
      value.number() > (1 << 20))
    return makeError("\"" + what + "\" must be a whole number from 1 to 1048576");
  return static_cast<int64_t>(value.number());
}

ErrorOr<bool> readBool(const JsonValue &object, const std::string &key) {
  const JsonValue *value = object.find(key);
  if (!value)
    return makeError("missing \"" + key + "\"");
  if (value->kind() != JsonValue::Kind::Bool)
    return makeError("\"" + key + "\" must be true or false");
  return value->boolean();
}

/// `message` from the JSON reader ("line L, column C: ...") at line
/// `line` of `path`: "PATH:LINE:C: error: ...".
std::string syntaxError(const std::string &path, int line, const std::string &message) {
  int column = 1;
  std::string rest = message;
  int parsedLine = 0, parsedColumn = 0, consumed = 0;
  if (std::sscanf(message.c_str(), "line %d, column %d: %n", &parsedLine, &parsedColumn,
                  &consumed) == 2 &&
      consumed > 0) {
    column = parsedColumn;
    rest = message.substr(consumed);
  }
  return path + ":" + std::to_string(line) + ":" + std::to_string(column) + ": error: " + rest;
}

} // namespace

std::string GemmTuning::invalidity() const {
  if (blockM < 1 || blockN < 1 || blockK < 1)
    return "the tile's sizes must be positive";
  if (warps < 1 || warps > 32)
    return "warps must be from 1 to 32";
  if (stages < 1 || stages > 8)
    return "stages must be from 1 to 8";
  if (persistent && !warpSpecialized)
    return "persistent blocks need warp specialization";
  if (cluster != 1 && cluster != 2)
    return "a cluster must be 1 or 2 blocks";
  if (cluster > 1 && !warpSpecialized)
    return "clusters need warp specialization";
  return "";
}

void GemmTuningTable::insert(GemmTuningEntry entry) {
  auto key = std::make_pair(entry.arch, entry.gemm);
  entries.insert_or_assign(std::move(key), std::move(entry));
}

const GemmTuningEntry *GemmTuningTable::find(const std::string &arch,
                                             const std::string &gemm) const {
  auto found = entries.find({arch, gemm});
  return found == entries.end() ? nullptr : &found->second;
}

std::vector<const GemmTuningEntry *> GemmTuningTable::sorted() const {
  std::vector<const GemmTuningEntry *> result;
  for (const auto &[key, entry] : entries)
    result.push_back(&entry);
  return result;
}

std::string gemmTuningMembers(const GemmTuning &tuning) {
  return "\"tile\": [" + std::to_string(tuning.blockM) + ", " + std::to_string(tuning.blockN) +
         ", " + std::to_string(tuning.blockK) + "], \"warps\": " + std::to_string(tuning.warps) +
         ", \"stages\": " + std::to_string(tuning.stages) +
         ", \"warp_specialized\": " + boolText(tuning.warpSpecialized) +
         ", \"persistent\": " + boolText(tuning.persistent) +
         (tuning.cluster > 1 ? ", \"cluster\": " + std::to_string(tuning.cluster) : "");
}

std::string gemmTuningLine(const GemmTuningEntry &entry) {
  std::string line = "{\"arch\": " + quoteJson(entry.arch) + ", \"gemm\": " +
                     quoteJson(entry.gemm) + ", " + gemmTuningMembers(entry.tuning);
  if (entry.microseconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", *entry.microseconds);
    line += std::string(", \"microseconds\": ") + text;
  }
  return line + "}";
}

ErrorOr<GemmTuning> readGemmTuning(const JsonValue &object) {
  GemmTuning tuning;
  const JsonValue *tile = object.find("tile");
  if (!tile || !tile->isArray() || tile->array().size() != 3)
    return makeError("\"tile\" must be [rows, columns, K step]");
  const char *names[] = {"tile rows", "tile columns", "tile K step"};
  int64_t *sizes[] = {&tuning.blockM, &tuning.blockN, &tuning.blockK};
  for (int i = 0; i < 3; ++i) {
    ErrorOr<int64_t> size = readCount(tile->array()[i], names[i]);
    if (!size)
      return size.status();
    *sizes[i] = *size;
  }
  for (auto [key, out] : {std::pair<const char *, int64_t *>{"warps", &tuning.warps},
                          {"stages", &tuning.stages}}) {
    const JsonValue *value = object.find(key);
    if (!value)
      return makeError(std::string("missing \"") + key + "\"");
    ErrorOr<int64_t> count = readCount(*value, key);
    if (!count)
      return count.status();
    *out = *count;
  }
  ErrorOr<bool> specialized = readBool(object, "warp_specialized");
  if (!specialized)
    return specialized.status();
  ErrorOr<bool> persistent = readBool(object, "persistent");
  if (!persistent)
    return persistent.status();
  tuning.warpSpecialized = *specialized;
  tuning.persistent = *persistent;
  // Optional: a block alone where absent.
  if (const JsonValue *cluster = object.find("cluster")) {
    ErrorOr<int64_t> blocks = readCount(*cluster, "cluster");
    if (!blocks)
      return blocks.status();
    tuning.cluster = *blocks;
  }
  if (std::string wrong = tuning.invalidity(); !wrong.empty())
    return makeError(wrong);
  return tuning;
}

ErrorOr<GemmTuningTable> parseGemmTuningFile(const std::string &text, const std::string &path) {
  GemmTuningTable table;
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#')
      continue;
    ErrorOr<JsonValue> json = JsonValue::parse(line);
    if (!json)
      return makeError(syntaxError(path, number, json.error()));
    auto fail = [&](const std::string &message) {
      return makeError(path + ":" + std::to_string(number) + ":" + std::to_string(first + 1) +
                       ": error: " + message);
    };
    if (!json->isObject())
      return fail("expected an object per line");
    GemmTuningEntry entry;
    for (auto [key, out] : {std::pair<const char *, std::string *>{"arch", &entry.arch},
                            {"gemm", &entry.gemm}}) {
      const JsonValue *value = json->find(key);
      if (!value || !value->isString() || value->string().empty())
        return fail(std::string("\"") + key + "\" must be a non-empty string");
      *out = value->string();
    }
    ErrorOr<GemmTuning> tuning = readGemmTuning(*json);
    if (!tuning)
      return fail(tuning.error());
    entry.tuning = *tuning;
    if (const JsonValue *time = json->find("microseconds")) {
      if (!time->isNumber() || time->number() < 0)
        return fail("\"microseconds\" must be a non-negative number");
      entry.microseconds = time->number();
    }
    table.insert(std::move(entry));
  }
  return table;
}

ErrorOr<GemmTuningTable> readGemmTuningFile(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return makeError(path + ": error: cannot read the GEMM tuning file");
  std::ostringstream text;
  text << file.rdbuf();
  return parseGemmTuningFile(text.str(), path);
}

} // namespace hlo::abi
