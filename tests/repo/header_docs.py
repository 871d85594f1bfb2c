#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every declaration of the public header (include/tensorx.h and its parts, include/tensorx/*.h) carries a doc block that follows the header's template
("How each declaration is documented" at the top of include/tensorx.h).

Checked, for each declaration (TX_API function, typedef, struct, enum, forward-declared struct and
#define that is API):
  - a block comment (not a section heading starting "/* ----" or "/* ====") ends on the line
    directly above it, or above the group of declarations it
    belongs to (declarations and preprocessor lines with no blank line between them); a block
    that documents a group names every declaration of the group;
  - a function's block names each parameter (out / outs of type tx_tensor ** follow the header's
    Outputs convention), a function-like macro's block each parameter, a function-pointer typedef's
    block each parameter;
  - a function returning tx_status lists its errors ("Errors");
  - a function returning another non-void type says what it returns ("Returns"/"returns");
  - a function returning a pointer says whose it is or how long it lives (valid, owned, static,
    lives, free);
  - every member of a struct has its own comment or is named in the struct's block.
Then the checker checks itself: it must reject copies of the header with one rule broken.

usage: header_docs.py include/tensorx.h include/tensorx/*.h
"""
import re
import sys

HEADER = "include/tensorx.h"  # the name problems are reported under
EXEMPT_MACROS = r"TENSORX_\w*H(_EXPERIMENTAL)?"  # include guards, not API
SECTION_MARKER = re.compile(r"^\s*/\*\s*TX_SECTION_\w+\s*\*/\s*$")
BANNER = re.compile(r"^\s*/\*\s*(----|====)")  # a section heading, never a declaration's block
IDENT = r"[A-Za-z_]\w*"


def mentions(text, name):
    """name appears as a word of its own (not inside another word or after an apostrophe)."""
    return re.search(r"(?<![\w'])" + re.escape(name) + r"(?!\w)", text) is not None


def comment_spans(lines):
    """(first line, last line, text, whole_line) of every /* */ comment, 0-based lines."""
    spans = []
    in_c = False
    for i, line in enumerate(lines):
        pos = 0
        while True:
            if not in_c:
                k = line.find("/*", pos)
                if k < 0:
                    break
                start, start_col, buf, in_c = i, k, [], True
                pos = k + 2
            e = line.find("*/", pos)
            if e < 0:
                buf.append(line[pos:])
                break
            buf.append(line[pos:e])
            whole = lines[start][:start_col].strip() == "" and line[e + 2:].strip() == ""
            spans.append((start, i, "\n".join(buf), whole))
            in_c = False
            pos = e + 2
    return spans


def strip_comments(text):
    return re.sub(r"/\*.*?\*/", " ", text, flags=re.S)


def split_params(plist):
    parts, depth, cur = [], 0, ""
    for ch in plist:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    names = []
    for p in parts:
        p = p.strip()
        if not p or p == "void" or p == "...":
            continue
        m = re.search(r"\(\s*\*\s*(" + IDENT + r")\s*\)", p)  # a function-pointer parameter
        if m:
            names.append((m.group(1), p))
            continue
        m = re.search(r"(" + IDENT + r")\s*(\[[^\]]*\])?\s*$", p)
        if m:
            names.append((m.group(1), p))
    return names


class Decl:
    def __init__(self, kind, name, first, last, text):
        self.kind, self.name, self.first, self.last, self.text = kind, name, first, last, text


