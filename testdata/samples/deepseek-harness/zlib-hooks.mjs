const shim = new URL('./zlib-shim.mjs', import.meta.url).href;
export async function resolve(specifier, context, next) {
  if ((specifier === 'node:zlib' || specifier === 'zlib') && context.parentURL && !context.parentURL.endsWith('zlib-shim.mjs')) return { url: shim, shortCircuit: true };
  return next(specifier, context);
}
