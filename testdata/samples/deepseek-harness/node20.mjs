// Loaded with `node --import ./node20.mjs`. Node 20 stand-ins for what the harness (Node >= 22) uses: Promise.withResolvers (ES2024, added in
// Node 22) and node:zlib's Zstandard functions (see zlib-shim.mjs). Behaviour otherwise unchanged.
import { register } from 'node:module';
if (typeof Promise.withResolvers !== 'function') {
  Promise.withResolvers = function withResolvers() {
    let resolve, reject;
    const promise = new this((a, b) => { resolve = a; reject = b; });
    return { promise, resolve, reject };
  };
}
register('./zlib-hooks.mjs', import.meta.url);