def find_decls(lines):
    """Declarations, in order; each with its first and last line (0-based)."""
    decls = []
    n = len(lines)
    i = 0
    in_comment = False
    while i < n:
        raw = lines[i]
        # Skip text inside block comments that span lines.
        code = raw
        if in_comment:
            e = code.find("*/")
            if e < 0:
                i += 1
                continue
            code = code[e + 2:]
            in_comment = False
        code_nc = re.sub(r"/\*.*?\*/", " ", code)
        if "/*" in code_nc:
            in_comment = True
            code_nc = code_nc[: code_nc.find("/*")]
        s = code_nc.strip()
        m = re.match(r"#\s*define\s+(" + IDENT + r")(\(([^)]*)\))?", s)
        if m:
            j = i
            while lines[j].rstrip().endswith("\\") and j + 1 < n:
                j += 1
            if not re.fullmatch(EXEMPT_MACROS, m.group(1)):
                d = Decl("macro", m.group(1), i, j, "\n".join(lines[i:j + 1]))
                d.params = [p.strip() for p in m.group(3).split(",")] if m.group(2) else []
                decls.append(d)
            i = j + 1
            continue
        if s.startswith("TX_API"):
            j, text = i, strip_comments(lines[i])
            while ";" not in text and j + 1 < n:
                j += 1
                text += "\n" + strip_comments(lines[j])
            flat = " ".join(text.split())
            m = re.match(r"TX_API\s+(.*?)\b(" + IDENT + r")\s*\((.*)\)\s*;", flat)
            if not m:
                decls.append(Decl("unparsed", flat, i, j, flat))
            else:
                d = Decl("function", m.group(2), i, j, flat)
                d.ret = m.group(1).strip()
                d.params = split_params(m.group(3))
                decls.append(d)
            i = j + 1
            continue
        m = re.match(r"typedef\s+(struct|enum)\s+(" + IDENT + r")\s*\{", s)
        if m:
            j = i
            if not re.search(r"\}\s*" + IDENT + r"\s*;", s):  # not a one-line enum
                j = i + 1
                while not re.match(r"\s*\}\s*" + IDENT + r"\s*;", strip_comments(lines[j])) and j + 1 < n:
                    j += 1
            d = Decl(m.group(1), m.group(2), i, j, "\n".join(lines[i:j + 1]))
            decls.append(d)
            i = j + 1
            continue
        m = re.match(r"typedef\s+(struct|enum)\s+(" + IDENT + r")\s+(" + IDENT + r")\s*;", s)
        if m:
            decls.append(Decl("opaque", m.group(3), i, i, s))
            i += 1
            continue
        m = re.match(r"typedef\s+.*\(\s*\*\s*(" + IDENT + r")\s*\)\s*\((.*)\)\s*;", s)
        if m:
            d = Decl("fnptr", m.group(1), i, i, s)
            d.params = split_params(m.group(2))
            decls.append(d)
            i += 1
            continue
        m = re.match(r"struct\s+(" + IDENT + r")\s*;", s)
        if m:
            decls.append(Decl("forward", m.group(1), i, i, s))
            i += 1
            continue
        if s.startswith("typedef"):
            j = i
            while ";" not in strip_comments(lines[j]) and j + 1 < n:
                j += 1
            decls.append(Decl("unparsed", " ".join(lines[i:j + 1]).strip(), i, j, s))
            i = j + 1
            continue
        i += 1
    return decls


def is_preprocessor(line):
    return re.match(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif|define)\b", line) is not None


