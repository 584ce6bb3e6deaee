// The `ctx.hooksCodex` service: `list()` for `tack hooks list` (source, will it run, why), `skip()` for
// plugins that do natively what a discovered hook does, and the configured stderr summary bound.
import { join } from 'node:path'
import { text } from '@tack/agent/testing'
import { describe, expect, it } from 'vitest'
import {
  codexAgent,
  homes,
  hookInvocations,
  hookResults,
  hooksJson,
  user,
  writeUserHooks,
} from './helpers.ts'

describe('ctx.hooksCodex', () => {
  it('C6 list() shows every discovered hook with its source, key, hash, status and reason', async () => {
    const h = await homes()
    await writeUserHooks(h, {
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'check.sh', timeout: 5 }] }],
        SessionEnd: [{ hooks: [{ type: 'command', command: 'end.sh' }] }],
      },
    })
    const t = await codexAgent({ homes: h })
    try {
      const source = join(h.codexHome, 'hooks.json')
      expect(t.ctx.hooksCodex.list()).toEqual([
        {
          key: `${source}:pre_tool_use:0:0`,
          source,
          sourceKind: 'user',
          event: 'PreToolUse',
          group: 0,
          index: 0,
          matcher: 'Bash',
          type: 'command',
          command: 'check.sh',
          timeoutSec: 5,
          hash: expect.stringMatching(/^sha256:/),
          status: 'trusted',
          runs: true,
          reason: `its current hash is recorded in ${join(h.dataDir, 'codex-hook-trust.json')}`,
        },
        expect.objectContaining({
          event: 'SessionEnd',
          status: 'not-fired',
          runs: false,
          reason: expect.stringMatching(/^not fired by tack: /),
        }),
      ])
      expect(t.ctx.hooksCodex.storePath).toBe(join(h.dataDir, 'codex-hook-trust.json'))
    } finally {
      await t.dispose()
    }
  })

  it('B11 skip(predicate, reason): a skipped hook never runs, is listed with the reason, and the undo restores it', async () => {
    const h = await homes()
    await writeUserHooks(
      h,
      hooksJson({
        UserPromptSubmit: [{ command: 'cat >/dev/null; echo dice' }, { command: 'cat >/dev/null' }],
      }),
    )
    let undo = () => {}
    const t = await codexAgent({
      homes: h,
      script: [text('one'), text('two')],
      setup: (ctx) => {
        undo = ctx.hooksCodex.skip((hook) => hook.command.includes('dice'), 'agent-dice runs natively')
      },
    })
    try {
      await t.agent.send(user('hi'))
      expect(hookInvocations(t)).toHaveLength(1)
      expect(t.ctx.hooksCodex.list()[0]).toMatchObject({
        status: 'skipped',
        reason: 'agent-dice runs natively',
      })
      undo()
      await t.agent.send(user('again'))
      expect(hookInvocations(t)).toHaveLength(3)
    } finally {
      await t.dispose()
    }
  })

  it('A7 stderrSummaryMaxChars bounds the logged stderr (20 when configured)', async () => {
    const h = await homes()
    await writeUserHooks(
      h,
      hooksJson({ UserPromptSubmit: [{ command: `cat >/dev/null; printf 'e%.0s' $(seq 600) >&2` }] }),
    )
    const t = await codexAgent({ homes: h, config: { stderrSummaryMaxChars: 20 }, script: [text('ok')] })
    try {
      await t.agent.send(user('hi'))
      expect(hookResults(t)[0].stderrSummary).toBe(`${'e'.repeat(20)}…`)
    } finally {
      await t.dispose()
    }
  })
})
