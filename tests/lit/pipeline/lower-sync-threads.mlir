// RUN: xla-gpu-opt %s --xla-gpu-lower-sync-threads | FileCheck %s

// A barrier; the tiles read after it are the ones written before it.
func.func @sync(%a: tensor<2x4xf32>, %b: tensor<2x4xi32>, %i: index) -> (f32, i32) {
  %s:2 = xla_gpu.sync_threads %a, %b : tensor<2x4xf32>, tensor<2x4xi32>
  %x = tensor.extract %s#0[%i, %i] : tensor<2x4xf32>
  %y = tensor.extract %s#1[%i, %i] : tensor<2x4xi32>
  return %x, %y : f32, i32
}
// CHECK-LABEL: func.func @sync(
// CHECK-SAME:    %[[A:.*]]: tensor<2x4xf32>, %[[B:.*]]: tensor<2x4xi32>, %[[I:.*]]: index)
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    tensor.extract %[[A]][%[[I]], %[[I]]]
// CHECK-NEXT:    tensor.extract %[[B]][%[[I]], %[[I]]]
// CHECK-NOT:     sync_threads
