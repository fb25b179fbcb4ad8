// RUN: xla-gpu-opt %s --xla-gpu-lower-gpu-to-host --xla-gpu-check-host-accesses | FileCheck %s

// Each access is checked against its memref's shape with an unsigned
// compare (negative indices fail too); a vector access checks its last
// element. Outside, the kernel calls the launcher with the access kind
// (load 0, store 1, atomic 2), the buffer (kernel parameter number, -1
// shared memory, -2 other), the first failing dimension, its index and
// extent.
memref.global "private" @tile : memref<4x8xf32, #gpu.address_space<workgroup>>
func.func private @callee(%m: memref<16xf32>, %i: index) -> f32 {
  %x = memref.load %m[%i] : memref<16xf32>
  return %x : f32
}
func.func @k(%in: memref<16xf32>, %out: memref<4x8xf32>)
    attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [8, 1, 1]>} {
  %i = gpu.thread_id x
  %v = vector.load %in[%i] : memref<16xf32>, vector<4xf32>
  %tile = memref.get_global @tile : memref<4x8xf32, #gpu.address_space<workgroup>>
  %e = vector.extract %v[0] : f32 from vector<4xf32>
  %c2 = arith.constant 2 : index
  memref.store %e, %tile[%c2, %i] : memref<4x8xf32, #gpu.address_space<workgroup>>
  %s = func.call @callee(%in, %i) : (memref<16xf32>, index) -> f32
  %old = memref.atomic_rmw addf %s, %out[%c2, %i] : (f32, memref<4x8xf32>) -> f32
  return
}
// CHECK:       func.func private @__hlo_host_out_of_bounds(!llvm.ptr, i32, i32, i32, i64, i64)
// CHECK-LABEL: func.func private @callee(
// CHECK:         %[[C16:.*]] = arith.constant 16 : index
// CHECK:         %[[OK:.*]] = arith.cmpi ult, %{{.*}}, %[[C16]] : index
// CHECK:         %[[BAD:.*]] = arith.xori %[[OK]], %true
// CHECK:         scf.if %[[BAD]] {
// Another function's argument is "other" memory (-2).
// CHECK-NEXT:      %[[KIND:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[OTHER:.*]] = arith.constant -2 : i32
// CHECK:           func.call @__hlo_host_out_of_bounds(%{{.*}}, %[[KIND]], %[[OTHER]],
// CHECK:         }
// CHECK-NEXT:    memref.load
// CHECK-LABEL: func.func @k(
// A vector of 4 at %i: its last element %i + 3 must be below 16.
// CHECK:         %[[LAST:.*]] = arith.addi %[[I:.*]], %c3
// CHECK:         arith.cmpi ult, %[[LAST]], %c16
// CHECK:         scf.if
// CHECK-NEXT:      %[[LOAD:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[P0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[D0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[IDX:.*]] = arith.index_cast %[[LAST]] : index to i64
// CHECK:           func.call @__hlo_host_out_of_bounds(%{{.*}}, %[[LOAD]], %[[P0]], %[[D0]], %[[IDX]], %{{.*}})
// CHECK:         vector.load
// Shared memory, two dimensions: the first failing one is reported.
// CHECK:         %[[ROW:.*]] = arith.cmpi ult, %c2, %c4
// CHECK:         arith.cmpi ult, %{{.*}}, %c8
// CHECK:         scf.if
// CHECK-NEXT:      %[[STORE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:      %[[SHARED:.*]] = arith.constant -1 : i32
// CHECK:           %[[ROWFAILS:.*]] = arith.xori %[[ROW]]
// CHECK:           %[[DIM:.*]] = arith.select %[[ROWFAILS]]
// CHECK:           func.call @__hlo_host_out_of_bounds(%{{.*}}, %[[STORE]], %[[SHARED]], %[[DIM]],
// CHECK:         memref.store
// CHECK:         scf.if
// CHECK-NEXT:      %[[ATOMIC:.*]] = arith.constant 2 : i32
// CHECK-NEXT:      %[[P1:.*]] = arith.constant 1 : i32
// CHECK:           func.call @__hlo_host_out_of_bounds(%{{.*}}, %[[ATOMIC]], %[[P1]],
// CHECK:         memref.atomic_rmw