def check(text):
    """The list of problems found in header text."""
    lines = text.split("\n")
    spans = comment_spans(lines)
    doc_end = {}  # last line -> (first line, text) of whole-line comments that may be doc blocks
    for first, last, body, whole in spans:
        if whole and not SECTION_MARKER.match("\n".join(lines[first:last + 1])) and \
                not BANNER.match(lines[first]):
            doc_end[last] = (first, body)
    trailing = {}  # line -> text of the comments that start on it after code
    for first, last, body, whole in spans:
        if not whole:
            trailing.setdefault(first, "")
            trailing[first] += " " + body
    decls = find_decls(lines)
    owner = {}  # line -> declaration covering it
    for d in decls:
        for k in range(d.first, d.last + 1):
            owner[k] = d
    problems = []

    def where(d):
        return HEADER + ":%d: %s %s" % (d.first + 1, d.kind, d.name)

    # The doc block of each declaration and the group it covers.
    block_of = {}
    groups = {}
    for d in decls:
        if d.kind == "unparsed":
            problems.append("%s: cannot parse this declaration" % where(d))
            continue
        k = d.first - 1
        group = [d]
        while k >= 0:
            if k in doc_end:
                break
            if k in owner and owner[k] is not d:
                if owner[k] not in group:
                    group.append(owner[k])
                k = owner[k].first - 1
                continue
            if is_preprocessor(lines[k]):
                k -= 1
                continue
            k = -1
        if k < 0:
            problems.append("%s: no doc block directly above it (or above its group)" % where(d))
            continue
        block_of[d] = doc_end[k][1]
        groups.setdefault(k, set()).update(x.name for x in group)
    for k, names in groups.items():
        if len(names) > 1:
            for name in sorted(names):
                if not mentions(doc_end[k][1], name):
                    problems.append(HEADER + ":%d: the doc block of a group does not name %s"
                                    % (k + 1, name))

    for d, block in block_of.items():
        if d.kind in ("function", "fnptr"):
            for name, decl in d.params:
                if name in ("out", "outs") and re.search(r"tx_tensor\s*\*\s*\*", decl):
                    continue  # the Outputs convention
                if not mentions(block, name):
                    problems.append("%s: the doc block does not name parameter '%s'" % (where(d), name))
        if d.kind == "macro" and d.params:
            for name in d.params:
                if name and not mentions(block, name):
                    problems.append("%s: the doc block does not name macro parameter '%s'" % (where(d), name))
        if d.kind == "function":
            ret = d.ret.replace("TX_API", "").strip()
            if ret == "tx_status":
                if not re.search(r"\bErrors\b", block):
                    problems.append("%s: returns tx_status but the doc block lists no Errors" % where(d))
            elif ret != "void":
                if not re.search(r"\b[Rr]eturns?\b", block):
                    problems.append("%s: the doc block does not say what it returns" % where(d))
            if ret.endswith("*") and not re.search(r"\b(valid|owns?|owned|static|lives?|free|freed)\b", block):
                problems.append("%s: returns a pointer but the doc block does not say whose it is or how long "
                                "it lives" % where(d))
        if d.kind == "struct":
            for k in range(d.first + 1, d.last):
                code = strip_comments(lines[k]).strip()
                if not code.endswith(";"):
                    continue
                m = re.search(r"\(\s*\*\s*(" + IDENT + r")\s*\)", code) or \
                    re.search(r"(" + IDENT + r")\s*(\[[^\]]*\])?\s*;$", code)
                name = m.group(1)
                own = k in trailing or (k - 1) in doc_end or mentions(block, name)
                if not own:
                    problems.append(HEADER + ":%d: member %s of %s has no comment and its struct's "
                                    "block does not name it" % (k + 1, name, d.name))
    return problems, decls


