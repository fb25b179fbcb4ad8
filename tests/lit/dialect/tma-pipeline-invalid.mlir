// RUN: xla-gpu-opt %s -split-input-file -verify-diagnostics

func.func @zero_count(%b: tensor<4xi64>, %i: index) -> tensor<4xi64> {
  // expected-error @+1 {{expects 1 to 2^20 - 1 arrivals a phase, not 0}}
  %0 = xla_gpu.mbarrier_init %b[%i] {count = 0 : i64} : tensor<4xi64> -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @not_barriers(%b: tensor<4xi32>, %i: index) -> tensor<4xi32> {
  // expected-error @+1 {{expects a one-dimensional array of i64 mbarriers}}
  %0 = xla_gpu.mbarrier_arrive %b[%i] : tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @box_not_tile(%a: tensor<256x512xbf16>, %t: tensor<1x64x64xbf16>, %b: tensor<4xi64>, %i: index) -> tensor<1x64x64xbf16> {
  // expected-error @+1 {{expects a tile of the box's 8192 elements}}
  %0 = xla_gpu.tma_load %a[%i, %i] into %t barrier %b[%i] {box = array<i64: 64, 128>, swizzle = 128 : i64} : tensor<256x512xbf16>, tensor<1x64x64xbf16>, tensor<4xi64> -> tensor<1x64x64xbf16>
  return %0 : tensor<1x64x64xbf16>
}

// -----

func.func @swizzle_not_row(%a: tensor<256x512xbf16>, %t: tensor<1x128x32xbf16>, %b: tensor<4xi64>, %i: index) -> tensor<1x128x32xbf16> {
  // expected-error @+1 {{expects box rows of a multiple of 16 bytes, and of the swizzle's bytes where it swizzles, not 64}}
  %0 = xla_gpu.tma_load %a[%i, %i] into %t barrier %b[%i] {box = array<i64: 32, 128>, swizzle = 128 : i64} : tensor<256x512xbf16>, tensor<1x128x32xbf16>, tensor<4xi64> -> tensor<1x128x32xbf16>
  return %0 : tensor<1x128x32xbf16>
}

// -----

func.func @wait_types(%b: tensor<4xi64>, %t: tensor<8xf32>, %i: index) {
  // expected-error @+1 {{returns its tiles, of their types}}
  %0 = "xla_gpu.mbarrier_wait"(%b, %i, %i, %t) : (tensor<4xi64>, index, index, tensor<8xf32>) -> tensor<8xi32>
  return
}

// -----

func.func @registers_not_a_multiple_of_8() {
  // expected-error @+1 {{expects a multiple of 8 from 24 to 256 registers, not 236}}
  xla_gpu.set_max_registers {count = 236 : i64, increase}
  return
}

// -----

func.func @registers_too_few() {
  // expected-error @+1 {{expects a multiple of 8 from 24 to 256 registers, not 16}}
  xla_gpu.set_max_registers {count = 16 : i64}
  return
}
