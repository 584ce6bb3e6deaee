import fc from 'fast-check'
import { deepFreeze } from '@tack/kernel'
import { describe, expect, test } from 'vitest'
import {
  applyHeaderDelta,
  diffHeader,
  type EpochHeader,
  foldRequestHeader,
  jsonEqual,
  type Message,
  normalizeHeader,
  Session,
  type SessionEvent,
  type ToolSchema,
} from '../src/index.ts'
import { codeOf, header, newSession, reasonOf, startStep, startTurn, text } from './helpers.ts'

const tool = (name: string, description = `${name} tool`): ToolSchema => ({
  name,
  description,
  parameters: { type: 'object', properties: {} },
})
const base: EpochHeader = {
  config: { model: 'deepseek/deepseek-chat', temperature: 0.2 },
  system: 'You are tack.\nBe brief.\nWork in /work.',
  tools: [tool('read'), tool('write'), tool('bash')],
}
const prefix: Message[] = [{ role: 'user', content: text('project notes') }]

function inStep(): Session {
  const s = newSession()
  startTurn(s)
  startStep(s)
  return s
}

/** Property: after every header of any sequence drawn from `h`, requestHeader() is it and the fold. */
function recordsFoldAsGiven(h: fc.Arbitrary<EpochHeader>): void {
  fc.assert(
    fc.property(fc.array(h, { minLength: 1, maxLength: 12 }), (headers) => {
      const s = inStep()
      for (const next of headers) {
        s.recordRequestHeader(next)
        expect(s.requestHeader()).toEqual(normalizeHeader(next))
        expect(foldRequestHeader(s.events())).toEqual(s.requestHeader())
      }
    }),
    { numRuns: 200 },
  )
}

