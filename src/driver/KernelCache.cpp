//===- KernelCache.cpp - Compiled kernels kept across compiles ------------===//
#include "KernelCache.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <fmt/core.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>
#include <vector>

namespace hlo::driver {
namespace {

constexpr llvm::StringLiteral kMagic = "hlo-compile kernel cache entry 1\n";
/// Temporary files older than this are a crashed writer's.
constexpr auto kStaleTemporary = std::chrono::hours(1);

std::string checksum(llvm::StringRef payload) {
  return fmt::format("{:016x}", llvm::xxh3_64bits(llvm::arrayRefFromStringRef(payload)));
}

/// The payload of an entry file's `text` for `key`; none if it is not a
/// whole, unchanged entry for that key.
std::optional<std::string> parseEntry(llvm::StringRef text, const std::string &key) {
  if (!text.consume_front(kMagic))
    return std::nullopt;
  auto field = [&](llvm::StringRef name) -> std::optional<llvm::StringRef> {
    auto [line, rest] = text.split('\n');
    if (!line.consume_front(name) || !line.consume_front(" "))
      return std::nullopt;
    text = rest;
    return line;
  };
  std::optional<llvm::StringRef> keyField = field("key");
  std::optional<llvm::StringRef> sizeField = field("size");
  std::optional<llvm::StringRef> sumField = field("xxh3");
  uint64_t size = 0;
  if (!keyField || *keyField != key || !sizeField || sizeField->getAsInteger(10, size) ||
      !sumField || !text.consume_front("\n") || text.size() != size ||
      checksum(text) != *sumField)
    return std::nullopt;
  return text.str();
}

} // namespace

KernelCache::KernelCache(std::string directory, uint64_t maxBytes)
    : root(std::move(directory)), maxBytes(maxBytes) {}

KernelCache::~KernelCache() {
  if (!root.empty() && counts.stored > 0)
    trim();
}

std::string KernelCache::entryPath(const std::string &key) const {
  return root + "/v1/" + key.substr(0, 2) + "/" + key;
}

KernelCache::Claim KernelCache::claim(const std::string &key) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto [slot, added] = slots.try_emplace(key);
    if (!added) {
      if (!slot->second.done)
        return {State::Wait, {}};
      if (slot->second.payload) {
        ++counts.memoryHits;
        return {State::Hit, *slot->second.payload};
      }
      slot->second.done = false; // a failed compile: this caller tries
      ++counts.misses;
      return {State::Compile, {}};
    }
  }
  std::optional<std::string> stored = root.empty() ? std::nullopt : readEntry(key);
  std::lock_guard<std::mutex> lock(mutex);
  if (!stored) {
    ++counts.misses;
    return {State::Compile, {}};
  }
  ++counts.diskHits;
  Slot &slot = slots[key];
  slot.done = true;
  slot.payload = *stored;
  published.notify_all();
  return {State::Hit, std::move(*stored)};
}

void KernelCache::publish(const std::string &key, std::optional<std::string> payload) {
  if (payload && !root.empty())
    writeEntry(key, *payload);
  std::lock_guard<std::mutex> lock(mutex);
  Slot &slot = slots[key];
  slot.done = true;
  slot.payload = std::move(payload);
  published.notify_all();
}

std::optional<std::string> KernelCache::wait(const std::string &key) {
  std::unique_lock<std::mutex> lock(mutex);
  published.wait(lock, [&] { return slots[key].done; });
  if (slots[key].payload)
    ++counts.memoryHits;
  return slots[key].payload;
}

KernelCache::Claim KernelCache::claimOrWait(const std::string &key) {
  for (;;) {
    Claim found = claim(key);
    if (found.state != State::Wait)
      return found;
    if (std::optional<std::string> payload = wait(key))
      return {State::Hit, std::move(*payload)};
    // That compile failed: claim it again (this caller compiles it).
  }
}

std::string KernelCache::keyOf(llvm::StringRef text) {
  llvm::XXH128_hash_t hash = llvm::xxh3_128bits(llvm::arrayRefFromStringRef(text));
  return fmt::format("{:016x}{:016x}", hash.high64, hash.low64);
}

KernelCache::Stats KernelCache::stats() const {
  std::lock_guard<std::mutex> lock(mutex);
  return counts;
}

