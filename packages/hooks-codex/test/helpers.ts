// Test helpers: temporary Codex homes with a hooks.json, real shell scripts, and a real agent loop
// (scripted model only) with the bash and file tools and the bridge loaded. The workspace is a fresh
// temp folder, never the process cwd.
import { type ConfigInput, Context } from '@tack/kernel'
import { chmod, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AgentOptions } from '@tack/agent'
import {
  createTestAgent,
  type ScriptEntry,
  type TestAgent,
  type TestPlugin,
  text,
  toolCalls,
} from '@tack/agent/testing'
import { SubagentPlugin } from '@tack/subagent'
import type { HookInvocation, HookResult } from '@tack/hook-protocol'
import type { SessionEvent } from '@tack/session'
import { waitForLine } from '@tack/process/testing'
import { BashToolPlugin } from '@tack/tool-bash'
import { FsToolsPlugin } from '@tack/tool-fs'
import { type ToolRegistry, ToolsPlugin } from '@tack/tools'
import type { HooksCodexConfig } from '../src/config.ts'
import { HooksCodexPlugin } from '../src/plugin.ts'

/** The registry with tack's built-in bash and file tools, whose declarations carry their Codex names. */
export async function builtInTools(): Promise<ToolRegistry> {
  const ctx = new Context()
  await ctx.plugin(ToolsPlugin, {})
  await ctx.plugin(BashToolPlugin, {})
  await ctx.plugin(FsToolsPlugin, {})
  return ctx.tools
}

export function tempDir(prefix = 'tack-codex-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix))
}

/** Writes an executable bash script and returns its path. */
export async function script(dir: string, name: string, body: string): Promise<string> {
  const path = join(dir, name)
  await writeFile(path, `#!/usr/bin/env bash\n${body}\n`)
  await chmod(path, 0o755)
  return path
}

export interface Homes {
  /** CODEX_HOME: holds the user-layer hooks.json. */
  readonly codexHome: string
  /** The project folder whose `.codex/hooks.json` is the project layer. */
  readonly projectDir: string
  /** The bridge's data folder (hook-hash trust store, transcripts). */
  readonly dataDir: string
  /** tack's home: its `trusted-workspaces.json` decides workspace trust. */
  readonly tackHome: string
  /** Where tests put their scripts and captured files. */
  readonly work: string
  /** The agent's workspace. */
  readonly workspace: string
}

export async function homes(): Promise<Homes> {
  const root = await tempDir()
  const h = {
    codexHome: join(root, 'codex-home'),
    projectDir: join(root, 'project'),
    dataDir: join(root, 'tack-data'),
    tackHome: join(root, 'tack-home'),
    work: join(root, 'work'),
    workspace: join(root, 'workspace'),
  }
  for (const dir of Object.values(h)) await mkdir(dir, { recursive: true })
  return h
}

/** Writes `<codexHome>/hooks.json`. */
export async function writeUserHooks(h: Homes, hooks: unknown): Promise<string> {
  const path = join(h.codexHome, 'hooks.json')
  await writeFile(path, JSON.stringify(hooks, null, 2))
  return path
}

/** Writes `<folder>/.codex/hooks.json`, the project layer when `folder` is the project. */
export async function writeProjectHooks(folder: string, hooks: unknown): Promise<string> {
  await mkdir(join(folder, '.codex'), { recursive: true })
  const path = join(folder, '.codex', 'hooks.json')
  await writeFile(path, JSON.stringify(hooks, null, 2))
  return path
}

/** A hooks.json `hooks` object with one command handler per event entry. */
export function hooksJson(
  groups: Record<string, Array<{ matcher?: string; command: string; timeout?: number }>>,
): unknown {
  return {
    hooks: Object.fromEntries(
      Object.entries(groups).map(([event, list]) => [
        event,
        list.map(({ matcher, command, timeout }) => ({
          ...(matcher !== undefined ? { matcher } : {}),
          hooks: [{ type: 'command', command, ...(timeout !== undefined ? { timeout } : {}) }],
        })),
      ]),
    ),
  }
}

export interface CodexAgentOptions {
  readonly homes: Homes
  readonly script?: readonly ScriptEntry[]
  readonly config?: ConfigInput<typeof HooksCodexConfig>
  /** Record every discovered hook's hash before the agent starts (default true). */
  readonly trustAll?: boolean
  readonly agentOptions?: AgentOptions
  readonly plugins?: readonly TestPlugin[]
  readonly setup?: (ctx: Context) => unknown
}

/** A real agent loop with bash, the file tools and the Codex bridge over `homes`. */
export async function codexAgent(opts: CodexAgentOptions): Promise<TestAgent> {
  const h = opts.homes
  return createTestAgent({
    cwd: h.workspace,
    script: opts.script ?? [],
    ...(opts.agentOptions ? { agentOptions: opts.agentOptions } : {}),
    plugins: [
      { plugin: BashToolPlugin },
      { plugin: FsToolsPlugin },
      ...(opts.plugins ?? []),
      {
        plugin: HooksCodexPlugin,
        config: {
          codexHome: h.codexHome,
          projectDir: h.projectDir,
          dataDir: h.dataDir,
          tackHome: h.tackHome,
          // These tests are about hooks and their hash trust: the workspace counts as trusted unless a
          // test says otherwise (workspace trust is tested in discovery.test.ts).
          assumeTrusted: true,
          ...(opts.config ?? {}),
        },
      },
    ],
    setup: async (ctx) => {
      if (opts.trustAll !== false) await ctx.hooksCodex.trust()
      await opts.setup?.(ctx)
    },
  })
}

