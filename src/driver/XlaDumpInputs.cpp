//===- XlaDumpInputs.cpp - XLA dump folders and file names as inputs ------===//
#include "XlaDumpInputs.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <regex>

namespace hlo::driver {

namespace {

constexpr const char *kAfterOptimizations = "after_optimizations.txt";

bool endsWith(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// Why a folder without modules after optimizations has none, from what it
/// holds instead.
std::string describeFolderWithoutModules(const std::string &folder,
                                         const std::vector<std::string> &files) {
  std::string message = "'" + folder + "' holds no HLO module after optimizations (with "
                        "--xla_dump_to and --xla_dump_hlo_as_text XLA writes them as "
                        "module_NNNN.NAME.sm_X.Y_gpu_after_optimizations.txt)";
  auto count = [&](auto predicate) { return std::count_if(files.begin(), files.end(), predicate); };
  if (files.empty())
    return message + "; it is empty";
  if (count([](const std::string &f) { return endsWith(f, ".hlo"); }))
    return message + "; for the .hlo files in it, name them: " + folder + "/*.hlo";
  if (count([](const std::string &f) { return endsWith(f, ".pb"); }))
    return message + "; it holds binary HLO protos (.pb), which hlo-compile does not read: "
                     "dump again with --xla_dump_hlo_as_text";
  if (count([](const std::string &f) { return endsWith(f, "before_optimizations.txt"); }))
    return message + "; it holds modules before optimizations only, which XLA has not fused "
                     "yet: name them to compile each instruction as its own kernel";
  return message + "; it holds " + std::to_string(files.size()) + " other file" +
         (files.size() == 1 ? "" : "s");
}

} // namespace

std::optional<XlaDumpFileName> parseXlaDumpFileName(const std::string &fileName) {
  // module_0001.jit_gelu.sm_9.0a_gpu_after_optimizations.txt; CPU dumps
  // and older XLA write cpu_ or nothing in place of sm_X.Y_gpu_.
  static const std::regex kName(R"(^(module_[0-9]+)\.(.+)\.(?:sm_([0-9]+)\.([0-9]+)([af]?)_gpu_|)"
                                R"([A-Za-z0-9]+_)?after_optimizations\.txt$)");
  std::smatch match;
  if (!std::regex_match(fileName, match, kName))
    return std::nullopt;
  XlaDumpFileName name{match[1], match[2], ""};
  if (match[3].matched)
    name.gpuArch = "sm_" + match[3].str() + match[4].str() + match[5].str();
  return name;
}

llvm::Expected<std::vector<std::string>> expandInputFolders(const std::vector<std::string> &inputs) {
  std::vector<std::string> expanded;
  for (const std::string &input : inputs) {
    if (input == "-" || !llvm::sys::fs::is_directory(input)) {
      expanded.push_back(input);
      continue;
    }
    std::vector<std::string> modules, others;
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator entry(input, ec), end; entry != end && !ec;
         entry.increment(ec)) {
      if (entry->type() == llvm::sys::fs::file_type::directory_file)
        continue;
      std::string name = llvm::sys::path::filename(entry->path()).str();
      (endsWith(name, kAfterOptimizations) ? modules : others).push_back(name);
    }
    if (ec)
      return llvm::createStringError(ec, "cannot read the folder '%s': %s", input.c_str(),
                                     ec.message().c_str());
    if (modules.empty())
      return llvm::createStringError(std::errc::no_such_file_or_directory, "%s",
                                     describeFolderWithoutModules(input, others).c_str());
    std::sort(modules.begin(), modules.end());
    std::string folder = input;
    while (folder.size() > 1 && folder.back() == '/')
      folder.pop_back();
    for (const std::string &module : modules)
      expanded.push_back(folder + "/" + module);
  }
  return expanded;
}

} // namespace hlo::driver
