#!/usr/bin/env python3
"""tests/call_loops.py BUILD: the files of each folder of the library call
one way (issue 30, ARCHITECTURE.md "Layers and folders"): among the object
files of one folder (BUILD/core/archive/*.o, BUILD/lint/run/*.o, ...), no
two call each other, directly or through others (a cycle of calls between
files).  Read from the symbols each object defines and needs (nm), so it
sees calls, not includes.  A folder's registry or descriptor being called
back through a function pointer is no call here.  Prints each cycle;
exit 1 when there is one, 2 when BUILD holds no objects."""
import os
import subprocess
import sys


def symbols(objs):
    """{object: (defined, needed)} from one nm run over objs."""
    out = subprocess.run(["nm", "-A"] + objs, capture_output=True, text=True, check=True).stdout
    syms = {o: (set(), set()) for o in objs}
    for line in out.splitlines():
        obj, _, rest = line.partition(":")
        parts = rest.split()
        if obj not in syms:
            continue
        if len(parts) == 2 and parts[0] == "U":
            syms[obj][1].add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDRB":
            syms[obj][0].add(parts[2])
    return syms


def cycles(graph):
    """Strongly connected components with more than one file (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    folders = {}
    for top in ("core", "lint", "fix", "textform", "cli"):
        for d, _, files in os.walk(os.path.join(build, top)):
            # objects of sources that exist (a moved file leaves its old
            # object behind in BUILD)
            objs = sorted(os.path.join(d, f) for f in files
                          if f.endswith(".o") and os.path.exists(os.path.join(d[len(build) + 1:], f[:-2] + ".c")))
            if objs:
                folders[d] = objs
    if not folders:
        print("call_loops: FAIL no objects under %s (make first)" % build)
        return 2
    bad = 0
    nfiles = 0
    for d, objs in sorted(folders.items()):
        syms = symbols(objs)
        nfiles += len(objs)
        graph = {o: set() for o in objs}
        for a in objs:
            for b in objs:
                if a != b and syms[a][1] & syms[b][0]:
                    graph[a].add(b)
        for comp in cycles(graph):
            names = [os.path.basename(o)[:-2] + ".c" for o in comp]
            calls = []
            for a in comp:
                for b in comp:
                    if b in graph[a]:
                        calls.append("%s -> %s (%s)" % (os.path.basename(a)[:-2], os.path.basename(b)[:-2],
                                                         ", ".join(sorted(syms[a][1] & syms[b][0])[:3])))
            print("call_loops: FAIL %s: %s call each other: %s" % (d[len(build) + 1:], ", ".join(names),
                                                                  "; ".join(calls)))
            bad += 1
    if not bad:
        print("call_loops: ok: %d files in %d folders, every folder's files call one way" % (nfiles, len(folders)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
