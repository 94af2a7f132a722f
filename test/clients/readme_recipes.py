#!/usr/bin/python3
"""The README's application recipes are the code the client suites run: each
block of "Using it from your application" that follows a marker

    <!-- recipe: PATH [NAME] -->

must be, line for line, the region of PATH between "recipe: NAME" and
"recipe: end" (or all of PATH when no NAME is given).  Prints TAP."""
import os
import re
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
readme = open(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "README.md")).read()
section = readme.split("\n## Using it from your application\n", 1)
from tap import check, finish


check(len(section) == 2, 'the README has a section "Using it from your application"')
body = section[-1].split("\n## ", 1)[0]
markers = re.findall(r"<!-- recipe: (\S+)(?: ([^>]*?))? -->\n```[a-z]*\n(.*?)```\n", body, re.S)
for path, name, block in markers:
    try:
        text = open(os.path.join(root, path)).read()
    except OSError as e:
        check(False, f"{path}: {e}")
        continue
    if name:
        lines = text.split("\n")
        start = [i for i, line in enumerate(lines) if re.search(r"recipe: " + re.escape(name) + r"\s*$", line)]
        end = [i for i, line in enumerate(lines) if re.search(r"recipe: end\s*$", line) and start and i > start[0]]
        if not start or not end:
            check(False, f"{path}: no region 'recipe: {name}'")
            continue
        region = "\n".join(lines[start[0] + 1:end[0]]) + "\n"
    else:
        region = text
    # the README's blocks are dedented: compare without the common indentation
    def dedent(s):
        lines = s.rstrip("\n").split("\n")
        indent = min((len(l) - len(l.lstrip()) for l in lines if l.strip()), default=0)
        return [l[indent:].rstrip() for l in lines]
    got, want = dedent(block), dedent(region)
    diff = next((f"line {i + 1}: README {a!r}, file {b!r}" for i, (a, b) in enumerate(zip(got, want)) if a != b),
                f"{len(got)} lines in the README, {len(want)} in the file" if len(got) != len(want) else "")
    check(not diff, f"the README's recipe is {path}{' ' + name if name else ''} ({len(want)} lines){': ' + diff if diff else ''}")
stacks = {p.split("/")[2] for p, _, _ in markers}
check(len(markers) >= 9, f"{len(markers)} recipes, from {len(stacks)} places in test/clients: {', '.join(sorted(stacks))}")
finish()
