// Shared helpers for this package's tests: real temp folders, a real cordis Context with the tool
// registry and FsToolsPlugin, real Sessions, and calls through the real pipeline.
import { stubAgent as toolsStubAgent } from '@tack/tools/testing'
import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { ToolAgent } from '@tack/tools'
import type { Session } from '@tack/session'
import { memorySession } from '@tack/session/testing'
import { type ToolCallContext, type ToolExecutionResult, ToolsPlugin } from '@tack/tools'
import { Context, type ConfigInput } from '@tack/kernel'
import { type FsToolsConfig, FsToolsPlugin } from '../src/index.ts'

/** A fresh temp folder (its real path, so expectations need no symlink handling). */
export async function tempDir(prefix = 'tack-fs-'): Promise<string> {
  return realpath(await mkdtemp(join(tmpdir(), prefix)))
}

/** Writes `files` (relative path → content) under `root`, creating folders. */
export async function writeTree(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), content)
  }
}

export async function fsContext(config: ConfigInput<typeof FsToolsConfig> = {}): Promise<Context> {
  const ctx = new Context()
  await ctx.plugin(ToolsPlugin, {})
  await ctx.plugin(FsToolsPlugin, config)
  return ctx
}

export function newSession(cwd: string): Session {
  return memorySession(cwd)
}

/** The agent a call carries (see @tack/tools/testing's stubAgent), rooted at `cwd`. */
export function stubAgent(cwd: string, session = newSession(cwd)): ToolAgent {
  return toolsStubAgent(session, { cwd })
}

let calls = 0

export interface CallOptions {
  readonly cwd: string
  readonly agent?: ToolAgent
  readonly signal?: AbortSignal
}

/** Runs one call through the real pipeline, as the loop does (raw argument text). */
export function run(
  ctx: Context,
  name: string,
  args: unknown,
  options: CallOptions,
): Promise<ToolExecutionResult> {
  return ctx.tools.execute({
    callId: `call_${++calls}`,
    name,
    rawArguments: JSON.stringify(args),
    cwd: options.cwd,
    signal: options.signal ?? new AbortController().signal,
    ...(options.agent && { agent: options.agent }),
  })
}

/**
 * Runs a tool body directly with an approved call context, as the pipeline does once the user (or an
 * allow rule) approved an `ask`. `args` must be complete (defaults are not filled here).
 */
export async function runApproved(
  ctx: Context,
  name: string,
  args: unknown,
  options: CallOptions & { approval: 'user' | 'rule' },
): Promise<unknown> {
  const def = ctx.tools.get(name)
  if (!def) throw new Error(`no tool ${name}`)
  const call: ToolCallContext = {
    callId: `call_${++calls}`,
    cwd: options.cwd,
    signal: options.signal ?? new AbortController().signal,
    approval: options.approval,
    ...(options.agent && { agent: options.agent }),
  }
  return def.execute(args, call)
}

/**
 * A workspace holding `files`, each already read through the tools (so writes and edits are allowed),
 * and `call(name, args)` running a tool there as that same agent (`replaceAll` an edit of every site).
 */
export async function observed(
  files: Record<string, string>,
  config: ConfigInput<typeof FsToolsConfig> = {},
) {
  const cwd = await tempDir()
  await writeTree(cwd, files)
  const ctx = await fsContext(config)
  const agent = stubAgent(cwd)
  const call = (name: string, args: unknown) => run(ctx, name, args, { cwd, agent })
  /** An `edit` of every occurrence of `old_string` in `file_path`. */
  const replaceAll = (file_path: string, old_string: string, new_string: string) =>
    call('edit', { file_path, old_string, new_string, replace_all: true })
  for (const file_path of Object.keys(files)) await call('read', { file_path })
  return { cwd, ctx, agent, call, replaceAll }
}

export const textOf = (result: ToolExecutionResult): string => result.content.map((b) => b.text).join('\n')

/** A deterministic generator in [0, 1) (xorshift), so a randomised test's failure names a reproducible case. */
export function seededRandom(seed: number): () => number {
  let x = seed || 1
  return () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) / 2 ** 32
  }
}
