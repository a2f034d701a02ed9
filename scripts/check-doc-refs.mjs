#!/usr/bin/env node
// Fails when a file cites a document that is not in the repository, or a section (§N.M) that the
// cited document does not have. Run by `just lint`; no dependencies.
//
// What counts as a citation:
// - a Markdown file name: a path ending in `.md` whose base name is upper-case, or that names a
//   folder (docs/ARCHITECTURE.md, e2e/README.md). It must resolve, relative to the citing file's
//   folder or to the repository root, to a file inside the repository;
// - the section numbers that follow it: `docs/PRODUCT.md §9.7, §9.8`, `§3.10-§3.13`, and any
//   later `§N` on the same line (a line that ends with the name passes it to the next line);
//   the old `section 3` form counts too. Sections are the numbered headings of the cited
//   document (`## 9. Constants`, `### 9.7 Good ranges`);
// - in a Markdown document, a `§N` with no document name before it cites that document itself.
// A `§` that follows a standard's name (`RFC 9309 §2.2.1`) is not ours and is left alone.

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** Files never scanned: lock files, and this checker's test (its fixtures cite missing files). */
const SKIP = [/(^|\/)package-lock\.json$/, /(^|\/)Cargo\.lock$/, /^scripts\/check-doc-refs\.test\.mjs$/];
/** Extensions of the text files scanned. */
const TEXT = /\.(rs|ts|tsx|js|mjs|cjs|css|html|toml|json|md|sh|ya?ml|sql|example)$|(^|\/)(justfile|just|run)$/;

const DOC = /(?<![\w/.:@-])((?:\.\.?\/)*(?:[\w.-]+\/)*[\w.-]+\.md)\b/g;
const SECTION = /§\s?(\d+(?:\.\d+)*)|\bsections?\s+(\d+(?:\.\d+)*)((?:\s*(?:,|and|or)\s*\d+(?:\.\d+)*)*)/g;
const FOREIGN = /(?:\b(?:RFC|ISO|IEC|ECMA)[\s-]?\d+[\w.-]*|\bed\.,?)[\s,]*$/;

/** Is `path` a document name we check (see the header)? */
function isDocName(path) {
  const base = path.split("/").pop();
  return path.includes("/") || /^[A-Z0-9_-]+\.md$/.test(base);
}

/** Section numbers of a Markdown document: its numbered headings. */
export function sectionsOf(markdown) {
  const found = new Set();
  for (const line of markdown.split("\n")) {
    const m = /^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s/.exec(line);
    if (m) found.add(m[1]);
  }
  return found;
}

/**
 * The citations in `text` of the file at repository path `file`: `{line, doc, section}` with
 * `doc` as written and `section` null when a document is named without a section.
 */
export function citationsIn(text, file) {
  const out = [];
  const selfDoc = file.endsWith(".md") ? file.split("/").pop() : null;
  const lines = text.split("\n");
  // The document the next `§N` belongs to, and the index in `out` of its name-only entry
  // (replaced by the sections once they come).
  let carried = null;
  lines.forEach((line, i) => {
    const events = [];
    for (const m of line.matchAll(DOC)) {
      if (isDocName(m[1])) events.push({ at: m.index, end: m.index + m[0].length, doc: m[1] });
    }
    for (const m of line.matchAll(SECTION)) {
      const numbers = m[1] ? [m[1]] : [m[2], ...(m[3].match(/\d+(?:\.\d+)*/g) ?? [])];
      events.push({ at: m.index, numbers, word: !m[1] });
    }
    events.sort((a, b) => a.at - b.at);
    let current = carried;
    for (const e of events) {
      if (e.doc) {
        out.push({ line: i + 1, doc: e.doc, section: null });
        current = { doc: e.doc, bare: out.length - 1 };
        continue;
      }
      if (FOREIGN.test(line.slice(0, e.at))) continue;
      const doc = current?.doc ?? (e.word ? null : selfDoc);
      if (!doc) continue;
      if (current?.bare !== undefined && current.bare !== null) {
        out.splice(current.bare, 1);
        current.bare = null;
      }
      for (const n of e.numbers) out.push({ line: i + 1, doc, section: n });
    }
    const tail = events.at(-1);
    carried = tail?.doc && /^[\s`*)\]]*$/.test(line.slice(tail.end)) ? current : null;
  });
  return out;
}

/** Where `doc`, cited from `file`, lives in the repository, or null when it is not there. */
function resolveDoc(root, tracked, file, doc) {
  for (const base of [dirname(file), "."]) {
    const abs = resolve(root, base, doc);
    const rel = relative(root, abs).split(sep).join("/");
    if (rel.startsWith("..") || rel.startsWith("/")) continue;
    if (tracked.has(rel) || (tracked.size === 0 && existsSync(abs))) return rel;
  }
  return null;
}

/** Problems in the repository at `root` over `files` (repository paths), as strings. */
export function check(root, files) {
  const tracked = new Set(files);
  const sections = new Map();
  const problems = [];
  for (const file of files) {
    if (SKIP.some((re) => re.test(file)) || !TEXT.test(file)) continue;
    const path = join(root, file);
    if (!existsSync(path)) continue;
    for (const c of citationsIn(readFileSync(path, "utf8"), file)) {
      const target = resolveDoc(root, tracked, file, c.doc);
      if (!target) {
        problems.push(`${file}:${c.line}: cites ${c.doc}, which is not a file in the repository`);
        continue;
      }
      if (c.section === null) continue;
      if (!sections.has(target)) sections.set(target, sectionsOf(readFileSync(join(root, target), "utf8")));
      if (!sections.get(target).has(c.section)) {
        problems.push(`${file}:${c.line}: cites ${target} §${c.section}, which has no such section`);
      }
    }
  }
  return problems;
}

/** Files of the repository at `root`: tracked, and new ones git does not ignore. */
export function trackedFiles(root) {
  return execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" }).split("\0").filter(Boolean);
}

if (process.argv[1] && normalize(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const problems = check(root, trackedFiles(root));
  for (const p of problems) console.error(p);
  if (problems.length > 0) {
    console.error(`${problems.length} broken document citation(s): cite files in the repository and sections they have`);
    process.exit(1);
  }
}
