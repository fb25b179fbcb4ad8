// RUN: xla-gpu-opt %s --one-shot-bufferize="bufferize-function-boundaries" | FileCheck %s --check-prefix=BUFFERS
// RUN: xla-gpu-opt %s --one-shot-bufferize="bufferize-function-boundaries" --xla-gpu-lower-atomic-rmw | FileCheck %s

// Bufferization turns xla_gpu.atomic_rmw into memref.generic_atomic_rmw on
// the input's own buffer (no copy): the update is in place.
// BUFFERS-LABEL: func.func @add(
// BUFFERS-SAME:    %[[BUF:.*]]: memref<8x8xf32
// BUFFERS:         memref.generic_atomic_rmw %[[BUF]][%{{.*}}, %{{.*}}]
// BUFFERS:           arith.addf
// BUFFERS:           memref.atomic_yield
// BUFFERS-NOT:     memref.alloc
// BUFFERS:         return %[[BUF]]

// A combiner with a native atomic becomes memref.atomic_rmw.
// CHECK-LABEL: func.func @add(
// CHECK:         memref.atomic_rmw addf %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : (f32, memref<8x8xf32
// CHECK-NOT:     generic_atomic_rmw
func.func @add(%t: tensor<8x8xf32>, %i: index, %j: index, %x: f32) -> tensor<8x8xf32> {
  %r = xla_gpu.atomic_rmw %t[%i, %j] : tensor<8x8xf32> {
  ^bb0(%current: f32):
    %sum = arith.addf %current, %x : f32
    xla_gpu.yield %sum : f32
  }
  return %r : tensor<8x8xf32>
}

// The operand order does not matter; signed max and integer add too.
// CHECK-LABEL: func.func @max_then_add(
// CHECK:         memref.atomic_rmw maxs
// CHECK:         memref.atomic_rmw addi
func.func @max_then_add(%t: tensor<16xi32>, %i: index, %x: i32) -> tensor<16xi32> {
  %m = xla_gpu.atomic_rmw %t[%i] : tensor<16xi32> {
  ^bb0(%current: i32):
    %max = arith.maxsi %x, %current : i32
    xla_gpu.yield %max : i32
  }
  %a = xla_gpu.atomic_rmw %m[%i] : tensor<16xi32> {
  ^bb0(%current: i32):
    %sum = arith.addi %current, %x : i32
    xla_gpu.yield %sum : i32
  }
  return %a : tensor<16xi32>
}

// Any other float combiner is a compare-and-swap loop on the float's bits
// (LLVM's cmpxchg takes integers only).
// CHECK-LABEL: func.func @multiply_add(
// CHECK:         %[[FIRST:.*]] = memref.load
// CHECK:         %[[BITS:.*]] = arith.bitcast %[[FIRST]] : f32 to i32
// CHECK:         scf.while (%[[EXPECTED:.*]] = %[[BITS]]) : (i32) -> (i32, f32)
// CHECK:           %[[CURRENT:.*]] = arith.bitcast %[[EXPECTED]] : i32 to f32
// CHECK:           %[[P:.*]] = arith.mulf %[[CURRENT]]
// CHECK:           %[[S:.*]] = arith.addf %[[P]]
// CHECK:           %[[NEW:.*]] = arith.bitcast %[[S]] : f32 to i32
// CHECK:           llvm.cmpxchg %{{.*}}, %[[EXPECTED]], %[[NEW]] acq_rel monotonic : !llvm.ptr, i32
// CHECK-NOT:     memref.generic_atomic_rmw
func.func @multiply_add(%t: tensor<4xf32>, %i: index, %x: f32) -> tensor<4xf32> {
  %r = xla_gpu.atomic_rmw %t[%i] : tensor<4xf32> {
  ^bb0(%current: f32):
    %p = arith.mulf %current, %x : f32
    %s = arith.addf %p, %x : f32
    xla_gpu.yield %s : f32
  }
  return %r : tensor<4xf32>
}

