// One interactive tack in a pseudo-terminal against a loopback scripted model, in a private sandbox
// (HOME, TACK_HOME, workspace). Tests start sessions with `openTui` and close them all in `afterEach`
// with `closeAllTuis`, so a failed assertion never leaves a tack running.
import { type LoopbackEntry, type LoopbackServer, startLoopbackServer } from '@tack/llm/testing'
import { type Sandbox, sandbox, writeLoopConfig } from '../helpers.ts'
import { type PtySession, startTui } from './tui.ts'

export interface TuiRun {
  readonly term: PtySession
  readonly server: LoopbackServer
  readonly box: Sandbox
  /** The `--config` file naming the loopback endpoint and `model: loop/m`. */
  readonly config: string
}

export interface OpenTuiOptions {
  /** Arguments after `tack --config FILE` (`-c`, `-r`, `--permission-mode ask`, …). */
  readonly args?: readonly string[]
  readonly cols?: number
  readonly rows?: number
  /** More environment (NO_COLOR, LANG, …), or a function of the sandbox that returns it. */
  readonly env?: NodeJS.ProcessEnv | ((box: Sandbox) => NodeJS.ProcessEnv)
  /** What shows once tack is ready (default: the `loop/` model in the status line). */
  readonly ready?: string | RegExp
  /** Milliseconds between the model's SSE frames (default 0), to watch an answer arrive in parts. */
  readonly frameDelayMs?: number
  /** Fills the workspace before tack starts. */
  readonly prepare?: (workspace: string) => Promise<void>
  /** Adds to the `--config` file once it is written (e.g. `plugins.mcp.servers`). */
  readonly extendConfig?: (config: string) => Promise<void>
  /** Model ids the loopback server lists at `GET /v1/models` (the `/model` picker). */
  readonly models?: readonly string[]
  /** Reuse the sandbox and server of an earlier run (resume tests); the script is pushed onto it. */
  readonly after?: TuiRun
}

const open: TuiRun[] = []

/** Starts tack's UI and waits until it is ready (its status line shows the model). */
export async function openTui(script: LoopbackEntry[], options: OpenTuiOptions = {}): Promise<TuiRun> {
  const box = options.after?.box ?? (await sandbox())
  await options.prepare?.(box.workspace)
  let server: LoopbackServer
  let config: string
  if (options.after) {
    server = options.after.server
    server.push(...script)
    config = options.after.config
  } else {
    server = await startLoopbackServer({
      script,
      ...(options.frameDelayMs ? { frameDelayMs: options.frameDelayMs } : {}),
      ...(options.models ? { models: options.models } : {}),
    })
    config = await writeLoopConfig(box.root, server.baseUrl, { model: 'loop/m', fastRetries: true })
    await options.extendConfig?.(config)
  }
  const term = startTui({
    cwd: box.workspace,
    env: { ...box.env, ...(typeof options.env === 'function' ? options.env(box) : options.env) },
    args: ['--config', config, ...(options.args ?? [])],
    cols: options.cols ?? 100,
    rows: options.rows ?? 30,
  })
  const run = { term, server, box, config }
  open.push(run)
  await term.waitFor(options.ready ?? 'loop/', 30_000)
  return run
}

/** Types a prompt, waits for its echo in the box, and sends it. */
export async function submit(term: PtySession, text: string): Promise<void> {
  term.type(text)
  await term.waitFor(text)
  term.press('enter')
}

/** Closes every session `openTui` started (and their servers). */
export async function closeAllTuis(): Promise<void> {
  const runs = open.splice(0)
  await Promise.all(runs.map((r) => r.term.close()))
  await Promise.all([...new Set(runs.map((r) => r.server))].map((s) => s.close()))
}

/** A script entry: the model's one move is a bash call of `command`. */
export const bashCall = (command: string) =>
  ({ kind: 'tool-calls', calls: [{ name: 'bash', args: { command } }] }) as const satisfies LoopbackEntry

/**
 * Opens tack in `ask` mode on a script whose first move is a bash call of `command` (then `rest`), sends
 * `prompt` and waits for the permission question; answers the run and the screen showing the question.
 */
export async function askedToRun(
  command: string,
  rest: LoopbackEntry[],
  prompt = 'go',
  options: OpenTuiOptions = {},
): Promise<TuiRun & { readonly question: string }> {
  const run = await openTui([bashCall(command), ...rest], { ...options, args: ['--permission-mode', 'ask'] })
  await submit(run.term, prompt)
  return { ...run, question: await run.term.waitFor('Permission required', 20_000) }
}

/**
 * Sends `prompt` and waits for `answer`; fails if a permission question was drawn meanwhile (any new
 * question writes its title, so the bytes written since the prompt tell).
 */
export async function submitWithoutQuestion(term: PtySession, prompt: string, answer: string): Promise<void> {
  const mark = term.raw().length
  await submit(term, prompt)
  await term.waitFor(answer, 20_000)
  if (term.raw().slice(mark).includes('Permission required'))
    throw new Error(`a permission question was drawn after "${prompt}"\n${term.screen()}`)
}
