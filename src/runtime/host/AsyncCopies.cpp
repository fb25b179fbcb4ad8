//===- AsyncCopies.cpp - One thread's cp.async groups on the host ---------===//
#include "host/AsyncCopies.h"

#include <cstring>

namespace hlo::runtime {

void AsyncCopyQueue::copy(void *destination, const void *source, uint32_t bytes,
                          uint32_t sourceBytes) {
  if (sourceBytes > 0)
    std::memcpy(destination, source, sourceBytes);
  std::memset(static_cast<uint8_t *>(destination) + sourceBytes, 0, bytes - sourceBytes);
}

void AsyncCopyQueue::issue(void *destination, const void *source, uint32_t bytes,
                           uint32_t sourceBytes) {
  open.push_back({destination, source, bytes, sourceBytes});
}

void AsyncCopyQueue::commit() {
  committed.push_back(std::move(open));
  open.clear();
}

void AsyncCopyQueue::wait(uint32_t pending) {
  while (committed.size() > pending) {
    for (const Copy &c : committed.front())
      copy(c.destination, c.source, c.bytes, c.sourceBytes);
    committed.pop_front();
  }
}

void AsyncCopyQueue::clear() {
  open.clear();
  committed.clear();
}

} // namespace hlo::runtime
