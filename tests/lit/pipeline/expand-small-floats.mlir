// RUN: xla-gpu-opt %s --xla-gpu-expand-small-floats | FileCheck %s
// RUN: xla-gpu-opt %s --xla-gpu-expand-small-floats=constant-operands-only=true --canonicalize | FileCheck %s --check-prefix=CONST

// Conversions to and from the small floats become integer code on bits;
// integer conversions go through f32.
func.func @trunc(%x: f32) -> f8E4M3FN {
  %r = arith.truncf %x : f32 to f8E4M3FN
  return %r : f8E4M3FN
}
// CHECK-LABEL: func.func @trunc(
// CHECK-NOT: arith.truncf
// CHECK: arith.bitcast %{{.*}} : i8 to f8E4M3FN
// CONST-LABEL: func.func @trunc(
// CONST: arith.truncf %{{.*}} : f32 to f8E4M3FN

func.func @sitofp(%x: i64) -> f8E4M3B11FNUZ {
  %r = arith.sitofp %x : i64 to f8E4M3B11FNUZ
  return %r : f8E4M3B11FNUZ
}
// CHECK-LABEL: func.func @sitofp(
// CHECK: arith.sitofp %{{.*}} : i64 to f32
// CHECK-NOT: to f8E4M3B11FNUZ
// CHECK: arith.bitcast %{{.*}} : i8 to f8E4M3B11FNUZ

func.func @fptoui(%x: f8E5M2) -> i32 {
  %r = arith.fptoui %x : f8E5M2 to i32
  return %r : i32
}
// CHECK-LABEL: func.func @fptoui(
// CHECK: arith.bitcast %{{.*}} : f8E5M2 to i8
// CHECK: arith.fptoui %{{.*}} : f32 to i32

// Constants and arith ops of them fold to ml_dtypes' bits (APFloat would
// give 2^-127, 0x00, for 0 in f8E8M0FNU).
func.func @constant_zero() -> f8E8M0FNU {
  %c = arith.constant 0.0 : bf16
  %w = arith.extf %c : bf16 to f32
  %r = arith.truncf %w : f32 to f8E8M0FNU
  return %r : f8E8M0FNU
}
// CONST-LABEL: func.func @constant_zero(
// CONST: arith.constant 0xFF : f8E8M0FNU

// Conversions of other values wait for a later run, except those of the
// types APFloat folds by other rules (f8E8M0FNU, f4E2M1FN): the value may
// become a constant in the canonicalizer that follows (a one-element iota).
func.func @not_constant(%x: f32) -> f8E4M3FN {
  %r = arith.truncf %x : f32 to f8E4M3FN
  return %r : f8E4M3FN
}
// CONST-LABEL: func.func @not_constant(
// CONST: arith.truncf %{{.*}} : f32 to f8E4M3FN

func.func @not_constant_e8m0(%x: f32) -> f8E8M0FNU {
  %r = arith.truncf %x : f32 to f8E8M0FNU
  return %r : f8E8M0FNU
}
// CONST-LABEL: func.func @not_constant_e8m0(
// CONST-NOT: arith.truncf
// CONST: arith.bitcast %{{.*}} : i8 to f8E8M0FNU
