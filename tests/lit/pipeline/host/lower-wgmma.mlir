// RUN: xla-gpu-opt %s --xla-gpu-lower-gpu-to-host --split-input-file | FileCheck %s

// xla_gpu.wgmma on shared buffers calls the launcher's warpgroup-collective
// wgmma (abi/HostKernelAbi.h) once per 16 columns of K: kind 0 (bf16), N,
// swizzle 0, each operand's first core matrix of the step (two core
// matrices on per step) with 128 bytes between core matrices along K and
// K/8 * 128 (here 512) between 8-row groups, and a 16-byte aligned slot
// holding the accumulators, which come back from it.
// CHECK:       func.func private @__hlo_host_wgmma(!llvm.ptr, i32, i32, i32, !llvm.ptr, i32, i32, !llvm.ptr, i32, i32, !llvm.ptr)
// CHECK-LABEL: func.func @k(
// CHECK-SAME:    %[[A:[^:]*]]: memref<8x4x8x8xbf16, #gpu.address_space<workgroup>>, %[[B:[^:]*]]: memref<4x4x8x8xbf16, #gpu.address_space<workgroup>>, %[[R:[^:]*]]: index, %[[C:[^:]*]]: vector<16xf32>, %{{[^:]*}}: memref<16xf32>, %[[RECORD:.*]]: !llvm.ptr {xla_gpu.host_thread})
// CHECK:       %[[SLOT:.*]] = llvm.alloca %{{.*}} x vector<16xf32> {alignment = 16 : i64}
// CHECK:       llvm.store %[[C]], %[[SLOT]]
// CHECK-DAG:   %[[LEADING:.*]] = arith.constant 128 : i32
// CHECK-DAG:   %[[STRIDE:.*]] = arith.constant 512 : i32
// CHECK:       %[[A0:.*]] = xla_gpu.element_pointer %[[A]][%[[R]], %{{.*}}, %{{.*}}, %{{.*}}]
// CHECK:       %[[B0:.*]] = xla_gpu.element_pointer %[[B]][%[[R]], %{{.*}}, %{{.*}}, %{{.*}}]
// CHECK:       %[[KIND:.*]] = arith.constant 0 : i32
// CHECK:       %[[N:.*]] = arith.constant 32 : i32
// CHECK:       %[[NONE:.*]] = arith.constant 0 : i32
// CHECK:       call @__hlo_host_wgmma(%[[RECORD]], %[[KIND]], %[[N]], %[[NONE]], %[[A0]], %[[LEADING]], %[[STRIDE]], %[[B0]], %[[LEADING]], %[[STRIDE]], %[[SLOT]])
// CHECK:       %[[K2:.*]] = arith.constant 2 : index
// CHECK:       %[[A2:.*]] = xla_gpu.element_pointer %[[A]][%[[R]], %[[K2]],
// CHECK:       %[[K2B:.*]] = arith.constant 2 : index
// CHECK:       %[[B2:.*]] = xla_gpu.element_pointer %[[B]][%[[R]], %[[K2B]],
// CHECK:       call @__hlo_host_wgmma(%[[RECORD]], %{{.*}}, %{{.*}}, %{{.*}}, %[[A2]], %[[LEADING]], %[[STRIDE]], %[[B2]], %[[LEADING]], %[[STRIDE]], %[[SLOT]])
// CHECK-NOT:   call @__hlo_host_wgmma
// CHECK:       %[[D:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> vector<16xf32>
// CHECK:       vector.store %[[D]]
func.func @k(%a: memref<8x4x8x8xbf16, #gpu.address_space<workgroup>>, %b: memref<4x4x8x8xbf16, #gpu.address_space<workgroup>>, %r: index, %c: vector<16xf32>, %out: memref<16xf32>)
    attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [128, 1, 1]>} {
  %d = xla_gpu.wgmma %a[%r], %b[%r], %c : memref<8x4x8x8xbf16, #gpu.address_space<workgroup>>, memref<4x4x8x8xbf16, #gpu.address_space<workgroup>>, vector<16xf32> -> vector<16xf32>
  %c0 = arith.constant 0 : index
  vector.store %d, %out[%c0] : memref<16xf32>, vector<16xf32>
  return
}

// -----

