// RUN: xla-gpu-opt %s --xla-gpu-lower-async-copies-to-nvvm | FileCheck %s
// (The PTX it becomes is checked end to end: emitters/gemm/stages.hlo.)

// A 16-byte copy: cp.async.cg from the source element's global address
// (the kernel buffer's generic pointer cast to address space 1) to the
// tile element's shared one, 16 source bytes where the condition holds,
// else 0 (zeros written); 8 bytes: .ca. Commits and waits become the
// group operations.
// CHECK-LABEL: func.func @k
// CHECK:      %[[DST:.*]] = xla_gpu.element_pointer %arg1[%arg2, %arg2] : memref<64x40xbf16, #gpu.address_space<workgroup>> -> <3>
// CHECK:      %[[GENERIC:.*]] = xla_gpu.element_pointer %arg0[%arg2, %arg2] : memref<256x64xbf16> -> !llvm.ptr
// CHECK:      %[[SRC:.*]] = llvm.addrspacecast %[[GENERIC]] : !llvm.ptr to !llvm.ptr<1>
// CHECK-DAG:  %[[SIXTEEN:.*]] = arith.constant 16 : i32
// CHECK-DAG:  %[[NONE:.*]] = arith.constant 0 : i32
// CHECK:      %[[SIZE:.*]] = arith.select %arg3, %[[SIXTEEN]], %[[NONE]] : i32
// CHECK:      nvvm.cp.async.shared.global %[[DST]], %[[SRC]], 16, cache = cg, %[[SIZE]]
// CHECK:      nvvm.cp.async.shared.global {{.*}}, 8, cache = ca,
// CHECK:      nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 1
func.func @k(%a: memref<256x64xbf16>, %t: memref<64x40xbf16, #gpu.address_space<workgroup>>, %i: index, %c: i1) {
  xla_gpu.async_copy %a[%i, %i] into %t[%i, %i] if %c {bytes = 16 : i64} : memref<256x64xbf16>, memref<64x40xbf16, #gpu.address_space<workgroup>>
  xla_gpu.async_copy %a[%i, %i] into %t[%i, %i] if %c {bytes = 8 : i64} : memref<256x64xbf16>, memref<64x40xbf16, #gpu.address_space<workgroup>>
  xla_gpu.async_commit
  xla_gpu.async_wait {pending = 1 : i64}
  return
}
