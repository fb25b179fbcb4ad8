//===- ClusterRunner.h - One thread-block cluster on a host thread -*- C++ -*-===//
//
// Owns running the blocks of one thread-block cluster (sm_90's
// `.reqnctapercluster`) of a host-compiled kernel together on the calling
// host thread, as a GPU co-schedules them: each block keeps its own
// threads, shared memory and barriers (a BlockRunner), and the cluster
// sweeps its blocks in turn until all have exited. What is shared:
//  - the cluster barrier (barrier.cluster), released once every thread of
//    every block has arrived at it or exited;
//  - distributed shared memory: mbarrier arrivals and multicast TMA loads
//    that reach another block's shared memory at the same offset (mapa),
//    a fault where that block has exited.
// Blocks run from the highest rank down, each as far as it can before the
// next moves, so that a block that reaches into a lower one before the
// cluster barrier after the mbarriers' initialization meets them
// uninitialized, and a block that exits without a cluster barrier may
// leave another reaching into it: faults, as the races would be on a GPU. When no block can move and the threads do not
// all wait at the cluster barrier, the cluster is deadlocked: a fault,
// with each block's state.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_HOST_CLUSTERRUNNER_H
#define HLO_RUNTIME_HOST_CLUSTERRUNNER_H

#include "host/BlockRunner.h"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace hlo::runtime {

class ClusterRunner {
public:
  ClusterRunner();
  ~ClusterRunner();
  ClusterRunner(const ClusterRunner &) = delete;
  ClusterRunner &operator=(const ClusterRunner &) = delete;

  /// Runs cluster `clusterId` of `launch` (in units of launch.cluster):
  /// its blocks' ranks x fastest, as %cluster_ctarank numbers them. False
  /// on a fault, described by faultMessage().
  bool run(const GridLaunch &launch, std::array<uint32_t, 3> clusterId);
  const std::string &faultMessage() const { return message; }

  /// The blocks of the running cluster.
  unsigned size() const { return active; }
  BlockRunner &member(unsigned rank) { return *members[rank]; }

private:
  std::vector<std::unique_ptr<BlockRunner>> members;
  unsigned active = 0;
  std::string message;
};

} // namespace hlo::runtime

#endif // HLO_RUNTIME_HOST_CLUSTERRUNNER_H
