// RUN: xla-gpu-opt %s --arith-emulate-unsupported-floats="source-types=bf16 target-type=f32" --xla-gpu-keep-emulated-rounding --canonicalize | FileCheck %s
// RUN: xla-gpu-opt %s --arith-emulate-unsupported-floats="source-types=bf16 target-type=f32" --canonicalize | FileCheck %s --check-prefix=FOLDED

// (a + b) + c in bf16 rounds after the first add too: its truncf/extf pair
// stays, without fast-math flags.
// CHECK-LABEL: func.func @chain(
// CHECK:         %[[S:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK:         %[[R:.*]] = arith.truncf %[[S]] : f32 to bf16
// CHECK:         %[[E:.*]] = arith.extf %[[R]] : bf16 to f32
// CHECK:         arith.addf %[[E]], %{{.*}} : f32
// CHECK-NOT:     fastmath
// Without the pass the folder removes that rounding.
// FOLDED-LABEL: func.func @chain(
// FOLDED:         %[[S:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// FOLDED-NEXT:    arith.addf %[[S]], %{{.*}} : f32
func.func @chain(%a: bf16, %b: bf16, %c: bf16) -> bf16 {
  %s = arith.addf %a, %b : bf16
  %t = arith.addf %s, %c : bf16
  return %t : bf16
}
