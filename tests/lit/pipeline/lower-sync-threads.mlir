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

// Async commits and waits stay, without their tiles: what read the tiles
// after them reads the tiles given to them.
func.func @async(%a: tensor<2x8xbf16>, %i: index) -> bf16 {
  %c = xla_gpu.async_commit %a : tensor<2x8xbf16>
  %w = xla_gpu.async_wait %c {pending = 2 : i64} : tensor<2x8xbf16>
  %x = tensor.extract %w[%i, %i] : tensor<2x8xbf16>
  return %x : bf16
}
// CHECK-LABEL: func.func @async(
// CHECK-SAME:    %[[A:.*]]: tensor<2x8xbf16>, %[[I:.*]]: index)
// CHECK-NEXT:    xla_gpu.async_commit{{$}}
// CHECK-NEXT:    xla_gpu.async_wait {pending = 2 : i64}
// CHECK-NEXT:    tensor.extract %[[A]][%[[I]], %[[I]]]

// A cluster barrier stays, without its tiles, for the target to lower.
func.func @cluster(%a: tensor<2x4xf32>, %i: index) -> f32 {
  %s = xla_gpu.sync_threads %a {cluster} : tensor<2x4xf32>
  %x = tensor.extract %s[%i, %i] : tensor<2x4xf32>
  xla_gpu.sync_threads {cluster}
  return %x : f32
}
// CHECK-LABEL: func.func @cluster(
// CHECK-SAME:    %[[A:.*]]: tensor<2x4xf32>, %[[I:.*]]: index)
// CHECK-NEXT:    xla_gpu.sync_threads {cluster}{{$}}
// CHECK-NEXT:    tensor.extract %[[A]][%[[I]], %[[I]]]
// CHECK-NEXT:    xla_gpu.sync_threads {cluster}{{$}}
// CHECK-NOT:     gpu.barrier
