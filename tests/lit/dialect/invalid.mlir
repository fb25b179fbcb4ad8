// The verifiers of the xla_gpu ops.
// RUN: xla-gpu-opt %s -split-input-file -verify-diagnostics

func.func @wrong_operand_count(%d: index) -> index {
  // expected-error @+1 {{expects 2 operands (dimensions and symbols of the map), but has 1}}
  %r = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0)[s0] -> (d0 + s0), domain: d0 in [0, 3], s0 in [0, 3]">(%d)
  return %r : index
}

// -----

func.func @bad_map(%d: index) -> index {
  // expected-error @+1 {{invalid indexing map: unknown variable 'd1'}}
  %r = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0) -> (d1), domain: d0 in [0, 3]">(%d)
  return %r : index
}

// -----

func.func @missing_callee(%d: index) -> f32 {
  // expected-error @+1 {{calls 'nowhere', which does not exist}}
  %r = xla_gpu.pure_call @nowhere(%d) : (index) -> f32
  return %r : f32
}

// -----

func.func private @callee(%d: index) -> f32
func.func @wrong_types(%d: index) -> i32 {
  // expected-error @+1 {{types do not match the callee's}}
  %r = xla_gpu.pure_call @callee(%d) : (index) -> i32
  return %r : i32
}

// -----

func.func private @add(%a: f32, %b: f32) -> f32
func.func @shuffle_too_far(%x: f32) -> f32 {
  // expected-error @+1 {{max distance must be a power of two from 1 to 16, not 32}}
  %r = xla_gpu.shuffle_reduce(%x) to 32 combiner=@add : f32
  return %r : f32
}

// -----

func.func private @add(%a: f32, %b: f32) -> f32
func.func @shuffle_not_power_of_two(%x: f32) -> f32 {
  // expected-error @+1 {{max distance must be a power of two from 1 to 16, not 3}}
  %r = xla_gpu.shuffle_reduce(%x) to 3 combiner=@add : f32
  return %r : f32
}

// -----

func.func private @add(%a: f64, %b: f64) -> f64
func.func @shuffle_wrong_combiner(%x: f32) -> f32 {
  // expected-error @+1 {{combiner '(f64, f64) -> f64' does not combine the values' types}}
  %r = xla_gpu.shuffle_reduce(%x) to 16 combiner=@add : f32
  return %r : f32
}

// -----

func.func @shuffle_missing_combiner(%x: f32) -> f32 {
  // expected-error @+1 {{combiner 'nowhere' does not exist}}
  %r = xla_gpu.shuffle_reduce(%x) to 16 combiner=@nowhere : f32
  return %r : f32
}

// -----

func.func @insert_wrong_rank(%x: f32, %c: i1, %i: index, %t: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{expects 2 indices}}
  %r = xla_gpu.predicated_insert %x into %t[%i] if %c : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

func.func @extract_wrong_rank(%x: f32, %c: i1, %i: index, %t: tensor<4x4xf32>) -> f32 {
  // expected-error @+1 {{expects 2 indices}}
  %r = xla_gpu.predicated_extract %t[%i, %i, %i] if %c else %x : tensor<4x4xf32>
  return %r : f32
}

// -----

func.func @shared_dynamic() {
  // expected-error @+1 {{must be statically shaped tensor}}
  %t = xla_gpu.allocate_shared : tensor<?xf32>
  return
}

// -----

func.func @atomic_rmw_indices(%t: tensor<8x8xf32>, %i: index) -> tensor<8x8xf32> {
  // expected-error @+1 {{expects 2 indices}}
  %r = xla_gpu.atomic_rmw %t[%i] : tensor<8x8xf32> {
  ^bb0(%current: f32):
    xla_gpu.yield %current : f32
  }
  return %r : tensor<8x8xf32>
}

// -----

func.func @atomic_rmw_yield(%t: tensor<8xf32>, %i: index, %x: f64) -> tensor<8xf32> {
  // expected-error @+1 {{must yield one value of the element type 'f32'}}
  %r = xla_gpu.atomic_rmw %t[%i] : tensor<8xf32> {
  ^bb0(%current: f32):
    xla_gpu.yield %x : f64
  }
  return %r : tensor<8xf32>
}

// -----

func.func @shape(%a: vector<8xbf16>, %b: vector<4xbf16>, %c: vector<4xf32>) {
  // expected-error @+1 {{these inputs multiply in tiles of shape [16, 8, 16]}}
  %d = xla_gpu.mma_sync %a, %b, %c {shape = array<i64: 16, 8, 8>} : vector<8xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
  return
}

