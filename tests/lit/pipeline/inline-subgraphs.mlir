// RUN: xla-gpu-opt %s --xla-gpu-inline-subgraphs --symbol-dce | FileCheck %s
// RUN: xla-gpu-opt %s --xla-gpu-inline-subgraphs=max-ops=8 | FileCheck %s --check-prefix=BUDGET

// A diamond repeated three times: @d2 calls @d1 twice and @d1 calls @d0
// twice, all at the same index. Inlining bottom-up would copy @d0 eight
// times; keeping @d1/@d0 outlined would evaluate @d0 eight times per
// thread. Merging equal calls before each level evaluates each once.
func.func private @d0(%t: tensor<8xf32>, %i: index) -> f32 {
  %x = tensor.extract %t[%i] : tensor<8xf32>
  %y = math.exp %x : f32
  return %y : f32
}
func.func private @d1(%t: tensor<8xf32>, %i: index) -> f32 {
  %a = xla_gpu.pure_call @d0(%t, %i) : (tensor<8xf32>, index) -> f32
  %b = xla_gpu.pure_call @d0(%t, %i) : (tensor<8xf32>, index) -> f32
  %c = arith.addf %a, %b : f32
  return %c : f32
}
func.func private @d2(%t: tensor<8xf32>, %i: index) -> f32 {
  %a = xla_gpu.pure_call @d1(%t, %i) : (tensor<8xf32>, index) -> f32
  %b = xla_gpu.pure_call @d1(%t, %i) : (tensor<8xf32>, index) -> f32
  %c = arith.mulf %a, %b : f32
  return %c : f32
}
// At another index, @d0 is another value: computed again.
func.func @kernel(%t: tensor<8xf32>, %i: index, %j: index) -> (f32, f32, f32) {
  %0 = xla_gpu.pure_call @d2(%t, %i) : (tensor<8xf32>, index) -> f32
  %1 = xla_gpu.pure_call @d1(%t, %i) : (tensor<8xf32>, index) -> f32
  %2 = xla_gpu.pure_call @d0(%t, %j) : (tensor<8xf32>, index) -> f32
  return %0, %1, %2 : f32, f32, f32
}
// CHECK-NOT:   func.func private
// CHECK-LABEL: func.func @kernel(
// CHECK-SAME:      %[[T:.*]]: tensor<8xf32>, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK-NEXT:    %[[XI:.*]] = tensor.extract %[[T]][%[[I]]]
// CHECK-NEXT:    %[[EI:.*]] = math.exp %[[XI]]
// CHECK-NEXT:    %[[D1:.*]] = arith.addf %[[EI]], %[[EI]]
// CHECK-NEXT:    %[[D2:.*]] = arith.mulf %[[D1]], %[[D1]]
// CHECK-NEXT:    %[[XJ:.*]] = tensor.extract %[[T]][%[[J]]]
// CHECK-NEXT:    %[[EJ:.*]] = math.exp %[[XJ]]
// CHECK-NEXT:    return %[[D2]], %[[D1]], %[[EJ]]

// Past the budget, the remaining (merged) calls stay calls.
// BUDGET-LABEL: func.func @kernel(
// BUDGET:         xla_gpu.pure_call @d0(%{{.*}}, %{{.*}})
// BUDGET-NOT:     xla_gpu.pure_call
// BUDGET:         return
