// Size limits shared by `$` nouns (65-mod-host.md requirement 11).
export const MAX_IO_BYTES = 4 * 1024 * 1024

export function checkSize(what: string, bytes: number): void {
  if (bytes > MAX_IO_BYTES) throw new Error(`${what}: ${bytes} bytes is over the 4 MiB limit`)
}
