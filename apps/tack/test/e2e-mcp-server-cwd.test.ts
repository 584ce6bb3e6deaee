// A stdio server's `cwd` (docs/decisions/0260-mcp-hostile-sources.md), through the real binary: in tack
// config it is taken from the config file's folder and the server runs there; one that does not exist
// makes that server invalid with one line; in `.mcp.json` it is taken from the workspace and must stay
// inside it.
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { runTack, sandbox } from './helpers.ts'
import { writeMcpConfig } from './mcp-everything.ts'

/** A stdio server that writes the folder it runs in to `marker`, then exits. */
const cwdSpy = (marker: string, cwd: string) => ({
  type: 'stdio',
  command: process.execPath,
  args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, process.cwd())`],
  cwd,
})

test('tack config: a relative cwd is the config file’s folder’s; a missing one is invalid with one line', async () => {
  const box = await sandbox()
  await mkdir(join(box.root, 'server-home'))
  const marker = join(box.root, 'ran-in')
  const config = await writeMcpConfig(box.root, 'http://127.0.0.1:9', {
    spy: cwdSpy(marker, 'server-home'),
    lost: cwdSpy(join(box.root, 'never'), 'no-such-folder'),
  })
  const list = await runTack(['mcp', 'list', '--config', config], { env: box.env, cwd: box.workspace })
  expect(await readFile(marker, 'utf8')).toBe(join(box.root, 'server-home'))
  expect(list.stdout).toMatch(/^lost\s+tack config\s+stdio\s+invalid\s/m)
  expect(list.stdout).toContain(
    `  MCP server lost in tack config: cwd ${join(box.root, 'no-such-folder')} is not an existing folder — skipped`,
  )
  expect(existsSync(join(box.root, 'never'))).toBe(false)
}, 60_000)

test('.mcp.json: cwd is taken from the workspace and may not leave it', async () => {
  const box = await sandbox()
  await mkdir(join(box.workspace, 'sub'))
  const file = join(box.workspace, '.mcp.json')
  await writeFile(
    file,
    JSON.stringify({
      mcpServers: { inside: { command: 'x', cwd: 'sub' }, outside: { command: 'y', cwd: '../' } },
    }),
  )
  const list = await runTack(['mcp', 'list', '--no-connect'], { env: box.env, cwd: box.workspace })
  expect(list.code, list.stderr).toBe(0)
  expect(list.stdout).toMatch(/^inside\s+\.mcp\.json\s+stdio\s+untrusted\s/m)
  expect(list.stdout).toMatch(/^outside\s+\.mcp\.json\s+stdio\s+invalid\s/m)
  expect(list.stdout).toContain(
    `  MCP server outside in ${file}: cwd ../ is outside the workspace (a .mcp.json cwd must stay inside it) — skipped`,
  )
})
