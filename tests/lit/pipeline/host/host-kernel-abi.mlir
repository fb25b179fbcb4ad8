// RUN: xla-gpu-opt %s --split-input-file --xla-gpu-host-kernel-abi --verify-diagnostics | FileCheck %s

// Each kernel (buffers..., thread record) becomes the internal NAME.thread
// behind an exported NAME(buffers array, thread record); shared globals
// become addresses in the block's shared memory (loaded from the record at
// offset 48) at the offsets SharedMemoryLayout.h gives, per kernel.
llvm.mlir.global private @a() {addr_space = 3 : i32} : !llvm.array<8 x f32>
llvm.mlir.global private @b() {addr_space = 3 : i32, alignment = 64 : i64} : !llvm.array<4 x f64>
llvm.func @helper(%x: f32, %t: !llvm.ptr) -> f32 {
  llvm.return %x : f32
}
llvm.func @__hlo_host_barrier(!llvm.ptr)
llvm.func @first(%in: !llvm.ptr, %out: !llvm.ptr, %t: !llvm.ptr)
    attributes {xla_gpu.launch = #xla_gpu.launch<grid = [4, 1, 1], block = [32, 1, 1]>, xla_gpu.emitter = "test"} {
  %a = llvm.mlir.addressof @a : !llvm.ptr<3>
  %b = llvm.mlir.addressof @b : !llvm.ptr<3>
  %x = llvm.load %a : !llvm.ptr<3> -> f32
  %y = llvm.call @helper(%x, %t) : (f32, !llvm.ptr) -> f32
  llvm.call @__hlo_host_barrier(%t) : (!llvm.ptr) -> ()
  llvm.store %y, %out : f32, !llvm.ptr
  llvm.return
}
llvm.func @second(%out: !llvm.ptr, %t: !llvm.ptr)
    attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [8, 1, 1]>} {
  %b = llvm.mlir.addressof @b : !llvm.ptr<3>
  %x = llvm.load %b : !llvm.ptr<3> -> f64
  llvm.store %x, %out : f64, !llvm.ptr
  llvm.return
}
// CHECK-NOT:   llvm.mlir.global
// CHECK:       llvm.func internal @helper(
// CHECK-LABEL: llvm.func @first(
// CHECK-SAME:      %[[BUFFERS:.*]]: !llvm.ptr, %[[T:.*]]: !llvm.ptr)
// @a at 0, @b (aligned to 64) at 64: 96 bytes; it reaches a barrier.
// CHECK-SAME:      xla_gpu.concurrent_threads, xla_gpu.emitter = "test", xla_gpu.launch = #xla_gpu.launch<grid = [4, 1, 1], block = [32, 1, 1]>, xla_gpu.shared_memory_bytes = 96 : i64
// CHECK:         %[[S0:.*]] = llvm.getelementptr %[[BUFFERS]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:         %[[IN:.*]] = llvm.load %[[S0]] {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK:         %[[S1:.*]] = llvm.getelementptr %[[BUFFERS]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:         %[[OUT:.*]] = llvm.load %[[S1]] {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK:         llvm.call @first.thread(%[[IN]], %[[OUT]], %[[T]])
// CHECK:       llvm.func internal @first.thread(
// CHECK-SAME:      %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[RT:.*]]: !llvm.ptr)
// CHECK-NOT:     xla_gpu.launch
// CHECK:         %[[SLOT:.*]] = llvm.getelementptr %[[RT]][48] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK:         %[[BASE:.*]] = llvm.load %[[SLOT]]
// CHECK:         %[[A:.*]] = llvm.getelementptr %[[BASE]][0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK:         llvm.addrspacecast %[[A]] : !llvm.ptr to !llvm.ptr<3>
// CHECK:         %[[B:.*]] = llvm.getelementptr %[[BASE]][64] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK:         llvm.addrspacecast %[[B]] : !llvm.ptr to !llvm.ptr<3>
// @second uses @b alone: at 0, 32 bytes, no barrier.
// CHECK-LABEL: llvm.func @second(
// CHECK-SAME:      xla_gpu.shared_memory_bytes = 32 : i64
// CHECK-NOT:       xla_gpu.concurrent_threads
// CHECK:       llvm.func internal @second.thread(
// CHECK:         llvm.getelementptr %{{.*}}[0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NOT:     llvm.mlir.addressof

// -----

// Shared memory is placed per kernel: a helper may not use it.
llvm.mlir.global private @s() {addr_space = 3 : i32} : !llvm.array<8 x f32>
llvm.func @helper() -> f32 {
  // expected-error @+1 {{shared memory 's' used outside a kernel's entry function}}
  %a = llvm.mlir.addressof @s : !llvm.ptr<3>
  %x = llvm.load %a : !llvm.ptr<3> -> f32
  llvm.return %x : f32
}

// -----

// Whatever did not reach the LLVM dialect is named.
func.func @k(%x: f32) -> f32 {
  // expected-error @+1 {{the host target cannot lower 'arith.addf' to LLVM}}
  %y = arith.addf %x, %x : f32
  return %y : f32
}
