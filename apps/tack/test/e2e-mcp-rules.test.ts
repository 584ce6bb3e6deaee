// `--allow` / `--deny` with MCP tool names and wildcards through the real binary (spec 55-mcp.md M8,
// docs/decisions/0230-cli-rules-for-mcp-tools.md): the flags' rules match MCP tools exactly as config rules
// do. server-everything's `toggle-simulated-logging` is annotated neither read-only nor open-world, so it is
// an execute tool (packages/mcp/src/access.ts) that the `ask` mode asks about and, headless with no one to
// ask, does not run; an `--allow` rule lets it run.
import { startLoopbackServer } from '@tack/llm/testing'
import { describe, expect, test } from 'vitest'
import { jsonLines, runTack, sandbox } from './helpers.ts'
import { writeMcpConfig } from './mcp-everything.ts'

const TOOL = 'mcp__everything__toggle-simulated-logging'
const toggleCall = { kind: 'tool-calls' as const, calls: [{ name: TOOL, args: {} }] }

/** One scripted turn calling toggle-simulated-logging with `flags`; the call's result. */
async function toggleWith(flags: readonly string[]) {
  const box = await sandbox()
  const server = await startLoopbackServer({ script: [toggleCall, { kind: 'text' as const, text: 'done' }] })
  try {
    const config = await writeMcpConfig(box.root, server.baseUrl)
    const run = await runTack(
      ['run', '--config', config, '--json', '--model', 'loop/m', ...flags, 'log something'],
      { env: box.env, cwd: box.workspace },
    )
    const result = jsonLines(run.stdout).find((l) => l.type === 'tool/result') as
      | { data: { isError: boolean; error?: { code: string }; content: Array<{ text: string }> } }
      | undefined
    return { run, result: result?.data }
  } finally {
    await server.close()
  }
}

describe('--allow / --deny with MCP tools (55-mcp.md M8)', () => {
  test("--deny 'mcp__everything__*' denies the call even in yolo, naming the rule", async () => {
    const { run, result } = await toggleWith(['--permission-mode', 'yolo', '--deny', 'mcp__everything__*'])
    expect(run.code, run.stderr).toBe(0)
    expect(result?.error?.code).toBe('DENIED')
    expect(result?.content[0]?.text).toContain('mcp__everything__*')
    expect(result?.content[0]?.text).not.toContain('Started simulated')
  })

  test("without a rule the ask mode does not run it; --allow 'mcp__everything__*' does", async () => {
    const asked = await toggleWith(['--permission-mode', 'ask'])
    expect(asked.run.code, asked.run.stderr).toBe(0)
    expect(asked.result?.isError).toBe(true)
    expect(asked.result?.content[0]?.text).not.toContain('Started simulated')
    const allowed = await toggleWith(['--permission-mode', 'ask', '--allow', 'mcp__everything__*'])
    expect(allowed.run.code, allowed.run.stderr).toBe(0)
    expect(allowed.result?.isError).toBe(false)
    expect(allowed.result?.content[0]?.text).toContain('Started simulated')
  })

  test('an exact MCP tool name is a rule too, and needs no server that is up', async () => {
    const { run, result } = await toggleWith(['--deny', TOOL, '--deny', 'mcp__gone__tool'])
    expect(run.code, run.stderr).toBe(0)
    expect(result?.error?.code).toBe('DENIED')
  })
})
