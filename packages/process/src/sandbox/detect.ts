// Which OS sandbox this machine can run, found once per process. Linux: a bubblewrap on the PATH that
// can actually create the namespaces tack asks for (a container may forbid user namespaces; a setuid
// bwrap refuses --disable-userns) — so the probe runs the real flags on `true`. macOS: sandbox-exec.
// Anything else, or a probe that fails, is `none` with the reason a person can act on.
import { spawn } from 'node:child_process'
import { findOnPath, isExecutable } from '../executable.ts'

export type SandboxSupport =
  | {
      readonly kind: 'bwrap'
      readonly path: string
      readonly version: string
      readonly disableUserns: boolean
    }
  | { readonly kind: 'seatbelt'; readonly path: string }
  | { readonly kind: 'none'; readonly reason: string }

const SANDBOX_EXEC = '/usr/bin/sandbox-exec'
const PROBE_TIMEOUT_MS = 5_000

let cached: Promise<SandboxSupport> | undefined

/** The sandbox of this machine; probed on first use, then remembered for the life of the process. */
export function detectSandbox(): Promise<SandboxSupport> {
  cached ??= probe(process.platform, process.env.PATH ?? '')
  return cached
}

/** For tests: probe again, e.g. with another PATH. */
export function probeSandbox(platform: NodeJS.Platform, path: string): Promise<SandboxSupport> {
  return probe(platform, path)
}

async function probe(platform: NodeJS.Platform, path: string): Promise<SandboxSupport> {
  if (platform === 'darwin') {
    return (await isExecutable(SANDBOX_EXEC))
      ? { kind: 'seatbelt', path: SANDBOX_EXEC }
      : { kind: 'none', reason: `${SANDBOX_EXEC} is missing` }
  }
  if (platform !== 'linux') return { kind: 'none', reason: `no sandbox is supported on ${platform}` }
  const bwrap = await findOnPath('bwrap', path)
  if (!bwrap) {
    return {
      kind: 'none',
      reason: 'bubblewrap (bwrap) is not installed: install it (Debian/Ubuntu: apt-get install bubblewrap)',
    }
  }
  const version = (await runQuietly(bwrap, ['--version'])).out.trim().replace(/^bubblewrap\s*/, '')
  const base = ['--unshare-all', '--unshare-user', '--cap-drop', 'ALL', '--ro-bind', '/', '/']
  const tail = ['--dev', '/dev', '--proc', '/proc', '--', 'true']
  const strict = await runQuietly(bwrap, [...base, '--disable-userns', ...tail])
  if (strict.code === 0) return { kind: 'bwrap', path: bwrap, version, disableUserns: true }
  const plain = await runQuietly(bwrap, [...base, ...tail])
  if (plain.code === 0) return { kind: 'bwrap', path: bwrap, version, disableUserns: false }
  const why = firstLine(plain.err) || `exit ${plain.code}`
  return {
    kind: 'none',
    reason: `${bwrap} cannot create a sandbox here (${why}); user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone, or a container without them)`,
  }
}

function runQuietly(
  file: string,
  args: string[],
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: PROBE_TIMEOUT_MS })
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
    })
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString()
    })
    child.on('error', (error) => resolve({ code: null, out, err: error.message }))
    child.on('close', (code) => resolve({ code, out, err }))
  })
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? ''
  )
}
