// `$.process.run` (65-mod-host.md requirement 11): argv run without shell interpretation through the
// shared process runner as a trusted caller (30-tools.md TL-33): own process group, cwd defaulting to
// the workspace, 30 s timeout by default and at most 10 min, 4 MiB per stream. The runner starts
// `bash -c`, so the argv is quoted into one `exec` line: bash parses nothing the mod wrote. A run still
// going when the instance is released (its session ended and the end's grace ran out) is killed with its
// group, so a mod cannot hold tack past its session (docs/decisions/0155-mod-work-at-session-end.md).
import { isAbsolute, resolve } from 'node:path'
import { quoteShellArg, spawnTrusted } from '@tack/process'
import { MAX_IO_BYTES } from './limits.ts'

const DEFAULT_TIMEOUT_MS = 30_000
const MAX_TIMEOUT_MS = 600_000

export function createProcess(workspace: () => string, released?: AbortSignal) {
  return {
    async run(argv: readonly string[], opts: { cwd?: string; timeoutMs?: number } = {}) {
      if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === 'string'))
        throw new TypeError('$.process.run: argv must be a non-empty list of strings')
      const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS
      if (!Number.isFinite(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_TIMEOUT_MS)
        throw new RangeError(`$.process.run: timeoutMs must be between 1 and ${MAX_TIMEOUT_MS}`)
      const cwd = opts.cwd ? (isAbsolute(opts.cwd) ? opts.cwd : resolve(workspace(), opts.cwd)) : workspace()
      const result = await spawnTrusted({
        command: `exec ${argv.map(quoteShellArg).join(' ')}`,
        cwd,
        timeoutMs,
        maxOutputBytes: MAX_IO_BYTES,
        ...(released ? { signal: released } : {}),
      })
      if (result.spawnError) throw new Error(`$.process.run(${argv[0]}): ${result.spawnError.message}`)
      return {
        exitCode: result.exitCode,
        ...(result.signal ? { signal: result.signal } : {}),
        stdout: result.stdout,
        stderr: result.stderr,
      }
    },
  }
}
