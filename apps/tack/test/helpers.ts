// Runs the real `tack` binary as a child process with a private TACK_HOME and HOME.
import { spawn } from 'node:child_process'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const TACK_BIN = fileURLToPath(new URL('../bin/tack.js', import.meta.url))

export interface TackResult {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

export interface Sandbox {
  readonly root: string
  readonly home: string
  readonly tackHome: string
  readonly workspace: string
  readonly env: NodeJS.ProcessEnv
}

/** A temp HOME, TACK_HOME and workspace; the environment carries no provider keys. */
export async function sandbox(extraEnv: NodeJS.ProcessEnv = {}): Promise<Sandbox> {
  const root = await mkdtemp(join(tmpdir(), 'tack-cli-'))
  const home = join(root, 'home')
  const tackHome = join(root, 'tack-home')
  const workspace = join(root, 'ws')
  const { mkdir } = await import('node:fs/promises')
  await mkdir(home, { recursive: true })
  await mkdir(workspace, { recursive: true })
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    TACK_HOME: tackHome,
    LANG: 'C.UTF-8',
    ...extraEnv,
  }
  return { root, home, tackHome, workspace, env }
}

export function runTack(
  args: readonly string[],
  /** `bin`: another Node script to run instead of tack (a client such as acpx). */
  opts: { env: NodeJS.ProcessEnv; cwd: string; input?: string; bin?: string },
): Promise<TackResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [opts.bin ?? TACK_BIN, ...args], {
      env: opts.env,
      cwd: opts.cwd,
      stdio: 'pipe',
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
    child.stdin.end(opts.input ?? '')
  })
}

export async function writeJson(path: string, value: unknown): Promise<string> {
  await writeFile(path, JSON.stringify(value, null, 2))
  return path
}

/** Parses `--json` output lines. */
export function jsonLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>)
}
