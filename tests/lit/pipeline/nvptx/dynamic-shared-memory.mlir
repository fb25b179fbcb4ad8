// RUN: xla-gpu-opt %s --pass-pipeline="builtin.module(gpu.module(xla-gpu-dynamic-shared-memory))" | FileCheck %s

// A kernel launched with dynamic shared memory reaches its tiles at their
// SharedMemoryLayout offsets in one extern shared array (1024-byte
// aligned); a kernel without keeps its static globals.
gpu.module @kernels {
  llvm.mlir.global private @a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<40960 x i8>
  llvm.mlir.global private @b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<16384 x i8>
  llvm.mlir.global private @static_tile() {addr_space = 3 : i32} : !llvm.array<64 x f32>
  llvm.func @dynamic() attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [128, 1, 1], dynamic_shared_memory = 57344>} {
    %a = llvm.mlir.addressof @a : !llvm.ptr<3>
    %b = llvm.mlir.addressof @b : !llvm.ptr<3>
    %x = llvm.load %b : !llvm.ptr<3> -> i8
    llvm.store %x, %a : i8, !llvm.ptr<3>
    llvm.return
  }
  llvm.func @plain() attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [32, 1, 1]>} {
    %t = llvm.mlir.addressof @static_tile : !llvm.ptr<3>
    llvm.return
  }
}
// CHECK:       llvm.mlir.global external @hlo_dynamic_shared_memory() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-NOT:   llvm.mlir.global private @a(
// CHECK-NOT:   llvm.mlir.global private @b(
// CHECK:       llvm.mlir.global private @static_tile()
// CHECK-LABEL: llvm.func @dynamic()
// CHECK:         %[[BASE_A:.*]] = llvm.mlir.addressof @hlo_dynamic_shared_memory
// CHECK:         %[[A:.*]] = llvm.getelementptr inbounds %[[BASE_A]][0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         %[[BASE_B:.*]] = llvm.mlir.addressof @hlo_dynamic_shared_memory
// CHECK:         %[[B:.*]] = llvm.getelementptr inbounds %[[BASE_B]][40960] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         %[[X:.*]] = llvm.load %[[B]]
// CHECK:         llvm.store %[[X]], %[[A]]
// CHECK-LABEL: llvm.func @plain()
// CHECK:         llvm.mlir.addressof @static_tile
