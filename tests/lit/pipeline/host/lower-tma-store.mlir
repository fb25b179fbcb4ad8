// RUN: xla-gpu-opt %s --xla-gpu-lower-gpu-to-host | FileCheck %s

// stmatrix, the TMA store and its waits call the launcher's
// (abi/HostKernelAbi.h): the matrices, the lane's row address and its
// registers through a stack slot; the store with its destination
// parameter's pointer (the launcher passes an HloHostTensorMap there), the
// tile's start and its coordinates in a stack slot; each wait its pending
// groups (.read or not: the host retires a store at once as a whole).
// CHECK-DAG:   func.func private @__hlo_host_stmatrix(!llvm.ptr, i32, !llvm.ptr, !llvm.ptr)
// CHECK-DAG:   func.func private @__hlo_host_tma_store(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-DAG:   func.func private @__hlo_host_tma_store_wait(!llvm.ptr, i32)
// CHECK-LABEL: func.func @k(
// CHECK:       %[[COORDS:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x i32>
// CHECK:       %[[REGS:.*]] = llvm.alloca %{{.*}} x vector<4xi32>
// CHECK:       %[[WORDS:.*]] = vector.bitcast %arg0 : vector<8xbf16> to vector<4xi32>
// CHECK:       llvm.store %[[WORDS]], %[[REGS]]
// CHECK:       %[[ROW:.*]] = xla_gpu.element_pointer %arg1[%arg3, %arg4, %arg4]
// CHECK:       call @__hlo_host_stmatrix(%arg5, %c4_i32, %[[ROW]], %[[REGS]])
// CHECK:       %[[MAP:.*]] = xla_gpu.element_pointer %arg2[%c0, %c0] : memref<300x200xbf16> -> !llvm.ptr
// CHECK:       %[[TILE:.*]] = xla_gpu.element_pointer %arg1[%arg3, %arg4, %arg4]
// CHECK:       call @__hlo_host_tma_store(%arg5, %[[MAP]], %[[TILE]], %[[COORDS]])
// CHECK:       call @__hlo_host_tma_store_wait(%arg5, %c1_i32)
// CHECK:       call @__hlo_host_tma_store_wait(%arg5, %c0_i32)
func.func @k(%v: vector<8xbf16>, %t: memref<16x16x64xbf16, #gpu.address_space<workgroup>>, %o: memref<300x200xbf16>, %i: index, %j: index) {
  xla_gpu.stmatrix %v into %t[%i, %j, %j] {count = 4 : i64} : vector<8xbf16>, memref<16x16x64xbf16, #gpu.address_space<workgroup>>
  xla_gpu.tma_store %t[%i, %j, %j] into %o[%j, %i] {box = array<i64: 64, 16>, swizzle = 128 : i64} : memref<16x16x64xbf16, #gpu.address_space<workgroup>>, memref<300x200xbf16>
  xla_gpu.tma_store_wait {pending = 1 : i64, read}
  xla_gpu.tma_store_wait {pending = 0 : i64}
  return
}
