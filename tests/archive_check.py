#!/usr/bin/env python3
"""archive_check.py - the tests' independent view of archives (not the C
reader): extracts BIG and PBO entries, and compares w3dlint's findings of
archive entries with those of the same files extracted.

  archive_check.py extract ARCHIVE OUTDIR
      writes every entry whose bytes lie in the file to OUTDIR/PATH ('\\' as
      '/'; PBO 'Cprs' entries unpacked with BI LZSS); prints one line per
      model entry (.w3d .wlt .wht .wha .wtm .b3d .p3d): PATH
  archive_check.py compare ARCHIVE_JSON PLAIN_JSON PLAIN_ROOT
      ARCHIVE_JSON: w3dlint --format json of archives; PLAIN_JSON: of the
      extracted files under PLAIN_ROOT (PLAIN_ROOT/ARCHIVE_NAME/PATH).  Every
      entry report "A:PATH" must equal the report of PLAIN_ROOT/basename(A)/
      PATH (rule, severity, offset, length, chunk path, message), and every
      extracted model must have its entry report.  Prints a summary line;
      exit 1 on any difference.
  archive_check.py same OLD NEW [PATH...]
      NEW is OLD rewritten (w3dfix -o) with the entries PATH replaced: the
      same entries in the same order, every other entry's stored bytes and
      packing unchanged, each PATH stored (method 0) with new bytes; NEW's
      table consistent (BIG: size field = file size, every entry in the
      file; PBO: the SHA-1 trailer, checked with Python's hashlib, when OLD
      has one); the bytes before the first entry (header, table) equal but
      for the table fields of moved or replaced entries.  Prints a summary
      line; exit 1 on any difference.
Layouts: docs/archives.md.  No Debian package reads BIG or PBO files, so
this reader is the tests' own, written from that page, not from the C.
"""
import hashlib
import json
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bi_lzss  # noqa: E402

MODEL_EXT = (".w3d", ".wlt", ".wht", ".wha", ".wtm", ".b3d", ".p3d")


def cstr(b, at):
    end = b.index(b"\0", at)
    return b[at:end], end + 1


def table(b):
    """The entries of archive b as dicts (name, method, orig, offset,
    stored; fields: the offset of the record's numeric fields), the end of
    the table, and whether the table is cut by the end of the file (the
    records before the cut are given)."""
    out = []
    if b[:4] in (b"BIGF", b"BIG4"):
        count, = struct.unpack(">I", b[8:12])
        at = 16
        for _ in range(count):
            if at + 8 > len(b) or b.find(b"\0", at + 8) < 0:
                return out, at, True
            off, size = struct.unpack(">II", b[at:at + 8])
            name, end = cstr(b, at + 8)
            out.append({"name": name, "method": 0, "orig": 0, "offset": off, "stored": size, "fields": at})
            at = end
        return out, at, False
    at, first = 0, True
    while True:
        if b.find(b"\0", at) < 0:
            return out, at, True
        name, at = cstr(b, at)
        if at + 20 > len(b):
            return out, at, True
        method, orig, _res, _ts, size = struct.unpack("<5I", b[at:at + 20])
        at += 20
        if not name:
            if first and method == 0x56657273:
                while True:  # properties
                    k, at = cstr(b, at)
                    if not k:
                        break
                    _v, at = cstr(b, at)
                first = False
                continue
            break
        first = False
        out.append({"name": name, "method": method, "orig": orig, "stored": size, "fields": at - 20})
    pos = at
    for r in out:
        r["offset"] = pos
        pos += r["stored"]
    return out, at, False


def big_entries(b):
    for e in table(b)[0]:
        if e["offset"] + e["stored"] <= len(b):
            yield e["name"], b[e["offset"]:e["offset"] + e["stored"]]


def pbo_entries(b):
    recs, _end, cut = table(b)
    if cut:
        return
    for e in recs:
        data = b[e["offset"]:e["offset"] + e["stored"]]
        if len(data) < e["stored"]:
            return
        if e["method"] == 0x43707273:
            try:
                data = bi_lzss.decode(data, 0, e["orig"], check=False)[0]
            except IndexError:
                continue
        elif e["method"] != 0:
            continue
        yield e["name"], data


