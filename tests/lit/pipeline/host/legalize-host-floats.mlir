// RUN: xla-gpu-opt %s --xla-gpu-legalize-host-floats | FileCheck %s

// Math on bf16/f16 runs in f32 and rounds back once (as libdevice's f32
// functions do for them on the GPU); non-float results stay as they are.
func.func @math(%x: bf16, %v: vector<4xf16>) -> (bf16, vector<4xf16>) {
  %t = math.tanh %x : bf16
  %e = math.exp %v : vector<4xf16>
  return %t, %e : bf16, vector<4xf16>
}
// CHECK-LABEL: func.func @math(
// CHECK:         %[[X:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK:         %[[T:.*]] = math.tanh %[[X]] : f32
// CHECK:         arith.truncf %[[T]] : f32 to bf16
// CHECK:         %[[V:.*]] = arith.extf %{{.*}} : vector<4xf16> to vector<4xf32>
// CHECK:         %[[E:.*]] = math.exp %[[V]] : vector<4xf32>
// CHECK:         arith.truncf %[[E]] : vector<4xf32> to vector<4xf16>

// f64 -> bf16 through f32 with round-to-odd: the nearest f32, stepped
// toward zero if it was rounded away, its lowest bit set unless exact.
func.func @narrow(%x: f64) -> bf16 {
  %y = arith.truncf %x : f64 to bf16
  return %y : bf16
}
// CHECK-LABEL: func.func @narrow(
// CHECK-SAME:      %[[X:.*]]: f64)
// CHECK:         %[[NEAR:.*]] = arith.truncf %[[X]] : f64 to f32
// CHECK:         %[[BACK:.*]] = arith.extf %[[NEAR]] : f32 to f64
// CHECK:         %[[EXACT:.*]] = arith.cmpf ueq, %[[BACK]], %[[X]] : f64
// CHECK:         %[[AWAY:.*]] = arith.cmpf ogt
// CHECK:         %[[BITS:.*]] = arith.bitcast %[[NEAR]] : f32 to i32
// CHECK:         %[[DOWN:.*]] = arith.subi %[[BITS]], %{{.*}} : i32
// CHECK:         %[[TRUNC:.*]] = arith.select %[[AWAY]], %[[DOWN]], %[[BITS]] : i32
// CHECK:         %[[ODD:.*]] = arith.ori %[[TRUNC]], %{{.*}} : i32
// CHECK:         %[[PICK:.*]] = arith.select %[[EXACT]], %[[BITS]], %[[ODD]] : i32
// CHECK:         %[[F:.*]] = arith.bitcast %[[PICK]] : i32 to f32
// CHECK:         arith.truncf %[[F]] : f32 to bf16
// CHECK-NOT:     f64 to bf16

// bf16 -> f64 through f32 (both steps exact).
func.func @widen(%x: bf16) -> f64 {
  %y = arith.extf %x : bf16 to f64
  return %y : f64
}
// CHECK-LABEL: func.func @widen(
// CHECK:         %[[F:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK:         arith.extf %[[F]] : f32 to f64
