// RUN: xla-gpu-opt %s --xla-gpu-lower-gpu-to-host --split-input-file | FileCheck %s

// xla_gpu.mma_sync calls the launcher's warp-collective mma.sync
// (abi/HostKernelAbi.h) with its HloHostMmaKind (0: m16n8k16 bf16) and the
// lane's fragments in 16-byte aligned stack slots; D comes back over C.
// CHECK:       func.func private @__hlo_host_mma_sync(!llvm.ptr, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-LABEL: func.func @k(
// CHECK-SAME:    %[[A:.*]]: vector<8xbf16>, %[[B:.*]]: vector<4xbf16>, %[[C:.*]]: vector<4xf32>, %{{.*}}: memref<4xf32>, %[[RECORD:.*]]: !llvm.ptr {xla_gpu.host_thread})
// CHECK-DAG:   %[[SA:.*]] = llvm.alloca %{{.*}} x vector<8xbf16> {alignment = 16 : i64}
// CHECK-DAG:   %[[SB:.*]] = llvm.alloca %{{.*}} x vector<4xbf16> {alignment = 16 : i64}
// CHECK-DAG:   %[[SC:.*]] = llvm.alloca %{{.*}} x vector<4xf32> {alignment = 16 : i64}
// CHECK-DAG:   llvm.store %[[A]], %[[SA]]
// CHECK-DAG:   llvm.store %[[B]], %[[SB]]
// CHECK-DAG:   llvm.store %[[C]], %[[SC]]
// CHECK:       %[[KIND:.*]] = arith.constant 0 : i32
// CHECK:       call @__hlo_host_mma_sync(%[[RECORD]], %[[KIND]], %[[SA]], %[[SB]], %[[SC]], %[[SC]])
// CHECK:       %[[D:.*]] = llvm.load %[[SC]] : !llvm.ptr -> vector<4xf32>
// CHECK:       vector.store %[[D]]
func.func @k(%a: vector<8xbf16>, %b: vector<4xbf16>, %c: vector<4xf32>, %out: memref<4xf32>)
    attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [32, 1, 1]>} {
  %d = xla_gpu.mma_sync %a, %b, %c {shape = array<i64: 16, 8, 16>} : vector<8xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
  %c0 = arith.constant 0 : index
  vector.store %d, %out[%c0] : memref<4xf32>, vector<4xf32>
  return
}

// -----

// 8-bit floats go as their bytes (the small-float lowering runs after
// this pass), the format in the kind (5: m16n8k32 e4m3).
// CHECK-LABEL: func.func @fp8(
// CHECK:       %[[AI:.*]] = arith.bitcast %arg0 : vector<16xf8E4M3FN> to vector<16xi8>
// CHECK:       llvm.store %[[AI]]
// CHECK:       %[[BI:.*]] = arith.bitcast %arg1 : vector<8xf8E4M3FN> to vector<8xi8>
// CHECK:       llvm.store %[[BI]]
// CHECK:       %[[KIND:.*]] = arith.constant 5 : i32
// CHECK:       call @__hlo_host_mma_sync(%{{.*}}, %[[KIND]],
func.func @fp8(%a: vector<16xf8E4M3FN>, %b: vector<8xf8E4M3FN>, %c: vector<4xf32>, %out: memref<4xf32>)
    attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [32, 1, 1]>} {
  %d = xla_gpu.mma_sync %a, %b, %c {shape = array<i64: 16, 8, 32>} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN>, vector<4xf32> -> vector<4xf32>
  %c0 = arith.constant 0 : index
  vector.store %d, %out[%c0] : memref<4xf32>, vector<4xf32>
  return
}