// 64-byte swizzle: swizzle 64, stride 8 rows of 64 bytes; the step from k
// on starts at element [k / 32][8 * row group][k % 32] (before the
// swizzle): columns 0 and 16 of the first atom, then the second's.
// CHECK-LABEL: func.func @swizzled(
// CHECK-DAG:   %[[STRIDE:.*]] = arith.constant 512 : i32
// CHECK-DAG:   %[[ROW:.*]] = arith.muli %arg2, %{{.*}} : index
// CHECK:       %[[A0:.*]] = xla_gpu.element_pointer %arg0[%{{.*}}, %[[ROW]], %{{.*}}] : memref<2x64x32xf16
// CHECK:       %[[SWIZZLE:.*]] = arith.constant 64 : i32
// CHECK:       call @__hlo_host_wgmma(%{{.*}}, %{{.*}}, %{{.*}}, %[[SWIZZLE]], %[[A0]], %{{.*}}, %[[STRIDE]],
// CHECK:       %[[C16:.*]] = arith.constant 16 : index
// CHECK:       xla_gpu.element_pointer %arg0[%{{.*}}, %{{.*}}, %[[C16]]]
// CHECK:       call @__hlo_host_wgmma(
// CHECK:       %[[ATOM:.*]] = arith.constant 1 : index
// CHECK:       xla_gpu.element_pointer %arg0[%[[ATOM]],
// CHECK-COUNT-2: call @__hlo_host_wgmma(
// CHECK-NOT:   call @__hlo_host_wgmma
func.func @swizzled(%a: memref<2x64x32xf16, #gpu.address_space<workgroup>>, %b: memref<2x8x32xf16, #gpu.address_space<workgroup>>, %r: index, %c: vector<4xf32>, %out: memref<4xf32>)
    attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [128, 1, 1]>} {
  %d = xla_gpu.wgmma %a[%r], %b[%r], %c {swizzle = 64 : i64} : memref<2x64x32xf16, #gpu.address_space<workgroup>>, memref<2x8x32xf16, #gpu.address_space<workgroup>>, vector<4xf32> -> vector<4xf32>
  %c0 = arith.constant 0 : index
  vector.store %d, %out[%c0] : memref<4xf32>, vector<4xf32>
  return
}

// -----

// f32 tiles: kind 2 (TF32), one call per 8 columns of K, the step's start
// at column k of its 32-column swizzled row.
// CHECK-LABEL: func.func @tf32(
// CHECK:       %[[KIND:.*]] = arith.constant 2 : i32
// CHECK:       call @__hlo_host_wgmma(%{{.*}}, %[[KIND]],
// CHECK:       arith.constant 8 : index
// CHECK:       xla_gpu.element_pointer %arg0[%{{.*}}, %{{.*}}, %[[C8:.*]]] : memref<1x64x32xf32
// CHECK-NOT:   call
// CHECK:       xla_gpu.element_pointer %arg1[%{{.*}}, %{{.*}}, %[[C8B:.*]]] : memref<1x8x32xf32
// CHECK-COUNT-3: call @__hlo_host_wgmma(
// CHECK-NOT:   call @__hlo_host_wgmma
func.func @tf32(%a: memref<1x64x32xf32, #gpu.address_space<workgroup>>, %b: memref<1x8x32xf32, #gpu.address_space<workgroup>>, %r: index, %c: vector<4xf32>, %out: memref<4xf32>)
    attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [128, 1, 1]>} {
  %d = xla_gpu.wgmma %a[%r], %b[%r], %c {swizzle = 128 : i64} : memref<1x64x32xf32, #gpu.address_space<workgroup>>, memref<1x8x32xf32, #gpu.address_space<workgroup>>, vector<4xf32> -> vector<4xf32>
  %c0 = arith.constant 0 : index
  vector.store %d, %out[%c0] : memref<4xf32>, vector<4xf32>
  return
}

// -----

