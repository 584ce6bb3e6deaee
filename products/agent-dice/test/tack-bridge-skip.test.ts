// R22 "no double rolls": with the tack plugin enabled, agent-dice's own Codex hooks that the Codex bridge
// discovered are skipped (and listed as skipped with the reason), while an unrelated hook still runs.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bootKernel } from '@tack/agent/testing'
import { HooksCodexPlugin } from '@tack/hooks-codex'
import { expect, test } from 'vitest'
import * as diceTack from '../src/tack/index.ts'

test('R22 agent-dice skips its own Codex hooks discovered by the Codex bridge; other hooks still run', async () => {
  const root = await mkdtemp(join(tmpdir(), 'dice-skip-'))
  const codexHome = join(root, 'codex')
  await mkdir(codexHome, { recursive: true })
  const diceHook = `node ${join(root, 'node_modules/agent-dice/hooks/agent-dice-codex-stop.js')}`
  await writeFile(
    join(codexHome, 'hooks.json'),
    JSON.stringify({
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'command', command: diceHook },
              { type: 'command', command: 'echo other' },
            ],
          },
        ],
      },
    }),
  )
  const { ctx } = await bootKernel({
    plugins: [
      { plugin: HooksCodexPlugin, config: { codexHome, projectDir: root, dataDir: root, trust: 'off' } },
      {
        plugin: { name: diceTack.name, Config: diceTack.Config, apply: diceTack.apply },
        config: { base: join(root, 'dice') },
      },
    ],
  })
  const listed = ctx.hooksCodex.list()
  const dice = listed.find((h) => h.command === diceHook)
  const other = listed.find((h) => h.command === 'echo other')
  expect(dice?.runs).toBe(false)
  expect(dice?.reason).toContain('agent-dice runs natively in tack')
  expect(other?.runs).toBe(true)
})
