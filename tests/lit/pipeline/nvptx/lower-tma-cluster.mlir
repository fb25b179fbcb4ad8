// RUN: xla-gpu-opt %s --xla-gpu-lower-tma-to-nvvm | FileCheck %s
// (The PTX it becomes is checked end to end: emitters/gemm/cluster-multicast.hlo.)

// A cluster's ops: the cluster barrier as barrier.cluster.arrive and
// .wait (not .aligned); an arrival at another block's barrier through
// mapa of the barrier's shared address to that block's, at cluster
// scope; a TMA load multicast to the blocks of its mask.
// CHECK-LABEL: func.func @k
// CHECK:      nvvm.cluster.arrive{{$}}
// CHECK-NEXT: nvvm.cluster.wait{{$}}
// CHECK:      %[[PEER:.*]] = arith.index_castui %arg5 : index to i32
// CHECK:      %[[BAR:.*]] = xla_gpu.element_pointer %arg2[%arg3] : memref<4xi64, #gpu.address_space<workgroup>> -> <3>
// CHECK:      %[[REMOTE:.*]] = nvvm.mapa %[[BAR]], %[[PEER]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:      nvvm.mbarrier.arrive %[[REMOTE]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// CHECK:      %[[MASK:.*]] = arith.constant 3 : i16
// CHECK:      nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] multicast_mask = %[[MASK]] : !llvm.ptr<7>, !llvm.ptr
// CHECK-NOT:  nvvm.mapa
func.func @k(%a: memref<256x512xbf16>, %t: memref<1x128x64xbf16, #gpu.address_space<workgroup>>, %b: memref<4xi64, #gpu.address_space<workgroup>>, %i: index, %k: index, %peer: index) {
  xla_gpu.sync_threads {cluster}
  xla_gpu.mbarrier_arrive %b[%i] in_block %peer : memref<4xi64, #gpu.address_space<workgroup>>
  xla_gpu.tma_load %a[%k, %i] into %t[%i, %i, %i] barrier %b[%i] {box = array<i64: 64, 64>, multicast = 3 : i64, swizzle = 128 : i64} : memref<256x512xbf16>, memref<1x128x64xbf16, #gpu.address_space<workgroup>>, memref<4xi64, #gpu.address_space<workgroup>>
  return
}
