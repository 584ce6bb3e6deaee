// A workspace file tack reads before trust must not decide how long tack waits or how much it holds
// (docs/decisions/0260-mcp-hostile-sources.md), through the real binary: a `.mcp.json` that is
// /dev/zero or a FIFO is one line naming the file and the run goes on without project servers; a
// `.tack/config.yml` FIFO is a config error, not a hang; `tack mcp list` says why a `.mcp.json` it
// cannot use gives no servers, and fails.
import { execFileSync } from 'node:child_process'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runTack, sandbox, scriptedModel, textAnswers } from './helpers.ts'

const mkfifo = (path: string) => execFileSync('mkfifo', [path])

describe('.mcp.json that is not a small regular file', () => {
  test('/dev/zero: tack run answers and names the file; tack mcp list fails with the same line', async () => {
    const box = await sandbox()
    const file = join(box.workspace, '.mcp.json')
    await symlink('/dev/zero', file)
    const model = await scriptedModel(box.root, textAnswers('hello back'))
    const run = await runTack(['run', '--model', model, 'hi'], { env: box.env, cwd: box.workspace })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('hello back')
    expect(run.stderr).toContain(`${file}: is not a regular file`)
    const list = await runTack(['mcp', 'list', '--no-connect'], { env: box.env, cwd: box.workspace })
    expect(list.code).toBe(1)
    expect(list.stderr).toContain(`tack: ${file}: is not a regular file`)
    expect(list.stdout).not.toContain('no MCP servers configured')
  }, 30_000)

  test('a FIFO: neither tack run nor tack mcp list waits for a writer', async () => {
    const box = await sandbox()
    const file = join(box.workspace, '.mcp.json')
    mkfifo(file)
    const model = await scriptedModel(box.root, textAnswers('still here'))
    const run = await runTack(['run', '--model', model, 'hi'], { env: box.env, cwd: box.workspace })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('still here')
    expect(run.stderr).toContain(`${file}: is not a regular file`)
    const list = await runTack(['mcp', 'list', '--no-connect'], { env: box.env, cwd: box.workspace })
    expect(list.code).toBe(1)
    expect(list.stderr).toContain(`${file}: is not a regular file`)
  }, 30_000)

  test('past 1 MiB: refused with its size, the file is not parsed', async () => {
    const box = await sandbox()
    const file = join(box.workspace, '.mcp.json')
    const pad = ' '.repeat(1024 * 1024)
    await writeFile(file, `{"mcpServers":{"big":{"command":"x"}}}${pad}`)
    const list = await runTack(['mcp', 'list', '--no-connect'], { env: box.env, cwd: box.workspace })
    expect(list.code).toBe(1)
    expect(list.stderr).toMatch(new RegExp(`${file}: is larger than 1048576 bytes \\(\\d+\\)`))
    expect(list.stdout).not.toContain('big')
  })
})

test('a .tack/config.yml FIFO is a config error naming the file, not a hang', async () => {
  const box = await sandbox()
  await mkdir(join(box.workspace, '.tack'))
  const file = join(box.workspace, '.tack', 'config.yml')
  mkfifo(file)
  const model = await scriptedModel(box.root, textAnswers('unused'))
  const run = await runTack(['run', '--model', model, 'hi'], { env: box.env, cwd: box.workspace })
  expect(run.code).toBe(2)
  expect(run.stderr).toContain(`${file}: cannot read YAML: is not a regular file`)
}, 30_000)

describe('tack mcp list with a .mcp.json it cannot use', () => {
  test.each([
    ['{', 'not readable as JSON'],
    ['[]', 'must be a JSON object'],
    ['{"mcpServers":[]}', 'mcpServers must be an object'],
  ])('%s: the problem line, exit 1, not "no MCP servers configured"', async (text, problem) => {
    const box = await sandbox()
    const file = join(box.workspace, '.mcp.json')
    await writeFile(file, text)
    const list = await runTack(['mcp', 'list', '--no-connect'], { env: box.env, cwd: box.workspace })
    expect(list.code).toBe(1)
    expect(list.stderr).toContain(`tack: ${file}: ${problem}`)
    expect(list.stdout).not.toContain('no MCP servers configured')
  })

  test('a server shown invalid carries its reason on the next line', async () => {
    const box = await sandbox()
    const file = join(box.workspace, '.mcp.json')
    await writeFile(file, JSON.stringify({ mcpServers: { odd: { type: 'carrier-pigeon' } } }))
    const list = await runTack(['mcp', 'list', '--no-connect'], { env: box.env, cwd: box.workspace })
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toMatch(/^odd\s+\.mcp\.json\s+carrier-pigeon\s+invalid\s/m)
    expect(list.stdout).toContain(
      `\n  MCP server odd in ${file}: type must be one of stdio, http, sse (got "carrier-pigeon") — skipped\n`,
    )
  })
})
