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

// -----

func.func @stmatrix_count(%v: vector<6xbf16>, %t: tensor<16x64xbf16>, %i: index) -> tensor<16x64xbf16> {
  // expected-error @+1 {{expects 1, 2 or 4 matrices, not 3}}
  %0 = xla_gpu.stmatrix %v into %t[%i, %i] {count = 3 : i64} : vector<6xbf16>, tensor<16x64xbf16> -> tensor<16x64xbf16>
  return %0 : tensor<16x64xbf16>
}

// -----

func.func @stmatrix_values(%v: vector<4xbf16>, %t: tensor<16x64xbf16>, %i: index) -> tensor<16x64xbf16> {
  // expected-error @+1 {{expects two values a matrix, not 4}}
  %0 = xla_gpu.stmatrix %v into %t[%i, %i] {count = 4 : i64} : vector<4xbf16>, tensor<16x64xbf16> -> tensor<16x64xbf16>
  return %0 : tensor<16x64xbf16>
}

// -----

func.func @stmatrix_rows(%v: vector<8xf16>, %t: tensor<16x12xf16>, %i: index) -> tensor<16x12xf16> {
  // expected-error @+1 {{expects rows of a multiple of 16 bytes (aligned row addresses)}}
  %0 = xla_gpu.stmatrix %v into %t[%i, %i] {count = 4 : i64} : vector<8xf16>, tensor<16x12xf16> -> tensor<16x12xf16>
  return %0 : tensor<16x12xf16>
}

// -----

func.func @tma_store_types(%t: tensor<16x64xf16>, %o: tensor<300x200xbf16>, %i: index) -> tensor<300x200xbf16> {
  // expected-error @+1 {{expects a global buffer and a tile of one element type}}
  %0 = xla_gpu.tma_store %t into %o[%i, %i] {box = array<i64: 64, 16>, swizzle = 128 : i64} : tensor<16x64xf16>, tensor<300x200xbf16> -> tensor<300x200xbf16>
  return %0 : tensor<300x200xbf16>
}

// -----

func.func @tma_store_result(%t: memref<16x64xbf16>, %o: memref<300x200xbf16>, %i: index) {
  // expected-error @+1 {{returns the updated value on tensors, nothing on buffers}}
  %0 = xla_gpu.tma_store %t into %o[%i, %i] {box = array<i64: 64, 16>, swizzle = 128 : i64} : memref<16x64xbf16>, memref<300x200xbf16> -> tensor<300x200xbf16>
  return
}

// -----

func.func @tma_store_wait_pending() {
  // expected-error @+1 {{expects 0 to 63 groups left pending, not 64}}
  xla_gpu.tma_store_wait {pending = 64 : i64}
  return
}

// -----

func.func @arrive_in_block_bytes(%b: tensor<4xi64>, %i: index) -> tensor<4xi64> {
  // expected-error @+1 {{expects no transaction bytes at another block's barrier}}
  %0 = xla_gpu.mbarrier_arrive %b[%i] in_block %i {transaction_bytes = 64 : i64} : tensor<4xi64> -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @tma_load_multicast(%a: tensor<256x512xbf16>, %t: tensor<1x128x64xbf16>, %b: tensor<4xi64>, %i: index) -> tensor<1x128x64xbf16> {
  // expected-error @+1 {{expects a multicast mask of at most 16 blocks, not 65536}}
  %0 = xla_gpu.tma_load %a[%i, %i] into %t barrier %b[%i] {box = array<i64: 64, 128>, multicast = 65536 : i64, swizzle = 128 : i64} : tensor<256x512xbf16>, tensor<1x128x64xbf16>, tensor<4xi64> -> tensor<1x128x64xbf16>
  return %0 : tensor<1x128x64xbf16>
}
