// RUN: xla-gpu-opt %s --xla-gpu-convert-to-host-llvm --reconcile-unrealized-casts | FileCheck %s

// 64-bit indices, bare pointers for memref arguments, shared memory in
// address space 3 (as on NVVM), vectors and math to LLVM.
memref.global "private" @tile : memref<32x33xf32, #gpu.address_space<workgroup>>
func.func @k(%in: memref<128xf32>, %out: memref<128xf32>, %i: index) {
  %v = vector.load %in[%i] : memref<128xf32>, vector<4xf32>
  %s = math.sqrt %v : vector<4xf32>
  vector.store %s, %out[%i] : memref<128xf32>, vector<4xf32>
  %t = memref.get_global @tile : memref<32x33xf32, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %x = memref.load %t[%c0, %i] : memref<32x33xf32, #gpu.address_space<workgroup>>
  memref.store %x, %out[%c0] : memref<128xf32>
  return
}
// CHECK:       llvm.mlir.global private @tile() {addr_space = 3 : i32} : !llvm.array<32 x array<33 x f32>>
// CHECK-LABEL: llvm.func @k(
// CHECK-SAME:      %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64)
// CHECK:         llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<4xf32>
// CHECK:         llvm.intr.sqrt(%{{.*}}) : (vector<4xf32>) -> vector<4xf32>
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<4xf32>, !llvm.ptr
// CHECK:         llvm.mlir.addressof @tile : !llvm.ptr<3>
// CHECK:         llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT:     memref.
// CHECK-NOT:     vector.
