// C6: hash trust with its safe default. Untrusted and edited hooks are skipped with one warning naming
// `tack hooks trust`; trusted hooks and `trust: off` run; `trust()` records the current hashes.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { text } from '@tack/agent/testing'
import { Context } from '@tack/kernel'
import { describe, expect, it } from 'vitest'
import { HooksCodexPlugin } from '../src/plugin.ts'
import { canonicalJson, readTrustStore, trustHash, trustKey, trustStatus } from '../src/trust.ts'
import { codexAgent, homes, hookInvocations, hooksJson, user, writeUserHooks } from './helpers.ts'

const entry = (
  over: Partial<{ event: string; matcher: string; command: string; timeoutSec: number }> = {},
) => ({
  source: '/home/u/.codex/hooks.json',
  event: over.event ?? 'PreToolUse',
  group: 1,
  index: 2,
  ...(over.matcher !== undefined ? { matcher: over.matcher } : {}),
  handler: {
    type: 'command',
    command: over.command ?? 'check.sh',
    timeoutSec: over.timeoutSec ?? 600,
    async: false,
  },
})

/** Boots the bridge alone (no agent) to read what it logged at load. */
async function bootBridge(
  config: Record<string, unknown>,
): Promise<{ ctx: Context; warnings: string[]; dispose: () => Promise<void> }> {
  const ctx = new Context()
  const { sessionsPlugin } = await import('@tack/session')
  const { ToolsPlugin } = await import('@tack/tools')
  const { AgentPlugin } = await import('@tack/agent')
  await ctx.plugin(sessionsPlugin, {})
  await ctx.plugin(ToolsPlugin, {})
  await ctx.plugin(AgentPlugin, { model: 'scripted/test' })
  const fiber = await ctx.plugin(HooksCodexPlugin, config)
  return { ctx, warnings: [...ctx.hooksCodex.warnings()], dispose: () => fiber.dispose() }
}

describe('trust keys and hashes', () => {
  it('C6 the key is <source>:<event_snake>:<group>:<handler>', () => {
    expect(trustKey(entry())).toBe('/home/u/.codex/hooks.json:pre_tool_use:1:2')
    expect(trustKey(entry({ event: 'UserPromptSubmit' }))).toBe(
      '/home/u/.codex/hooks.json:user_prompt_submit:1:2',
    )
  })

  it('C6 the hash is sha256 of canonical {event, matcher, handler}: stable, and changed by any edit', () => {
    const base = trustHash(entry({ matcher: 'Bash' }))
    expect(base).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(trustHash(entry({ matcher: 'Bash' }))).toBe(base)
    expect(trustHash(entry({ matcher: 'Bash', command: 'other.sh' }))).not.toBe(base)
    expect(trustHash(entry({ matcher: 'Bash|Edit' }))).not.toBe(base)
    expect(trustHash(entry({ matcher: 'Bash', timeoutSec: 30 }))).not.toBe(base)
    expect(trustHash(entry({ matcher: 'Bash', event: 'PostToolUse' }))).not.toBe(base)
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}')
    expect(trustStatus({}, 'k', base)).toBe('untrusted')
    expect(trustStatus({ k: base }, 'k', base)).toBe('trusted')
    expect(trustStatus({ k: 'sha256:old' }, 'k', base)).toBe('modified')
  })
})

