"""lzo1x.py - an LZO1X decompressor in Python for the tests' second ODOL
decoder (tests/p3d_crosscheck.py), independent of liblzo2 and of
core/p3d/p3d_compress.c.  ODOL's compressed arrays store no compressed
length: decompress() returns the bytes and how many input bytes the stream
took (end marker included).

Stream format from the Linux kernel's Documentation/staging/lzo.rst (no
code copied): a first byte above 17 is a run of byte - 17 literals (state
that count, 4 for four or more); then instructions by their first byte t:
  0..15, state 0      literals: 3 + t (t == 0: 15 + 255 per 0 byte + the
                      first non-zero byte);
  0..15, state 1..3   a 2-byte match, distance (H << 2) + (t >> 2) + 1;
  0..15, state 4      a 3-byte match, distance (H << 2) + (t >> 2) + 2049;
  16..31              length 2 + (t & 7, or 7 + extension), distance
                      16384 + ((t & 8) << 11) + (D >> 2), D the next 16
                      bits little-endian; 16384 exactly ends the stream;
  32..63              length 2 + (t & 31, or 31 + extension), distance
                      (D >> 2) + 1;
  64..255             length (t >> 5) + 1, distance ((t >> 2) & 7) +
                      (H << 3) + 1;
after a match the low 2 bits of its last instruction byte (t, or D) are
the state: that many literals follow it.
"""


class LzoError(Exception):
    pass


def _ext(src, ip, base):
    """A length extension at ip: base + 255 per zero byte + the first
    non-zero byte; returns (length, new ip)."""
    n = base
    while src[ip] == 0:
        n += 255
        ip += 1
    return n + src[ip], ip + 1


def decompress(src, pos, out_len):
    """Decodes the LZO1X stream at src[pos:] into exactly out_len bytes;
    returns (bytes, consumed).  LzoError when the stream is invalid, ends
    early or decodes to another size."""
    out = bytearray()
    ip = pos
    try:
        state = 0
        if src[ip] > 17:
            n = src[ip] - 17
            ip += 1
            out += src[ip:ip + n]
            ip += n
            state = n if n < 4 else 4
        while True:
            t = src[ip]
            ip += 1
            if t < 16:
                if state == 0:
                    n = t + 3
                    if t == 0:
                        n, ip = _ext(src, ip, 15)
                        n += 3
                    out += src[ip:ip + n]
                    ip += n
                    state = 4
                    continue
                length = 2 if state < 4 else 3
                dist = (src[ip] << 2) + (t >> 2) + (1 if state < 4 else 2049)
                ip += 1
                state = t & 3
            elif t >= 64:
                length = (t >> 5) + 1
                dist = ((t >> 2) & 7) + (src[ip] << 3) + 1
                ip += 1
                state = t & 3
            else:
                if t >= 32:
                    length = t & 31
                    if length == 0:
                        length, ip = _ext(src, ip, 31)
                else:
                    length = t & 7
                    if length == 0:
                        length, ip = _ext(src, ip, 7)
                length += 2
                d = src[ip] | (src[ip + 1] << 8)
                ip += 2
                state = d & 3
                if t >= 32:
                    dist = (d >> 2) + 1
                else:
                    dist = ((t & 8) << 11) + (d >> 2)
                    if dist == 0:
                        break  # the end marker
                    dist += 16384
            if dist > len(out):
                raise LzoError("match before the start of the output")
            start = len(out) - dist
            for k in range(length):
                out.append(out[start + k])
            out += src[ip:ip + state]
            ip += state
            if len(out) > out_len:
                raise LzoError("decodes past %d bytes" % out_len)
    except IndexError:
        raise LzoError("the input ends before the end marker")
    if len(out) != out_len:
        raise LzoError("decodes to %d bytes, not %d" % (len(out), out_len))
    return bytes(out), ip - pos


def _self_test():
    """Round trip through liblzo2's own compressors (ctypes), both the
    fast one and the 999 one (more kinds of instruction): every stream
    decodes to its input and its length is found exactly, with bytes after
    it.  Skipped with one line without liblzo2."""
    import ctypes
    import ctypes.util
    import random
    import sys
    name = ctypes.util.find_library("lzo2") or "liblzo2.so.2"
    try:
        lib = ctypes.CDLL(name)
    except OSError:
        print("lzo1x: self-test skipped: no liblzo2")
        return 0
    rnd = random.Random(29)
    n_ok = 0
    for trial in range(120):
        n = rnd.randint(1, 40000)
        base = bytes(rnd.randint(0, 255) for _ in range(rnd.randint(1, 400)))
        data = bytes(c if rnd.random() > 0.08 else rnd.randint(0, 3) for c in (base * (n // len(base) + 1))[:n])
        out = ctypes.create_string_buffer(n + n // 16 + 64 + 3)
        out_len = ctypes.c_ulong(0)
        work = ctypes.create_string_buffer(1 << 20)
        fn = lib.lzo1x_999_compress if trial % 2 else lib.lzo1x_1_compress
        if fn(data, ctypes.c_ulong(n), out, ctypes.byref(out_len), work) != 0:
            print("lzo1x: FAIL: liblzo2 did not compress")
            return 1
        stream = out.raw[:out_len.value]
        got, used = decompress(stream + b"\x11\x00\x00after", 0, n)
        if got != data or used != out_len.value:
            print("lzo1x: FAIL: trial %d: %d bytes used of %d" % (trial, used, out_len.value))
            return 1
        try:
            decompress(stream[:-1], 0, n)
            print("lzo1x: FAIL: trial %d: a cut stream decoded" % trial)
            return 1
        except LzoError:
            pass
        n_ok += 1
    print("lzo1x: ok: %d liblzo2 streams decoded, their lengths found" % n_ok)
    return 0


if __name__ == "__main__":
    import sys
    sys.exit(_self_test())
