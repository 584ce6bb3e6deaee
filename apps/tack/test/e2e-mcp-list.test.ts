// `tack mcp list` starts each server this workspace would start and says whether it connected, with its
// tools count, or why it failed (docs/decisions/0231-mcp-list-live-state.md), through the real binary:
// server-everything connects; a command that exits at once fails with its stderr line; `--no-connect`
// starts nothing.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runTack, sandbox } from './helpers.ts'
import { brokenServer, writeMcpConfig } from './mcp-everything.ts'

describe('tack mcp list: live state', () => {
  test('connected with its tools count; a server that exits at once is failed with its error', async () => {
    const box = await sandbox()
    const broken = brokenServer
    const config = await writeMcpConfig(box.root, 'http://127.0.0.1:9', { broken })
    const list = await runTack(['mcp', 'list', '--config', config], { env: box.env, cwd: box.workspace })
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toMatch(/^everything\s+tack config\s+stdio\s+starts\s+connected \(1[0-9] tools\)\s/m)
    expect(list.stdout).toMatch(/^broken\s+tack config\s+stdio\s+starts\s+failed\s/m)
    expect(list.stdout).toMatch(/^ {2}.*\(stderr: missing token\)$/m)

    const json = await runTack(['mcp', 'list', '--json', '--config', config], {
      env: box.env,
      cwd: box.workspace,
    })
    const rows = JSON.parse(json.stdout) as Array<{
      name: string
      live: string
      tools?: number
      error?: string
    }>
    expect(rows.find((r) => r.name === 'everything')).toMatchObject({ live: 'connected' })
    expect(rows.find((r) => r.name === 'everything')?.tools).toBeGreaterThan(5)
    expect(rows.find((r) => r.name === 'broken')?.error).toContain('missing token')
  }, 60_000)

  test('--no-connect starts nothing', async () => {
    const box = await sandbox()
    const marker = join(box.root, 'started')
    const spy = {
      type: 'stdio',
      command: process.execPath,
      args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`],
    }
    const config = await writeMcpConfig(box.root, 'http://127.0.0.1:9', { spy })
    const list = await runTack(['mcp', 'list', '--no-connect', '--config', config], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toMatch(/^spy\s+tack config\s+stdio\s+starts\s+not connected\s/m)
    expect(list.stdout).toMatch(/^everything\s+tack config\s+stdio\s+starts\s+not connected\s/m)
    expect(existsSync(marker)).toBe(false)
  })
})

describe('tack mcp … --help', () => {
  test('each subcommand prints the mcp command’s own usage, not tack’s general help', async () => {
    const box = await sandbox()
    for (const args of [
      ['mcp', '--help'],
      ['mcp', 'list', '--help'],
      ['mcp', 'get', '-h'],
      ['mcp', 'add', 'x', '--help'],
      ['mcp', 'remove', '--help'],
      ['mcp', 'approve', '--help'],
    ]) {
      const run = await runTack(args, { env: box.env, cwd: box.workspace })
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0)
      expect(run.stdout).toMatch(/^usage: tack mcp SUBCOMMAND/)
      expect(run.stdout).toContain('tack mcp list [--json] [--no-connect]')
      // tack's general help lists every command; the mcp usage does not
      expect(run.stdout).not.toContain('tack sessions')
    }
  })

  test('--help after `--` belongs to the server command: `mcp add` records it as an argument', async () => {
    const box = await sandbox()
    const add = await runTack(['mcp', 'add', 'helped', '--', 'some-server', '--help'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(add.code, add.stderr).toBe(0)
    const get = await runTack(['mcp', 'get', 'helped', '--json'], { env: box.env, cwd: box.workspace })
    expect(get.code, get.stderr).toBe(0)
    expect(JSON.parse(get.stdout)[0].definition).toMatchObject({ command: 'some-server', args: ['--help'] })
  })
})
