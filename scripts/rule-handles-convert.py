#!/usr/bin/env python3
"""rule-handles-convert.py - rewrites rule ids written as text in C into rule
handles (issue 20 item 1; core/rule_ids.h, WLR_* from the catalogue).

Idempotent and re-runnable: a second run over a converted tree changes
nothing.  It is meant to be run again after merging branches that still
write rule ids as string literals.

HOW THE LEAD RE-RUNS IT (h-handles is merged last, after the branches that
still write rule ids as text, "../" includes and the old names):

 1. git merge h-handles.  Conflicts (a trial merge over h-salv, h-speed and
    h-p3d gave six) come in two kinds:
    - a hunk where h-handles' side is only mechanical (handles, renames,
      root includes): take main's side (git checkout --ours FILE, or keep
      the HEAD hunk); step 2 redoes the mechanical change over it;
    - a hunk where both sides changed code by hand (core/finding.c
      vreport, fix/registry.c and lint/<fmt>/checks.c descriptors, loops
      over wl_fixer.rules): keep both changes by hand.  A format folder a
      branch added needs its descriptor like the others:
      `const wl_fix_format p3d_fix_format = { .format = "p3d", .fixers =
      p3d_fixers };` in fix/p3d/fixers.c (+ extern in fixers.h) and
      `&p3d_fix_format` in fix/registry.c (with `writable || repairable`).
 2. Re-run the three scripts over the merged tree (each is idempotent):
        python3 scripts/rule-handles-convert.py   # rule ids -> handles
        sh scripts/rename-symbols.sh              # item 4 prefixes
        python3 scripts/root-includes.py          # item 5 root includes
 3. make -j2 WERROR=1 all && make -j2 WERROR=1 unit: the compiler names
    what is left by hand, the same kinds of edit as commit "Rule handles,
    by hand" of h-handles: a loop over fx->rules becomes
    `for (const wl_rule_id *r = fx->rules; r && *r; r++)` with
    wl_rule_name(*r) where text is needed; strcmp(f->rule, rule) with a
    handle becomes f->rule_id == rule; a custom rule's text id goes through
    wl_report_named / wl_lint_enabled_named; a struct field that holds a
    handle becomes wl_rule_id.
 4. python3 scripts/rule-handles-convert.py --check; exit 0 when no rule
    id literal is left where a handle goes.

  Read the report it prints (standard error):
    "default dropped"      a parameter default removed beside a catalogue
                           parameter (the catalogue is its one source);
    "handle (check type)"  a literal outside a known call (table, #define,
                           assignment, a local helper): it became WLR_X, so
                           the variable, field or parameter that holds it
                           must be a wl_rule_id (declarations, tables,
                           NULL ends and helper parameters are retyped by
                           the script; the compiler names the rest);
    "NOT CONVERTED"        a literal it would not touch (joined to another
                           literal, or a text id unknown to the catalogue in
                           a call that takes a handle: wl_report_named is the
                           call for custom rules); fix by hand.
  A rule a merged branch added to rules/ needs no step: the handles are
  generated from the catalogue at build time (scripts/gen-rule-ids.sh).

What it rewrites, in every *.c and *.h of core/ lint/ fix/ textform/ cli/
(the engine and the front ends) and tests/:
  - an id inside a call of a function that takes a handle (HANDLE_FUNCS:
    wl_report, wl_lint_enabled, wl_lint_param, wl_config_param,
    wl_edit_note, wl_fix_rule_wanted, ...): WLR_X;
  - an id inside a call of a function that takes text (TEXT_FUNCS: strcmp,
    fnmatch, wl_catalog_find, printf, ck_assert_str_eq, ...):
    wl_rule_name(WLR_X), the same text;
  - a fixer's own id (the first field of a wl_fixer) stays text;
  - outside tests/, an id anywhere else (tables, #define, assignments,
    ternaries, local helpers): WLR_X, reported as "handle (check type)";
    in tests/ such ids stay text (tests compare report output); the
    declarations that then hold a handle get the type wl_rule_id (RETYPE:
    tables, locals, a NULL ending a handle list -> WL_RULE_NONE, and a
    helper's `const char *rule` parameter that it hands to a function
    taking a handle: the helper then takes a handle, and its callers' ids
    become handles on the next pass).
  - the test-only lists <fmt>_check_<name>_rules[] go (definitions in
    lint/, declarations and uses in tests/: ba_missing_from_catalogue()
    checks the handles against the catalogue instead);
  - the parameter default written beside a catalogue parameter (the
    catalogue is its one source): wl_lint_param(ctx, R, "p", 0.001) ->
    wl_lint_param(ctx, R, "p"); wl_config_param(cfg, cat, R, "p", 0.1) ->
    wl_config_param(cfg, cat, R, "p").
Comments are left alone.

Usage: scripts/rule-handles-convert.py [--check] [--dry-run] [DIR...]
  --check    convert nothing; exit 1 when an id literal that would be
             converted remains (for CI or after a merge).
  --dry-run  print what would change, write nothing.
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENGINE_DIRS = ["core", "lint", "fix", "textform", "cli"]
TEST_DIRS = ["tests"]

# Functions whose rule argument is a handle (wl_rule_id).  Add a local
# helper here when its rule parameter becomes a wl_rule_id.
HANDLE_FUNCS = {
    "wl_report", "wl_lint_enabled", "wl_lint_param", "wl_config_param",
    "wl_edit_note", "wl_fix_rule_wanted", "wl_findings_remove_rule",
    "wl_catalog_rule", "wl_rule_name",
}
# Functions whose rule argument stays text (boundaries and comparisons).
TEXT_FUNCS = {
    "strcmp", "strncmp", "strstr", "fnmatch", "printf", "fprintf", "snprintf",
    "sprintf", "puts", "fputs", "wl_catalog_find", "wl_catalog_param",
    "wl_config_param_named", "wl_findings_dropped", "wl_fix_has_finding",
    "wl_fix_filter_allows", "wl_config_severity", "wl_config_severity_at",
    "wl_config_severity_for", "wl_config_custom_find", "wl_rule_lookup",
    "wl_report_named", "ck_assert_str_eq", "ck_assert_str_ne", "ck_assert_msg",
    "ck_abort_msg", "strlen", "memcmp",
}
# name -> number of arguments with the default still written: drop the last.
DROP_DEFAULT = {"wl_lint_param": 4, "wl_config_param": 5}

ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)+$")


def catalogue_ids():
    ids = set()
    for f in glob.glob(os.path.join(ROOT, "rules", "**", "*.yaml"), recursive=True):
        with open(f, encoding="utf-8") as fh:
            for line in fh:
                m = re.match(r"^\s*-\s+id:\s*([a-z0-9-]+)\s*$", line)
                if m:
                    ids.add(m.group(1))
    return ids


def handle(rule):
    return "WLR_" + rule.upper().replace("-", "_")


def scan(text):
    """Yields ('str', start, end, context, prev_tok, next_tok) for string
    literals and ('call', name, open_idx, close_idx) for every call."""
    out = []
    stack = []  # entries: (kind, name, index) kind '(' or '{'
    i, n = 0, len(text)
    last_ident = None   # identifier right before the current position
    last_tok_end = 0
    line_start = True
    in_define = False
    while i < n:
        c = text[i]
        if c == "\n":
            if not (i > 0 and text[i - 1] == "\\"):
                in_define = False
            line_start = True
            i += 1
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if c == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        if line_start and c == "#":
            m = re.match(r"#\s*(\w+)", text[i:])
            word = m.group(1) if m else ""
            if word == "include":
                j = text.find("\n", i)
                i = n if j < 0 else j
                continue
            in_define = word == "define"
            line_start = False
            i += len(m.group(0)) if m else 1
            last_ident = None
            continue
        line_start = False
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j += 1
            ctx = stack[-1] if stack else None
            out.append(["str", i, j, ctx, in_define])
            last_ident = None
            i = j
            continue
        if c == "'":
            j = i + 1
            while j < n and text[j] != "'":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            last_ident = None
            continue
        if c.isalpha() or c == "_":
            m = re.match(r"[A-Za-z_]\w*", text[i:])
            last_ident = m.group(0)
            i += len(last_ident)
            continue
        if c.isdigit():
            m = re.match(r"[0-9A-Za-z_.]+", text[i:])
            i += len(m.group(0))
            last_ident = None
            continue
        if c == "(":
            stack.append(("(", last_ident, i))
        elif c == "{":
            stack.append(("{", None, i))
        elif c in ")}":
            if stack:
                kind, name, start = stack.pop()
                if kind == "(" and name:
                    out.append(["call", name, start, i])
        last_ident = None
        i += 1
    return out


def split_args(text, open_idx, close_idx):
    """Top-level comma positions of the argument list text[open_idx+1:close_idx]."""
    depth, commas, i = 0, [], open_idx + 1
    while i < close_idx:
        c = text[i]
        if c == '"' or c == "'":
            q = c
            i += 1
            while i < close_idx and text[i] != q:
                i += 2 if text[i] == "\\" else 1
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            commas.append(i)
        i += 1
    return commas


def neighbour_is_string(text, start, end):
    before = text[:start].rstrip()
    after = text[end:].lstrip()
    return before.endswith('"') or after.startswith('"')


def convert_file(path, ids, is_test, report):
    with open(path, encoding="utf-8", errors="surrogateescape") as fh:
        text = fh.read()
    items = scan(text)
    edits = []  # (start, end, replacement)
    rel = os.path.relpath(path, ROOT)

    def lineno(pos):
        return text.count("\n", 0, pos) + 1

    for it in items:
        if it[0] == "call" and it[1] in DROP_DEFAULT:
            name, o, cl = it[1], it[2], it[3]
            commas = split_args(text, o, cl)
            if len(commas) + 1 == DROP_DEFAULT[name]:
                edits.append((commas[-1], cl, ""))
                report.append((rel, lineno(o), "default dropped", name))
    for it in items:
        if it[0] != "str":
            continue
        _, s, e, ctx, in_define = it
        lit = text[s + 1:e - 1]
        if not ID_RE.match(lit):
            continue
        call = ctx[1] if ctx and ctx[0] == "(" else None
        known = lit in ids
        if not known:
            if call in HANDLE_FUNCS and call != "wl_rule_name":
                report.append((rel, lineno(s), "NOT CONVERTED", '"%s" in %s(): not in the catalogue' % (lit, call)))
            continue
        if re.search(r"\bwl_fixer\s+\w+\s*=\s*\{\s*$", text[:s]):
            continue  # a fixer's id (w3dfix --fix ID), text that users type
        if neighbour_is_string(text, s, e):
            report.append((rel, lineno(s), "NOT CONVERTED", '"%s" joined to another literal' % lit))
            continue
        if call in HANDLE_FUNCS:
            edits.append((s, e, handle(lit)))
        elif call in TEXT_FUNCS:
            edits.append((s, e, "wl_rule_name(%s)" % handle(lit)))
        elif is_test:
            continue
        else:
            what = "#define" if in_define else ("%s()" % call if call else ("{...}" if ctx else "expression"))
            report.append((rel, lineno(s), "handle (check type)", '"%s" in %s' % (lit, what)))
            edits.append((s, e, handle(lit)))
    edits.sort(key=lambda x: x[0], reverse=True)
    new = text
    for s, e, r in edits:
        new = new[:s] + r + new[e:]
    new = drop_test_lists(new, is_test)
    if not is_test:
        # A NULL ending a brace list of handles: the end of a handle list.
        new = re.sub(r"(WLR_\w+\s*,\s*)NULL(\s*})", r"\1WL_RULE_NONE\2", new)
        new = retype(new)
    return text, new


# Declarations that hold a handle after the rewrite, given their type:
#   const char *const NAME[] = { WLR_...      -> const wl_rule_id NAME[] = ...
#   const char *NAME = WLR_... / = c ? WLR_... -> wl_rule_id NAME = ...
#   const char NAME[] = WLR_...;               -> const wl_rule_id NAME = ...;
RETYPE = [
    (re.compile(r"\bconst char \*const (\w+)\[\] = (\{\s*WLR_)"), r"const wl_rule_id \1[] = \2"),
    (re.compile(r"\bconst char \*(\w+) = (WLR_|[^;?]*\?\s*WLR_)"), r"wl_rule_id \1 = \2"),
    (re.compile(r"\bconst char (\w+)\[\] = (WLR_\w+);"), r"const wl_rule_id \1 = \2;"),
]


FUNC_DEF = re.compile(r"^(?P<head>[A-Za-z_][\w \t\*]*?\b(?P<name>\w+)\((?P<params>[^;{}]*?)\))\s*\n\{\n(?P<body>.*?)^\}",
                      re.M | re.S)


# Where the rule is among the arguments of each function taking a handle
# (0-based); a helper retyped by retype_params joins with its position.
HANDLE_POS = {
    "wl_report": 1, "wl_lint_enabled": 1, "wl_lint_param": 1, "wl_config_param": 2,
    "wl_edit_note": 2, "wl_fix_rule_wanted": 1, "wl_findings_remove_rule": 1,
    "wl_catalog_rule": 1, "wl_rule_name": 0,
}


def call_args(text, o, cl):
    commas = [o] + split_args(text, o, cl) + [cl]
    return [text[commas[k] + 1:commas[k + 1]].strip() for k in range(len(commas) - 1)]


def retype_params(text):
    """A function parameter `const char *NAME` that the body hands, as the
    rule, to a function taking a handle (wl_report(f, NAME, ...), or a
    helper already retyped) becomes `wl_rule_id NAME`, in the definition
    and in its prototypes.  Repeats until nothing changes, so a helper
    calling a helper is retyped too."""
    while True:
        changed = False
        for m in FUNC_DEF.finditer(text):
            name, params = m.group("name"), m.group("params")
            body_start = m.start("body")
            plist = [p.strip() for p in params.split(",")]
            calls = [it for it in scan(text[body_start:m.end("body")]) if it[0] == "call" and it[1] in HANDLE_POS]
            body = text[body_start:m.end("body")]
            for k, prm in enumerate(plist):
                pm = re.fullmatch(r"const char \*(\w+)", prm)
                if not pm:
                    continue
                arg = pm.group(1)
                used = False
                for _, cname, o, cl in calls:
                    args = call_args(body, o, cl)
                    pos = HANDLE_POS[cname]
                    if pos < len(args) and args[pos] == arg:
                        used = True
                if not used:
                    continue
                new_params = re.sub(r"const char \*%s\b" % re.escape(arg), "wl_rule_id " + arg, params, count=1)
                old_head = m.group("head")
                new_head = old_head.replace(params, new_params, 1)
                text = text.replace(old_head, new_head)
                text = text.replace("%s(%s);" % (name, params), "%s(%s);" % (name, new_params))
                HANDLE_POS.setdefault(name, k)
                HANDLE_FUNCS.add(name)
                changed = True
                break
            if changed:
                break
        if not changed:
            return text


def retype(text):
    for rx, rep in RETYPE:
        text = rx.sub(rep, text)
    return retype_params(text)


# The hand-kept lists of the rule ids a check file reports, which existed
# only for tests (`<fmt>_check_<name>_rules[]`): the compiler now checks
# every id, and tests take lists from the catalogue.  Removed with their
# comment; in tests the declarations go and the calls lose the argument.
LIST_DEF = re.compile(r"(?:/\*[^*]*(?:\*(?!/)[^*]*)*\*/\n)?extern const (?:char \*const|wl_rule_id) \w+_check_\w+_rules\[\];\n"
                      r"const (?:char \*const|wl_rule_id) \w+_check_\w+_rules\[\] = \{[^}]*\};\n\n?")
LIST_DECL = re.compile(r"extern const (?:char \*const|wl_rule_id) \w+_check_\w+_rules\[\];\n")
LIST_ARG = re.compile(r"(rb_suite_of\([^;]*?), \w+_check_\w+_rules\)")
LIST_MISSING = re.compile(r"ba_missing_from_catalogue\(\w+_check_\w+_rules\)")


def drop_test_lists(text, is_test):
    if not is_test:
        return LIST_DEF.sub("", text)
    text = LIST_DECL.sub("", text)
    text = LIST_ARG.sub(r"\1)", text)
    return LIST_MISSING.sub("ba_missing_from_catalogue()", text)


def main(argv):
    check = "--check" in argv
    dry = "--dry-run" in argv
    dirs = [a for a in argv if not a.startswith("--")]
    ids = catalogue_ids()
    if not ids:
        sys.exit("rule-handles-convert: no rule ids under rules/")
    files = []
    for d in dirs or ENGINE_DIRS + TEST_DIRS:
        for ext in ("c", "h"):
            files += glob.glob(os.path.join(ROOT, d, "**", "*." + ext), recursive=True)
    report = []
    changed = 0
    for f in sorted(set(files)):
        is_test = os.path.relpath(f, ROOT).split(os.sep)[0] in TEST_DIRS
        old, new = convert_file(f, ids, is_test, report)
        if old != new:
            changed += 1
            if not check and not dry:
                with open(f, "w", encoding="utf-8", errors="surrogateescape") as fh:
                    fh.write(new)
            elif dry:
                print("would change", os.path.relpath(f, ROOT))
    for rel, line, kind, what in report:
        print("%s:%d: %s: %s" % (rel, line, kind, what), file=sys.stderr)
    conv = [r for r in report if r[2] != "NOT CONVERTED"]
    left = [r for r in report if r[2] == "NOT CONVERTED"]
    print("rule-handles-convert: %d file(s) %s, %d site(s) outside known calls or defaults, %d not converted"
          % (changed, "to change" if (check or dry) else "changed", len(conv), len(left)), file=sys.stderr)
    if check and (changed or left):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
