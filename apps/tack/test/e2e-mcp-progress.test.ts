// An MCP server's progress notifications through the real binary (issue 24 item 1): server-everything's
// `trigger-long-running-operation` reports each step when tack's call carries a progress token; tack
// logs them as `tool/progress` (shown on the call's card) before the result, and the model never reads
// them.
import { startLoopbackServer } from '@tack/llm/testing'
import { expect, test } from 'vitest'
import { jsonLines, runTack, sandbox } from './helpers.ts'
import { writeMcpConfig } from './mcp-everything.ts'

test('progress notifications are logged as tool/progress before the result, and kept from the model', async () => {
  const box = await sandbox()
  const server = await startLoopbackServer({
    script: [
      {
        kind: 'tool-calls',
        calls: [
          { name: 'mcp__everything__trigger-long-running-operation', args: { duration: 1.5, steps: 3 } },
        ],
      },
      { kind: 'text', text: 'done' },
    ],
  })
  try {
    const config = await writeMcpConfig(box.root, server.baseUrl)
    const run = await runTack(
      ['run', '--config', config, '--json', '--permission-mode', 'yolo', '--model', 'loop/m', 'go'],
      { env: box.env, cwd: box.workspace },
    )
    expect(run.code, run.stderr).toBe(0)
    const events = jsonLines(run.stdout)
    const progress = events.filter((e) => e.type === 'tool/progress').map((e) => e.data)
    // The SDK drops a report that arrives with the result (it forgets the token on the response), so
    // the last step's may be missing; the earlier ones are not.
    expect(progress.slice(0, 2)).toEqual([
      { callId: 'call_1', progress: 1, total: 3 },
      { callId: 'call_1', progress: 2, total: 3 },
    ])
    expect(progress.length).toBeLessThanOrEqual(3)
    const types = events.map((e) => e.type)
    expect(types.lastIndexOf('tool/progress')).toBeLessThan(types.indexOf('tool/result'))
    const result = events.find((e) => e.type === 'tool/result')?.data as { isError: boolean }
    expect(result.isError).toBe(false)
    expect(JSON.stringify(server.requests[1])).toContain('Long running operation completed')
    expect(JSON.stringify(server.requests[1])).not.toContain('tool/progress')
  } finally {
    await server.close()
  }
}, 60_000)
