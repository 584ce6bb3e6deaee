// Runs the real `tack` binary as a child process with a private TACK_HOME and HOME.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type LoopbackServer, startLoopbackServer } from '@tack/llm/testing'

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
    // the shuffled end-to-end run (scripts/test/shuffle-setup.ts) reaches the tack these tests spawn
    ...(process.env.TACK_DEV_SHUFFLE_CATALOG
      ? { TACK_DEV_SHUFFLE_CATALOG: process.env.TACK_DEV_SHUFFLE_CATALOG }
      : {}),
    ...extraEnv,
  }
  return { root, home, tackHome, workspace, env }
}

export function runTack(
  args: readonly string[],
  /** `bin`: another Node script to run instead of tack (a client such as acpx). */
  opts: { env: NodeJS.ProcessEnv; cwd: string; input?: string; bin?: string },
): Promise<TackResult> {
  const child = spawn(process.execPath, [opts.bin ?? TACK_BIN, ...args], {
    env: opts.env,
    cwd: opts.cwd,
    stdio: 'pipe',
  })
  child.stdin.end(opts.input ?? '')
  return outcomeOf(child)
}

/** A spawned child's whole output and how it ended. */
export function outcomeOf(child: ChildProcess): Promise<TackResult> {
  return new Promise((resolve, reject) => {
    let stdout = ''
    let stderr = ''
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
  })
}

export async function writeJson(path: string, value: unknown): Promise<string> {
  await writeFile(path, JSON.stringify(value, null, 2))
  return path
}

/**
 * A `scripted/<file>` model id for `--model` (the scripted file provider, AL-21) that answers with
 * `entries` in turn; the file is written under `dir`.
 */
export async function scriptedModel(dir: string, entries: readonly unknown[]): Promise<string> {
  const file = await writeJson(join(dir, `script-${Math.random().toString(36).slice(2)}.json`), entries)
  return `scripted/${file}`
}

/** Script entries that answer with plain text, one a step. */
export const textAnswers = (...texts: string[]) => texts.map((text) => ({ kind: 'text', text }))

/** Parses `--json` output lines. */
export function jsonLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>)
}

export interface LoopConfigOptions {
  /** The wire the `loop` endpoint speaks; default `openai-compatible`. */
  readonly kind?: 'openai-compatible' | 'anthropic'
  /** The variable the endpoint's key is read from. */
  readonly apiKeyEnv?: string
  /** A `model:` line (e.g. `loop/m`), so runs need no `--model`. */
  readonly model?: string
  /** Retry delays of 1–5 ms instead of the defaults (for tests whose model may fail). */
  readonly fastRetries?: boolean
}

/** Writes `<root>/loop.yml`: one endpoint `loop` at a loopback server's `baseUrl`. Returns its path, for `--config`. */
export async function writeLoopConfig(root: string, baseUrl: string, opts: LoopConfigOptions = {}) {
  const config = join(root, 'loop.yml')
  const key = opts.apiKeyEnv ? `, apiKeyEnv: ${opts.apiKeyEnv}` : ''
  await writeFile(
    config,
    `${opts.model ? `model: ${opts.model}\n` : ''}plugins:\n  llm:\n${opts.fastRetries ? '    retry: { baseDelayMs: 1, maxDelayMs: 5 }\n' : ''}    endpoints:\n      loop: { kind: ${opts.kind ?? 'openai-compatible'}, baseUrl: "${baseUrl}"${key} }\n`,
  )
  return config
}

/** Runs `tack run --config <loop.yml> …args` in the box's workspace against the loopback server at `baseUrl`. */
export async function runOnLoop(
  box: Sandbox,
  baseUrl: string,
  args: readonly string[],
  opts: LoopConfigOptions = {},
): Promise<TackResult> {
  const config = await writeLoopConfig(box.root, baseUrl, opts)
  return runTack(['run', '--config', config, ...args], { env: box.env, cwd: box.workspace })
}

export interface BackgroundRun {
  readonly server: LoopbackServer
  readonly child: ChildProcess
  /** The exit code once tack is gone. */
  readonly exited: Promise<number | null>
}

/**
 * Starts `tack run <prompt>` in the background (no pipes) against a loopback model whose one move is
 * a bash call of `command`; for tests that signal tack while the command runs. Close `server` after.
 */
export async function startTackOnBashCall(
  box: Sandbox,
  command: string,
  prompt: string,
): Promise<BackgroundRun> {
  const server = await startLoopbackServer({
    script: [
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command } }] },
      { kind: 'text', text: 'never reached' },
    ],
  })
  const config = await writeLoopConfig(box.root, server.baseUrl, { fastRetries: true })
  const child = spawn(process.execPath, [TACK_BIN, 'run', '--config', config, '--model', 'loop/m', prompt], {
    env: box.env,
    cwd: box.workspace,
    stdio: 'ignore',
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { server, child, exited }
}

/**
 * Runs `tack run <args…> wait` in the box's workspace with a scripted model whose one move is a long bash
 * call, sends `signal` once that call has started (it touches `<workspace>/started`), and resolves with
 * how tack ended — for tests of what a Ctrl-C or SIGTERM mid-call leaves behind.
 */
export async function signalDuringBashCall(
  box: Sandbox,
  args: readonly string[],
  signal: NodeJS.Signals,
): Promise<TackResult> {
  const started = join(box.workspace, 'started')
  const script = await writeJson(join(box.root, `sleep-${Math.random().toString(36).slice(2)}.json`), [
    { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: `touch '${started}'; sleep 30` } }] },
    { kind: 'text', text: 'never reached' },
  ])
  const child = spawn(process.execPath, [TACK_BIN, 'run', ...args, '--model', `scripted/${script}`, 'wait'], {
    env: box.env,
    cwd: box.workspace,
    stdio: 'pipe',
  })
  child.stdin.end()
  const outcome = outcomeOf(child)
  const deadline = Date.now() + 30_000
  while (!existsSync(started)) {
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error('the bash call never started')
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  child.kill(signal)
  return outcome
}

/** Runs tack in a pseudo-terminal (stdin, stdout and stderr all on it) and returns what the terminal got. */
export function runInTerminal(
  args: readonly string[],
  opts: { env: NodeJS.ProcessEnv; cwd: string },
): Promise<{ code: number | null; screen: string }> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
  const command = [process.execPath, TACK_BIN, ...args].map(quote).join(' ')
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env: opts.env, cwd: opts.cwd })
    let screen = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (screen += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, screen }))
    child.stdin.end()
  })
}
