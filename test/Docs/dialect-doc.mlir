// The dialect reference generated from ODS (target rock-docs, `make docs`):
// every op has a summary, a description and an example, every attribute a
// description and an example, and the checked-in docs/dialect.md is the
// generated file (after a .td change: cp build/docs/dialect.md docs/).
// RUN: %python %rock_src/scripts/check-dialect-doc.py %rock_obj_root/docs/dialect.md | FileCheck %s
// RUN: diff -u %rock_src/docs/dialect.md %rock_obj_root/docs/dialect.md
// RUN: not %python %rock_src/scripts/check-dialect-doc.py %S/Inputs/incomplete-dialect.md | FileCheck %s --check-prefix=BAD

// CHECK: dialect doc: 10 ops complete

// BAD: dialect doc: `rock.bare` (rock::BareOp): no description
// BAD-NEXT: dialect doc: `rock.bare` (rock::BareOp): no example
// BAD-NEXT: dialect doc: BareAttr: no description
// BAD-NEXT: dialect doc: BareAttr: no example
