//===- AsyncCopies.h - One thread's cp.async groups on the host --*- C++ -*-===//
//
// Owns what the host target does for PTX's cp.async: each thread's copies
// are queued as they are issued, grouped by its commits, and done only
// when a wait leaves fewer committed groups pending (cp.async.wait_group),
// so that a kernel that reads a tile before the wait covering its copies
// reads what was there before (the block's poison, or an earlier tile), as
// a GPU may, and its results are wrong where the interpreter's are not.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_HOST_ASYNCCOPIES_H
#define HLO_RUNTIME_HOST_ASYNCCOPIES_H

#include <cstdint>
#include <deque>
#include <vector>

namespace hlo::runtime {

class AsyncCopyQueue {
public:
  /// Queues a copy of `bytes` bytes to `destination`: the first
  /// `sourceBytes` from `source`, zeros after them.
  void issue(void *destination, const void *source, uint32_t bytes, uint32_t sourceBytes);
  /// The copies issued since the last commit form a group.
  void commit();
  /// Does the oldest committed groups' copies until at most `pending`
  /// committed groups remain (the copies not yet committed stay queued).
  void wait(uint32_t pending);
  /// Drops everything queued (the thread has ended).
  void clear();

  /// Does one copy now.
  static void copy(void *destination, const void *source, uint32_t bytes, uint32_t sourceBytes);

private:
  struct Copy {
    void *destination;
    const void *source;
    uint32_t bytes, sourceBytes;
  };
  std::vector<Copy> open;
  std::deque<std::vector<Copy>> committed;
};

} // namespace hlo::runtime

#endif // HLO_RUNTIME_HOST_ASYNCCOPIES_H
