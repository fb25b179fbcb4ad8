// RUN: xla-gpu-opt %s --xla-gpu-lower-gpu-to-host --split-input-file | FileCheck %s

// xla_gpu.ldmatrix on a shared buffer calls the launcher's warp-collective
// ldmatrix (abi/HostKernelAbi.h) with the count, no transpose, the lane's
// row address and a 16-byte aligned slot for its registers, which come
// back bitcast to the fragment.
// CHECK:       func.func private @__hlo_host_ldmatrix(!llvm.ptr, i32, i32, !llvm.ptr, !llvm.ptr)
// CHECK-LABEL: func.func @k(
// CHECK-SAME:    %[[TILE:.*]]: memref<32x40xbf16, #gpu.address_space<workgroup>>, %[[R:.*]]: index, %[[C:.*]]: index, %{{.*}}: memref<8xbf16>, %[[RECORD:.*]]: !llvm.ptr {xla_gpu.host_thread})
// CHECK:       %[[SLOT:.*]] = llvm.alloca %{{.*}} x vector<4xi32> {alignment = 16 : i64}
// CHECK:       %[[ROW:.*]] = xla_gpu.element_pointer %[[TILE]][%[[R]], %[[C]]] : memref<32x40xbf16, #gpu.address_space<workgroup>> -> !llvm.ptr
// CHECK:       %[[COUNT:.*]] = arith.constant 4 : i32
// CHECK:       %[[NO:.*]] = arith.constant 0 : i32
// CHECK:       call @__hlo_host_ldmatrix(%[[RECORD]], %[[COUNT]], %[[NO]], %[[ROW]], %[[SLOT]])
// CHECK:       %[[WORDS:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> vector<4xi32>
// CHECK:       vector.bitcast %[[WORDS]] : vector<4xi32> to vector<8xbf16>
func.func @k(%tile: memref<32x40xbf16, #gpu.address_space<workgroup>>, %r: index, %c: index, %out: memref<8xbf16>)
    attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [32, 1, 1]>} {
  %v = xla_gpu.ldmatrix %tile[%r, %c] {count = 4 : i64} : memref<32x40xbf16, #gpu.address_space<workgroup>> -> vector<8xbf16>
  %c0 = arith.constant 0 : index
  vector.store %v, %out[%c0] : memref<8xbf16>, vector<8xbf16>
  return
}

// -----

// Transposed: the launcher's transpose flag is 1.
// CHECK-LABEL: func.func @trans(
// CHECK:       %[[COUNT:.*]] = arith.constant 2 : i32
// CHECK:       %[[YES:.*]] = arith.constant 1 : i32
// CHECK:       call @__hlo_host_ldmatrix(%{{.*}}, %[[COUNT]], %[[YES]],
func.func @trans(%tile: memref<16x72xbf16, #gpu.address_space<workgroup>>, %r: index, %c: index, %out: memref<4xbf16>)
    attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [32, 1, 1]>} {
  %v = xla_gpu.ldmatrix %tile[%r, %c] {count = 2 : i64, transpose} : memref<16x72xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
  %c0 = arith.constant 0 : index
  vector.store %v, %out[%c0] : memref<4xbf16>, vector<4xbf16>
  return
}
