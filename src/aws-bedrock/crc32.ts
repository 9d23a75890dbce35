/**
 * CRC-32 (IEEE 802.3, the zlib / PNG / AWS event stream checksum), table-driven: one table lookup per byte.
 */

const table = (() => {
  const entries = new Uint32Array(256);
  for (let index = 0; index < 256; index++) {
    let value = index;
    for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
    entries[index] = value >>> 0;
  }
  return entries;
})();

/** The CRC-32 of `bytes[start, end)`, as an unsigned 32-bit number. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffffffff;
  for (let index = start; index < end; index++) {
    crc = (table[(crc ^ (bytes[index] as number)) & 0xff] as number) ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}
