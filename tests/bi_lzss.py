"""bi_lzss.py - Bohemia Interactive's LZSS for the tests' independent
readers (tests/archive_check.py: PBO entries; tests/p3d_crosscheck.py:
ODOL arrays below v44), written from the BI wiki "Compressed LZSS File
Format", not from core/lzss.c: a flag byte whose bits, low first, say
literal (1: one byte) or pointer (0: b0 b1, distance b0 | (b1 & 0xF0) << 4
back from the output's end, length (b1 & 0x0F) + 3; before the start of
the output a space, 0x20), then a u32 checksum."""


class LzssError(Exception):
    pass


def decode(src, pos, size, check=True):
    """The size bytes the stream at src[pos:] decodes to, and the input
    bytes it took, the 4-byte checksum after it included.  LzssError when
    the input ends first or (check) the checksum is neither byte sum
    (unsigned or signed, as the wiki's readers differ)."""
    out = bytearray()
    i = pos
    try:
        while len(out) < size:
            flags = src[i]
            i += 1
            for bit in range(8):
                if len(out) >= size:
                    break
                if flags & (1 << bit):
                    out.append(src[i])
                    i += 1
                else:
                    b0, b1 = src[i], src[i + 1]
                    i += 2
                    dist = b0 | ((b1 & 0xF0) << 4)
                    for _ in range((b1 & 0x0F) + 3):
                        if len(out) >= size:
                            break
                        p = len(out) - dist
                        out.append(out[p] if p >= 0 else 0x20)
        if check and i + 4 > len(src):
            raise LzssError("the input ends before the checksum")
    except IndexError:
        raise LzssError("the input ends before the output is complete")
    if not check:
        return bytes(out), i - pos
    stored = int.from_bytes(src[i:i + 4], "little")
    unsigned = sum(out) & 0xFFFFFFFF
    signed = sum(c - 256 if c > 127 else c for c in out) & 0xFFFFFFFF
    if stored not in (unsigned, signed):
        raise LzssError("checksum %08x is neither byte sum" % stored)
    return bytes(out), i + 4 - pos
