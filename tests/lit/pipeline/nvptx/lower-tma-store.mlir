// RUN: xla-gpu-opt %s --xla-gpu-lower-tma-to-nvvm | FileCheck %s
// (The PTX it becomes is checked end to end: emitters/gemm/tma-store-epilogue.hlo.)

// stmatrix at the lane's row address, its registers the values' 32-bit
// pairs, then the async-proxy fence and the warp's meeting; the TMA store
// from the tile's shared address to the destination's tensor map (the
// parameter's generic address), coordinates as i32, committed as a bulk
// group; the waits with and without .read.
// CHECK-LABEL: func.func @k
// CHECK:      %[[ROW:.*]] = xla_gpu.element_pointer %arg1[%arg3, %arg4, %arg4] : memref<16x16x64xbf16, #gpu.address_space<workgroup>> -> <3>
// CHECK:      %[[WORDS:.*]] = vector.bitcast %arg0 : vector<8xbf16> to vector<4xi32>
// CHECK-COUNT-4: vector.extract %[[WORDS]]
// CHECK:      nvvm.stmatrix %[[ROW]], {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:      nvvm.bar.warp.sync %c-1_i32
// CHECK:      %[[TILE:.*]] = xla_gpu.element_pointer %arg1[%arg3, %arg4, %arg4]
// CHECK:      %[[MAP:.*]] = xla_gpu.element_pointer %arg2[%[[Z:c0(_[0-9]+)?]], %[[Z]]] : memref<300x200xbf16> -> !llvm.ptr
// CHECK:      %[[COLUMN:.*]] = arith.index_cast %arg4 : index to i32
// CHECK:      %[[Y:.*]] = arith.index_cast %arg3 : index to i32
// CHECK:      nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP]], %[[TILE]], box[%[[COLUMN]], %[[Y]]]
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 1 {read}
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0{{$}}
func.func @k(%v: vector<8xbf16>, %t: memref<16x16x64xbf16, #gpu.address_space<workgroup>>, %o: memref<300x200xbf16>, %i: index, %j: index) {
  xla_gpu.stmatrix %v into %t[%i, %j, %j] {count = 4 : i64} : vector<8xbf16>, memref<16x16x64xbf16, #gpu.address_space<workgroup>>
  xla_gpu.tma_store %t[%i, %j, %j] into %o[%j, %i] {box = array<i64: 64, 16>, swizzle = 128 : i64} : memref<16x16x64xbf16, #gpu.address_space<workgroup>>, memref<300x200xbf16>
  xla_gpu.tma_store_wait {pending = 1 : i64, read}
  xla_gpu.tma_store_wait {pending = 0 : i64}
  return
}
