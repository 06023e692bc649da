#!/bin/sh
# w3ddump's options end to end (cli/main_w3ddump.c): the human dump (fields,
# items cut at 8 unless --all, strings, unknown chunks, gaps, reader
# findings), --chunks, --json (parsed and checked with python3), --text (and
# w3dasm back to the same bytes), -o FILE and -o -, --version, --help, and the
# usage and I/O errors (exit 2, the path named); B3D's decoded fields in the
# human dump, --chunks, --json and --text.
# Inputs are assembled here with w3dasm from text (docs/textform.md) and
# from corpus/valid.
# Usage: tests/cli_w3ddump.sh W3DDUMP W3DASM
set -u
name=cli_w3ddump
. "$(dirname "$0")/lib.sh"
dump=$(abspath "$1")
asm=$(abspath "$2")
top=$(pwd)
tool=$dump

"$asm" "$top/corpus/valid/mesh.w3d.txt" -o "$tmp/mesh.w3d" || exit 2

# many.w3d: VERTICES with 10 elements (more than the 8 shown without --all),
# a text chunk (MESH_USER_TEXT), a NaN float, an unknown chunk id (hex) and
# 3 bytes after the last chunk (a gap and a reader finding).
w3dasm=$asm
assemble dump/many.w3d "$tmp/many.w3d"

# --- the human dump
run "$tmp/mesh.w3d"
if [ $rc -eq 0 ] && has "$tmp/mesh.w3d: 689 bytes, 25 chunks" &&
	has "0x00000000 MESH id=0x0000 size=681 bit31" &&
	has 'MeshName: "QUAD"' && has "NumVertices: 4" && has "[3] [0, 1, 0]" &&
	! has "reader findings"; then
	ok "human dump: header line, chunk lines, decoded fields and items"
else
	bad "human dump of mesh.w3d (status $rc)"
fi

run "$tmp/many.w3d"
if [ $rc -eq 0 ] && has "VERTICES id=0x0002 size=120 (10 elements)" &&
	has "[7] [7, 0, 0]" && ! has "[8] [8, 0, 0]" &&
	has "... 2 more (--all shows every element)" &&
	has '"hello dump"' && has "id=0x7777 size=3 (unknown)" &&
	has "(bytes) size=3" && has "reader findings:" && has "trailing-bytes"; then
	ok "human dump: 8 items then '... 2 more', string, unknown chunk, gap, reader findings"
else
	bad "human dump of many.w3d (status $rc)"
fi

run --all "$tmp/many.w3d"
if [ $rc -eq 0 ] && has "[8] [8, 0, 0]" && has "[9] [9.5, 0, 0]" && ! has "more (--all"; then
	ok "--all shows every element"
else
	bad "--all (status $rc)"
fi
run -a "$tmp/many.w3d"
cp "$tmp/out" "$tmp/short_a"
run --all "$tmp/many.w3d"
if cmp -s "$tmp/out" "$tmp/short_a"; then ok "-a = --all"; else bad "-a differs from --all"; fi

# --- --chunks: the tree, no fields
run --chunks "$tmp/mesh.w3d"
if [ $rc -eq 0 ] && has "MESH_HEADER3 id=0x001F size=116" &&
	has "VERTICES id=0x0002 size=48 (4 elements)" && ! has "MeshName" && ! has "[0]"; then
	ok "--chunks: chunk lines, no fields or items"
else
	bad "--chunks (status $rc)"
fi
n_human=$(grep -c ' id=0x' "$tmp/out")
run -c "$tmp/mesh.w3d"
if [ $rc -eq 2 ] && errhas "unknown option '-c'"; then
	ok "-c is not --chunks (it is --config in w3dlint): status 2"
else
	bad "-c (status $rc)"
fi
[ "$n_human" -eq 25 ] || bad "--chunks lists $n_human chunks, not 25"

# --- --json: parses, and holds the fields
if command -v python3 >/dev/null 2>&1; then
	run --json "$tmp/many.w3d"
	if [ $rc -eq 0 ] && python3 -m json.tool "$tmp/out" >/dev/null 2>&1; then
		ok "--json parses (python3 -m json.tool)"
	else
		bad "--json does not parse (status $rc)"
	fi
	if python3 - "$tmp/out" "$tmp/many.w3d" <<'EOF' >"$tmp/err" 2>&1; then
