// Runs the shared vector files of crates/domain against the WebAssembly build: the same files
// `cargo test -p domain` runs natively, so both builds are proven to answer alike.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { wasm } from "./domain";

type Case = { fn: string; args: unknown[]; expected?: unknown; throws?: string };
const dir = join(__dirname, "../../../crates/domain/tests/vectors");
const files = readdirSync(dir).filter((f) => f.endsWith(".json")).sort();
const exports = wasm as unknown as Record<string, (...args: unknown[]) => unknown>;

let ran = 0;
for (const file of files) {
  const { group, cases } = JSON.parse(readFileSync(join(dir, file), "utf8")) as { group: string; cases: Case[] };
  describe(group, () => {
    cases.forEach((c, i) => {
      it(`#${i} ${c.fn}`, () => {
        ran += 1;
        const fn = exports[c.fn];
        expect(fn, `export ${c.fn}`).toBeTypeOf("function");
        if (c.throws !== undefined) {
          expect(() => fn!(...c.args)).toThrow(c.throws);
        } else {
          expect(fn!(...c.args)).toEqual(c.expected);
        }
      });
    });
  });
}

describe("vector count", () => {
  it("ran at least 250 shared cases", () => {
    const total = files.reduce((n, f) => n + (JSON.parse(readFileSync(join(dir, f), "utf8")).cases as Case[]).length, 0);
    console.log(`shared vectors: ${total} cases in ${files.length} files, ${ran} ran against wasm`);
    expect(total).toBeGreaterThanOrEqual(250);
    expect(ran).toBe(total);
  });
});