describe('request headers', () => {
  test('SL-14 normalizeHeader drops empty system, tools and prefix and undefined config fields', () => {
    const h = normalizeHeader({
      config: { model: 'm', temperature: undefined, maxTokens: 10 },
      system: '',
      tools: [],
      messagePrefix: [],
    })
    expect(h).toEqual({ config: { model: 'm', maxTokens: 10 } })
    expect('system' in h).toBe(false)
    expect('tools' in h).toBe(false)
    expect('messagePrefix' in h).toBe(false)
    expect('temperature' in h.config).toBe(false)
  })

  test('SL-14 a request with empty system and no tools records a header without those keys', () => {
    const s = inStep()
    const e = s.recordRequestHeader({
      config: { model: 'm' },
      system: '',
      tools: [],
    }) as SessionEvent<'request/header'>
    expect('system' in e.data.header).toBe(false)
    expect('tools' in e.data.header).toBe(false)
    expect(e.data.reason).toBe('initial')
  })

  test('SL-15 system diff keeps the common line prefix and suffix; apply rebuilds it', () => {
    const next = { ...base, system: 'You are tack.\nBe thorough.\nWork in /work.' }
    const d = diffHeader(base, next)
    expect(d).toEqual({ system: { keepStart: 1, keepEnd: 1, insert: ['Be thorough.'] } })
    expect(applyHeaderDelta(base, d!)).toEqual(normalizeHeader(next))
    expect(diffHeader(base, { ...base })).toBeUndefined()
    // Non-overlapping: a repeated line is not counted twice.
    const rep = diffHeader(
      { config: base.config, system: 'a\na' },
      { config: base.config, system: 'a\na\na' },
    )
    expect(rep?.system).toEqual({ keepStart: 2, keepEnd: 0, insert: ['a'] })
  })

  test('SL-15 tools diff by name: removed dropped, changed replaced in place, added appended', () => {
    const next = { ...base, tools: [tool('read', 'read v2'), tool('bash'), tool('grep')] }
    const d = diffHeader(base, next)
    expect(d?.tools).toEqual({
      added: [tool('grep')],
      removed: ['write'],
      changed: [tool('read', 'read v2')],
    })
    expect(applyHeaderDelta(base, d!)).toEqual(normalizeHeader(next))
    const none = applyHeaderDelta(base, { tools: { removed: ['read', 'write', 'bash'] } })
    expect('tools' in none).toBe(false)
  })

  test('SL-15 applying a delta that does not fit throws HEADER_FOLD_ERROR', () => {
    expect(codeOf(() => applyHeaderDelta(base, { system: { keepStart: 2, keepEnd: 2, insert: [] } }))).toBe(
      'HEADER_FOLD_ERROR',
    )
    expect(codeOf(() => applyHeaderDelta(base, { system: { keepStart: -1, keepEnd: 0, insert: [] } }))).toBe(
      'HEADER_FOLD_ERROR',
    )
    expect(codeOf(() => applyHeaderDelta(base, { tools: { changed: [tool('nope')] } }))).toBe(
      'HEADER_FOLD_ERROR',
    )
  })

  test('SL-15 foldRequestHeader: undefined before any header, last snapshot then deltas, cut by uptoSeq', () => {
    const s = inStep()
    expect(foldRequestHeader(s.events())).toBeUndefined()
    s.recordRequestHeader(base)
    const second = { ...base, system: 'Changed.' }
    s.recordRequestHeader(second)
    const third = { ...second, config: { model: 'other' } }
    s.recordRequestHeader(third)
    const events = s.events()
    expect(events.slice(2).map((e) => e.type)).toEqual([
      'request/header',
      'request/header-delta',
      'request/header-delta',
    ])
    expect(foldRequestHeader(events)).toEqual(normalizeHeader(third))
    expect(foldRequestHeader(events, 4)).toEqual(normalizeHeader(second))
    expect(foldRequestHeader(events, 3)).toEqual(normalizeHeader(base))
    expect(foldRequestHeader(events, 2)).toBeUndefined()
    expect(Object.isFrozen(foldRequestHeader(events))).toBe(true)
  })

  test('SL-15 a delta with no prior snapshot throws HEADER_FOLD_ERROR, in the fold and at append', () => {
    const delta = {
      type: 'request/header-delta',
      seq: 0,
      time: '2025-01-01T00:00:00.000Z',
      data: { system: { keepStart: 0, keepEnd: 0, insert: ['x'] } },
    }
    expect(codeOf(() => foldRequestHeader([delta as SessionEvent]))).toBe('HEADER_FOLD_ERROR')
    const s = inStep()
    expect(codeOf(() => s.append('request/header-delta', { config: { model: 'm' } }))).toBe(
      'HEADER_FOLD_ERROR',
    )
    s.recordRequestHeader(base)
    expect(
      codeOf(() => s.append('request/header-delta', { system: { keepStart: 9, keepEnd: 0, insert: [] } })),
    ).toBe('HEADER_FOLD_ERROR')
    expect(codeOf(() => s.append('request/header-delta', { tools: { removed: 5 } } as never))).toBe(
      'HEADER_FOLD_ERROR',
    )
    expect(s.events()).toHaveLength(3)
  })

  test('SL-15 property: applyHeaderDelta(prev, diffHeader(prev, next)) equals next unless only the tool order cannot be reproduced', () => {
    const line = fc.constantFrom('a', 'b', 'c', '', 'You are tack.', '  indented')
    const system = fc.option(
      fc.array(line, { maxLength: 8 }).map((ls) => ls.join('\n')),
      { nil: undefined },
    )
    const tools = fc.option(
      fc
        .uniqueArray(
          fc.record({
            name: fc.constantFrom('read', 'write', 'bash', 'grep', 'glob'),
            description: fc.constantFrom('d1', 'd2'),
          }),
          { selector: (t) => t.name, maxLength: 5 },
        )
        .map((ts) => ts.map((t) => ({ ...t, parameters: {} }))),
      { nil: undefined },
    )
    const config = fc.record(
      {
        model: fc.constantFrom('m1', 'm2'),
        temperature: fc.constantFrom(0, 0.5),
        maxTokens: fc.constantFrom(100, 200),
      },
      { requiredKeys: ['model'] },
    )
    const messagePrefix = fc.option(
      fc.array(
        fc.constantFrom<Message>(
          { role: 'user', content: text('p1') },
          { role: 'assistant', content: text('p2') },
        ),
        { maxLength: 2 },
      ),
      { nil: undefined },
    )
    const epoch = fc.record({ config, system, tools, messagePrefix }).map((h) => h as EpochHeader)
    fc.assert(
      fc.property(epoch, epoch, (prev, next) => {
        const d = diffHeader(prev, next)
        const a = normalizeHeader(prev)
        const b = normalizeHeader(next)
        if (jsonEqual(a, b)) {
          expect(d).toBeUndefined()
          return
        }
        expect(d).toBeDefined()
        const applied = applyHeaderDelta(prev, d!)
        const nextNames = new Set((b.tools ?? []).map((t) => t.name))
        const prevNames = new Set((a.tools ?? []).map((t) => t.name))
        const reproducible = [
          ...(a.tools ?? []).filter((t) => nextNames.has(t.name)).map((t) => t.name),
          ...(b.tools ?? []).filter((t) => !prevNames.has(t.name)).map((t) => t.name),
        ]
        if (
          jsonEqual(
            reproducible,
            (b.tools ?? []).map((t) => t.name),
          )
        ) {
          expect(applied).toEqual(b)
        } else {
          const byName = (h: EpochHeader) => ({
            ...h,
            tools: [...(h.tools ?? [])].sort((x, y) => x.name.localeCompare(y.name)),
          })
          expect(byName(applied)).toEqual(byName(b))
        }
      }),
      { numRuns: 1000 },
    )
  })

  test('SL-16 unchanged → no event; one changed system line → a delta with one insert line', () => {
    const s = inStep()
    const first = s.recordRequestHeader(base)
    expect(first?.type).toBe('request/header')
    expect(s.recordRequestHeader({ ...base, tools: [...base.tools!] })).toBeUndefined()
    const e = s.recordRequestHeader({ ...base, system: 'You are tack.\nBe thorough.\nWork in /work.' })
    expect(e?.type).toBe('request/header-delta')
    expect(e?.data).toEqual({ system: { keepStart: 1, keepEnd: 1, insert: ['Be thorough.'] } })
    expect(s.requestHeader()).toEqual(foldRequestHeader(s.events()))
  })

  test('SL-16 reordered tools → exactly one fallback snapshot; requestHeader() equals the fold', () => {
    const s = inStep()
    s.recordRequestHeader(base)
    const reordered = { ...base, tools: [tool('bash'), tool('read'), tool('write')] }
    const e = s.recordRequestHeader(reordered) as SessionEvent<'request/header'>
    expect(e.type).toBe('request/header')
    expect(e.data.reason).toBe('fallback')
    expect(e.data.header.tools?.map((t) => t.name)).toEqual(['bash', 'read', 'write'])
    expect(s.recordRequestHeader(reordered)).toBeUndefined()
    expect(s.events().filter((x) => x.type === 'request/header')).toHaveLength(2)
    expect(s.requestHeader()).toEqual(foldRequestHeader(s.events()))
    expect(Object.isFrozen(s.requestHeader())).toBe(true)
  })

  test('SL-16 the first call on a Session object writes initial, or resume when the log has a header', () => {
    const s = inStep()
    expect(reasonOf(s.recordRequestHeader(base))).toBe('initial')
    const resumed = new Session({ header: header(), events: s.events() })
    const e = resumed.recordRequestHeader(base) as SessionEvent<'request/header'>
    expect(e.type).toBe('request/header')
    expect(e.data.reason).toBe('resume')
    expect(resumed.recordRequestHeader(base)).toBeUndefined()
  })

  test('SL-16 property: after every recorded header, requestHeader() is it and equals the fold of the log', () => {
    const h = fc.record({
      config: fc.record({ model: fc.constantFrom('m1', 'm2') }),
      system: fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 4 }).map((l) => l.join('\n')),
      tools: fc.shuffledSubarray([tool('read'), tool('write'), tool('bash')]),
    })
    recordsFoldAsGiven(h)
  })

  test('SL-17 the prefix rides on the snapshot only; later deltas never carry it', () => {
    const s = inStep()
    const withPrefix = { ...base, messagePrefix: prefix }
    const snap = s.recordRequestHeader(withPrefix) as SessionEvent<'request/header'>
    expect(snap.data.header.messagePrefix).toEqual(prefix)
    s.recordRequestHeader({ ...withPrefix, system: 'Other.' })
    s.recordRequestHeader({ ...withPrefix, system: 'Other.', config: { model: 'x' } })
    const deltas = s.events().filter((e) => e.type === 'request/header-delta')
    expect(deltas).toHaveLength(2)
    for (const d of deltas) expect('messagePrefix' in (d.data as object)).toBe(false)
  })

  test('SL-17 codec: a messagePrefix delta round-trips, and [] turns it absent', () => {
    const a = { ...base, messagePrefix: prefix }
    const b = { ...base, messagePrefix: [...prefix, { role: 'assistant' as const, content: text('ok') }] }
    const d1 = diffHeader(a, b)
    expect(d1).toEqual({ messagePrefix: b.messagePrefix })
    expect(applyHeaderDelta(a, d1!)).toEqual(normalizeHeader(b))
    const d2 = diffHeader(b, base)
    expect(d2).toEqual({ messagePrefix: [] })
    const back = applyHeaderDelta(b, d2!)
    expect('messagePrefix' in back).toBe(false)
    expect(back).toEqual(normalizeHeader(base))
  })

  describe('per-step cost (docs/decisions/0066-flat-memory.md)', () => {
    const frozenTools = deepFreeze([tool('read'), tool('write'), tool('bash')])

    test('SL-14 normalizeHeader shares deep-frozen tools and copies mutable ones or ones with undefined', () => {
      expect(normalizeHeader({ ...base, tools: frozenTools }).tools).toBe(frozenTools)
      const mutable = [tool('read')]
      const copied = normalizeHeader({ ...base, tools: mutable }).tools
      expect(copied).not.toBe(mutable)
      expect(copied).toEqual(mutable)
      const holed = deepFreeze([{ ...tool('read'), description: undefined }]) as unknown as ToolSchema[]
      const canonical = normalizeHeader({ ...base, tools: holed }).tools!
      expect(canonical).not.toBe(holed)
      expect('description' in canonical[0]).toBe(false)
    })

    test('SL-16 the same frozen tools with another config or system still record a change, and a return to the old one too', () => {
      const s = inStep()
      const a = { ...base, tools: frozenTools }
      expect(s.recordRequestHeader(a)?.type).toBe('request/header')
      expect(s.recordRequestHeader(a)).toBeUndefined()
      expect(s.recordRequestHeader({ ...a })).toBeUndefined()
      const hotter = { ...a, config: { ...a.config, temperature: 0.9 } }
      expect(s.recordRequestHeader(hotter)?.type).toBe('request/header-delta')
      expect(s.recordRequestHeader(hotter)).toBeUndefined()
      // Back to `a`: it agreed with the header before the change, which must not count any more.
      expect(s.recordRequestHeader(a)?.type).toBe('request/header-delta')
      expect(s.recordRequestHeader({ ...a, system: 'other' })?.type).toBe('request/header-delta')
      expect(s.requestHeader()).toEqual(normalizeHeader({ ...a, system: 'other' }))
      expect(foldRequestHeader(s.events())).toEqual(s.requestHeader())
    })

    test('SL-16 property: with shared frozen tool lists, requestHeader() is always the last header and the fold', () => {
      const lists = [
        frozenTools,
        deepFreeze([tool('read'), tool('bash')]),
        deepFreeze([tool('bash'), tool('read')]),
      ]
      const h = fc.record({
        config: fc.record({ model: fc.constantFrom('m1', 'm2') }),
        system: fc.constantFrom('a', 'b\nc'),
        tools: fc.constantFrom(...lists),
      })
      recordsFoldAsGiven(h)
    })

    test('SL-2 jsonEqual treats undefined-valued keys as absent on either side', () => {
      expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true)
      expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(true)
      expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false)
      expect(jsonEqual({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false)
      expect(jsonEqual({ a: { x: [1, 2] } }, { a: { x: [1, 2] } })).toBe(true)
    })
  })
})