describe('trust in the loop', () => {
  it('C6 enforce (the default): an untrusted hook is skipped, listed with why, and warned once naming tack hooks trust', async () => {
    const h = await homes()
    await writeUserHooks(
      h,
      hooksJson({ UserPromptSubmit: [{ command: 'cat >/dev/null; echo "should not run"' }] }),
    )
    const t = await codexAgent({ homes: h, trustAll: false, script: [text('ok')] })
    try {
      await t.agent.send(user('hi'))
      expect(hookInvocations(t)).toEqual([])
      const [listing] = t.ctx.hooksCodex.list()
      expect(listing).toMatchObject({
        status: 'untrusted',
        runs: false,
        source: join(h.codexHome, 'hooks.json'),
      })
      expect(listing.reason).toContain('tack hooks trust')
      const trustWarnings = t.ctx.hooksCodex.warnings().filter((w) => w.includes('tack hooks trust'))
      expect(trustWarnings).toHaveLength(1)
    } finally {
      await t.dispose()
    }
  })

  it('C6 trust() records the current hashes in <dataDir>/codex-hook-trust.json and the hook runs from then on', async () => {
    const h = await homes()
    await writeUserHooks(
      h,
      hooksJson({ UserPromptSubmit: [{ command: 'cat >/dev/null; echo trusted-context' }] }),
    )
    const t = await codexAgent({ homes: h, trustAll: false, script: [text('one'), text('two')] })
    try {
      await t.agent.send(user('before'))
      expect(hookInvocations(t)).toHaveLength(0)
      const result = await t.ctx.hooksCodex.trust()
      const key = `${join(h.codexHome, 'hooks.json')}:user_prompt_submit:0:0`
      expect(result).toEqual({
        storePath: join(h.dataDir, 'codex-hook-trust.json'),
        trusted: [key],
        unknown: [],
      })
      const store = JSON.parse(await readFile(result.storePath, 'utf8'))
      expect(store).toEqual({ version: 1, hooks: { [key]: t.ctx.hooksCodex.list()[0].hash } })
      await t.agent.send(user('after'))
      expect(hookInvocations(t)).toHaveLength(1)
      expect(t.ctx.hooksCodex.list()[0]).toMatchObject({ status: 'trusted', runs: true })
      expect(t.ctx.hooksCodex.warnings()).toEqual([])
    } finally {
      await t.dispose()
    }
  })

  it('C6 trust(keys) records only those; unknown keys are reported', async () => {
    const h = await homes()
    await writeUserHooks(h, hooksJson({ Stop: [{ command: 'a' }, { command: 'b' }] }))
    const t = await codexAgent({ homes: h, trustAll: false })
    try {
      const [first] = t.ctx.hooksCodex.list()
      const result = await t.ctx.hooksCodex.trust([first.key, 'nope:stop:0:0'])
      expect(result.trusted).toEqual([first.key])
      expect(result.unknown).toEqual(['nope:stop:0:0'])
      expect(t.ctx.hooksCodex.list().map((l) => l.status)).toEqual(['trusted', 'untrusted'])
    } finally {
      await t.dispose()
    }
  })

  it('C6 an edited hook (hash changed since trusted) is skipped as modified', async () => {
    const h = await homes()
    await writeUserHooks(h, hooksJson({ UserPromptSubmit: [{ command: 'cat >/dev/null; echo v1' }] }))
    const first = await bootBridge({ codexHome: h.codexHome, projectDir: h.projectDir, dataDir: h.dataDir })
    await first.ctx.hooksCodex.trust()
    await first.dispose()
    await writeUserHooks(h, hooksJson({ UserPromptSubmit: [{ command: 'cat >/dev/null; echo v2-edited' }] }))
    const t = await codexAgent({ homes: h, trustAll: false, script: [text('ok')] })
    try {
      expect(t.ctx.hooksCodex.list()[0]).toMatchObject({ status: 'modified', runs: false })
      await t.agent.send(user('hi'))
      expect(hookInvocations(t)).toEqual([])
    } finally {
      await t.dispose()
    }
  })

  it('C6 a hook trusted by an earlier process runs in a new one (the store persists)', async () => {
    const h = await homes()
    await writeUserHooks(h, hooksJson({ UserPromptSubmit: [{ command: 'cat >/dev/null; echo persisted' }] }))
    const first = await bootBridge({ codexHome: h.codexHome, projectDir: h.projectDir, dataDir: h.dataDir })
    await first.ctx.hooksCodex.trust()
    await first.dispose()
    const t = await codexAgent({ homes: h, trustAll: false, script: [text('ok')] })
    try {
      await t.agent.send(user('hi'))
      expect(hookInvocations(t)).toHaveLength(1)
    } finally {
      await t.dispose()
    }
  })

  it('C6 trust: off runs every hook and warns once', async () => {
    const h = await homes()
    await writeUserHooks(
      h,
      hooksJson({ UserPromptSubmit: [{ command: 'cat >/dev/null' }, { command: 'cat >/dev/null' }] }),
    )
    const t = await codexAgent({ homes: h, trustAll: false, config: { trust: 'off' }, script: [text('ok')] })
    try {
      await t.agent.send(user('hi'))
      expect(hookInvocations(t)).toHaveLength(2)
      expect(t.ctx.hooksCodex.list().map((l) => l.status)).toEqual(['trust-off', 'trust-off'])
      expect(t.ctx.hooksCodex.warnings()).toEqual(['Codex hook trust is off: 2 hook(s) run without review'])
    } finally {
      await t.dispose()
    }
  })

  it('C6 a malformed trust store trusts nothing and says so', async () => {
    const h = await homes()
    await writeUserHooks(h, hooksJson({ Stop: [{ command: 'x' }] }))
    await writeFile(join(h.dataDir, 'codex-hook-trust.json'), '{"hooks": [1]}')
    expect((await readTrustStore(join(h.dataDir, 'codex-hook-trust.json'))).problem).toContain(
      'not a trust store',
    )
    const { ctx, warnings, dispose } = await bootBridge({
      codexHome: h.codexHome,
      projectDir: h.projectDir,
      dataDir: h.dataDir,
    })
    try {
      expect(ctx.hooksCodex.list()[0].runs).toBe(false)
      expect(warnings[0]).toContain('not a trust store')
      // Trusting rewrites the store in a well-formed shape.
      await ctx.hooksCodex.trust()
      expect((await readTrustStore(join(h.dataDir, 'codex-hook-trust.json'))).problem).toBeUndefined()
    } finally {
      await dispose()
    }
  })
})
