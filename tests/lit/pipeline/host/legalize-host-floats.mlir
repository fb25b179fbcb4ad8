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

// maximum/minimum of f16/bf16: compared in f32, the result the chosen
// operand's own bits (a NaN operand as it is, -0 below +0), selected as
// i16 -- no narrow-float maximum reaches the back end.
// CHECK-LABEL: func.func @narrow_max_min
// CHECK-NOT:   arith.maximumf
// CHECK-NOT:   llvm.intr.maximum
// CHECK:       %[[XW:.*]] = arith.extf %arg0 : bf16 to f32
// CHECK:       %[[YW:.*]] = arith.extf %arg1 : bf16 to f32
// CHECK:       %[[XB:.*]] = arith.bitcast %arg0 : bf16 to i16
// CHECK:       %[[YB:.*]] = arith.bitcast %arg1 : bf16 to i16
// CHECK:       arith.cmpf uno, %[[XW]], %[[XW]]
// CHECK:       arith.cmpf ord, %[[YW]], %[[YW]]
// CHECK:       arith.cmpf ogt, %[[XW]], %[[YW]]
// CHECK:       arith.cmpf oeq, %[[XW]], %[[YW]]
// CHECK:       arith.cmpi slt, %[[XB]]
// CHECK:       %[[PICK:.*]] = arith.select %{{.*}}, %[[XB]], %[[YB]] : i16
// CHECK:       arith.bitcast %[[PICK]] : i16 to bf16
// CHECK:       arith.cmpf olt, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK:       arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi1>, vector<4xi16>
// CHECK-NOT:   llvm.intr.minimum
func.func @narrow_max_min(%x: bf16, %y: bf16, %v: vector<4xf16>, %w: vector<4xf16>) -> (bf16, vector<4xf16>) {
  %0 = arith.maximumf %x, %y : bf16
  %1 = arith.minimumf %v, %w : vector<4xf16>
  return %0, %1 : bf16, vector<4xf16>
}
