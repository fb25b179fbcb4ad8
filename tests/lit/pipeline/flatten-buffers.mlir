// RUN: xla-gpu-opt %s --xla-gpu-flatten-buffers | FileCheck %s

// A kernel's 2-D buffers become 1-D with row-major linear indices, the
// minor index added last; a buffer passed to a call keeps its shape, and
// functions that are not kernels are left alone.
func.func private @helper(%b: memref<4x8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %x = memref.load %b[%c0, %c0] : memref<4x8xf32>
  return %x : f32
}
func.func @k(%in: memref<4x8xf32>, %out: memref<4x8xf32>, %passed: memref<4x8xf32>, %i: index, %j: index)
    attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [32, 1, 1]>} {
  %x = memref.load %in[%i, %j] : memref<4x8xf32>
  %v = vector.load %in[%i, %j] : memref<4x8xf32>, vector<2xf32>
  memref.store %x, %out[%i, %j] : memref<4x8xf32>
  %h = func.call @helper(%passed) : (memref<4x8xf32>) -> f32
  return
}
// CHECK-LABEL: func.func private @helper(%{{.*}}: memref<4x8xf32>)
// CHECK-LABEL: func.func @k(
// CHECK-SAME:    %[[IN:.*]]: memref<32xf32>, %[[OUT:.*]]: memref<32xf32>, %[[PASSED:.*]]: memref<4x8xf32>, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK:         %[[C8:.*]] = arith.constant 8 : index
// CHECK:         %[[ROW:.*]] = arith.muli %[[I]], %[[C8]] : index
// CHECK:         %[[LIN:.*]] = arith.addi %[[ROW]], %[[J]] : index
// CHECK:         memref.load %[[IN]][%[[LIN]]] : memref<32xf32>
// CHECK:         vector.load %[[IN]][%{{.*}}] : memref<32xf32>, vector<2xf32>
// CHECK:         memref.store %{{.*}}, %[[OUT]][%{{.*}}] : memref<32xf32>
// CHECK:         call @helper(%[[PASSED]]) : (memref<4x8xf32>) -> f32
