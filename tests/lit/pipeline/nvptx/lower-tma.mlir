// RUN: xla-gpu-opt %s --xla-gpu-lower-tma-to-nvvm | FileCheck %s
// (The PTX it becomes is checked end to end: emitters/gemm/planted-tma-bugs.hlo.)

// mbarrier ops on the barrier's shared address (an init fenced for the
// async proxy); the TMA load from the
// generic address of its source (the tensor-map parameter itself) into the
// tile's address in the cluster's window, coordinates as i32; the wait a
// try_wait.parity loop with CUTLASS's suspend hint.
// CHECK-LABEL: func.func @k
// CHECK:      %[[INIT:.*]] = xla_gpu.element_pointer %arg2[%arg3] : memref<4xi64, #gpu.address_space<workgroup>> -> <3>
// CHECK:      nvvm.mbarrier.init %[[INIT]], %c1_i32 : !llvm.ptr<3>, i32
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK:      %[[ARRIVE:.*]] = xla_gpu.element_pointer %arg2[%arg3]
// CHECK:      nvvm.mbarrier.arrive.expect_tx %[[ARRIVE]], %c16384_i32 : !llvm.ptr<3>, i32
// CHECK:      %[[TILE:.*]] = xla_gpu.element_pointer %arg1[%c0, %c0, %c0] : memref<1x128x64xbf16, #gpu.address_space<workgroup>> -> <3>
// CHECK:      %[[MAP:.*]] = xla_gpu.element_pointer %arg0[%[[Z:c0(_[0-9]+)?]], %[[Z]]] : memref<256x512xbf16> -> !llvm.ptr
// CHECK:      %[[K:.*]] = arith.index_cast %arg4 : index to i32
// CHECK:      %[[ROW:.*]] = arith.index_cast %arg3 : index to i32
// CHECK:      %[[CLUSTER:.*]] = llvm.addrspacecast %[[TILE]] : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK:      %[[BAR:.*]] = xla_gpu.element_pointer %arg2[%arg3]
// CHECK:      nvvm.cp.async.bulk.tensor.shared.cluster.global %[[CLUSTER]], %[[MAP]], %[[BAR]], box[%[[K]], %[[ROW]]] : !llvm.ptr<7>, !llvm.ptr
// CHECK:      %[[TICKS:.*]] = arith.constant 10000000 : i32
// CHECK:      %[[PARITY:.*]] = arith.index_castui %arg4 : index to i32
// CHECK:      %[[WAIT:.*]] = xla_gpu.element_pointer %arg2[%arg3]
// CHECK:      nvvm.mbarrier.try_wait.parity %[[WAIT]], %[[PARITY]], %[[TICKS]] : !llvm.ptr<3>, i32, i32
func.func @k(%a: memref<256x512xbf16>, %t: memref<1x128x64xbf16, #gpu.address_space<workgroup>>, %b: memref<4xi64, #gpu.address_space<workgroup>>, %i: index, %k: index) {
  xla_gpu.mbarrier_init %b[%i] {count = 1 : i64} : memref<4xi64, #gpu.address_space<workgroup>>
  xla_gpu.mbarrier_arrive %b[%i] {transaction_bytes = 16384 : i64} : memref<4xi64, #gpu.address_space<workgroup>>
  xla_gpu.tma_load %a[%k, %i] into %t barrier %b[%i] {box = array<i64: 64, 128>, swizzle = 128 : i64} : memref<256x512xbf16>, memref<1x128x64xbf16, #gpu.address_space<workgroup>>, memref<4xi64, #gpu.address_space<workgroup>>
  xla_gpu.mbarrier_wait %b[%i], %k : memref<4xi64, #gpu.address_space<workgroup>>
  return
}