// -----

func.func @fragment_sizes(%a: vector<4xbf16>, %b: vector<4xbf16>, %c: vector<4xf32>) {
  // expected-error @+1 {{a lane holds 8, 4 and 4 values of A, B and C}}
  %d = xla_gpu.mma_sync %a, %b, %c {shape = array<i64: 16, 8, 16>} : vector<4xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
  return
}

// -----

func.func @accumulator(%a: vector<8xbf16>, %b: vector<4xbf16>, %c: vector<4xf16>) {
  // expected-error @+1 {{these inputs accumulate in f32}}
  %d = xla_gpu.mma_sync %a, %b, %c {shape = array<i64: 16, 8, 16>} : vector<8xbf16>, vector<4xbf16>, vector<4xf16> -> vector<4xf16>
  return
}

// -----

func.func @mixed_inputs(%a: vector<8xbf16>, %b: vector<4xf16>, %c: vector<4xf32>) {
  // expected-error @+1 {{A and B hold different element types}}
  %d = xla_gpu.mma_sync %a, %b, %c {shape = array<i64: 16, 8, 16>} : vector<8xbf16>, vector<4xf16>, vector<4xf32> -> vector<4xf32>
  return
}

// -----

func.func @f32_without_tf32(%a: vector<4xf32>, %b: vector<2xf32>, %c: vector<4xf32>) {
  // expected-error @+1 {{no mma.sync multiplies these element types}}
  %d = xla_gpu.mma_sync %a, %b, %c {shape = array<i64: 16, 8, 8>} : vector<4xf32>, vector<2xf32>, vector<4xf32> -> vector<4xf32>
  return
}

// -----

func.func @tf32_on_bf16(%a: vector<8xbf16>, %b: vector<4xbf16>, %c: vector<4xf32>) {
  // expected-error @+1 {{`tf32` multiplies f32 inputs}}
  %d = xla_gpu.mma_sync %a, %b, %c {shape = array<i64: 16, 8, 16>, tf32} : vector<8xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
  return
}

// -----

func.func @result(%a: vector<8xbf16>, %b: vector<4xbf16>, %c: vector<4xf32>) {
  // expected-error @+1 {{C and D differ in type}}
  %d = xla_gpu.mma_sync %a, %b, %c {shape = array<i64: 16, 8, 16>} : vector<8xbf16>, vector<4xbf16>, vector<4xf32> -> vector<8xf32>
  return
}

// -----

func.func @ldmatrix_count(%t: tensor<16x40xbf16>, %i: index) {
  // expected-error @+1 {{expects 1, 2 or 4 matrices, not 3}}
  %v = xla_gpu.ldmatrix %t[%i, %i] {count = 3 : i64} : tensor<16x40xbf16> -> vector<6xbf16>
  return
}

// -----

func.func @ldmatrix_f64(%t: tensor<16x10xf64>, %i: index) {
  // expected-error @+1 {{expects a tile of 8-, 16- or 32-bit elements, not 'f64'}}
  %v = xla_gpu.ldmatrix %t[%i, %i] {count = 1 : i64} : tensor<16x10xf64> -> vector<1xf64>
  return
}

// -----

func.func @ldmatrix_unaligned_rows(%t: tensor<16x36xbf16>, %i: index) {
  // expected-error @+1 {{expects rows of a multiple of 16 bytes}}
  %v = xla_gpu.ldmatrix %t[%i, %i] {count = 4 : i64} : tensor<16x36xbf16> -> vector<8xbf16>
  return
}

// -----

func.func @ldmatrix_result(%t: tensor<16x40xbf16>, %i: index) {
  // expected-error @+1 {{expects the result type 'vector<4xbf16>'}}
  %v = xla_gpu.ldmatrix %t[%i, %i] {count = 2 : i64} : tensor<16x40xbf16> -> vector<8xbf16>
  return
}

// -----

func.func @ldmatrix_transpose_f32(%t: tensor<16x20xf32>, %i: index) {
  // expected-error @+1 {{transposes 16-bit elements only, not 'f32'}}
  %v = xla_gpu.ldmatrix %t[%i, %i] {count = 2 : i64, transpose} : tensor<16x20xf32> -> vector<2xf32>
  return
}

// -----

