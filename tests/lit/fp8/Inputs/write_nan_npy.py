#!/usr/bin/env python3
"""Writes f32[8] as .npy (standard library only): +NaN, -NaN, +inf, -inf,
+0, -0, 7, -100 (bit patterns, so that the NaNs keep their signs)."""
import struct
import sys

bits = [0x7FC00000, 0xFFC00000, 0x7F800000, 0xFF800000, 0x0, 0x80000000, 0x40E00000, 0xC2C80000]
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (8,), }"
header += " " * (63 - (10 + len(header)) % 64) + "\n"
with open(sys.argv[1], "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    f.write(b"".join(struct.pack("<I", b) for b in bits))
