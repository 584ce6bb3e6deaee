// A5: matchers for both dialects, plus R4 properties (never throws; exact lists are membership tests).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isInvalidMatcher, matchesMatcher } from '../src/index.ts'

describe('A5 matcher', () => {
  it('A5 absent, "" and * match everything in both dialects', () => {
    for (const d of ['claude', 'codex'] as const) {
      for (const m of [undefined, '', '*']) expect(matchesMatcher(d, m, ['Anything'])).toBe(true)
    }
  })

  it('A5 Edit|Write misses NotebookEdit; Edit.* hits it', () => {
    for (const d of ['claude', 'codex'] as const) {
      expect(matchesMatcher(d, 'Edit|Write', ['NotebookEdit'])).toBe(false)
      expect(matchesMatcher(d, 'Edit|Write', ['Write'])).toBe(true)
      expect(matchesMatcher(d, 'Edit.*', ['NotebookEdit'])).toBe(true)
    }
  })

  it('A5 code-reviewer is exact for claude and a regex for codex', () => {
    expect(matchesMatcher('claude', 'code-reviewer', ['code-reviewer'])).toBe(true)
    expect(matchesMatcher('claude', 'code-reviewer', ['my-code-reviewer-2'])).toBe(false)
    // For codex, `-` is not plain: the unanchored regex finds it inside a longer name.
    expect(matchesMatcher('codex', 'code-reviewer', ['my-code-reviewer-2'])).toBe(true)
  })

  it('A5 claude lists split on | or , with whitespace trimmed, case-sensitive', () => {
    expect(matchesMatcher('claude', 'Edit, Write | Bash', ['Bash'])).toBe(true)
    expect(matchesMatcher('claude', 'Edit, Write | Bash', ['Write'])).toBe(true)
    expect(matchesMatcher('claude', 'Edit, Write', ['edit'])).toBe(false)
    // A comma is not plain for codex: the whole text is a regex that "Edit" alone does not satisfy.
    expect(matchesMatcher('codex', 'Edit,Write', ['Edit'])).toBe(false)
  })

  it('A5 mcp__memory misses mcp__memory__x; mcp__memory__.* hits it', () => {
    expect(matchesMatcher('claude', 'mcp__memory', ['mcp__memory__x'])).toBe(false)
    expect(matchesMatcher('claude', 'mcp__memory__.*', ['mcp__memory__x'])).toBe(true)
  })

  it('A5 an invalid regex matches nothing and never throws', () => {
    for (const d of ['claude', 'codex'] as const) {
      expect(matchesMatcher(d, '(', ['(', 'x', ''])).toBe(false)
      expect(isInvalidMatcher(d, '(')).toBe(true)
      expect(isInvalidMatcher(d, 'Bash')).toBe(false)
    }
  })

  it('A5 codex (?i) becomes the case-insensitive flag', () => {
    expect(matchesMatcher('codex', '(?i)^bash$', ['Bash'])).toBe(true)
    expect(matchesMatcher('codex', '^bash$', ['Bash'])).toBe(false)
    // Claude has no such prefix: JavaScript rejects the group, so it matches nothing.
    expect(matchesMatcher('claude', '(?i)^bash$', ['Bash'])).toBe(false)
  })

  it('A5 true when any subject matches (aliases)', () => {
    expect(matchesMatcher('claude', 'Task', ['Agent', 'Task'])).toBe(true)
    expect(matchesMatcher('claude', 'Task', [])).toBe(false)
  })
})

describe('R4 matcher properties', () => {
  const name = fc.stringMatching(/^[A-Za-z0-9_]{1,12}$/)

  it('R4 matchesMatcher never throws on arbitrary matchers and subjects', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('claude', 'codex' as const),
        fc.string(),
        fc.array(fc.string()),
        (d, m, subjects) => {
          const r = matchesMatcher(d, m, subjects)
          expect(typeof r).toBe('boolean')
        },
      ),
      { numRuns: 1000 },
    )
  })

  it('R4 a plain |-list matches exactly the names it lists', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('claude', 'codex' as const),
        fc.array(name, { minLength: 1, maxLength: 5 }),
        name,
        (d, names, subject) => {
          const m = names.join('|')
          expect(matchesMatcher(d, m, [subject])).toBe(names.includes(subject))
        },
      ),
    )
  })

  it('R4 a regex matcher agrees with an unanchored RegExp test', () => {
    fc.assert(
      fc.property(name, name, (a, subject) => {
        const m = `${a}.*`
        expect(matchesMatcher('claude', m, [subject])).toBe(new RegExp(m).test(subject))
      }),
    )
  })
})