import json, os, sys
d = json.load(open(sys.argv[1]))
assert d["tool"] == "w3ddump", d["tool"]
assert d["path"] == sys.argv[2], d["path"]
assert d["size"] == os.path.getsize(sys.argv[2]), d["size"]
top = d["chunks"]
assert [n["kind"] for n in top] == ["chunk", "chunk", "gap"], top
mesh, unk, gap = top
assert mesh["name"] == "MESH" and mesh["container_bit"] is True
assert mesh["header_size"] == 8 and mesh["declared_size"] == mesh["size"]
kids = {c["name"]: c for c in mesh["children"]}
h = kids["MESH_HEADER3"]
assert h["form"] == "fields", h["form"]
f = h["fields"]
assert f["MeshName"] == "MANY" and f["ContainerName"] == "DEMO", f
assert f["NumVertices"] == 10 and f["Version"] == 0x00040002, f
assert f["Max"] == [9.0, 0.0, 0.0], f["Max"]
assert f["SphRadius"] == "f32bits:0x7FC00000", f["SphRadius"]
t = kids["MESH_USER_TEXT"]
assert t["form"] == "string" and t["string"] == "hello dump", t
v = kids["VERTICES"]
assert v["form"] == "items" and len(v["items"]) == 10, v
assert v["tail_size"] == 0
vals = [list(x.values())[0] for x in v["items"]]
assert vals[9] == [9.5, 0.0, 0.0], vals[9]
assert unk["id"] == 0x7777 and unk["name"] is None and unk["form"] == "hex", unk
assert gap["size"] == 3 and gap["offset"] == d["size"] - 3, gap
assert "id" not in gap
rules = [x["rule"] for x in d["findings"]]
assert "trailing-bytes" in rules, rules
tb = [x for x in d["findings"] if x["rule"] == "trailing-bytes"][0]
assert tb["offset"] == d["size"] - 3 and tb["length"] == 3, tb
assert isinstance(tb["message"], str)
EOF
		ok "--json: tool, path, size, tree, fields, string, items, hex, gap, findings"
	else
		bad "--json content: $(tail -n 3 "$tmp/err")"
	fi
	run --json "$tmp/mesh.w3d"
	if [ $rc -eq 0 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["findings"] == []; assert len(d["chunks"]) == 1' "$tmp/out"; then
		ok "--json on a valid model: no findings, one top-level chunk"
	else
		bad "--json on mesh.w3d (status $rc)"
	fi
else
	echo "cli_w3ddump: skip: --json checks (no python3)"
fi

# --- --text: w3dasm turns it back into the same bytes
run --text "$tmp/many.w3d"
if [ $rc -eq 0 ] && has "w3d-text: 1" && has "chunk: 0x7777" && has "!f32bits 0x7FC00000" &&
	"$asm" "$tmp/out" -o "$tmp/back.w3d" 2>"$tmp/err" && cmp -s "$tmp/back.w3d" "$tmp/many.w3d"; then
	ok "--text round trip through w3dasm is byte-identical"
else
	bad "--text round trip (status $rc)"
fi
run -t "$tmp/mesh.w3d"
if [ $rc -eq 0 ] && has "MeshName: \"QUAD\"" && has "chunk: MESH_HEADER3"; then
	ok "-t writes the text form"
else
	bad "-t (status $rc)"
fi

# --- -o FILE, -o -
run --json "$tmp/mesh.w3d"
cp "$tmp/out" "$tmp/json_stdout"
run -o "$tmp/dump.json" --json "$tmp/mesh.w3d"
if [ $rc -eq 0 ] && [ ! -s "$tmp/out" ] && cmp -s "$tmp/dump.json" "$tmp/json_stdout"; then
	ok "-o FILE writes what standard output would get, nothing on stdout"
else
	bad "-o FILE (status $rc)"
fi
run --output "$tmp/dump.txt" --chunks "$tmp/mesh.w3d"
if [ $rc -eq 0 ] && grep -q "MESH_HEADER3" "$tmp/dump.txt"; then
	ok "--output FILE"
else
	bad "--output FILE (status $rc)"
fi
run -o - --chunks "$tmp/mesh.w3d"
if [ $rc -eq 0 ] && has "MESH_HEADER3" && [ ! -e ./- ]; then
	ok "-o - writes to standard output"
else
	bad "-o - (status $rc)"
fi
run -o "$tmp/no/such/dir/x.txt" "$tmp/mesh.w3d"
if [ $rc -eq 2 ] && errhas "$tmp/no/such/dir/x.txt"; then
	ok "-o into a missing folder: exit 2, the output path named"
else
	bad "-o unwritable (status $rc)"
fi
if [ -w /dev/full ]; then
	"$tool" --json "$tmp/mesh.w3d" >/dev/full 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && errhas "w3ddump: standard output: cannot write: No space left on device"; then
		ok "a failed write (standard output on /dev/full): exit 2, 'cannot write'"
	else
		bad "write to /dev/full (status $rc)"
	fi
	run -o /dev/full --json "$tmp/mesh.w3d"
	if [ $rc -eq 2 ] && errhas "/dev/full: not a regular file (a character device); not written"; then
		ok "-o DEVICE (/dev/full): refused, exit 2 (core/safe_write.h: regular files only)"
	else
		bad "-o /dev/full (status $rc)"
	fi
fi

# --- damaged and garbage files are dumped, exit 0
printf 'this is not a w3d file' >"$tmp/garbage.w3d"
run "$tmp/garbage.w3d"
if [ $rc -eq 0 ] && has "garbage.w3d: 22 bytes"; then
	ok "a garbage file is dumped with status 0"
else
	bad "garbage file (status $rc)"
fi
head -c 100 "$tmp/mesh.w3d" >"$tmp/cut.w3d"
run "$tmp/cut.w3d"
if [ $rc -eq 0 ] && has "reader findings:" && has "chunk-truncated"; then
	ok "a truncated file: recovery marks and chunk-truncated, status 0"
else
	bad "truncated file (status $rc)"
fi

# --- version, help, usage errors
run --version
if [ $rc -eq 0 ] && grep -E -q '^w3ddump [0-9]+\.[0-9]+\.[0-9]+$' "$tmp/out"; then ok "--version"; else bad "--version (status $rc)"; fi
run -V
if [ $rc -eq 0 ] && has "w3ddump"; then ok "-V"; else bad "-V (status $rc)"; fi
run --help
miss=""
for o in "    --chunks" "    --json" "-t, --text" "-a, --all" "-o, --output FILE" \
	"-V, --version" "-h, --help" "Exit status:"; do
	has "$o" || miss="$miss '$o'"
done
if [ $rc -eq 0 ] && [ -z "$miss" ]; then
	ok "--help lists every option and the exit status"
else
	bad "--help (status $rc) misses:$miss"
fi
run -h
if [ $rc -eq 0 ] && has "Usage: w3ddump"; then ok "-h"; else bad "-h (status $rc)"; fi

run "$tmp/missing.w3d"
if [ $rc -eq 2 ] && errhas "$tmp/missing.w3d" && [ ! -s "$tmp/out" ]; then
	ok "missing file: exit 2, the path named"
else
	bad "missing file (status $rc)"
fi
run "$tmp"
if [ $rc -eq 2 ] && errhas "$tmp"; then
	ok "a folder as FILE: exit 2, the path named"
else
	bad "folder as FILE (status $rc)"
fi
run --bogus "$tmp/mesh.w3d"
if [ $rc -eq 2 ] && errhas "unknown option '--bogus'" && errhas "Try 'w3ddump --help'"; then
	ok "unknown option: exit 2"
else
	bad "unknown option (status $rc)"
fi
run
if [ $rc -eq 2 ] && errhas "missing FILE"; then ok "no FILE: exit 2"; else bad "no FILE (status $rc)"; fi
run "$tmp/mesh.w3d" "$tmp/many.w3d"
if [ $rc -eq 2 ] && errhas "only one FILE"; then ok "two FILEs: exit 2"; else bad "two FILEs (status $rc)"; fi
run --json --text "$tmp/mesh.w3d"
if [ $rc -eq 2 ] && errhas "exclude each other"; then
	ok "--json with --text: exit 2"
else
	bad "--json --text (status $rc)"
fi
run -o
if [ $rc -eq 2 ]; then ok "-o without its argument: exit 2"; else bad "-o without argument (status $rc)"; fi

# --- B3D: the decoded fields of every chunk type (textform/b3d decodes them
# once for the text form and the dumps): BB3D version, TEXS and BRUS entries,
# NODE transform, MESH brush, VRTS vertices (10: 8 shown), TRIS, BONE, KEYS,
# ANIM, and the bytes after the last whole record
assemble dump/dump.b3d "$tmp/dump.b3d"
run "$tmp/dump.b3d"
if [ $rc -eq 0 ] && has "BB3D id=0x44334242" && has "version: 1" &&
	has '[0] {file: "skin.png", flags: 1, blend: 2, position: [0.25, 0], scale: [2, 2], rotation: 0.5}' &&
	has '[0] {name: "Skin", color: [1, 0.5, 1, 1], shininess: 0, blend: 1, fx: 16, textures: [0]}' &&
	has 'name: "Body"' && has "position: [1, 2, 3]" && has "rotation: [1, 0, 0, 0]" &&
	has "brush_id: 0" && has "tex_coord_sets: 1" && has "tex_coord_set_size: 2" &&
	has "vertices: 10 element(s)" &&
	has "[7] {position: [7, 0, 0], normal: [0, 0, 1], tex_coords: [0, 1]}" && ! has "[8] {position" &&
	has "... 2 more (--all shows every element)" &&
	has "triangles: 1 element(s)" && has "[0] [0, 1, 2]" && has "(2 byte(s) left over after the records)" &&
	has "frames: 12" && has "fps: 30" && has "weights: 1 element(s)" && has "[0] [3, 0.75]" &&
	has "flags: 5" && has "[1] {frame: 12, position: [0, 0.5, 0], rotation: [0, 1, 0, 0]}"; then
	ok "B3D human dump: BB3D, TEXS, BRUS, NODE, MESH, VRTS (8 of 10), TRIS and its tail, ANIM, BONE, KEYS"
else
	bad "B3D human dump (status $rc)"
fi
run --all "$tmp/dump.b3d"
if [ $rc -eq 0 ] && has "[9] {position: [9.5, 0, 0]" && ! has "more (--all"; then
	ok "B3D: --all shows every vertex"
else
	bad "B3D --all (status $rc)"
fi
run --chunks "$tmp/dump.b3d"
if [ $rc -eq 0 ] && has "VRTS id=0x53545256" && ! has "version:" && ! has "name:" && ! has "[0]"; then
	ok "B3D --chunks: the tree only"
else
	bad "B3D --chunks (status $rc)"
fi
if command -v python3 >/dev/null 2>&1; then
	run --json "$tmp/dump.b3d"
	if [ $rc -eq 0 ] && python3 - "$tmp/out" <<'EOF' >"$tmp/err" 2>&1; then
import json, sys
d = json.load(open(sys.argv[1]))
bb3d = d["chunks"][0]
assert bb3d["name"] == "BB3D" and bb3d["fields"] == {"version": 1}, bb3d.get("fields")
texs, brus, node = bb3d["children"]
assert texs["form"] == "decoded", texs["form"]
assert texs["fields"]["entries"] == [{"file": "skin.png", "flags": 1, "blend": 2, "position": [0.25, 0.0],
                                      "scale": [2.0, 2.0], "rotation": 0.5}], texs["fields"]
b = brus["fields"]
assert b["n_texs"] == 1 and b["entries"][0]["name"] == "Skin" and b["entries"][0]["fx"] == 16, b
assert b["entries"][0]["textures"] == [0] and b["entries"][0]["color"] == [1.0, 0.5, 1.0, 1.0], b
assert node["fields"] == {"name": "Body", "position": [1.0, 2.0, 3.0], "scale": [1.0, 1.0, 1.0],
                          "rotation": [1.0, 0.0, 0.0, 0.0]}, node["fields"]
mesh, anim, arm = node["children"]
assert mesh["fields"] == {"brush_id": 0}, mesh["fields"]
vrts, tris = mesh["children"]
v = vrts["fields"]
assert v["flags"] == 1 and v["tex_coord_sets"] == 1 and v["tex_coord_set_size"] == 2, v
assert len(v["vertices"]) == 10, len(v["vertices"])
assert v["vertices"][9] == {"position": [9.5, 0.0, 0.0], "normal": [0.0, 0.0, 1.0], "tex_coords": [0.0, 1.0]}
assert tris["fields"] == {"brush_id": -1, "triangles": [[0, 1, 2]], "tail": "0700"}, tris["fields"]
assert anim["fields"] == {"flags": 0, "frames": 12, "fps": 30.0}, anim["fields"]
assert arm["fields"]["name"] == "Arm", arm["fields"]
bone, keys = arm["children"]
assert bone["fields"] == {"weights": [[3, 0.75]]}, bone["fields"]
k = keys["fields"]
assert k["flags"] == 5 and k["keys"][1] == {"frame": 12, "position": [0.0, 0.5, 0.0],
                                            "rotation": [0.0, 1.0, 0.0, 0.0]}, k
EOF
		ok "B3D --json: decoded fields of every chunk type, with values"
	else
		bad "B3D --json (status $rc): $(cat "$tmp/err")"
	fi
fi
run --text "$tmp/dump.b3d"
if [ $rc -eq 0 ] && "$asm" "$tmp/out" -o "$tmp/back.b3d" && cmp -s "$tmp/dump.b3d" "$tmp/back.b3d"; then
	ok "B3D --text assembles back to the same bytes"
else
	bad "B3D --text round trip (status $rc)"
fi

# --- a read-only format (P3D): the text form says so, w3dasm refuses it
printf 'ODOL\062\000\000\000\000\000\000\000' >"$tmp/model.p3d"
run --text "$tmp/model.p3d"
cp "$tmp/out" "$tmp/model.txt"
if [ $rc -eq 0 ] && has "read-only: w3dasm does not write p3d files" &&
	! "$asm" "$tmp/model.txt" -o "$tmp/back.p3d" 2>"$tmp/err" && errhas "files are read-only" &&
	[ ! -e "$tmp/back.p3d" ]; then
	ok "P3D: --text marks it read-only and w3dasm refuses to write it"
else
	bad "P3D text form or w3dasm refusal (status $rc)"
fi

if [ $fail -ne 0 ]; then
	echo "cli_w3ddump: FAILED"
	exit 1
fi
echo "cli_w3ddump: all passed"
