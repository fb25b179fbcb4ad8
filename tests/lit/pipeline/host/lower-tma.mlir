// RUN: xla-gpu-opt %s --xla-gpu-lower-gpu-to-host | FileCheck %s

// The mbarrier ops and the TMA load call the launcher's
// (abi/HostKernelAbi.h): barrier addresses; the load with its source
// parameter's pointer (the launcher passes an HloHostTensorMap there), the
// tile's start, the barrier, and its coordinates in a stack slot.
// CHECK-DAG:   func.func private @__hlo_host_mbarrier_init(!llvm.ptr, !llvm.ptr, i32)
// CHECK-DAG:   func.func private @__hlo_host_mbarrier_arrive(!llvm.ptr, !llvm.ptr, i32)
// CHECK-DAG:   func.func private @__hlo_host_mbarrier_wait(!llvm.ptr, !llvm.ptr, i32)
// CHECK-DAG:   func.func private @__hlo_host_tma_load(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-LABEL: func.func @k(
// CHECK:       %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x i32>
// CHECK:       call @__hlo_host_mbarrier_init(%arg5, %{{.*}}, %c1_i32)
// CHECK:       call @__hlo_host_mbarrier_arrive(%arg5, %{{.*}}, %c16384_i32)
// CHECK:       %[[K:.*]] = arith.index_cast %arg4 : index to i32
// CHECK:       llvm.store %[[K]]
// CHECK:       %[[ROW:.*]] = arith.index_cast %arg3 : index to i32
// CHECK:       llvm.store %[[ROW]]
// CHECK:       %[[MAP:.*]] = xla_gpu.element_pointer %arg0[%c0, %c0] : memref<256x512xbf16> -> !llvm.ptr
// CHECK:       %[[TILE:.*]] = xla_gpu.element_pointer %arg1[%c0, %c0, %c0]
// CHECK:       %[[BAR:.*]] = xla_gpu.element_pointer %arg2[%arg3]
// CHECK:       call @__hlo_host_tma_load(%arg5, %[[MAP]], %[[TILE]], %[[BAR]], %[[SLOT]])
// CHECK:       %[[PARITY:.*]] = arith.index_castui %arg4 : index to i32
// CHECK:       call @__hlo_host_mbarrier_wait(%arg5, %{{.*}}, %[[PARITY]])
func.func @k(%a: memref<256x512xbf16>, %t: memref<1x128x64xbf16, #gpu.address_space<workgroup>>, %b: memref<4xi64, #gpu.address_space<workgroup>>, %i: index, %k: index) {
  xla_gpu.mbarrier_init %b[%i] {count = 1 : i64} : memref<4xi64, #gpu.address_space<workgroup>>
  xla_gpu.mbarrier_arrive %b[%i] {transaction_bytes = 16384 : i64} : memref<4xi64, #gpu.address_space<workgroup>>
  xla_gpu.tma_load %a[%k, %i] into %t barrier %b[%i] {box = array<i64: 64, 128>, swizzle = 128 : i64} : memref<256x512xbf16>, memref<1x128x64xbf16, #gpu.address_space<workgroup>>, memref<4xi64, #gpu.address_space<workgroup>>
  xla_gpu.mbarrier_wait %b[%i], %k : memref<4xi64, #gpu.address_space<workgroup>>
  return
}
