// The one module that imports the WebAssembly build of crates/domain. Every business rule and
// contract type the app uses comes through here; nothing re-implements a rule in TypeScript.
// The "bundler" build initialises itself when imported (top-level await via vite-plugin-wasm).
import * as wasm from "@sitelens/domain-wasm";

export * from "@sitelens/domain-wasm";
export { wasm };