export const user = (content: string) => ({ content, source: { kind: 'user' as const } })

export function eventsOf<T extends SessionEvent['type']>(t: TestAgent, type: T): SessionEvent<T>[] {
  return t.events().filter((e): e is SessionEvent<T> => e.type === type)
}

export const hookResults = (t: TestAgent): HookResult[] =>
  eventsOf(t, 'hook/result').map((e) => e.data as unknown as HookResult)
export const hookInvocations = (t: TestAgent): HookInvocation[] =>
  eventsOf(t, 'hook/invoked').map((e) => e.data as unknown as HookInvocation)

/** The text of each `context/message` the bridge added. */
export function bridgeContexts(t: TestAgent): string[] {
  return eventsOf(t, 'context/message')
    .filter((e) => e.data.source.kind === 'plugin' && e.data.source.name === 'hooks-codex')
    .map((e) => e.data.content.map((b) => b.text).join(''))
}

/**
 * A hook that appends its stdin as one line to `<work>/<name>.jsonl`, then runs `then` (e.g. prints a
 * JSON answer). Read the lines back with `capturedLines`.
 */
export function captureHook(h: Homes, name: string, then = ''): Promise<string> {
  const file = join(h.work, `${name}.jsonl`)
  return script(h.work, `${name}.sh`, `cat >> "${file}"; echo >> "${file}"\n${then}`)
}

/** A `captureHook` that prints `out` as JSON after recording its stdin. */
export function answeringHook(h: Homes, name: string, out: unknown, then = ''): Promise<string> {
  return captureHook(h, name, `echo '${JSON.stringify(out)}'\n${then}`)
}

/** The payloads a `captureHook` recorded, in order (none when it never ran). */
export async function capturedLines(h: Homes, name: string): Promise<Record<string, unknown>[]> {
  const raw = await readFile(join(h.work, `${name}.jsonl`), 'utf8').catch(() => '')
  return raw
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
}

/**
 * The common fields (protocols.md §B.3) of a payload from `t`'s top-level agent in turn `turn`, with
 * the scripted model and no permission mode set (`default`).
 */
export function commonPayload(t: TestAgent, h: Homes, event: string, turn = 1): Record<string, unknown> {
  const id = t.agent.session.id
  return {
    session_id: id,
    turn_id: `${id}:${turn}`,
    transcript_path: join(h.dataDir, 'codex-transcripts', `${id}.jsonl`),
    cwd: h.workspace,
    hook_event_name: event,
    model: 'scripted/test',
    permission_mode: 'default',
  }
}

export async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, 'utf8'))
}

// Process liveness and waiting for a pid file come from the process runner's own test helpers.
export { isGone, waitForLine } from '@tack/process/testing'

export interface EverySession {
  readonly t: TestAgent
  /** Each payload a hook received, as it came on stdin, in the order the hooks ran. */
  payloads(): Promise<string[]>
}

/**
 * A realistic session in yolo mode that passes every point: a hook recording its stdin on all seven
 * events, and a turn that runs bash and read, edits `notes.txt`, writes `new.txt`, has a subagent run
 * `ls`, and answers `all done`. Send it `user('do everything')`.
 */
export async function everyEventSession(h: Homes): Promise<EverySession> {
  await writeFile(join(h.workspace, 'notes.txt'), 'a\nb\n')
  const captures = join(h.work, 'payloads')
  const capture = await script(
    h.work,
    'capture.sh',
    `mkdir -p "${captures}"; n=$(ls "${captures}" | wc -l); cat > "${captures}/$(printf %04d "$n").json"`,
  )
  const all = [{ command: capture }]
  await writeUserHooks(
    h,
    hooksJson({
      SessionStart: all,
      UserPromptSubmit: all,
      PreToolUse: all,
      PostToolUse: all,
      SubagentStart: all,
      SubagentStop: all,
      Stop: all,
    }),
  )
  const t = await codexAgent({
    homes: h,
    plugins: [{ plugin: SubagentPlugin }],
    agentOptions: { permissionMode: 'yolo' },
    script: [
      toolCalls([
        { name: 'bash', args: { command: 'echo hi' } },
        { name: 'read', args: { file_path: 'notes.txt' } },
      ]),
      toolCalls([{ name: 'edit', args: { file_path: 'notes.txt', old_string: 'b', new_string: 'B' } }]),
      toolCalls([{ name: 'write', args: { file_path: 'new.txt', content: 'n\n' } }]),
      toolCalls([{ name: 'subagent', args: { description: 'child', prompt: 'run ls' } }]),
      // the child's turn
      toolCalls([{ name: 'bash', args: { command: 'ls' } }]),
      text('child done'),
      // back in the parent
      text('all done'),
    ],
  })
  const payloads = async () => {
    const files = (await readdir(captures)).sort()
    return Promise.all(files.map((f) => readFile(join(captures, f), 'utf8')))
  }
  return { t, payloads }
}

/**
 * A Codex agent whose one `point` hook writes its pid to `<work>/pid` and then sleeps for 600 s: for
 * tests that a cancel kills it. `pid` resolves once the hook runs.
 */
export async function agentWithSleepingHook(
  point: string,
  entries: readonly ScriptEntry[],
): Promise<{ t: TestAgent; pid: () => Promise<number> }> {
  const h = await homes()
  const hook = await script(h.work, 'slow.sh', `echo $$ > "$(dirname "$0")/pid"; exec sleep 600`)
  await writeUserHooks(h, hooksJson({ [point]: [{ command: hook }] }))
  const t = await codexAgent({ homes: h, script: entries })
  return { t, pid: async () => Number(await waitForLine(join(h.work, 'pid'))) }
}
