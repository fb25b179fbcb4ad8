//===- TmaStores.cpp - One thread's TMA stores on the host -----------------===//
#include "host/TmaStores.h"

#include "host/TmaBarriers.h"

#include <cstring>
#include <string>

namespace hlo::runtime {
Status storeTmaBox(const HloHostTensorMap &map, const int32_t *coordinates,
                   const uint8_t *source, uint64_t sourceOffset) {
  if (Status supported = checkTmaBox(map); !supported)
    return supported;
  // The tensor's buffer is the kernel's output: the map is const only as
  // the loads see it.
  auto *base = static_cast<uint8_t *>(const_cast<void *>(map.base));
  forEachTmaBoxElement(map, coordinates, sourceOffset,
                       [&](uint64_t shared, uint64_t global, bool inside) {
                         if (inside)
                           std::memcpy(base + global, source + shared, map.elementBytes);
                       });
  return Status::success();
}

Status TmaStoreQueue::issue(const HloHostTensorMap &map, const void *source,
                            const int32_t *coordinates, const uint8_t *sharedBase,
                            size_t sharedBytes) {
  auto from = static_cast<const uint8_t *>(source);
  // (The swizzle permutes addresses only within the box.)
  uint64_t bytes = tmaBoxBytes(map);
  if (from < sharedBase || from + bytes > sharedBase + sharedBytes)
    return Status::failure("a TMA store whose " + std::to_string(bytes) +
                           "-byte box at shared offset " + std::to_string(from - sharedBase) +
                           " is not in the block's shared memory");
  uint64_t alignment = map.swizzle ? 8 * map.swizzle : 128;
  if (uint64_t(from - sharedBase) % alignment != 0)
    return Status::failure("a TMA store from shared offset " +
                           std::to_string(from - sharedBase) + ", not a multiple of " +
                           std::to_string(alignment) + " bytes (its swizzle's pattern)");
  Store store;
  store.map = map;
  for (uint32_t d = 0; d < map.rank && d < 5; ++d)
    store.coordinates[d] = coordinates[d];
  store.source = from;
  store.sharedBase = sharedBase;
  store.bytes.assign(from, from + bytes);
  stores.push_back(std::move(store));
  return Status::success();
}

Status TmaStoreQueue::wait(uint32_t pending) {
  while (stores.size() > pending) {
    Store &store = stores.front();
    if (std::memcmp(store.bytes.data(), store.source, store.bytes.size()) != 0)
      return Status::failure(
          "the shared memory a TMA store reads (offset " +
          std::to_string(store.source - store.sharedBase) +
          ") was written before a cp.async.bulk.wait_group retired the store");
    if (Status stored = storeTmaBox(store.map, store.coordinates.data(), store.bytes.data(),
                                    uint64_t(store.source - store.sharedBase));
        !stored)
      return stored;
    stores.pop_front();
  }
  return Status::success();
}

} // namespace hlo::runtime
