// MCP prompts as slash commands through the real binary (spec 55-mcp.md M10): server-everything's
// `args-prompt` (city required, state optional) runs as `/mcp__everything__args-prompt Paris France`,
// its words filling the declared arguments in order, and its message text is what the model is sent as
// the user's prompt; a missing required argument is an error naming it, and nothing reaches the model.
import { startLoopbackServer } from '@tack/llm/testing'
import { describe, expect, test } from 'vitest'
import { runTack, sandbox } from './helpers.ts'
import { writeMcpConfig } from './mcp-everything.ts'

async function runSlash(task: string) {
  const box = await sandbox()
  const server = await startLoopbackServer({ script: [{ kind: 'text' as const, text: 'sunny' }] })
  try {
    const config = await writeMcpConfig(box.root, server.baseUrl)
    const run = await runTack(['run', '--config', config, '--model', 'loop/m', task], {
      env: box.env,
      cwd: box.workspace,
    })
    return { run, requests: server.requests }
  } finally {
    await server.close()
  }
}

describe('MCP prompts as slash commands (55-mcp.md M10)', () => {
  test('/mcp__everything__args-prompt Paris France sends the prompt text as the user prompt', async () => {
    const { run, requests } = await runSlash('/mcp__everything__args-prompt Paris France')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('sunny')
    expect(requests).toHaveLength(1)
    const sent = JSON.stringify(requests[0])
    expect(sent).toContain("What's weather in Paris, France?")
    expect(sent).not.toContain('/mcp__everything__args-prompt')
  })

  test('an optional argument may be left out; a missing required one is an error naming it', async () => {
    const only = await runSlash('/mcp__everything__args-prompt "New York"')
    expect(only.run.code, only.run.stderr).toBe(0)
    expect(JSON.stringify(only.requests[0])).toContain("What's weather in New York?")
    const none = await runSlash('/mcp__everything__args-prompt')
    expect(none.run.code).toBe(1)
    expect(none.run.stderr).toContain('missing city (arguments in order: <city> [state])')
    expect(none.requests).toHaveLength(0)
  })
})
