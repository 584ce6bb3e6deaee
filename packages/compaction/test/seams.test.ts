// `compaction/pre` and `compaction/post` (packages/compaction/src/seams.ts; docs/decisions/
// 0170-hook-event-seams.md): a pre listener adds to the summariser's instructions or blocks the
// compaction before anything is logged; a post listener sees the summary, before session-start `compact`.
import type { SessionStartSource } from '@tack/agent'
import { text } from '@tack/agent/testing'
import { describe, expect, test } from 'vitest'
import { compactionAnswer, type PostCompactInfo, type PreCompactInfo } from '../src/index.ts'
import { compactionAgent, eventsOfType, noteSteps, summaryTexts, user } from './helpers.ts'

const sixNotes = (summaries = summaryTexts(1)) =>
  compactionAgent({
    script: noteSteps(6),
    config: { contextWindow: 4096, retainTokens: 1000, auto: false },
    noteChars: 1500,
    summaries,
  })

const lastUserText = (t: Awaited<ReturnType<typeof sixNotes>>) =>
  JSON.stringify(t.summaries.requests.at(-1)?.messages)

describe('compaction/pre', () => {
  test('proceed: its additionalInstructions follow the person’s in the summary request; it sees trigger and instructions', async () => {
    const t = await sixNotes()
    const seen: PreCompactInfo[] = []
    t.ctx.on('compaction/pre', async (_agent, info, next) => {
      seen.push(info)
      expect(eventsOfType(t.events(), 'compact/start')).toHaveLength(0)
      expect(await next()).toEqual({ action: 'proceed' })
      return { action: 'proceed', additionalInstructions: ['Keep every file path.'] }
    })
    await t.agent.send(user('go'))
    const result = await t.ctx.compact(t.agent, { instructions: 'focus on notes' })
    expect(result.compacted).toBe(true)
    expect(seen.map((i) => [i.trigger, i.instructions])).toEqual([['manual', 'focus on notes']])
    const sent = lastUserText(t)
    expect(sent).toContain('focus on notes')
    expect(sent).toContain('Keep every file path.')
    expect(sent.indexOf('focus on notes')).toBeLessThan(sent.indexOf('Keep every file path.'))
    await t.dispose()
  })

  test('block: nothing is logged, no summary is asked for, the reason is the outcome', async () => {
    const t = await sixNotes()
    t.ctx.on('compaction/pre', () => ({ action: 'block', reason: 'not now' }))
    await t.agent.send(user('go'))
    const before = t.agent.session.length
    const result = await t.ctx.compact(t.agent)
    expect(result).toEqual({ compacted: false, reason: 'not now' })
    expect(compactionAnswer(result)).toEqual({ ok: false, error: 'not now' })
    expect(t.agent.session.length).toBe(before)
    expect(t.summaries.requests).toHaveLength(0)
    await t.dispose()
  })

  test('a throwing listener blocks, naming the seam', async () => {
    const t = await sixNotes()
    t.ctx.on('compaction/pre', () => {
      throw new Error('broken')
    })
    await t.agent.send(user('go'))
    const result = await t.ctx.compact(t.agent)
    expect(result.compacted).toBe(false)
    expect(JSON.stringify(result)).toMatch(/compaction\/pre listener .* failed: broken/)
    await t.dispose()
  })
})

describe('compaction/post', () => {
  test('sees the summary after compact/end, before session-start compact; its notices join the answer', async () => {
    const t = await sixNotes([text('SUMMARY TEXT')])
    const order: string[] = []
    let info: PostCompactInfo | undefined
    t.ctx.on('compaction/post', async (_agent, i, next) => {
      info = i
      order.push('post')
      expect(t.types().at(-1)).toBe('compact/end')
      const downstream = await next()
      return { notices: [...downstream.notices, 'a hook says hi'] }
    })
    t.ctx.on('agent/session-start', (_a, source: SessionStartSource) => {
      order.push(`start:${source}`)
    })
    await t.agent.send(user('go'))
    const result = await t.ctx.compact(t.agent)
    expect(order).toEqual(['post', 'start:compact'])
    expect(info).toMatchObject({ trigger: 'manual', summary: 'SUMMARY TEXT' })
    expect(result).toMatchObject({ compacted: true, notices: ['a hook says hi'] })
    const answer = compactionAnswer(result)
    expect(answer.ok && answer.text.split('\n').at(-1)).toBe('a hook says hi')
    await t.dispose()
  })

  test('a throwing listener loses its notices; the compaction stands', async () => {
    const t = await sixNotes()
    t.ctx.on('compaction/post', () => {
      throw new Error('oops')
    })
    await t.agent.send(user('go'))
    const result = await t.ctx.compact(t.agent)
    expect(result.compacted).toBe(true)
    expect('notices' in result).toBe(false)
    await t.dispose()
  })
})
