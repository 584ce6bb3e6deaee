// Shared helpers for @tack/hooks-claude tests: temp folders, real shell scripts, settings files, and a
// test agent with the real loop, the real bash tool and the bridge (only the model is scripted).
import type { ConfigInput } from '@tack/kernel'
import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestAgent, type TestAgent, type TestAgentOptions, type TestPlugin } from '@tack/agent/testing'
import type { LlmRequest } from '@tack/agent'
import type { SessionEvent, SessionEventType } from '@tack/session'
import { BashToolPlugin } from '@tack/tool-bash'
import type { Context } from 'cordis'
import { HooksClaudePlugin, type HooksClaudeConfig } from '../src/index.ts'

export async function tempDir(prefix = 'tack-hc-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix))
}

/** Writes an executable script (bash unless the body has its own shebang) and returns its path. */
export async function script(dir: string, name: string, body: string): Promise<string> {
  const path = join(dir, name)
  await writeFile(path, body.startsWith('#!') ? body : `#!/usr/bin/env bash\n${body}\n`)
  await chmod(path, 0o755)
  return path
}

/** A settings file `{hooks}` (plus extra top-level keys) at `path`, folders created. */
export async function writeSettings(
  path: string,
  hooks: unknown,
  extra: Record<string, unknown> = {},
): Promise<string> {
  await mkdir(join(path, '..'), { recursive: true })
  await writeFile(path, JSON.stringify({ ...extra, hooks }, null, 2))
  return path
}

/** A command hook running `<project>/.claude/hooks/<name>`, as a project's settings name its scripts. */
export function projectHookCommand(name: string, extra: Record<string, unknown> = {}) {
  return { type: 'command', command: `"$CLAUDE_PROJECT_DIR"/.claude/hooks/${name}`, ...extra }
}

/** `{Event: [{matcher?, hooks: [{type: 'command', command, ...}]}]}` for one command. */
export function hook(event: string, command: string, opts: { matcher?: string; [k: string]: unknown } = {}) {
  const { matcher, ...rest } = opts
  return {
    [event]: [
      { ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: 'command', command, ...rest }] },
    ],
  }
}

export interface CapturedLog {
  readonly type: string
  readonly name: string
  readonly text: string
}

function captureLogs(ctx: Context, into: CapturedLog[]): void {
  ctx.logger.exporter({
    export(message) {
      const [format, ...args] = message.args
      let i = 0
      const text = String(format).replace(/%[sdo]/g, () => String(args[i++]))
      into.push({ type: message.type, name: message.name, text })
    },
  })
}

export interface BridgeAgent extends TestAgent {
  readonly home: string
  readonly dataDir: string
  readonly logs: CapturedLog[]
  /** Warnings of the bridge. */
  warnings(): string[]
  /** Events of the given types, in order. */
  of<T extends SessionEventType>(type: T): SessionEvent<T>[]
  /** Every request's messages flattened to text, per request. */
  requestTexts(): string[]
  transcriptPath(): string
}

export interface BridgeAgentOptions extends Omit<TestAgentOptions, 'plugins' | 'cwd'> {
  /** Project hooks, written to `<workspace>/.claude/settings.json`. */
  readonly projectHooks?: unknown
  readonly bridge?: ConfigInput<typeof HooksClaudeConfig>
  readonly plugins?: readonly TestPlugin[]
  /** Plugins loaded before the bridge (e.g. listeners that must come first). */
  readonly before?: readonly TestPlugin[]
  readonly cwd?: string
  readonly home?: string
  readonly bash?: Record<string, unknown>
}

export async function bridgeAgent(opts: BridgeAgentOptions = {}): Promise<BridgeAgent> {
  const cwd = opts.cwd ?? (await tempDir('tack-hc-ws-'))
  const home = opts.home ?? (await tempDir('tack-hc-home-'))
  const dataDir = await tempDir('tack-hc-data-')
  // Never the real ~/.tack: trust is read from here.
  const tackHome = await tempDir('tack-hc-tack-home-')
  if (opts.projectHooks !== undefined)
    await writeSettings(join(cwd, '.claude', 'settings.json'), opts.projectHooks)
  const logs: CapturedLog[] = []
  const t = await createTestAgent({
    ...opts,
    cwd,
    plugins: [
      (ctx: Context) => captureLogs(ctx, logs),
      { plugin: BashToolPlugin, config: { graceMs: 200, ...(opts.bash ?? {}) } },
      ...(opts.before ?? []),
      // These tests are about what hooks do: the workspace counts as trusted unless a test says otherwise
      // (trust itself is tested in discovery.test.ts, B1 trust).
      {
        plugin: HooksClaudePlugin,
        config: { home, dataDir, tackHome, assumeTrusted: true, ...(opts.bridge ?? {}) },
      },
      ...(opts.plugins ?? []),
    ],
  })
  const transcriptDir = opts.bridge?.transcriptDir ?? join(dataDir, 'claude-transcripts')
  return {
    ...t,
    dispose: t.dispose,
    home,
    dataDir,
    logs,
    warnings: () => logs.filter((l) => l.type === 'warn' && l.name === 'hooks-claude').map((l) => l.text),
    of: <T extends SessionEventType>(type: T) =>
      t.events().filter((e): e is SessionEvent<T> => e.type === type),
    requestTexts: () => t.model.requests.map(requestText),
    transcriptPath: () => join(transcriptDir, `${t.agent.session.id}.jsonl`),
  }
}

export function requestText(request: LlmRequest): string {
  return request.messages
    .map((m) =>
      m.content
        .map((b) => ('text' in b ? b.text : b.type === 'tool-call' ? `[call ${b.name} ${b.arguments}]` : ''))
        .join('\n'),
    )
    .join('\n---\n')
}

export const prompt = (content: string) => ({ content, source: { kind: 'user' } as const })

export async function readJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>
}

/** Whether a process is alive (zombies count as gone). */
export async function alive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'latin1')
    return !['Z', 'X'].includes(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0])
  } catch {
    return false
  }
}

/** A hook command that appends its payload (one line) to `file`, then runs `then`. */
export const recordTo = (file: string, then = '') => `cat >> '${file}'${then ? `; ${then}` : ''}`

/** The payloads a `recordTo` hook appended, in order. */
export async function recorded(file: string): Promise<Array<Record<string, unknown>>> {
  const raw = await readFile(file, 'utf8').catch(() => '')
  return raw
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
}

/** Resolves once `check` holds (polled), or fails after `ms`. */
export async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 25))
  }
}
