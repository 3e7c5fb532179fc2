/**
 * A small POSIX ustar archive (the format `tar` writes and reads on every system): regular files only, flat names
 * of ASCII up to 100 bytes, each file a 512-byte header and its bytes padded to 512, two zero blocks at the end.
 * What a certification package is (docs/certification.md): Node has no archive writer, and `tar -tvf` or any
 * archive tool lists it.
 */

interface TarFile {
  name: string
  bytes: Buffer
}

const BLOCK = 512

/**
 * The archive of `files` in their order; `mtime` (seconds) the same for every file, so the same input gives the same
 * bytes.
 */
export function writeTar(files: readonly TarFile[], mtime: number): Buffer {
  const parts: Buffer[] = []
  for (const f of files) {
    if (!/^[\x21-\x7e]{1,100}$/.test(f.name) || f.name.includes('/'))
      throw new Error(`tar: "${f.name}" is not a flat ASCII name of up to 100 bytes`)
    const header = Buffer.alloc(BLOCK)
    header.write(f.name, 0, 'ascii')
    header.write(octal(0o644, 8), 100, 'ascii')
    header.write(octal(0, 8), 108, 'ascii')
    header.write(octal(0, 8), 116, 'ascii')
    header.write(octal(f.bytes.length, 12), 124, 'ascii')
    header.write(octal(Math.floor(mtime), 12), 136, 'ascii')
    header.write('        ', 148, 'ascii')
    header.write('0', 156, 'ascii')
    header.write('ustar\u000000', 257, 'ascii')
    header.write(`${octal(checksum(header), 7)} `.slice(0, 8), 148, 'ascii')
    parts.push(header, f.bytes, Buffer.alloc((BLOCK - (f.bytes.length % BLOCK)) % BLOCK))
  }
  parts.push(Buffer.alloc(2 * BLOCK))
  return Buffer.concat(parts)
}

/**
 * The regular files of a ustar archive, in order; an Error saying what is wrong with one that is not such an archive.
 */
export function readTar(archive: Buffer): TarFile[] {
  const files: TarFile[] = []
  let at = 0
  while (at + BLOCK <= archive.length) {
    const header = archive.subarray(at, at + BLOCK)
    if (header.every((b) => b === 0)) return files
    if (header.toString('ascii', 257, 262) !== 'ustar')
      throw new Error(`not a ustar archive (no "ustar" mark at byte ${at + 257})`)
    const stored = Number.parseInt(header.toString('ascii', 148, 156).replace(/\0.*$/, '').trim(), 8)
    if (stored !== checksum(header))
      throw new Error(`header at byte ${at}: checksum ${stored} is not ${checksum(header)}`)
    const name = header.toString('ascii', 0, 100).replace(/\0.*$/s, '')
    const size = Number.parseInt(header.toString('ascii', 124, 136).replace(/\0.*$/, '').trim() || '0', 8)
    const type = header.toString('ascii', 156, 157)
    if (type !== '0' && type !== '\0') throw new Error(`${name}: not a regular file (type "${type}")`)
    if (!Number.isSafeInteger(size) || at + BLOCK + size > archive.length)
      throw new Error(`${name}: its ${size} bytes run past the end of the archive`)
    files.push({ name, bytes: Buffer.from(archive.subarray(at + BLOCK, at + BLOCK + size)) })
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK
  }
  throw new Error('the archive ends without its end-of-archive blocks (cut short?)')
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`
}

/** The header's bytes summed, its checksum field counted as spaces. */
function checksum(header: Buffer): number {
  let sum = 0
  for (const [i, byte] of header.subarray(0, BLOCK).entries()) sum += i >= 148 && i < 156 ? 0x20 : byte
  return sum
}