// A body that yields a value from outside overwrites: an exchange.
// CHECK-LABEL: func.func @overwrite(
// CHECK:         memref.atomic_rmw assign
// CHECK-NOT:     generic_atomic_rmw
func.func @overwrite(%t: tensor<4xf32>, %i: index, %x: f32) -> tensor<4xf32> {
  %r = xla_gpu.atomic_rmw %t[%i] : tensor<4xf32> {
  ^bb0(%current: f32):
    xla_gpu.yield %x : f32
  }
  return %r : tensor<4xf32>
}

// Sub-byte elements have no LLVM atomics: a compare-and-swap loop on their
// byte, first guessing the byte from a plain load of the element.
// CHECK-LABEL: func.func @add_s4_local(
// CHECK-SAME:    %[[I:.*]]: index, %[[X:.*]]: i4
// CHECK:         %[[T:.*]] = memref.alloc() {{.*}}: memref<8xi4>
// CHECK:         %[[PTR:.*]] = xla_gpu.element_pointer %[[T]][%[[I]]] : memref<8xi4> -> !llvm.ptr
// CHECK:         %[[FIRST:.*]] = memref.load %[[T]][%[[I]]] : memref<8xi4>
// CHECK:         %[[GUESS:.*]] = arith.extui %[[FIRST]] : i4 to i8
// CHECK:         scf.while (%[[OLD:.*]] = %[[GUESS]]) : (i8) -> (i8, i4)
// CHECK:           %[[CUR:.*]] = arith.trunci %[[OLD]] : i8 to i4
// CHECK:           %[[SUM:.*]] = arith.addi %[[CUR]], %[[X]] : i4
// CHECK:           %[[NEW:.*]] = arith.extui %[[SUM]] : i4 to i8
// CHECK:           llvm.cmpxchg %[[PTR]], %[[OLD]], %[[NEW]] acq_rel monotonic : !llvm.ptr, i8
// CHECK:           scf.condition
// CHECK-NOT:     generic_atomic_rmw
// CHECK-NOT:     memref.atomic_rmw
func.func @add_s4_local(%i: index, %x: i4) -> i4 {
  %t = tensor.empty() : tensor<8xi4>
  %r = xla_gpu.atomic_rmw %t[%i] : tensor<8xi4> {
  ^bb0(%current: i4):
    %s = arith.addi %current, %x : i4
    xla_gpu.yield %s : i4
  }
  %e = tensor.extract %r[%i] : tensor<8xi4>
  return %e : i4
}

// A 4-bit element of a kernel argument shares its byte with another once
// xla-gpu-pack-sub-byte-buffers packs the buffer: the update stays generic
// for that pass to make it one on the byte.
// CHECK-LABEL: func.func @add_s4_argument(
// CHECK:         memref.generic_atomic_rmw %{{.*}} : memref<8xi4
// CHECK:           arith.addi %{{.*}} : i4
// CHECK-NOT:     llvm.cmpxchg
func.func @add_s4_argument(%t: tensor<8xi4>, %i: index, %x: i4) -> tensor<8xi4> {
  %r = xla_gpu.atomic_rmw %t[%i] : tensor<8xi4> {
  ^bb0(%current: i4):
    %s = arith.addi %current, %x : i4
    xla_gpu.yield %s : i4
  }
  return %r : tensor<8xi4>
}

// pred too (an or-scatter of flags): its i1 takes a byte.
// CHECK-LABEL: func.func @or_pred(
// CHECK:         arith.extui %{{.*}} : i1 to i8
// CHECK:         scf.while
// CHECK:           arith.ori
// CHECK:           llvm.cmpxchg %{{.*}} : !llvm.ptr, i8
// CHECK-NOT:     generic_atomic_rmw
func.func @or_pred(%t: tensor<8xi1>, %i: index, %x: i1) -> tensor<8xi1> {
  %r = xla_gpu.atomic_rmw %t[%i] : tensor<8xi1> {
  ^bb0(%current: i1):
    %s = arith.ori %current, %x : i1
    xla_gpu.yield %s : i1
  }
  return %r : tensor<8xi1>
}
