// RUN: xla-gpu-opt %s --xla-gpu-lower-gpu-to-host | FileCheck %s

// A cluster's ops call the launcher's (abi/HostKernelAbi.h): the cluster
// barrier; an arrival at another block's barrier, with the barrier's
// address in this block and the other block's rank; a multicast TMA load
// as the plain one's call with the blocks' mask after it.
// CHECK-DAG:   func.func private @__hlo_host_cluster_sync(!llvm.ptr)
// CHECK-DAG:   func.func private @__hlo_host_mbarrier_arrive_cluster(!llvm.ptr, !llvm.ptr, i32)
// CHECK-DAG:   func.func private @__hlo_host_tma_load_multicast(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32)
// CHECK-LABEL: func.func @k(
// CHECK:       call @__hlo_host_cluster_sync(%arg6)
// CHECK:       %[[BAR:.*]] = xla_gpu.element_pointer %arg2[%arg3]
// CHECK:       %[[PEER:.*]] = arith.index_castui %arg5 : index to i32
// CHECK:       call @__hlo_host_mbarrier_arrive_cluster(%arg6, %[[BAR]], %[[PEER]])
// CHECK:       %[[TILE:.*]] = xla_gpu.element_pointer %arg1[%arg3, %arg3, %arg3]
// CHECK:       call @__hlo_host_tma_load_multicast(%arg6, %{{.*}}, %[[TILE]], %{{.*}}, %{{.*}}, %c3_i32)
// CHECK-NOT:   call @__hlo_host_tma_load(
func.func @k(%a: memref<256x512xbf16>, %t: memref<1x128x64xbf16, #gpu.address_space<workgroup>>, %b: memref<4xi64, #gpu.address_space<workgroup>>, %i: index, %k: index, %peer: index) {
  xla_gpu.sync_threads {cluster}
  xla_gpu.mbarrier_arrive %b[%i] in_block %peer : memref<4xi64, #gpu.address_space<workgroup>>
  xla_gpu.tma_load %a[%k, %i] into %t[%i, %i, %i] barrier %b[%i] {box = array<i64: 64, 64>, multicast = 3 : i64, swizzle = 128 : i64} : memref<256x512xbf16>, memref<1x128x64xbf16, #gpu.address_space<workgroup>>, memref<4xi64, #gpu.address_space<workgroup>>
  return
}
