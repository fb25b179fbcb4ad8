// RUN: xla-gpu-opt %s --split-input-file --xla-gpu-unroll-loops-by-factor | FileCheck %s
// RUN: xla-gpu-opt %s --split-input-file --xla-gpu-unroll-loops-by-factor=max-unrolled-size=100 | FileCheck %s --check-prefix=SMALL

// A column reduction's per-thread loop: 64 rows, a body of 12 (a vector
// load of 4 counts 4). 400 / 12 = 33: unrolled by 32, the largest divisor
// of 64 within; with a budget of 100, by 8.
func.func @rows(%in: memref<4096xf32>, %init: vector<4xf32>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c64x = arith.constant 64 : index
  %sum = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %init) -> (vector<4xf32>) {
    %row = arith.muli %i, %c64x : index
    %v = vector.load %in[%row] : memref<4096xf32>, vector<4xf32>
    %next = arith.addf %acc, %v : vector<4xf32>
    scf.yield %next : vector<4xf32>
  }
  return %sum : vector<4xf32>
}
// CHECK-LABEL: func.func @rows(
// CHECK:         %[[STEP:.*]] = arith.constant 32 : index
// CHECK:         scf.for {{.*}} step %[[STEP]]
// CHECK-COUNT-32:  vector.load
// CHECK-NOT:       vector.load
// CHECK:           scf.yield
// SMALL-LABEL: func.func @rows(
// SMALL:         %[[STEP:.*]] = arith.constant 8 : index
// SMALL:         scf.for {{.*}} step %[[STEP]]
// SMALL-COUNT-8:   vector.load
// SMALL-NOT:       vector.load

// -----

// A body with exp (40) and a trip count of 7: 400 / 42 = 9, and 7 divides
// 7: unrolled whole. A loop holding a loop (here one with dynamic bounds,
// which stays too), a loop marked keep_loop and a loop with dynamic bounds
// stay.
func.func @kept(%out: memref<64xf32>, %x: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c7 step %c1 {
    %e = math.exp %x : f32
    memref.store %e, %out[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %x, %out[%i] : memref<64xf32>
    }
  }
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %x, %out[%i] : memref<64xf32>
  } {xla_gpu.keep_loop}
  scf.for %i = %c0 to %n step %c1 {
    memref.store %x, %out[%i] : memref<64xf32>
  }
  return
}
// CHECK-LABEL: func.func @kept(
// CHECK-COUNT-7: math.exp
// CHECK-NOT:     math.exp
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %{{.*}} = %{{.*}} to %arg2
// CHECK:         } {xla_gpu.keep_loop}
// CHECK:         scf.for %{{.*}} = %{{.*}} to %arg2 step %{{.*}} {
// CHECK-NEXT:      memref.store
// CHECK-NEXT:    }
