// `/mcp` through the real binary (spec 55-mcp.md M5, packages/mcp/src/mcp-command.ts): the session's
// servers with state, tools and prompts count and the last error; `/mcp reconnect NAME` starts one again.
// `tack run "/mcp"` runs the command from the one registry every host shows, and asks no model.
import { describe, expect, test } from 'vitest'
import { runTack, sandbox } from './helpers.ts'
import { brokenServer, writeMcpConfig } from './mcp-everything.ts'

const broken = brokenServer

async function slash(task: string) {
  const box = await sandbox()
  // No model is asked: the URL is never reached.
  const config = await writeMcpConfig(box.root, 'http://127.0.0.1:9', { broken })
  return runTack(['run', '--config', config, '--model', 'loop/m', task], { env: box.env, cwd: box.workspace })
}

describe('/mcp', () => {
  test('lists each server: connected with its tools and prompts, or failed with its error', async () => {
    const run = await slash('/mcp')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^everything: connected, 1[0-9] tools, [1-9] prompts$/m)
    expect(run.stdout).toMatch(/^broken: failed — .*missing token/m)
  })

  test('/mcp reconnect NAME starts it again; an unknown name is an error naming the servers', async () => {
    const again = await slash('/mcp reconnect everything')
    expect(again.code, again.stderr).toBe(0)
    expect(again.stdout).toMatch(/^reconnected everything: 1[0-9] tools, [1-9] prompts$/m)
    const failed = await slash('/mcp reconnect broken')
    expect(failed.code).toBe(1)
    expect(failed.stderr).toContain('/mcp reconnect broken: it did not start')
    const unknown = await slash('/mcp reconnect nope')
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('no MCP server named nope (servers: everything, broken)')
  })
})