func.func @wgmma_layout(%a: tensor<64x32xbf16>, %b: tensor<4x4x8x8xbf16>, %c: vector<16xf32>, %i: index) {
  // expected-error @+1 {{expects tiles of 8 x 8 core matrices ([R/8][K/8][8][8]), not 'tensor<64x32xbf16>'}}
  %d = xla_gpu.wgmma %a[%i], %b[%i], %c : tensor<64x32xbf16>, tensor<4x4x8x8xbf16>, vector<16xf32> -> vector<16xf32>
  return
}

// -----

func.func @wgmma_f64(%a: tensor<8x4x8x2xf64>, %b: tensor<4x4x8x2xf64>, %c: vector<16xf32>, %i: index) {
  // expected-error @+1 {{expects bf16, f16, f32 (TF32), f8E4M3FN or f8E5M2 tiles, not 'f64'}}
  %d = xla_gpu.wgmma %a[%i], %b[%i], %c : tensor<8x4x8x2xf64>, tensor<4x4x8x2xf64>, vector<16xf32> -> vector<16xf32>
  return
}

// -----

func.func @wgmma_mixed(%a: tensor<8x4x8x8xbf16>, %b: tensor<4x4x8x8xf16>, %c: vector<16xf32>, %i: index) {
  // expected-error @+1 {{expects tiles of one element type (or two 8-bit floats)}}
  %d = xla_gpu.wgmma %a[%i], %b[%i], %c : tensor<8x4x8x8xbf16>, tensor<4x4x8x8xf16>, vector<16xf32> -> vector<16xf32>
  return
}

// -----

// An 8-bit float A mixes only with an 8-bit float B.
func.func @wgmma_f8_with_bf16(%a: tensor<8x2x8x16xf8E4M3FN>, %b: tensor<4x4x8x8xbf16>, %c: vector<16xf32>, %i: index) {
  // expected-error @+1 {{expects tiles of one element type (or two 8-bit floats)}}
  %d = xla_gpu.wgmma %a[%i], %b[%i], %c : tensor<8x2x8x16xf8E4M3FN>, tensor<4x4x8x8xbf16>, vector<16xf32> -> vector<16xf32>
  return
}

// -----

// imm-trans-b is for 16-bit inputs only.
func.func @wgmma_f8_transposed(%a: tensor<1x64x128xf8E4M3FN>, %b: tensor<1x128x128xf8E5M2>, %c: vector<16xf32>, %i: index) {
  // expected-error @+1 {{expects an N-major B of 16-bit elements in swizzled rows}}
  %d = xla_gpu.wgmma %a[%i], %b[%i], %c {swizzle = 128 : i64, b_transposed} : tensor<1x64x128xf8E4M3FN>, tensor<1x128x128xf8E5M2>, vector<16xf32> -> vector<16xf32>
  return
}

// -----

// imm-trans-a likewise.
func.func @wgmma_f8_transposed_a(%a: tensor<1x64x128xf8E4M3FN>, %b: tensor<1x8x128xf8E5M2>, %c: vector<4xf32>, %i: index) {
  // expected-error @+1 {{expects an M-major A of 16-bit elements in swizzled rows}}
  %d = xla_gpu.wgmma %a[%i], %b[%i], %c {swizzle = 128 : i64, a_transposed} : tensor<1x64x128xf8E4M3FN>, tensor<1x8x128xf8E5M2>, vector<4xf32> -> vector<4xf32>
  return
}

// -----

func.func @wgmma_depth(%a: tensor<8x3x8x8xbf16>, %b: tensor<4x3x8x8xbf16>, %c: vector<16xf32>, %i: index) {
  // expected-error @+1 {{expects tiles of the same K extent, a multiple of 32 bytes}}
  %d = xla_gpu.wgmma %a[%i], %b[%i], %c : tensor<8x3x8x8xbf16>, tensor<4x3x8x8xbf16>, vector<16xf32> -> vector<16xf32>
  return
}

// -----

func.func @wgmma_rows(%a: tensor<4x4x8x8xbf16>, %b: tensor<4x4x8x8xbf16>, %c: vector<16xf32>, %i: index) {
  // expected-error @+1 {{expects A of at least 64 rows}}
  %d = xla_gpu.wgmma %a[%i], %b[%i], %c : tensor<4x4x8x8xbf16>, tensor<4x4x8x8xbf16>, vector<16xf32> -> vector<16xf32>
  return
}

// -----

func.func @wgmma_width(%a: tensor<8x4x8x8xbf16>, %b: tensor<4x4x8x8xbf16>, %c: vector<18xf32>, %i: index) {
  // expected-error @+1 {{expects N a multiple of 8 up to 256 (N / 2 accumulators), not 36}}
  %d = xla_gpu.wgmma %a[%i], %b[%i], %c : tensor<8x4x8x8xbf16>, tensor<4x4x8x8xbf16>, vector<18xf32> -> vector<18xf32>
  return
}

