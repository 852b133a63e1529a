// Node 20 has no Zstandard in node:zlib (added in 22.15); the JSONL persistence imports the names
// at load time but uses them only with `compression: "zstd"`. This shim re-exports node:zlib and
// adds throwing stand-ins, so the plaintext path runs unchanged.
export * from 'node:zlib';
import zlib from 'node:zlib';
export default zlib;
const missing = (n) => () => { throw new Error(`${n}: Zstandard needs Node >= 22.15`); };
export const createZstdDecompress = zlib.createZstdDecompress ?? missing('createZstdDecompress');
export const zstdCompress = zlib.zstdCompress ?? missing('zstdCompress');
export const zstdDecompress = zlib.zstdDecompress ?? missing('zstdDecompress');
export const zstdDecompressSync = zlib.zstdDecompressSync ?? missing('zstdDecompressSync');
