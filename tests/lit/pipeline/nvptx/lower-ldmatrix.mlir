// RUN: xla-gpu-opt %s --xla-gpu-lower-ldmatrix-to-nvvm | FileCheck %s
// RUN: xla-gpu-opt %s --xla-gpu-lower-ldmatrix-to-nvvm --xla-gpu-lower-element-pointers | FileCheck %s --check-prefix=POINTER
// (The PTX it becomes is checked end to end: emitters/gemm/types.hlo.)

// The lane's row address is the element its indices name in the shared
// buffer (address space 3); ldmatrix's four i32 registers, in order, are
// the fragment's bf16 pairs, low half first.
// CHECK-LABEL: func.func @x4
// CHECK:      %[[ROW:.*]] = xla_gpu.element_pointer %arg0[%arg1, %arg2] : memref<32x40xbf16, #gpu.address_space<workgroup>> -> <3>
// CHECK:      %[[M:.*]] = nvvm.ldmatrix %[[ROW]] {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK:      %[[W0:.*]] = llvm.extractvalue %[[M]][0]
// CHECK:      %[[WORDS:.*]] = vector.from_elements %[[W0]], %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK:      vector.bitcast %[[WORDS]] : vector<4xi32> to vector<8xbf16>
// The row address is a getelementptr in shared memory (address space 3).
// POINTER-LABEL: func.func @x4
// POINTER: %[[ADDRESS:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, bf16
// POINTER: nvvm.ldmatrix %[[ADDRESS]]
func.func @x4(%tile: memref<32x40xbf16, #gpu.address_space<workgroup>>, %r: index, %c: index) -> vector<8xbf16> {
  %v = xla_gpu.ldmatrix %tile[%r, %c] {count = 4 : i64} : memref<32x40xbf16, #gpu.address_space<workgroup>> -> vector<8xbf16>
  return %v : vector<8xbf16>
}

// One matrix: one i32 (no struct).
// CHECK-LABEL: func.func @x1
// CHECK:      %[[M1:.*]] = nvvm.ldmatrix {{.*}} num = 1 : i32{{.*}} : (!llvm.ptr<3>) -> i32
// CHECK:      %[[W:.*]] = vector.from_elements %[[M1]] : vector<1xi32>
// CHECK:      vector.bitcast %[[W]] : vector<1xi32> to vector<1xf32>
func.func @x1(%tile: memref<16x20xf32, #gpu.address_space<workgroup>>, %r: index, %c: index) -> vector<1xf32> {
  %v = xla_gpu.ldmatrix %tile[%r, %c] {count = 1 : i64} : memref<16x20xf32, #gpu.address_space<workgroup>> -> vector<1xf32>
  return %v : vector<1xf32>
}

// Transposed: NVVM's column layout (`.trans`).
// CHECK-LABEL: func.func @trans
// CHECK:      nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 2 : i32
func.func @trans(%tile: memref<16x72xbf16, #gpu.address_space<workgroup>>, %r: index, %c: index) -> vector<4xbf16> {
  %v = xla_gpu.ldmatrix %tile[%r, %c] {count = 2 : i64, transpose} : memref<16x72xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
  return %v : vector<4xbf16>
}
