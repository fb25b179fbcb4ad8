//===- OutputFiles.cpp - Where hlo-compile's results go -------------------===//
#include "OutputFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <iostream>
#include <unistd.h>

namespace hlo::driver {
namespace {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

/// A path that names (or will name) a regular file: it does not exist yet,
/// or it is a regular file (not a device, a directory or a FIFO).
bool isRegularFilePath(const std::string &file) {
  fs::file_status status;
  if (fs::status(file, status))
    return true; // does not exist yet
  return fs::is_regular_file(status);
}

std::string absolute(const std::string &file) {
  llvm::SmallString<256> result(file);
  fs::make_absolute(result);
  path::remove_dots(result, /*remove_dot_dot=*/true);
  return result.str().str();
}

/// Removes `file` if it is a regular file (never a device or folder).
void removeIfRegular(const std::string &file) {
  fs::file_status status;
  if (!file.empty() && !fs::status(file, status) && fs::is_regular_file(status))
    fs::remove(file);
}

/// `file` relative to directory `base` (both absolute).
std::string relativeTo(const std::string &file, const std::string &base) {
  llvm::SmallVector<llvm::StringRef> fileParts(path::begin(file), path::end(file));
  llvm::SmallVector<llvm::StringRef> baseParts(path::begin(base), path::end(base));
  size_t common = 0;
  while (common < fileParts.size() && common < baseParts.size() &&
         fileParts[common] == baseParts[common])
    ++common;
  if (common == 0)
    return file; // different roots
  llvm::SmallString<256> result;
  for (size_t i = common; i < baseParts.size(); ++i)
    path::append(result, "..");
  for (size_t i = common; i < fileParts.size(); ++i)
    path::append(result, fileParts[i]);
  return result.str().str();
}

/// A write failure with `message`.
llvm::Error writeError(const std::string &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Writes `text` to `file` whole: a temporary file beside it, renamed.
llvm::Error writeWhole(const std::string &file, const std::string &text) {
  if (!isRegularFilePath(file)) {
    // A device or FIFO (e.g. /dev/null): written in place.
    std::error_code ec;
    llvm::raw_fd_ostream stream(file, ec, fs::OF_None);
    if (!ec)
      stream << text;
    if (ec || stream.has_error()) {
      std::string message = "cannot write '" + file + "': " + (ec ? ec : stream.error()).message();
      stream.clear_error();
      return writeError(message);
    }
    return llvm::Error::success();
  }
  llvm::SmallString<256> model(file);
  model += ".tmp-%%%%%%";
  int fd = -1;
  llvm::SmallString<256> temporary;
  if (std::error_code ec = fs::createUniqueFile(model, fd, temporary))
    return writeError("cannot write '" + file + "': " + ec.message());
  {
    llvm::raw_fd_ostream stream(fd, /*shouldClose=*/true);
    stream << text;
    stream.close();
    if (stream.has_error()) {
      std::string message = "cannot write '" + file + "': " + stream.error().message();
      stream.clear_error();
      fs::remove(temporary);
      return writeError(message);
    }
  }
  if (std::error_code ec = fs::rename(temporary, file)) {
    fs::remove(temporary);
    return writeError("cannot write '" + file + "': " + ec.message());
  }
  return llvm::Error::success();
}

} // namespace

OutputFiles::OutputFiles(const Options &options, bool writesManifest) {
  if (!options.output.empty() && options.output != "-")
    output = options.output;
  if (!writesManifest)
    return;
  if (!options.manifestPath.empty()) {
    manifest = options.manifestPath;
  } else if (!output.empty() && isRegularFilePath(output)) {
    // gelu.ptx.json beside gelu.ptx, gelu.so.json beside gelu.so: code for
    // two targets from one input keeps a manifest each.
    manifest = output + ".json";
  }
  if (!manifest.empty()) {
    llvm::StringRef stem(manifest);
    stem.consume_back(".json");
    compiledModule = stem.str() + ".compiled.hlo";
  }
  input = options.input;
}

llvm::Error OutputFiles::validate() const {
  if (!output.empty() && !manifest.empty() && absolute(output) == absolute(manifest))
    return writeError("-o and --manifest name the same file '" + output + "'");
  if (!compiledModule.empty() && input != "-" && absolute(input) == absolute(compiledModule))
    return writeError("the module compiled would go to the input '" + input +
                      "' (beside the manifest): name the manifest otherwise (--manifest)");
  return llvm::Error::success();
}

std::string OutputFiles::codePathForManifest() const {
  if (output.empty())
    return "";
  std::string directory = path::parent_path(absolute(manifest)).str();
  return relativeTo(absolute(output), directory);
}

std::string OutputFiles::compiledModuleForManifest() const {
  return compiledModule.empty() ? "" : path::filename(compiledModule).str();
}

llvm::Error OutputFiles::write(const std::string &text, const std::string &manifestText,
                               const std::string &compiledModuleText) const {
  if (output.empty() && isatty(STDOUT_FILENO) &&
      std::any_of(text.begin(), text.end(), [](char c) { return c == '\0'; })) {
    // As LLVM's tools do: binary output would garble the terminal.
    return writeError("not writing binary output to a terminal: give -o FILE, or redirect");
  }
  if (output.empty()) {
    std::cout << text;
    std::cout.flush();
    if (!std::cout)
      return writeError("cannot write to the standard output");
  } else if (llvm::Error error = writeWhole(output, text)) {
    return error;
  }
  if (manifest.empty() || manifestText.empty())
    return llvm::Error::success();
  if (!compiledModuleText.empty()) {
    if (llvm::Error error = writeWhole(compiledModule, compiledModuleText))
      return error;
  } else {
    removeIfRegular(compiledModule); // an earlier run's, which no manifest names now
  }
  return writeWhole(manifest, manifestText);
}

void OutputFiles::removeStale() const {
  for (const std::string &file : {output, manifest, compiledModule})
    removeIfRegular(file);
}

} // namespace hlo::driver
