// MCP through the real binary (spec 55-mcp.md M3, M8): a scripted session with the reference server
// (@modelcontextprotocol/server-everything) in `plugins.mcp.servers` of a --config file calls
// `mcp__everything__echo`; a Claude Code PreToolUse hook matching `mcp__everything__.*` sees that name
// and the arguments as the model sent them, and its deny (exit 2) stops the call.
import { readFile } from 'node:fs/promises'
import { startLoopbackServer } from '@tack/llm/testing'
import { describe, expect, test } from 'vitest'
import { recordClaudeHook } from './claude-hook-recorder.ts'
import { jsonLines, runTack, type Sandbox, sandbox } from './helpers.ts'
import { brokenServer, writeMcpConfig } from './mcp-everything.ts'

const ECHO = { message: 'hello from the model' }
const echoCall = { kind: 'tool-calls' as const, calls: [{ name: 'mcp__everything__echo', args: ECHO }] }

/** A PreToolUse hook for `mcp__everything__.*` that records its input and exits `code` (2: a deny, with a reason). */
const hookRecording = (box: Sandbox, code: number) =>
  recordClaudeHook(box, 'PreToolUse', 'mcp__everything__.*', {
    exit: code === 2 ? { code, stderr: 'no echoes today' } : { code },
  })

/** Runs one scripted turn that calls echo, with server-everything (and `extra` servers) configured; the run and what the model was sent. */
async function runEcho(box: Sandbox, extra: Record<string, unknown> = {}) {
  const server = await startLoopbackServer({ script: [echoCall, { kind: 'text' as const, text: 'done' }] })
  try {
    const config = await writeMcpConfig(box.root, server.baseUrl, extra)
    const run = await runTack(
      [
        'run',
        '--config',
        config,
        '--json',
        '--permission-mode',
        'yolo',
        '--model',
        'loop/m',
        'echo something',
      ],
      { env: box.env, cwd: box.workspace },
    )
    return { run, requests: server.requests }
  } finally {
    await server.close()
  }
}

const toolResult = (stdout: string) =>
  jsonLines(stdout).find((l) => l.type === 'tool/result') as {
    data: { isError: boolean; content: Array<{ text: string }> }
  }

describe('MCP through the real binary', () => {
  test('a scripted session calls mcp__everything__echo; the hook sees its name and input as sent', async () => {
    const box = await sandbox()
    const seen = await hookRecording(box, 0)
    const { run, requests } = await runEcho(box)
    expect(run.code, run.stderr).toBe(0)
    const result = toolResult(run.stdout)
    expect(result.data.isError).toBe(false)
    expect(result.data.content[0]?.text).toBe('Echo: hello from the model')
    expect(JSON.stringify(requests[0])).toContain('mcp__everything__echo')
    expect(JSON.parse(await readFile(seen, 'utf8'))).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'mcp__everything__echo',
      tool_input: ECHO,
    })
  })

  test('a server that does not start: one line on stderr, and the session goes on with the others', async () => {
    const box = await sandbox()
    const broken = brokenServer
    const { run } = await runEcho(box, { broken })
    expect(run.code, run.stderr).toBe(0)
    expect(toolResult(run.stdout).data.isError).toBe(false)
    const lines = run.stderr.split('\n').filter((line) => line.includes('"broken"'))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^tack: mcp: MCP server "broken" did not start: .*missing token/)
  })

  test("the hook's deny (exit 2) stops the call, and the model reads why", async () => {
    const box = await sandbox()
    await hookRecording(box, 2)
    const { run } = await runEcho(box)
    expect(run.code, run.stderr).toBe(0)
    const result = toolResult(run.stdout)
    expect(result.data.isError).toBe(true)
    expect(result.data.content[0]?.text).toContain('no echoes today')
    expect(result.data.content[0]?.text).not.toContain('Echo:')
  })
})
