# npy.py - the .npy files of the generated modules' index inputs (fuzzgen).
#
# Owns: npy_bytes(), the bytes of a version 1.0 .npy file of a flat list of
# pred / integer values (hlo-run --input reads them).
#
# Standard library only.
import struct

NPY_DESCR = {'pred': '|b1', 's8': '|i1', 's16': '<i2', 's32': '<i4', 's64': '<i8',
             'u8': '|u1', 'u16': '<u2', 'u32': '<u4', 'u64': '<u8'}
NPY_PACK = {'pred': 'B', 's8': 'b', 's16': 'h', 's32': 'i', 's64': 'q', 'u8': 'B',
            'u16': 'H', 'u32': 'I', 'u64': 'Q'}


def npy_bytes(dtype, dims, values):
    shape = '(%d,)' % dims[0] if len(dims) == 1 else '(%s)' % ', '.join(str(d) for d in dims)
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (NPY_DESCR[dtype], shape)
    total = 10 + len(header) + 1
    header += ' ' * ((64 - total % 64) % 64) + '\n'
    data = struct.pack('<%d%s' % (len(values), NPY_PACK[dtype]), *values)
    return b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + header.encode() + data
