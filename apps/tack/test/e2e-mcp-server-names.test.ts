// Server names that would break tool names or lookups (docs/decisions/0260-mcp-hostile-sources.md),
// through the real binary: a name with `__` (which would let `mcp__a__*` match server `a__b`'s tools) or
// the empty name is refused with the rule wherever it comes from, and the others still start; names that
// are JavaScript built-in property names (`toString`, `constructor`) are approved and listed like any other.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startLoopbackServer } from '@tack/llm/testing'
import { describe, expect, test } from 'vitest'
import { runTack, sandbox } from './helpers.ts'
import { everythingServer, writeMcpConfig } from './mcp-everything.ts'

const RULE = 'a server name must not contain "__"'

describe('server names with __ or empty', () => {
  test('tack config: refused with the rule; an allow rule for `everything` cannot reach `everything__x`', async () => {
    const box = await sandbox()
    const server = await startLoopbackServer({
      script: [
        { kind: 'tool-calls', calls: [{ name: 'mcp__everything__x__echo', args: { message: 'hi' } }] },
        { kind: 'text', text: 'done' },
      ],
    })
    try {
      const config = await writeMcpConfig(box.root, server.baseUrl, {
        everything__x: everythingServer,
        '': everythingServer,
      })
      const args = ['run', '--config', config, '--model', 'loop/m', '--allow', 'mcp__everything__*', 'go']
      const run = await runTack(args, { env: box.env, cwd: box.workspace })
      expect(run.code, run.stderr).toBe(0)
      expect(run.stderr).toContain(`MCP server everything__x in tack config: ${RULE}`)
      expect(run.stderr).toContain('MCP server "" in tack config: a server name must not be empty')
      const offered = JSON.stringify(server.requests[0])
      expect(offered).toContain('mcp__everything__echo')
      expect(offered).not.toContain('mcp__everything__x__')
    } finally {
      await server.close()
    }
  }, 60_000)

  test('.mcp.json: the row is invalid with the rule; tack mcp add refuses both', async () => {
    const box = await sandbox()
    const file = join(box.workspace, '.mcp.json')
    await writeFile(file, JSON.stringify({ mcpServers: { a__b: { command: 'x' }, ok: { command: 'y' } } }))
    const list = await runTack(['mcp', 'list', '--no-connect'], { env: box.env, cwd: box.workspace })
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toMatch(/^a__b\s+\.mcp\.json\s+stdio\s+invalid\s/m)
    expect(list.stdout).toContain(`  MCP server a__b in ${file}: ${RULE}`)
    expect(list.stdout).toMatch(/^ok\s+\.mcp\.json\s+stdio\s+untrusted\s/m)
    for (const name of ['a__b', '']) {
      const add = await runTack(['mcp', 'add', name, '--', 'some-server'], {
        env: box.env,
        cwd: box.workspace,
      })
      expect(add.code).toBe(2)
      expect(add.stderr).toMatch(/^tack: mcp add: a server name must not (contain "__"|be empty)/)
    }
  })
})

test('toString and constructor are names like any other: approving one approves only it', async () => {
  const box = await sandbox()
  await writeFile(
    join(box.workspace, '.mcp.json'),
    // written as text: `__proto__` in an object literal would set the prototype, not a key
    '{"mcpServers":{"toString":{"command":"x"},"constructor":{"command":"y"},"__proto__":{"command":"z"}}}',
  )
  const at = { env: box.env, cwd: box.workspace }
  expect((await runTack(['trust'], at)).code).toBe(0)
  const before = await runTack(['mcp', 'list', '--no-connect'], at)
  expect(before.stdout).toMatch(/^toString\s+\.mcp\.json\s+stdio\s+not approved\s/m)
  expect(before.stdout).toMatch(/^constructor\s+\.mcp\.json\s+stdio\s+not approved\s/m)
  expect(before.stdout).toMatch(/^__proto__\s+\.mcp\.json\s+stdio\s+invalid\s/m)
  const approve = await runTack(['mcp', 'approve', 'toString'], at)
  expect(approve.code, approve.stderr).toBe(0)
  const after = await runTack(['mcp', 'list', '--no-connect'], at)
  expect(after.stdout).toMatch(/^toString\s+\.mcp\.json\s+stdio\s+starts\s/m)
  expect(after.stdout).toMatch(/^constructor\s+\.mcp\.json\s+stdio\s+not approved\s/m)
  expect(after.stdout).toMatch(/^__proto__\s+\.mcp\.json\s+stdio\s+invalid\s/m)
  const store = JSON.parse(await readFile(join(box.tackHome, 'mcp-approvals.json'), 'utf8')) as {
    workspaces: Record<string, Record<string, string>>
  }
  expect(Object.keys(Object.values(store.workspaces)[0] ?? {})).toEqual(['toString'])
  // refused by the name rule, `__proto__` cannot be approved either
  const proto = await runTack(['mcp', 'approve', '__proto__'], at)
  expect(proto.code).toBe(2)
  expect(proto.stderr).toContain(RULE)
})
