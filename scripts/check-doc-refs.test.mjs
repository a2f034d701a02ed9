// Tests of check-doc-refs.mjs on small repositories written to a temporary folder.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { check, citationsIn, sectionsOf } from "./check-doc-refs.mjs";

const PRODUCT = "# Product\n\n## 1. Purpose\n\n### 1.2 Tiers\n\n## 9. Constants\n\n### 9.7 Good ranges\n\nSee §1.2 and §9.7.\n";

/** Writes `files` (path → text) into a fresh folder and returns the checker's problems. */
function problems(files) {
  const root = mkdtempSync(join(tmpdir(), "doc-refs-"));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return check(root, Object.keys(files));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test("numbered headings are the sections", () => {
  assert.deepEqual([...sectionsOf(PRODUCT)], ["1", "1.2", "9", "9.7"]);
});

test("a citation of an existing document and sections passes", () => {
  const rs = "/// Good title length (docs/PRODUCT.md §9.7, §1.2).\n//! Steps (docs/PRODUCT.md §9).\n";
  assert.deepEqual(problems({ "docs/PRODUCT.md": PRODUCT, "crates/a/src/lib.rs": rs }), []);
});

/** Each case: what it shows, the file it writes beside docs/PRODUCT.md, and the problems expected. */
const REFUSED = [
  ["a document outside the repository", "web/src/a.ts", "// see ../../../shared/NOTES.md §3\n",
    ["web/src/a.ts:1: cites ../../../shared/NOTES.md, which is not a file in the repository"]],
  ["a bare name resolves only from the citing folder or the root", "crates/a/src/lib.rs", "// (PRODUCT.md §9.7)\n",
    ["crates/a/src/lib.rs:1: cites PRODUCT.md, which is not a file in the repository"]],
  ["a missing section, in either citation form", "a.rs", "// (docs/PRODUCT.md §9.8)\n// docs/PRODUCT.md sections 1 and 4\n",
    ["a.rs:1: cites docs/PRODUCT.md §9.8, which has no such section", "a.rs:2: cites docs/PRODUCT.md §4, which has no such section"]],
  ["both ends of a range", "a.rs", "// (docs/PRODUCT.md §1.2-§1.5)\n",
    ["a.rs:1: cites docs/PRODUCT.md §1.5, which has no such section"]],
  ["a name at the end of a line passes its sections to the next line", "a.rs", "/// valid (docs/PRODUCT.md\n/// §9.6: 7 days).\n",
    ["a.rs:2: cites docs/PRODUCT.md §9.6, which has no such section"]],
];

for (const [what, file, text, expected] of REFUSED) {
  test(`refused: ${what}`, () => {
    assert.deepEqual(problems({ "docs/PRODUCT.md": PRODUCT, [file]: text }), expected);
  });
}

test("a document's own sections are checked, other documents' by their names", () => {
  const arch = "# Architecture\n\n## 4. Flow\n\nSee §4, `PRODUCT.md` §9.7 and §5.\n";
  assert.deepEqual(problems({ "docs/PRODUCT.md": PRODUCT, "docs/ARCHITECTURE.md": arch }), [
    "docs/ARCHITECTURE.md:5: cites docs/PRODUCT.md §5, which has no such section",
  ]);
});

test("standards, addresses and lower-case names without a folder are not ours", () => {
  const rs = [
    "// Hop-by-hop headers (RFC 9110 §7.6.1).",
    "// Robots groups (docs/PRODUCT.md §9.7; RFC 9309 §2.2.1).",
    "// <https://github.com/GoogleChrome/lighthouse/blob/main/docs/throttling.md>",
    "// rust-analyzer's style.md",
    "// (Numerical Recipes, 2nd ed., §6.2)",
  ].join("\n");
  assert.deepEqual(citationsIn(rs, "a.rs"), [{ line: 2, doc: "docs/PRODUCT.md", section: "9.7" }]);
  assert.deepEqual(problems({ "docs/PRODUCT.md": PRODUCT, "a.rs": rs, "docs/NOTES.md": "# Notes\n\nAs RFC 9309 §2.3 says.\n" }), []);
});

test("a name without a section is a citation of the file alone", () => {
  assert.deepEqual(citationsIn("see docs/TOOLCHAIN.md for the pins", "justfile"), [
    { line: 1, doc: "docs/TOOLCHAIN.md", section: null },
  ]);
});
