// The permission mode tack reports and the one a resumed session runs in, through the real binary
// (docs/decisions/0119-reported-and-resumed-permission-mode.md): what `-v` and the `--json` start
// line say is what is in force; a mode an imported session file carries never widens the user's own;
// `tack run "/permissions …"` without -c says it changed nothing that lasts.
import { type LoopbackServer, startLoopbackServer } from '@tack/llm/testing'
import { afterEach, describe, expect, test } from 'vitest'
import { jsonLines, runTack, type Sandbox, sandbox, writeLoopConfig } from './helpers.ts'

let server: LoopbackServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function setUp(script: NonNullable<Parameters<typeof startLoopbackServer>[0]>['script']) {
  const box: Sandbox = await sandbox()
  server = await startLoopbackServer({ script })
  const config = await writeLoopConfig(box.root, server.baseUrl, { model: 'loop/m' })
  const run = (...args: string[]) =>
    runTack(['run', '--config', config, ...args], { env: box.env, cwd: box.workspace })
  return { box, run }
}

const startOf = (stdout: string) => jsonLines(stdout).find((line) => line.type === 'start')

describe('the reported permission mode is the one in force', () => {
  test('after a saved /permissions switch, -v and the --json start line say yolo, naming where it comes from', async () => {
    const { run } = await setUp([
      { kind: 'text', text: 'first' },
      { kind: 'text', text: 'second' },
    ])
    expect((await run('hi')).stdout).toBe('first\n')
    expect((await run('-c', '/permissions yolo')).code).toBe(0)
    const resumed = await run('-c', '-v', '--json', 'x')
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(resumed.stderr).toContain(
      'tack: permission mode: yolo (switched in this session, which wins over workspace-write from the config and flags)\n',
    )
    expect(resumed.stderr).not.toContain('permission mode: workspace-write\n')
    expect(startOf(resumed.stdout)?.permissionMode).toBe('yolo')
  }, 60_000)

  test('a new session reports the configured mode; a flag on a resumed run is what is in force', async () => {
    const { run } = await setUp([
      { kind: 'text', text: 'first' },
      { kind: 'text', text: 'second' },
    ])
    const fresh = await run('-v', '--json', '--permission-mode', 'read-only', 'hi')
    expect(fresh.stderr).toContain('tack: permission mode: read-only\n')
    expect(startOf(fresh.stdout)?.permissionMode).toBe('read-only')
    const flagged = await run('-c', '-v', '--json', '--permission-mode', 'ask', 'again')
    expect(flagged.stderr).toContain('tack: permission mode: ask\n')
    expect(startOf(flagged.stdout)?.permissionMode).toBe('ask')
  }, 60_000)
})
