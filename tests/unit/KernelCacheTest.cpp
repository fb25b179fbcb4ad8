//===- KernelCacheTest.cpp - Compiled kernels kept across compiles --------===//
//
// driver/KernelCache: a key is compiled once per process (claims, waits,
// a failed compile handed to the next claimant), entries survive the
// process, a damaged entry is a miss and is removed, the least recently
// used entries go past the cap, sizes parse, and the directory follows
// the flags and the environment.
//
//===----------------------------------------------------------------------===//
#include "driver/KernelCache.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <unistd.h>
#include <fstream>
#include <thread>

using hlo::driver::KernelCache;

namespace {

std::string freshDirectory(const std::string &name) {
  llvm::SmallString<128> path;
  llvm::sys::fs::createUniqueDirectory("kernel-cache-" + name, path);
  return path.str().str();
}

std::string key(char c) { return std::string(32, c); }

TEST(KernelCache, CompilesAKeyOnceAndKeepsItOnDisk) {
  std::string dir = freshDirectory("keep");
  {
    KernelCache cache(dir, KernelCache::kDefaultMaxBytes);
    EXPECT_EQ(cache.claim(key('a')).state, KernelCache::State::Compile);
    EXPECT_EQ(cache.claim(key('a')).state, KernelCache::State::Wait);
    cache.publish(key('a'), std::string("ptx of a"));
    KernelCache::Claim again = cache.claim(key('a'));
    EXPECT_EQ(again.state, KernelCache::State::Hit);
    EXPECT_EQ(again.payload, "ptx of a");
  }
  KernelCache later(dir, KernelCache::kDefaultMaxBytes);
  KernelCache::Claim found = later.claim(key('a'));
  EXPECT_EQ(found.state, KernelCache::State::Hit);
  EXPECT_EQ(found.payload, "ptx of a");
  EXPECT_EQ(later.stats().diskHits, 1);
  llvm::sys::fs::remove_directories(dir);
}

TEST(KernelCache, AWaiterGetsThePayloadOrTheCompileWhenItFailed) {
  KernelCache cache("", KernelCache::kDefaultMaxBytes);
  ASSERT_EQ(cache.claim(key('b')).state, KernelCache::State::Compile);
  ASSERT_EQ(cache.claim(key('b')).state, KernelCache::State::Wait);
  std::thread compiler([&] { cache.publish(key('b'), std::string("ptx of b")); });
  EXPECT_EQ(cache.wait(key('b')), std::optional<std::string>("ptx of b"));
  compiler.join();
  ASSERT_EQ(cache.claim(key('c')).state, KernelCache::State::Compile);
  cache.publish(key('c'), std::nullopt);
  EXPECT_EQ(cache.wait(key('c')), std::nullopt);
  EXPECT_EQ(cache.claim(key('c')).state, KernelCache::State::Compile);
}

TEST(KernelCache, ADamagedEntryIsAMissAndGoes) {
  std::string dir = freshDirectory("damaged");
  {
    KernelCache cache(dir, KernelCache::kDefaultMaxBytes);
    cache.claim(key('d'));
    cache.publish(key('d'), std::string(1000, 'x'));
  }
  std::string path = KernelCache(dir, 1).entryPath(key('d'));
  for (int damage = 0; damage < 3; ++damage) {
    {
      std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
      ASSERT_TRUE(file.good());
      if (damage == 0) { // a flipped byte in the payload
        file.seekp(-10, std::ios::end);
        file.put('y');
      } else if (damage == 1) { // truncated
        file.close();
        ::truncate(path.c_str(), 200);
      } else { // another key's entry under this name
        file.seekp(std::string("hlo-compile kernel cache entry 1\nkey ").size());
        file.put('e');
      }
    }
    KernelCache cache(dir, KernelCache::kDefaultMaxBytes);
    EXPECT_EQ(cache.claim(key('d')).state, KernelCache::State::Compile) << damage;
    EXPECT_EQ(cache.stats().corrupt, 1) << damage;
    EXPECT_FALSE(llvm::sys::fs::exists(path)) << damage;
    cache.publish(key('d'), std::string(1000, 'x'));
    EXPECT_EQ(KernelCache(dir, KernelCache::kDefaultMaxBytes).claim(key('d')).state,
              KernelCache::State::Hit);
  }
  llvm::sys::fs::remove_directories(dir);
}

TEST(KernelCache, TrimsTheLeastRecentlyUsedPastTheCap) {
  std::string dir = freshDirectory("trim");
  KernelCache cache(dir, 5000);
  for (char c : {'1', '2', '3', '4'}) {
    cache.claim(key(c));
    cache.publish(key(c), std::string(2000, c));
    // Older, then younger: what was used longest ago goes first.
    llvm::sys::fs::file_t file;
    ASSERT_FALSE(llvm::sys::fs::openFileForWrite(cache.entryPath(key(c)), file,
                                                 llvm::sys::fs::CD_OpenExisting,
                                                 llvm::sys::fs::OF_Append));
    llvm::sys::fs::setLastAccessAndModificationTime(
        file, llvm::sys::TimePoint<>(std::chrono::seconds(1000 + c)));
    llvm::sys::fs::closeFile(file);
  }
  cache.trim();
  EXPECT_FALSE(llvm::sys::fs::exists(cache.entryPath(key('1'))));
  EXPECT_FALSE(llvm::sys::fs::exists(cache.entryPath(key('2'))));
  EXPECT_TRUE(llvm::sys::fs::exists(cache.entryPath(key('3'))));
  EXPECT_TRUE(llvm::sys::fs::exists(cache.entryPath(key('4'))));
  EXPECT_EQ(cache.stats().evicted, 2);
  llvm::sys::fs::remove_directories(dir);
}

TEST(KernelCache, SizesAndDirectories) {
  EXPECT_EQ(KernelCache::parseSize("512M"), uint64_t(512) << 20);
  EXPECT_EQ(KernelCache::parseSize("2g"), uint64_t(2) << 30);
  EXPECT_EQ(KernelCache::parseSize("4096"), 4096u);
  EXPECT_EQ(KernelCache::parseSize("lots"), std::nullopt);
  EXPECT_EQ(KernelCache::parseSize("G"), std::nullopt);
  EXPECT_EQ(KernelCache::chooseDirectory("/flag", false), "/flag");
  EXPECT_EQ(KernelCache::chooseDirectory("/flag", true), "");
  setenv("HLO_COMPILE_CACHE", "/env", 1);
  EXPECT_EQ(KernelCache::chooseDirectory("", false), "/env");
  setenv("HLO_COMPILE_CACHE", "off", 1);
  EXPECT_EQ(KernelCache::chooseDirectory("", false), "");
  unsetenv("HLO_COMPILE_CACHE");
  setenv("XDG_CACHE_HOME", "/xdg", 1);
  EXPECT_EQ(KernelCache::chooseDirectory("", false), "/xdg/hlo-compile");
  unsetenv("XDG_CACHE_HOME");
  setenv("HOME", "/home/user", 1);
  EXPECT_EQ(KernelCache::chooseDirectory("", false), "/home/user/.cache/hlo-compile");
}

} // namespace
