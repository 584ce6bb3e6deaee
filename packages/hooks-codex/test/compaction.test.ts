import { createScriptedModel, text, toolCalls } from '@tack/agent/testing'
import { CompactionPlugin } from '@tack/compaction'
import { describe, expect, it } from 'vitest'
import {
  answeringHook,
  captureHook,
  capturedLines,
  codexAgent,
  eventsOf,
  type Homes,
  homes,
  hookResults,
  hooksJson,
  script,
  user,
  writeUserHooks,
  commonPayload,
} from './helpers.ts'
import { payloadSchemaErrors } from './schemas.ts'

const SUMMARY_MODEL = 'scripted/summary'

/** Six (different) bash calls that each print 1500 characters, then `done`: enough history to compact in a 4096 window. */
const LONG_TURN = [
  ...'abcdef'
    .split('')
    .map((c) => toolCalls([{ name: 'bash', args: { command: `head -c 1500 /dev/zero | tr '\\0' ${c}` } }])),
  text('done'),
]

async function compactingAgent(h: Homes, auto: boolean) {
  const summaries = createScriptedModel([text('summary one'), text('summary two')])
  return codexAgent({
    homes: h,
    agentOptions: { permissionMode: 'yolo' },
    plugins: [
      {
        plugin: CompactionPlugin,
        config: {
          contextWindow: 4096,
          retainTokens: 1000,
          charsPerToken: 1,
          auto,
          summarizationModel: SUMMARY_MODEL,
        },
      },
    ],
    setup: (ctx) => {
      ctx.modelAdapters.register([SUMMARY_MODEL], summaries.adapter)
    },
    script: [...LONG_TURN, text('second turn done')],
  })
}

describe('PreCompact and PostCompact', () => {
  it('0181 a manual compaction runs PreCompact then PostCompact with trigger manual; the matcher tests the trigger', async () => {
    const h = await homes()
    const pre = await captureHook(h, 'pre')
    const post = await captureHook(h, 'post')
    const autoOnly = await captureHook(h, 'auto-only')
    await writeUserHooks(
      h,
      hooksJson({
        PreCompact: [
          { matcher: 'manual', command: pre },
          { matcher: 'auto', command: autoOnly },
        ],
        PostCompact: [{ command: post }],
      }),
    )
    const t = await compactingAgent(h, false)
    try {
      expect((await t.agent.send(user('work'))).reason).toEqual({ kind: 'completed' })
      const result = await t.ctx.compact(t.agent)
      expect(result.compacted).toBe(true)
      const [prePayload] = await capturedLines(h, 'pre')
      expect(await payloadSchemaErrors(prePayload)).toEqual([])
      // Codex sends no permission_mode on compaction events.
      const { permission_mode: _mode, ...common } = commonPayload(t, h, 'PreCompact')
      expect(prePayload).toEqual({ ...common, trigger: 'manual' })
      const [postPayload] = await capturedLines(h, 'post')
      expect(postPayload).toEqual({ ...prePayload, hook_event_name: 'PostCompact' })
      expect(await payloadSchemaErrors(postPayload)).toEqual([])
      expect(await capturedLines(h, 'auto-only')).toEqual([])
      // PreCompact ran before anything was logged, PostCompact after the compaction ended.
      const order = t
        .events()
        .filter((e) => e.type === 'hook/invoked' || e.type.startsWith('compact/'))
        .map((e) => (e.type === 'hook/invoked' ? (e.data as { point: string }).point : e.type))
      expect(order).toEqual(['PreCompact', 'compact/start', 'compact/summary', 'compact/end', 'PostCompact'])
    } finally {
      await t.dispose()
    }
  })

  it('0181 PreCompact continue:false blocks the compaction with its stop reason; nothing is logged', async () => {
    const h = await homes()
    const stop = await answeringHook(h, 'stop', {
      continue: false,
      stopReason: 'keep the full history for the audit',
    })
    await writeUserHooks(h, hooksJson({ PreCompact: [{ command: stop }] }))
    const t = await compactingAgent(h, false)
    try {
      await t.agent.send(user('work'))
      const result = await t.ctx.compact(t.agent)
      expect(result).toEqual({ compacted: false, reason: 'keep the full history for the audit' })
      expect(eventsOf(t, 'compact/start')).toEqual([])
      expect(hookResults(t).map((r) => [r.point, r.decision])).toEqual([['PreCompact', 'stop']])
    } finally {
      await t.dispose()
    }
  })

  it('0181 exit 2, plain stdout and fields outside Codex’s schema do not block (exit 2 and extra fields fail the hook)', async () => {
    const h = await homes()
    const exit2 = await script(h.work, 'exit2.sh', 'cat > /dev/null; echo "no compaction" >&2; exit 2')
    const plain = await script(h.work, 'plain.sh', 'cat > /dev/null; echo "some words"')
    const extra = await answeringHook(h, 'extra', { decision: 'block', reason: 'no' })
    await writeUserHooks(
      h,
      hooksJson({ PreCompact: [{ command: exit2 }, { command: plain }, { command: extra }] }),
    )
    const t = await compactingAgent(h, false)
    try {
      await t.agent.send(user('work'))
      expect((await t.ctx.compact(t.agent)).compacted).toBe(true)
      expect(hookResults(t).map((r) => [r.decision, r.failed === true])).toEqual([
        ['pass', true],
        ['pass', false],
        ['pass', true],
      ])
    } finally {
      await t.dispose()
    }
  })

  it('0181 PostCompact continue:false cannot undo the compaction: its reason is a notice of the result', async () => {
    const h = await homes()
    const stop = await answeringHook(h, 'stop', {
      continue: false,
      stopReason: 'review the summary before going on',
    })
    await writeUserHooks(h, hooksJson({ PostCompact: [{ matcher: 'manual', command: stop }] }))
    const t = await compactingAgent(h, false)
    try {
      await t.agent.send(user('work'))
      const result = await t.ctx.compact(t.agent)
      expect(result).toMatchObject({ compacted: true, notices: ['review the summary before going on'] })
    } finally {
      await t.dispose()
    }
  })

  it('0181 an automatic compaction (before the next turn’s first step) has trigger auto', async () => {
    const h = await homes()
    const pre = await captureHook(h, 'pre')
    const manualOnly = await captureHook(h, 'manual-only')
    await writeUserHooks(
      h,
      hooksJson({
        PreCompact: [
          { matcher: 'auto', command: pre },
          { matcher: 'manual', command: manualOnly },
        ],
      }),
    )
    const t = await compactingAgent(h, true)
    try {
      // The first turn's own history cannot be summarised while it runs; the second turn's first step
      // finds it over the threshold.
      expect((await t.agent.send(user('work'))).reason).toEqual({ kind: 'completed' })
      expect((await t.agent.send(user('more'))).reason).toEqual({ kind: 'completed' })
      const payloads = await capturedLines(h, 'pre')
      expect(payloads.length).toBeGreaterThan(0)
      expect(payloads[0]).toMatchObject({
        hook_event_name: 'PreCompact',
        trigger: 'auto',
        turn_id: `${t.agent.session.id}:2`,
      })
      expect(await capturedLines(h, 'manual-only')).toEqual([])
      expect(eventsOf(t, 'compact/start').map((e) => (e.data as { trigger: string }).trigger)).toContain(
        'auto',
      )
    } finally {
      await t.dispose()
    }
  })
})
