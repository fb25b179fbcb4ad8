// RUN: xla-gpu-opt %s --xla-gpu-guard-atan2-zeros | FileCheck %s
// RUN: xla-gpu-opt %s --xla-gpu-guard-atan2-zeros --canonicalize | FileCheck %s --check-prefix=FOLDED

// Every atan2 gets the select of its value at zeros, once; after canonicalization, atan2(0, -1 + 1) is 0 and atan2(+0, -0)
// is pi, not MLIR's folded NaN.
func.func @constants() -> (f32, f64) {
  %zero = arith.constant 0.0 : f32
  %minus_one = arith.constant -1.0 : f32
  %one = arith.constant 1.0 : f32
  %sum = arith.addf %minus_one, %one : f32
  %a = math.atan2 %zero, %sum : f32
  %pz = arith.constant 0.0 : f64
  %nz = arith.constant -0.0 : f64
  %b = math.atan2 %pz, %nz : f64
  return %a, %b : f32, f64
}
// CHECK-LABEL: func.func @constants(
// CHECK:         %[[A:.*]] = math.atan2
// CHECK:         math.copysign
// CHECK:         %[[GUARDED:.*]] = arith.select %{{.*}}, %{{.*}}, %[[A]] : f32
// CHECK:         math.atan2
// CHECK:         return %[[GUARDED]], %{{.*}} : f32, f64
// FOLDED-LABEL: func.func @constants(
// FOLDED-NOT:     0x7FC00000
// FOLDED-NOT:     0x7FF8000000000000
// FOLDED-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// FOLDED-DAG:     %[[PI:.*]] = arith.constant 3.1415926535897931 : f64
// FOLDED:         return %[[ZERO]], %[[PI]] : f32, f64

// A runtime atan2 is guarded too: its operands may become constants in a
// later pass (fuzz seed 643397: a dynamic-update-slice start clamped to
// the one place there is). One that is marked already is left alone.
func.func @runtime(%y: f32, %x: f32) -> (f32, f32) {
  %a = math.atan2 %y, %x : f32
  %b = math.atan2 %y, %x {xla_gpu.zeros_guarded} : f32
  return %a, %b : f32, f32
}
// CHECK-LABEL: func.func @runtime(
// CHECK-NEXT:    %[[A:.*]] = math.atan2 %{{.*}}, %{{.*}} {xla_gpu.zeros_guarded} : f32
// CHECK:         %[[GUARDED:.*]] = arith.select %{{.*}}, %{{.*}}, %[[A]] : f32
// CHECK-NEXT:    %[[B:.*]] = math.atan2 %{{.*}}, %{{.*}} {xla_gpu.zeros_guarded} : f32
// CHECK-NEXT:    return %[[GUARDED]], %[[B]] : f32, f32

// Vector operands: splat constants, guarded the same way (arith.cmpf does
// not fold vectors, so the select stays and picks the zero at run time).
func.func @vector() -> vector<2xf32> {
  %zero = arith.constant dense<0.0> : vector<2xf32>
  %a = math.atan2 %zero, %zero : vector<2xf32>
  return %a : vector<2xf32>
}
// FOLDED-LABEL: func.func @vector(
// FOLDED:         %[[NAN:.*]] = arith.constant dense<0x7FC00000> : vector<2xf32>
// FOLDED:         %[[GUARDED:.*]] = arith.select %{{.*}}, %{{.*}}, %[[NAN]] : vector<2xi1>, vector<2xf32>
// FOLDED-NEXT:    return %[[GUARDED]] : vector<2xf32>
