// `tack run -r ID` of a session from another folder runs under that session's folder's trust, never the
// trust of the folder it was typed in (docs/decisions/0140-acp-trust-per-session.md, docs/security.md),
// through the real binary: each folder holds Claude and Codex hooks, a `.tack/plugins` plugin and a
// project config (trust-fixture.ts); what ran is read back from the folder's `ran.log`.
import { expect, test, vi } from 'vitest'
import { jsonLines, runTack, scriptedModel, textAnswers } from './helpers.ts'
import { ALL_RAN, ranIn, trustFolder, twoFoldersWithProjectCode } from './trust-fixture.ts'

// Each test starts tack several times (trust, hooks trust, two servers or runs, each booting two folders).
vi.setConfig({ testTimeout: 60_000 })

async function twoFolders() {
  const { box, a, b } = await twoFoldersWithProjectCode()
  const model = await scriptedModel(box.root, textAnswers('one', 'two'))
  /** `tack run --json` in `cwd`; resolves to the session id. */
  const run = async (cwd: string, args: readonly string[]) => {
    const r = await runTack(['run', '--json', '--model', model, ...args], { env: box.env, cwd })
    expect(r.code).toBe(0)
    return { id: String(jsonLines(r.stdout).at(-1)?.sessionId), stderr: r.stderr }
  }
  return { box, a, b, run }
}

test('tack run -r of an untrusted folder’s session, typed in a trusted folder, runs none of that folder’s project code', async () => {
  const { box, a, b, run } = await twoFolders()
  await trustFolder(box, a)
  const first = await run(b, ['go'])
  expect(ranIn(b)).toEqual([])
  const again = await run(a, ['-r', first.id, 'again'])
  expect(again.id).toBe(first.id)
  expect(ranIn(b)).toEqual([])
  expect(again.stderr).toContain(`tack: workspace ${b} is not trusted`)
  // A's own code never loaded either: the run was B's.
  expect(ranIn(a)).toEqual([])
})

test('tack run -r of a trusted folder’s session, typed in an untrusted folder, runs that folder’s project code', async () => {
  const { box, a, b, run } = await twoFolders()
  await trustFolder(box, b)
  const first = await run(b, ['go'])
  expect(ranIn(b)).toEqual(ALL_RAN)
  const again = await run(a, ['-r', first.id, 'again'])
  expect(again.id).toBe(first.id)
  expect(ranIn(b)).toEqual([...ALL_RAN, ...ALL_RAN].sort())
  expect(again.stderr).not.toContain('is not trusted')
  expect(ranIn(a)).toEqual([])
})