def same(old_path, new_path, replaced):
    old, new = open(old_path, "rb").read(), open(new_path, "rb").read()
    (a, a_end, _), (b, b_end, _) = table(old), table(new)
    problems = []
    names = [e["name"].decode("latin-1").replace("\\", "/") for e in a]
    if [e["name"] for e in a] != [e["name"] for e in b]:
        problems.append("the entries differ: %d then %d" % (len(a), len(b)))
    for w in replaced:
        if w not in names:
            problems.append("no entry %s" % w)
    big = old[:4] in (b"BIGF", b"BIG4")
    if big and struct.unpack("<I", new[4:8])[0] != len(new):
        problems.append("the BIG size field is not the file's size")
    if a_end != b_end:
        problems.append("the table's length changed")
    kept = changed = 0
    for x, y, name in zip(a, b, names):
        nb = new[y["offset"]:y["offset"] + y["stored"]]
        if y["offset"] + y["stored"] > (len(new) - (21 if not big and old[-21] == 0 else 0)):
            problems.append("%s: past the end" % name)
        if name in replaced:
            changed += 1
            if y["method"] != 0:
                problems.append("%s: replaced but still packed" % name)
            continue
        kept += 1
        if (x["method"], x["stored"], x.get("orig")) != (y["method"], y["stored"], y.get("orig")) or \
                old[x["offset"]:x["offset"] + x["stored"]] != nb:
            problems.append("%s: changed, though not replaced" % name)
    if not big and len(old) >= 21 and old[-21] == 0:
        if new[-21] != 0 or hashlib.sha1(new[:-21]).digest() != new[-20:]:
            problems.append("the PBO's SHA-1 trailer does not match its bytes")
    # the header and table: equal but for the records' numeric fields (the
    # entries' fields are compared above) and BIG's size field
    if not problems:
        t_old, t_new = bytearray(old[:a_end]), bytearray(new[:b_end])
        if big:
            t_old[4:8] = t_new[4:8] = b"\0" * 4
        for x in a:
            n = 8 if big else 20
            t_old[x["fields"]:x["fields"] + n] = t_new[x["fields"]:x["fields"] + n] = b"\0" * n
        if t_old != t_new:
            problems.append("the table's paths or other fields changed")
    for p in problems:
        print("archive_check: FAIL %s: %s" % (new_path, p))
    print("archive_check: %s: %d entries, %d not replaced, %d replaced, %d problems"
          % (new_path, len(b), kept, changed, len(problems)))
    return 1 if problems else 0


def extract(archive, outdir):
    b = open(archive, "rb").read()
    entries = big_entries(b) if b[:4] in (b"BIGF", b"BIG4") else pbo_entries(b)
    for name, data in entries:
        path = name.decode("latin-1").replace("\\", "/")
        dest = os.path.join(outdir, path)
        os.makedirs(os.path.dirname(dest) or outdir, exist_ok=True)
        with open(dest, "wb") as f:
            f.write(data)
        if path.lower().endswith(MODEL_EXT):
            print(path)


def key(f):
    return (f["rule"], f["severity"], f["offset"], f["length"], f.get("chunk_path"), f["message"])


def compare(arch_json, plain_json, root):
    arch = json.load(open(arch_json))["files"]
    plain = {f["path"]: f for f in json.load(open(plain_json))["files"]}
    entries = diffs = findings = 0
    for f in arch:
        host, sep, entry = f["path"].partition(":")
        if not sep:
            continue
        entries += 1
        twin = plain.pop(os.path.join(root, os.path.basename(host), entry), None)
        if twin is None:
            print("archive_check: FAIL %s: no extracted twin" % f["path"])
            diffs += 1
            continue
        a, p = sorted(map(key, f["findings"])), sorted(map(key, twin["findings"]))
        findings += len(a)
        if a != p or f["size"] != twin["size"] or f["format"] != twin["format"]:
            print("archive_check: FAIL %s: %d findings in the archive, %d extracted" % (f["path"], len(a), len(p)))
            diffs += 1
    for path in plain:
        print("archive_check: FAIL %s: extracted, but not linted inside its archive" % path)
        diffs += 1
    print("archive_check: %d entries, %d findings, %d differences" % (entries, findings, diffs))
    return 1 if diffs else 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "extract":
        extract(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 4 and sys.argv[1] == "same":
        sys.exit(same(sys.argv[2], sys.argv[3], sys.argv[4:]))
    elif len(sys.argv) == 5 and sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3], sys.argv[4]))
    else:
        sys.exit(__doc__)