def self_test(text):
    """Copies of the header with one rule broken each must be rejected."""
    lines = text.split("\n")
    failures = []
    tried = []

    def expect(label, mutated, fragment):
        tried.append(label)
        problems, _ = check(mutated)
        if not any(fragment in p for p in problems):
            failures.append("self-test '%s': not detected (wanted a problem naming '%s')" % (label, fragment))

    def block_above(pattern):
        i = next(k for k, l in enumerate(lines) if re.search(pattern, l))
        j = i - 1
        while not lines[j].lstrip().startswith("/*"):
            j -= 1
        return i, j

    # Remove the doc block of a function.
    i, j = block_above(r"TX_API tx_status tx_reshape\(")
    expect("function without its block", "\n".join(lines[:j] + lines[i:]), "tx_reshape")
    # A blank line between the block and its declaration.
    expect("blank line after the block", "\n".join(lines[:i] + [""] + lines[i:]), "tx_reshape")
    # A parameter the block does not name.
    i, j = block_above(r"TX_API tx_status tx_tile\(")
    block = "\n".join(lines[j:i]).replace("multiples", "the counts")
    expect("parameter not named", "\n".join(lines[:j] + [block] + lines[i:]), "'multiples'")
    # A status function without Errors.
    block = "\n".join(lines[j:i]).replace("Errors", "Failures")
    expect("no Errors", "\n".join(lines[:j] + [block] + lines[i:]), "lists no Errors")
    # A value function that does not say what it returns.
    i, j = block_above(r"TX_API size_t tx_dtype_size\(")
    block = re.sub(r"\b[Rr]eturns?\b", "gives", "\n".join(lines[j:i]))
    expect("no Returns", "\n".join(lines[:j] + [block] + lines[i:]), "does not say what it returns")
    # A struct, an enum and a macro without their blocks.
    for label, pattern, name in (("struct", r"^typedef struct tx_npy_info \{", "tx_npy_info"),
                                 ("enum", r"^typedef enum tx_pad_mode \{", "tx_pad_mode"),
                                 ("macro", r"^#define TX_MAX_RANK ", "TX_MAX_RANK")):
        i, j = block_above(pattern)
        expect(label + " without its block", "\n".join(lines[:j] + lines[i:]), name)
    # A struct member with neither a comment nor a mention.
    k = next(k for k, l in enumerate(lines) if "int fortran_order;" in l)
    expect("member without comment", "\n".join(lines[:k] + ["    int fortran_order;"] + lines[k + 1:]),
           "member fortran_order")
    # A group whose block does not name one of its declarations.
    k = next(k for k, l in enumerate(lines) if re.search(r"TX_API size_t tx_max_tensor_bytes\(", l))
    i, j = block_above(r"TX_API void tx_set_max_tensor_bytes\(")
    block = "\n".join(lines[j:i]).replace("tx_max_tensor_bytes", "the getter")
    expect("group member not named", "\n".join(lines[:j] + [block] + lines[i:]), "tx_max_tensor_bytes")
    return failures, len(tried)


def main():
    global HEADER
    paths = sys.argv[1:] or [HEADER]
    problems, decls, texts = [], [], []
    for path in paths:
        HEADER = path
        text = open(path, encoding="utf-8").read()
        texts.append(text)
        found, file_decls = check(text)
        decls += file_decls
        kinds = {}
        for d in file_decls:
            kinds[d.kind] = kinds.get(d.kind, 0) + 1
        api_lines = len(re.findall(r"^TX_API\b", text, flags=re.M))
        typedefs = len(re.findall(r"^typedef\b", text, flags=re.M))
        defines = len(re.findall(r"^\s*#\s*define\s+(?!%s\b)" % EXEMPT_MACROS, text, flags=re.M))
        if kinds.get("macro", 0) != defines:
            found.append("%s: parsed %d macros, the file has %d #define lines that are API: the parser "
                         "lost some" % (path, kinds.get("macro", 0), defines))
        if kinds.get("function", 0) != api_lines or \
                sum(kinds.get(k, 0) for k in ("struct", "enum", "opaque", "fnptr")) != typedefs:
            found.append("%s: parsed %d functions and %d typedefs, the file has %d TX_API lines and %d "
                         "typedefs: the parser lost some" % (path, kinds.get("function", 0),
                         sum(kinds.get(k, 0) for k in ("struct", "enum", "opaque", "fnptr")), api_lines,
                         typedefs))
        problems += found
    # The self-test breaks declarations that live in different parts: it works on all of them at once.
    HEADER = "the parts together"
    failures, tried = self_test("\n".join(texts))
    problems += failures
    for p in problems:
        print("FAIL " + p)
    if problems:
        print("0 passed, 1 failed (%d problems)" % len(problems))
        return 1
    kinds = {}
    for d in decls:
        kinds[d.kind] = kinds.get(d.kind, 0) + 1
    print("header_docs: %d declarations in %d files documented by the template (%s); self-test: %d broken "
          "copies rejected" % (len(decls), len(paths), ", ".join("%d %s" % (v, k) for k, v in
                                                                sorted(kinds.items())), tried))
    return 0


if __name__ == "__main__":
    sys.exit(main())
