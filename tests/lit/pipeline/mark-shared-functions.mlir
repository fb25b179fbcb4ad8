// RUN: xla-gpu-opt %s --xla-gpu-mark-shared-functions --inline | FileCheck %s

// @once has one caller and is inlined; @twice has two and stays a function.
func.func private @once(%x: f32) -> f32 {
  %y = arith.negf %x : f32
  return %y : f32
}
func.func private @twice(%x: f32) -> f32 {
  %y = math.exp %x : f32
  return %y : f32
}
func.func @kernel(%a: f32) -> f32 {
  %0 = xla_gpu.pure_call @once(%a) : (f32) -> f32
  %1 = xla_gpu.pure_call @twice(%0) : (f32) -> f32
  %2 = xla_gpu.pure_call @twice(%1) : (f32) -> f32
  return %2 : f32
}
// CHECK:       func.func private @twice(%{{.*}}: f32) -> f32 attributes {xla_gpu.shared}
// CHECK-LABEL: func.func @kernel(
// CHECK:         arith.negf
// CHECK:         xla_gpu.pure_call @twice
// CHECK:         xla_gpu.pure_call @twice
// CHECK-NOT:   @once
