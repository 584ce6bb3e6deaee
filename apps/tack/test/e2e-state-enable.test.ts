// `tack state enable` (issue 26; docs/decisions/0320-small-things.md): one command turns agent-state on
// for every later session of the real binary, `tack state disable` off again, and a folder of the user's
// own by that name is never replaced.
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { jsonLines, runTack, sandbox, scriptedModel, textAnswers } from './helpers.ts'

test('tack state enable: the next run writes its state, tack state status reads it; disable stops it', async () => {
  const box = await sandbox()
  const opts = { env: box.env, cwd: box.workspace }
  const model = await scriptedModel(box.root, textAnswers('one', 'two'))
  const help = await runTack(['--help'], opts)
  expect(help.stdout).toMatch(/^ {2}tack state enable +turn agent-state on/m)
  const enable = await runTack(['state', 'enable'], opts)
  expect({ code: enable.code, stderr: enable.stderr }).toEqual({ code: 0, stderr: '' })
  expect(enable.stdout).toContain(`agent-state is enabled: ${join(box.tackHome, 'mods', 'agent-state')} -> `)

  const run = await runTack(['run', '--json', '--model', model, 'first'], opts)
  expect(run.code).toBe(0)
  const first = String(jsonLines(run.stdout)[0].sessionId)
  const status = await runTack(['state', 'status', '--all', '--json'], opts)
  expect(status.code).toBe(0)
  expect(status.stdout).toContain(`"session_id":"${first}"`)
  expect(status.stdout).toContain('"host":"tack"')

  const disable = await runTack(['state', 'disable'], opts)
  expect(disable.code).toBe(0)
  const again = await runTack(['run', '--json', '--model', model, 'second'], opts)
  expect(again.code).toBe(0)
  expect((await readdir(join(box.tackHome, 'agent-state'))).sort()).toEqual([
    `${first}.json`,
    `${first}.jsonl`,
  ])
})

test("tack state enable leaves a folder of the user's own named agent-state alone", async () => {
  const box = await sandbox()
  const own = join(box.tackHome, 'mods', 'agent-state')
  await mkdir(own, { recursive: true })
  await writeFile(join(own, 'mine.txt'), 'mine')
  const enable = await runTack(['state', 'enable'], { env: box.env, cwd: box.workspace })
  expect(enable.code).toBe(1)
  expect(enable.stderr).toContain(`tack: ${own} already exists and is not tack's link to `)
  expect(await readdir(own)).toEqual(['mine.txt'])
})
