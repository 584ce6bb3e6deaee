// Shared test helpers: temp folders, bash calls through a real registry, result text. Process liveness
// and pid files come from `@tack/process/testing`.
export { isGone, readPid, waitForLine } from '@tack/process/testing'
import type { ConfigInput } from '@tack/kernel'
import { tempDir as processTempDir } from '@tack/process/testing'
import type { ToolCallRequest, ToolExecutionResult } from '@tack/tools'
import { createToolsContext } from '@tack/tools/testing'
import type { Context } from 'cordis'
import type { BashToolConfig } from '../src/config.ts'
import { BashToolPlugin } from '../src/plugin.ts'

export function tempDir(prefix = 'tack-bash-test-'): Promise<string> {
  return processTempDir(prefix)
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

/**
 * A real registry with the bash tool loaded with `config`. Unless `config` says otherwise the sandbox is
 * off: these tests pin the runner's own behaviour (host pids, signals, leftovers); sandboxed calls are
 * tested with `sandbox: 'on'` in sandbox.test.ts.
 */
export async function bashContext(config: ConfigInput<typeof BashToolConfig> = {}): Promise<Context> {
  const ctx = await createToolsContext()
  await ctx.plugin(BashToolPlugin, { sandbox: 'off', ...config })
  return ctx
}

/** The text of a result's content. */
export function textOf(result: ToolExecutionResult): string {
  return result.content.map((block) => block.text).join('\n')
}
