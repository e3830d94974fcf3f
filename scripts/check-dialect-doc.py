#!/usr/bin/env python3
"""Checks that the dialect reference generated from ODS is complete.

Usage: check-dialect-doc.py DIALECT_MD

Every op section (`### \\`rock.x\\``) needs a summary line (`_..._`), a
description and an ```mlir example; every attribute section under
`## Attributes` needs a description and an example.  Prints one line per
missing piece and exits 1 when any is missing, 0 otherwise.
"""
import re
import sys


def sections(text, level):
    """(title, body) of each heading of exactly `level` '#'s."""
    head = re.compile(r"^" + "#" * level + r" (.+)$", re.M)
    marks = list(head.finditer(text))
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        body = text[m.end():end]
        # A section stops at the next heading of a higher level.
        up = re.search(r"^#{1,%d} " % (level - 1), body, re.M)
        yield m.group(1).strip(), body[:up.start()] if up else body


def prose(body):
    """The body without code blocks, tables, sub-headings and the summary."""
    body = re.sub(r"```.*?```", "", body, flags=re.S)
    body = re.split(r"^#### ", body, flags=re.M)[0]
    lines = [l for l in body.splitlines()
             if l.strip() and not l.startswith(("_", "|", "<", "Syntax:",
                                                "Traits:", "Interfaces:"))]
    return " ".join(lines)


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    text = open(argv[1], encoding="utf-8").read()
    missing, ops = [], 0
    top = dict(sections(text, 2))
    for title, body in sections(top.get("Operations", ""), 3):
        ops += 1
        if not re.search(r"^_.+_$", body, re.M):
            missing.append(f"{title}: no summary")
        if not prose(body):
            missing.append(f"{title}: no description")
        if "```mlir" not in body:
            missing.append(f"{title}: no example")
    for title, body in sections(top.get("Attributes", ""), 3):
        if not prose(body):
            missing.append(f"{title}: no description")
        if "```mlir" not in body:
            missing.append(f"{title}: no example")
    if not ops:
        missing.append("no op sections found")
    for m in missing:
        print(f"dialect doc: {m}")
    if not missing:
        print(f"dialect doc: {ops} ops complete")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