std::optional<std::string> KernelCache::readEntry(const std::string &key) {
  std::string path = entryPath(key);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer)
    return std::nullopt;
  std::optional<std::string> payload = parseEntry((*buffer)->getBuffer(), key);
  if (!payload) {
    // Truncated or changed: never used; the compile rewrites it.
    llvm::sys::fs::remove(path);
    std::lock_guard<std::mutex> lock(mutex);
    ++counts.corrupt;
    return std::nullopt;
  }
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0); // used now (LRU)
  return payload;
}

void KernelCache::writeEntry(const std::string &key, const std::string &payload) {
  static std::atomic<uint64_t> serial{0};
  std::string path = entryPath(key);
  std::string temporary = fmt::format("{}.tmp.{}.{}", path, ::getpid(), serial++);
  bool written = !llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path));
  if (written) {
    std::ofstream out(temporary, std::ios::binary);
    out << kMagic.str() << "key " << key << "\nsize " << payload.size() << "\nxxh3 "
        << checksum(payload) << "\n\n"
        << payload;
    out.close();
    written = static_cast<bool>(out) && !llvm::sys::fs::rename(temporary, path);
  }
  std::lock_guard<std::mutex> lock(mutex);
  if (written) {
    ++counts.stored;
  } else {
    llvm::sys::fs::remove(temporary);
    ++counts.writeErrors;
  }
}

void KernelCache::trim() {
  struct File {
    std::string path;
    int64_t used;
    uint64_t bytes;
  };
  std::vector<File> files;
  uint64_t total = 0;
  auto now = std::chrono::system_clock::now();
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(root + "/v1", ec), end; it != end && !ec;
       it.increment(ec)) {
    llvm::ErrorOr<llvm::sys::fs::basic_file_status> status = it->status();
    if (!status || status->type() != llvm::sys::fs::file_type::regular_file)
      continue;
    auto modified = status->getLastModificationTime();
    if (llvm::StringRef(it->path()).contains(".tmp.")) {
      if (now - modified > kStaleTemporary)
        llvm::sys::fs::remove(it->path());
      continue;
    }
    files.push_back({it->path(), modified.time_since_epoch().count(), status->getSize()});
    total += status->getSize();
  }
  if (total <= maxBytes)
    return;
  std::sort(files.begin(), files.end(), [](const File &a, const File &b) {
    return a.used != b.used ? a.used < b.used : a.path < b.path;
  });
  uint64_t target = maxBytes / 10 * 9;
  int64_t evicted = 0;
  for (const File &file : files) {
    if (total <= target)
      break;
    if (!llvm::sys::fs::remove(file.path)) {
      total -= file.bytes;
      ++evicted;
    }
  }
  std::lock_guard<std::mutex> lock(mutex);
  counts.evicted += evicted;
}

std::string KernelCache::chooseDirectory(const std::string &flag, bool disabled) {
  if (disabled)
    return "";
  if (!flag.empty())
    return flag;
  auto env = [](const char *name) -> std::string {
    const char *value = std::getenv(name);
    return value ? value : "";
  };
  std::string chosen = env("HLO_COMPILE_CACHE");
  if (chosen == "off" || chosen == "0")
    return "";
  if (!chosen.empty())
    return chosen;
  if (std::string xdg = env("XDG_CACHE_HOME"); !xdg.empty())
    return xdg + "/hlo-compile";
  if (std::string home = env("HOME"); !home.empty())
    return home + "/.cache/hlo-compile";
  return "";
}

std::optional<uint64_t> KernelCache::parseSize(llvm::StringRef text) {
  uint64_t unit = 1;
  if (!text.empty()) {
    switch (std::toupper(static_cast<unsigned char>(text.back()))) {
    case 'K':
      unit = uint64_t(1) << 10;
      break;
    case 'M':
      unit = uint64_t(1) << 20;
      break;
    case 'G':
      unit = uint64_t(1) << 30;
      break;
    default:
      break;
    }
    if (unit != 1)
      text = text.drop_back();
  }
  uint64_t value = 0;
  if (text.empty() || text.getAsInteger(10, value))
    return std::nullopt;
  return value * unit;
}

} // namespace hlo::driver