// An N-major B: kind 0 | 64 (HLO_HOST_WGMMA_TRANSPOSE_B), B from atom
// 8 * row group / 32 and row k of its [N/32][K][32] tile, 2048 bytes (K
// rows of 64 bytes) between atoms, 512 between 8-k groups.
// CHECK-LABEL: func.func @transposed_b(
// CHECK-DAG:   %[[STRIDE:.*]] = arith.constant 512 : i32
// CHECK-DAG:   %[[LEADING:.*]] = arith.constant 2048 : i32
// CHECK:       %[[ATOM:.*]] = arith.divui
// CHECK:       %[[B:.*]] = xla_gpu.element_pointer %arg1[%[[ATOM]], %{{.*}}, %{{.*}}] : memref<4x32x32xbf16
// CHECK:       %[[KIND:.*]] = arith.constant 64 : i32
// CHECK:       call @__hlo_host_wgmma(%{{.*}}, %[[KIND]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[STRIDE]], %[[B]], %[[LEADING]], %[[STRIDE]],
// CHECK:       call @__hlo_host_wgmma(
// CHECK-NOT:   call @__hlo_host_wgmma
func.func @transposed_b(%a: memref<1x64x32xbf16, #gpu.address_space<workgroup>>, %b: memref<4x32x32xbf16, #gpu.address_space<workgroup>>, %r: index, %c: vector<64xf32>, %out: memref<64xf32>)
    attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [128, 1, 1]>} {
  %d = xla_gpu.wgmma %a[%r], %b[%r], %c {b_transposed, swizzle = 64 : i64} : memref<1x64x32xbf16, #gpu.address_space<workgroup>>, memref<4x32x32xbf16, #gpu.address_space<workgroup>>, vector<64xf32> -> vector<64xf32>
  %c0 = arith.constant 0 : index
  vector.store %d, %out[%c0] : memref<64xf32>, vector<64xf32>
  return
}

// An M-major A too: kind 0 | 128 | 64 (HLO_HOST_WGMMA_TRANSPOSE_A and _B),
// A from atom 8 * row group / 32 of its [M/32][K][32] tile with the same
// leading offset (2048) as B's.
// CHECK-LABEL: func.func @transposed_a(
// CHECK-DAG:   %[[ASTRIDE:.*]] = arith.constant 512 : i32
// CHECK-DAG:   %[[ALEADING:.*]] = arith.constant 2048 : i32
// CHECK:       %[[AATOM:.*]] = arith.divui
// CHECK:       %[[A:.*]] = xla_gpu.element_pointer %arg0[%[[AATOM]], %{{.*}}, %{{.*}}] : memref<2x32x32xbf16
// CHECK:       %[[AKIND:.*]] = arith.constant 192 : i32
// CHECK:       call @__hlo_host_wgmma(%{{.*}}, %[[AKIND]], %{{.*}}, %{{.*}}, %[[A]], %[[ALEADING]], %[[ASTRIDE]], %{{.*}}, %c2048_i32{{(_[0-9]+)?}}, %[[ASTRIDE]],
func.func @transposed_a(%a: memref<2x32x32xbf16, #gpu.address_space<workgroup>>, %b: memref<4x32x32xbf16, #gpu.address_space<workgroup>>, %r: index, %c: vector<64xf32>, %out: memref<64xf32>)
    attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [128, 1, 1]>} {
  %d = xla_gpu.wgmma %a[%r], %b[%r], %c {a_transposed, b_transposed, swizzle = 64 : i64} : memref<2x32x32xbf16, #gpu.address_space<workgroup>>, memref<4x32x32xbf16, #gpu.address_space<workgroup>>, vector<64xf32> -> vector<64xf32>
  %c0 = arith.constant 0 : index
  vector.store %d, %out[%c0] : memref<64xf32>, vector<64xf32>
  return
}

// -----

// 8-bit floats: the kind names A's format then B's (e5m2 x e4m3fn: 5),
// one call per 32 columns of K.
// CHECK-LABEL: func.func @float8(
// CHECK:       %[[KIND:.*]] = arith.constant 5 : i32
// CHECK:       %[[N:.*]] = arith.constant 16 : i32
// CHECK:       %[[SWIZZLE:.*]] = arith.constant 128 : i32
// CHECK:       call @__hlo_host_wgmma(%{{.*}}, %[[KIND]], %[[N]], %[[SWIZZLE]],
// CHECK:       %[[C32:.*]] = arith.constant 32 : index
// CHECK:       xla_gpu.element_pointer %arg0[%{{.*}}, %{{.*}}, %[[C32]]]
// CHECK-COUNT-3: call @__hlo_host_wgmma(
// CHECK-NOT:   call @__hlo_host_wgmma
func.func @float8(%a: memref<1x64x128xf8E5M2, #gpu.address_space<workgroup>>, %b: memref<1x16x128xf8E4M3FN, #gpu.address_space<workgroup>>, %r: index, %c: vector<8xf32>, %out: memref<8xf32>) {
  %d = xla_gpu.wgmma %a[%r], %b[%r], %c {swizzle = 128 : i64} : memref<1x64x128xf8E5M2, #gpu.address_space<workgroup>>, memref<1x16x128xf8E4M3FN, #gpu.address_space<workgroup>>, vector<8xf32> -> vector<8xf32>
  %c0 = arith.constant 0 : index
  vector.store %d, %out[%c0] : memref<8xf32>, vector<8xf32>
  return
}
