// The CLI entry points (`tack hooks list`, `tack hooks trust`, 80-cli.md §7) over the same discovery and
// trust store as the plugin, without a session.
import { join } from 'node:path'
import { text } from '@tack/agent/testing'
import { describe, expect, it } from 'vitest'
import { listCodexHooks, trustCodexHooks } from '../src/cli.ts'
import { codexAgent, homes, hookInvocations, hooksJson, user, writeUserHooks } from './helpers.ts'

describe('CLI entry points', () => {
  it('C6 listCodexHooks shows source and why; trustCodexHooks records hashes the plugin then honours', async () => {
    const h = await homes()
    await writeUserHooks(
      h,
      hooksJson({ UserPromptSubmit: [{ command: 'cat >/dev/null' }], SessionEnd: [{ command: 'x' }] }),
    )
    const opts = { env: { CODEX_HOME: h.codexHome }, tackHome: h.dataDir, cwd: h.projectDir }
    const before = await listCodexHooks(opts)
    expect(before).toEqual([
      expect.objectContaining({
        dialect: 'codex',
        event: 'UserPromptSubmit',
        source: join(h.codexHome, 'hooks.json'),
        willRun: false,
        status: 'untrusted',
      }),
      expect.objectContaining({
        event: 'SessionEnd',
        willRun: false,
        status: 'not-fired',
        why: expect.stringMatching(/^not fired by tack: /),
      }),
    ])
    expect(await trustCodexHooks(opts)).toBe(
      `codex: trusted 1 hook(s) in ${join(h.dataDir, 'codex-hook-trust.json')}`,
    )
    expect((await listCodexHooks(opts))[0]).toMatchObject({ willRun: true, status: 'trusted' })
    expect(await trustCodexHooks({ ...opts, env: { CODEX_HOME: join(h.work, 'none') } })).toBe(
      'codex: no hooks to trust',
    )

    const t = await codexAgent({ homes: h, trustAll: false, script: [text('ok')] })
    try {
      await t.agent.send(user('hi'))
      expect(hookInvocations(t)).toHaveLength(1)
    } finally {
      await t.dispose()
    }
  })

  it('C1 the CLI honours the plugin settings (trust off, plugin off, discover off, a bad value)', async () => {
    const h = await homes()
    await writeUserHooks(h, hooksJson({ Stop: [{ command: 'a' }] }))
    const base = { env: { CODEX_HOME: h.codexHome }, tackHome: h.dataDir, cwd: h.projectDir }
    expect((await listCodexHooks({ ...base, settings: { trust: 'off' } }))[0]).toMatchObject({
      willRun: true,
      status: 'trust-off',
    })
    expect((await listCodexHooks({ ...base, settings: false }))[0]).toMatchObject({
      willRun: false,
      why: 'the hooksCodex plugin is turned off',
    })
    expect(await listCodexHooks({ ...base, settings: { discover: false } })).toEqual([])
    await expect(listCodexHooks({ ...base, settings: { trust: 'maybe' } })).rejects.toThrow('trust')
  })
})
