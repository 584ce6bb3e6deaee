// Shared test helpers: temp folders, process liveness and waiting for a file a command writes.
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import type { ToolCallRequest, ToolExecutionResult } from '@tack/tools'
import { createToolsContext } from '@tack/tools/testing'
import type { Context } from 'cordis'
import type { RunOptions } from '../src/backend.ts'
import type { BashToolConfigInput } from '../src/config.ts'
import { BashToolPlugin } from '../src/plugin.ts'

export function tempDir(prefix = 'tack-bash-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix))
}

/**
 * Whether `pid` is gone: `kill -0` fails, or the process is a zombie — already dead, waiting for PID 1
 * to reap it (in some containers PID 1 reaps orphans only every second or so, and until then
 * `kill -0` still succeeds on the corpse).
 */
export function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return true
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]
    return state === 'Z' || state === 'X'
  } catch {
    return true
  }
}

/** Waits until `path` holds a line ending in a newline, and returns it without the newline. */
export async function waitForLine(path: string): Promise<string> {
  for (;;) {
    if (existsSync(path)) {
      const text = await readFile(path, 'utf8')
      if (text.endsWith('\n')) return text.slice(0, -1)
    }
    await delay(10)
  }
}

/** Reads a pid a command wrote to `path`. */
export async function readPid(path: string): Promise<number> {
  const pid = Number(await waitForLine(path))
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`no pid in ${path}`)
  return pid
}

/** Backend options for a quick command; tests override what they exercise. */
export function runOptions(cwd: string, overrides: Partial<RunOptions> & { command: string }): RunOptions {
  return {
    cwd,
    env: process.env,
    timeoutMs: 20_000,
    graceMs: 200,
    maxOutputBytes: 64_000,
    merge: true,
    ...overrides,
  }
}

let calls = 0

/** A bash call as the loop makes it: raw argument text, not yet validated. */
export function bashCall(
  args: Record<string, unknown>,
  cwd: string,
  extra: { signal?: AbortSignal; callId?: string } = {},
): ToolCallRequest {
  return {
    callId: extra.callId ?? `call_${++calls}`,
    name: 'bash',
    rawArguments: JSON.stringify(args),
    cwd,
    signal: extra.signal ?? new AbortController().signal,
  }
}

/** A real registry with the bash tool loaded with `config`. */
export async function bashContext(config: BashToolConfigInput = {}): Promise<Context> {
  const ctx = await createToolsContext()
  await ctx.plugin(BashToolPlugin, config)
  return ctx
}

/** The text of a result's content. */
export function textOf(result: ToolExecutionResult): string {
  return result.content.map((block) => block.text).join('\n')
}
