// RUN: xla-gpu-opt %s --xla-gpu-lower-gpu-to-host | FileCheck %s

// An async copy calls the launcher's cp.async (abi/HostKernelAbi.h) with
// the tile element's and the source element's addresses, its bytes, and
// the bytes to read from the source: all of them where the condition
// holds, else 0 (zeros written). The launcher queues it until a wait
// covers its group: commits and waits call the launcher's group
// operations.
// CHECK-DAG:   func.func private @__hlo_host_cp_async(!llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i32)
// CHECK-DAG:   func.func private @__hlo_host_cp_async_commit(!llvm.ptr)
// CHECK-DAG:   func.func private @__hlo_host_cp_async_wait(!llvm.ptr, i32)
// CHECK-LABEL: func.func @k(
// CHECK-SAME:    %[[RECORD:[^:]*]]: !llvm.ptr {xla_gpu.host_thread})
// CHECK:       %[[DST:.*]] = xla_gpu.element_pointer %arg1[%arg2, %arg2] : memref<64x40xbf16, #gpu.address_space<workgroup>> -> !llvm.ptr
// CHECK:       %[[SRC:.*]] = xla_gpu.element_pointer %arg0[%arg2, %arg2] : memref<256x64xbf16> -> !llvm.ptr
// CHECK-DAG:   %[[EIGHT:.*]] = arith.constant 8 : i32
// CHECK-DAG:   %[[NONE:.*]] = arith.constant 0 : i32
// CHECK:       %[[READ:.*]] = arith.select %arg3, %[[EIGHT]], %[[NONE]] : i32
// CHECK:       call @__hlo_host_cp_async(%[[RECORD]], %[[DST]], %[[SRC]], %{{.*}}, %[[READ]])
// CHECK:       call @__hlo_host_cp_async_commit(%[[RECORD]])
// CHECK:       %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:       call @__hlo_host_cp_async_wait(%[[RECORD]], %[[ONE]])
// CHECK-NOT:   xla_gpu.async
func.func @k(%a: memref<256x64xbf16>, %t: memref<64x40xbf16, #gpu.address_space<workgroup>>, %i: index, %c: i1)
    attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [32, 1, 1]>} {
  xla_gpu.async_copy %a[%i, %i] into %t[%i, %i] if %c {bytes = 8 : i64} : memref<256x64xbf16>, memref<64x40xbf16, #gpu.address_space<workgroup>>
  xla_gpu.async_commit
  xla_gpu.async_wait {pending = 1 : i64}
  return
}
