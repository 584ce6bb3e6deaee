// Interrupt (docs/decisions/0181-codex-permission-and-compaction-points.md): when the person stops a
// top-level agent's turn, a real bash hook gets Codex's Interrupt payload; it is observe only (JSON with
// `systemMessage` alone, or nothing), and a turn that ends any other way runs no Interrupt hook.
import { join } from 'node:path'
import { hang, text } from '@tack/agent/testing'
import { describe, expect, it } from 'vitest'
import {
  codexAgent,
  homes,
  hookResults,
  hooksJson,
  script,
  user,
  waitForLine,
  writeUserHooks,
  commonPayload,
} from './helpers.ts'
import { payloadSchemaErrors } from './schemas.ts'

describe('Interrupt', () => {
  it('0181 a cancelled turn runs the Interrupt hook with the turn’s payload; systemMessage is recorded, other fields fail it', async () => {
    const h = await homes()
    const capture = await script(
      h.work,
      'interrupt.sh',
      `cat > "${h.work}/in.json"; echo >> "${h.work}/in.json"; echo '{"systemMessage":"turn interrupted"}'`,
    )
    const invalid = await script(
      h.work,
      'invalid.sh',
      `cat > /dev/null; echo '{"continue":false}'; echo done > "${h.work}/invalid-ran"`,
    )
    await writeUserHooks(h, hooksJson({ Interrupt: [{ command: capture }, { command: invalid }] }))
    const t = await codexAgent({ homes: h, script: [hang()] })
    try {
      const outcome = t.agent.send(user('a long task'))
      while (!t.types().includes('step/start')) await new Promise((r) => setTimeout(r, 5))
      t.agent.cancel('the person pressed Esc')
      expect((await outcome).reason).toEqual({ kind: 'aborted' })
      const payload = JSON.parse(await waitForLine(join(h.work, 'in.json')))
      expect(await payloadSchemaErrors(payload)).toEqual([])
      expect(payload).toEqual(commonPayload(t, h, 'Interrupt'))
      await waitForLine(join(h.work, 'invalid-ran'))
      for (let i = 0; i < 200 && hookResults(t).length < 2; i++) await new Promise((r) => setTimeout(r, 10))
      expect(hookResults(t).map((r) => [r.point, r.systemMessage, r.failed === true])).toEqual([
        ['Interrupt', 'turn interrupted', false],
        ['Interrupt', undefined, true],
      ])
      // The hook's events follow the turn's end.
      const types = t.types()
      expect(types.indexOf('hook/invoked')).toBeGreaterThan(types.indexOf('turn/end'))
    } finally {
      await t.dispose()
    }
  })

  it('0181 a turn that completes runs no Interrupt hook', async () => {
    const h = await homes()
    const capture = await script(h.work, 'interrupt.sh', `cat > "${h.work}/in.json"`)
    await writeUserHooks(h, hooksJson({ Interrupt: [{ command: capture }] }))
    const t = await codexAgent({ homes: h, script: [text('done')] })
    try {
      expect((await t.agent.send(user('quick'))).reason).toEqual({ kind: 'completed' })
      await new Promise((r) => setTimeout(r, 100))
      expect(hookResults(t)).toEqual([])
    } finally {
      await t.dispose()
    }
  })
})
