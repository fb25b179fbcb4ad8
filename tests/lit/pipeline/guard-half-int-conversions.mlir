// RUN: xla-gpu-opt %s --xla-gpu-guard-half-int-conversions | FileCheck %s

// Sources that can reach 65520 in magnitude select +-inf beside the conversion.
func.func @unsigned32(%x: i32) -> f16 {
  %h = arith.uitofp %x : i32 to f16
  return %h : f16
}
// CHECK-LABEL: func.func @unsigned32(
// CHECK-SAME:    %[[X:.*]]: i32)
// CHECK:         %[[H:.*]] = arith.uitofp %[[X]] : i32 to f16
// CHECK:         %[[LIMIT:.*]] = arith.constant 65520 : i32
// CHECK:         %[[HIGH:.*]] = arith.cmpi uge, %[[X]], %[[LIMIT]] : i32
// CHECK:         %[[INF:.*]] = arith.constant 0x7C00 : f16
// CHECK:         %[[R:.*]] = arith.select %[[HIGH]], %[[INF]], %[[H]] : f16
// CHECK:         return %[[R]]

func.func @signed64(%x: vector<2xi64>) -> vector<2xf16> {
  %h = arith.sitofp %x : vector<2xi64> to vector<2xf16>
  return %h : vector<2xf16>
}
// CHECK-LABEL: func.func @signed64(
// CHECK-SAME:    %[[X:.*]]: vector<2xi64>)
// CHECK:         %[[H:.*]] = arith.sitofp %[[X]]
// CHECK:         arith.constant dense<65520> : vector<2xi64>
// CHECK:         %[[HIGH:.*]] = arith.cmpi sge, %[[X]], %{{.*}} : vector<2xi64>
// CHECK:         arith.constant dense<0x7C00> : vector<2xf16>
// CHECK:         %[[R1:.*]] = arith.select %[[HIGH]], %{{.*}}, %[[H]] : vector<2xi1>, vector<2xf16>
// CHECK:         arith.constant dense<-65520> : vector<2xi64>
// CHECK:         %[[LOW:.*]] = arith.cmpi sle, %[[X]], %{{.*}} : vector<2xi64>
// CHECK:         arith.constant dense<0xFC00> : vector<2xf16>
// CHECK:         %[[R2:.*]] = arith.select %[[LOW]], %{{.*}}, %[[R1]] : vector<2xi1>, vector<2xf16>
// CHECK:         return %[[R2]]

// u16 reaches 65535 (65520 is -16 as an i16); s16, u8 and bf16 results
// cannot overflow.
func.func @narrow(%a: i16, %b: i8) -> (f16, f16, f16, bf16) {
  %u = arith.uitofp %a : i16 to f16
  %s = arith.sitofp %a : i16 to f16
  %c = arith.uitofp %b : i8 to f16
  %w = arith.sitofp %a : i16 to bf16
  return %u, %s, %c, %w : f16, f16, f16, bf16
}
// CHECK-LABEL: func.func @narrow(
// CHECK:         arith.constant -16 : i16
// CHECK:         arith.cmpi uge
// CHECK-NOT:     arith.cmpi
// CHECK:         return
