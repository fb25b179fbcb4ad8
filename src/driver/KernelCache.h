//===- KernelCache.h - Compiled kernels kept across compiles ----*- C++ -*-===//
//
// Owns the kernel cache: what a distinct kernel compiled to (an opaque
// payload, KernelCodegen.h's), under a key that fingerprints everything
// its code depends on (KernelFingerprint.h). Two layers:
//
// - in the process, shared by every input of a batch: each key is compiled
//   once, by the first thread that claims it; the others wait for its
//   payload (a thread compiles all it claimed before it waits, so no two
//   wait on each other);
// - on disk, shared by processes: `DIR/v1/<2 hex>/<key>`, each written to
//   a temporary file and renamed into place (readers see a whole entry or
//   none), holding its key, size and checksum: an entry that does not
//   match (truncated, corrupted) is a miss, removed and written again.
//   Reading an entry marks it used (its time); once a process has stored
//   entries it removes the least recently used ones down to 90% of the
//   size cap.
//
// Where the cache lives: --cache-dir, else $HLO_COMPILE_CACHE, else
// $XDG_CACHE_HOME/hlo-compile, else ~/.cache/hlo-compile; --no-cache or
// HLO_COMPILE_CACHE=off: none on disk.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DRIVER_KERNELCACHE_H
#define HLO_DRIVER_KERNELCACHE_H

#include "llvm/ADT/StringRef.h"

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace hlo::driver {

class KernelCache {
public:
  /// `directory` empty: the in-process layer only. `maxBytes`: the disk
  /// layer's cap.
  KernelCache(std::string directory, uint64_t maxBytes);
  /// Trims the disk layer if this process stored anything.
  ~KernelCache();
  KernelCache(const KernelCache &) = delete;
  KernelCache &operator=(const KernelCache &) = delete;

  enum class State {
    /// `payload` holds what the key compiled to.
    Hit,
    /// The caller compiles it, then publish()es.
    Compile,
    /// Another thread compiles it: wait() for it.
    Wait,
  };
  struct Claim {
    State state;
    std::string payload;
  };
  /// What is known of `key`, claiming it for the caller if nothing is.
  Claim claim(const std::string &key);
  /// The payload the caller compiled for a key it claimed (stored on disk
  /// too), or none when its compile failed (a waiter then compiles it).
  void publish(const std::string &key, std::optional<std::string> payload);
  /// The payload another thread publishes for `key`; none if it failed.
  std::optional<std::string> wait(const std::string &key);
  /// claim(), waiting out another thread's compile: a Hit, or Compile
  /// (then the caller publishes).
  Claim claimOrWait(const std::string &key);

  /// A key: 32 hex digits of a 128-bit hash of `text`.
  static std::string keyOf(llvm::StringRef text);

  /// Removes the least recently used entries until the disk layer holds
  /// at most 90% of the cap (and temporary files of crashed writers).
  void trim();

  struct Stats {
    int64_t memoryHits = 0, diskHits = 0, misses = 0, corrupt = 0, stored = 0, evicted = 0,
            writeErrors = 0;
  };
  Stats stats() const;
  const std::string &directory() const { return root; }
  /// "kernel cache DIR" or "kernel cache (none on disk)", for -v.
  std::string title() const {
    return root.empty() ? "kernel cache (none on disk)" : "kernel cache " + root;
  }

  /// The directory the options and environment choose (empty: none).
  static std::string chooseDirectory(const std::string &flag, bool disabled);
  /// "512M", "2G", "1048576": bytes; none if it is not a size.
  static std::optional<uint64_t> parseSize(llvm::StringRef text);
  static constexpr uint64_t kDefaultMaxBytes = uint64_t(2) << 30;

  /// The entry file for `key` (tests corrupt it).
  std::string entryPath(const std::string &key) const;

private:
  std::optional<std::string> readEntry(const std::string &key);
  void writeEntry(const std::string &key, const std::string &payload);

  struct Slot {
    bool done = false;
    std::optional<std::string> payload;
  };
  std::string root;
  uint64_t maxBytes;
  mutable std::mutex mutex;
  std::condition_variable published;
  std::map<std::string, Slot> slots;
  Stats counts;
};

} // namespace hlo::driver

#endif // HLO_DRIVER_KERNELCACHE_H