// -----

func.func @wgmma_b_rows(%a: tensor<8x4x8x8xbf16>, %b: tensor<2x4x8x8xbf16>, %c: vector<16xf32>, %i: index) {
  // expected-error @+1 {{expects B of at least N = 32 rows}}
  %d = xla_gpu.wgmma %a[%i], %b[%i], %c : tensor<8x4x8x8xbf16>, tensor<2x4x8x8xbf16>, vector<16xf32> -> vector<16xf32>
  return
}

// -----

func.func @wgmma_swizzle_mode(%a: tensor<2x64x24xbf16>, %b: tensor<2x32x24xbf16>, %c: vector<16xf32>, %i: index) {
  // expected-error @+1 {{expects a swizzle of 0, 32, 64 or 128 bytes, not 48}}
  %d = xla_gpu.wgmma %a[%i], %b[%i], %c {swizzle = 48 : i64} : tensor<2x64x24xbf16>, tensor<2x32x24xbf16>, vector<16xf32> -> vector<16xf32>
  return
}

// -----

func.func @wgmma_swizzle_rows(%a: tensor<2x64x32xbf16>, %b: tensor<2x32x32xbf16>, %c: vector<16xf32>, %i: index) {
  // expected-error @+1 {{expects tiles of 128-byte rows ([K/64][R][64], R a multiple of 8), not 'tensor<2x64x32xbf16>'}}
  %d = xla_gpu.wgmma %a[%i], %b[%i], %c {swizzle = 128 : i64} : tensor<2x64x32xbf16>, tensor<2x32x32xbf16>, vector<16xf32> -> vector<16xf32>
  return
}

// -----

func.func @async_copy_bytes(%a: tensor<256x64xbf16>, %t: tensor<64x40xbf16>, %i: index, %c: i1) {
  // expected-error @+1 {{copies 4, 8 or 16 bytes, not 32}}
  %0 = xla_gpu.async_copy %a[%i, %i] into %t[%i, %i] if %c {bytes = 32 : i64} : tensor<256x64xbf16>, tensor<64x40xbf16> -> tensor<64x40xbf16>
  return
}

// -----

func.func @async_copy_rows(%a: tensor<256x60xbf16>, %t: tensor<64x40xbf16>, %i: index, %c: i1) {
  // expected-error @+1 {{expects rows of whole 16-byte copies of 'bf16'}}
  %0 = xla_gpu.async_copy %a[%i, %i] into %t[%i, %i] if %c {bytes = 16 : i64} : tensor<256x60xbf16>, tensor<64x40xbf16> -> tensor<64x40xbf16>
  return
}

// -----

func.func @async_copy_types(%a: tensor<256x64xf16>, %t: tensor<64x40xbf16>, %i: index, %c: i1) {
  // expected-error @+1 {{expects a source and a tile of one element type}}
  %0 = xla_gpu.async_copy %a[%i, %i] into %t[%i, %i] if %c {bytes = 16 : i64} : tensor<256x64xf16>, tensor<64x40xbf16> -> tensor<64x40xbf16>
  return
}

// -----

func.func @async_copy_result(%a: memref<256x64xbf16>, %t: memref<64x40xbf16>, %i: index, %c: i1) {
  // expected-error @+1 {{returns the tile's new value on tensors, nothing on buffers}}
  %0 = xla_gpu.async_copy %a[%i, %i] into %t[%i, %i] if %c {bytes = 16 : i64} : memref<256x64xbf16>, memref<64x40xbf16> -> tensor<64x40xbf16>
  return
}

// -----

func.func @async_wait_pending(%t: tensor<64x40xbf16>) {
  // expected-error @+1 {{waits for a number of pending groups, not -1}}
  %0 = xla_gpu.async_wait %t {pending = -1 : i64} : tensor<64x40xbf16>
  return
}

// -----

func.func @wgmma_tf32_core(%a: tensor<8x4x8x8xf32>, %b: tensor<4x4x8x8xf32>, %c: vector<16xf32>, %i: index) {
  // expected-error @+1 {{expects tiles of 8 x 4 core matrices ([R/8][K/4][8][4]), not 'tensor<8x4x8x8xf32>'}}
  %d = xla_gpu.wgmma %a[%i], %b[%i], %c : tensor<8x4x8x8xf32>, tensor<4x4x8x8xf32>, vector<16xf32> -> vector<16xf32>
  return
}
