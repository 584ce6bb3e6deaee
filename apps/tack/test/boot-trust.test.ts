// The hook bridges of a boot read recorded trust per session folder (docs/decisions/0140-acp-trust-per-session.md):
// a boot for a trusted folder does not hand `assumeTrusted` to its bridges, so an agent of that boot working
// in another, untrusted folder runs none of that folder's Claude or Codex project hooks. Run-wide trust
// (`--trust`, `TACK_TRUST=1`) is the one that covers every folder of the run.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { boot } from '../src/boot.ts'
import { resolveSettings } from '../src/settings.ts'
import { trustedForThisRun } from '../src/workspace-trust.ts'
import { sandbox, scriptedModel, textAnswers } from './helpers.ts'
import { folderWithProjectCode, ranIn, trustFolder } from './trust-fixture.ts'

test('a boot for a trusted folder runs no project hook of an untrusted folder one of its agents works in', async () => {
  const box = await sandbox()
  const b = join(box.root, 'b')
  await mkdir(b)
  await folderWithProjectCode(box, b)
  await trustFolder(box, box.workspace)
  // The user's own homes are the sandbox's, not the test machine's.
  await writeFile(
    join(box.tackHome, 'config.yml'),
    `plugins:\n  hooksClaude: { home: ${JSON.stringify(box.home)} }\n  hooksCodex: { codexHome: ${JSON.stringify(join(box.home, '.codex'))} }\n`,
  )
  const model = await scriptedModel(box.root, textAnswers('done'))
  const { settings, paths, cwd, trust } = await resolveSettings({ model }, box.env, box.workspace)
  expect(trust).toMatchObject({ trusted: true, via: 'store' })
  const booted = await boot({ settings, paths, env: box.env, cwd, trust, noSession: true })
  try {
    const { agent } = await booted.ctx.agents.create({ cwd: b, options: { config: { model } } })
    const outcome = await agent.send({ content: 'go', source: { kind: 'user' } })
    expect(outcome.reason.kind).toBe('completed')
    expect(ranIn(b)).toEqual([])
  } finally {
    await booted.close()
  }
})

test('only --trust and TACK_TRUST=1 trust the whole run; recorded trust is per folder', () => {
  expect(trustedForThisRun({ trusted: true, via: 'flag' })).toBe(true)
  expect(trustedForThisRun({ trusted: true, via: 'env' })).toBe(true)
  expect(trustedForThisRun({ trusted: true, via: 'store', root: '/x' })).toBe(false)
  expect(trustedForThisRun({ trusted: false, via: 'none' })).toBe(false)
})
