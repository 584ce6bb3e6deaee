// Command rules' wildcards are matched by scanning (src/wildcard.ts), not by a RegExp of `.*`s, which
// backtracks exponentially on a long model-written command that almost matches a many-star rule.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { wildcardMatches } from '../src/wildcard.ts'

/** What a wildcard means, spelled as the RegExp the matcher replaced (fine for short inputs). */
function byRegExp(pattern: string, text: string): boolean {
  const source = [...pattern]
    .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')))
    .join('')
  return new RegExp(`^${source}$`, 'su').test(text)
}

describe('command rule wildcards', () => {
  it('match as `*` any run, `?` one character, the rest literally', () => {
    expect(wildcardMatches('npm run *', 'npm run lint -- --fix')).toBe(true)
    expect(wildcardMatches('npm run *', 'npm run ')).toBe(true)
    expect(wildcardMatches('npm run *', 'npm install')).toBe(false)
    expect(wildcardMatches('git ?ush', 'git push')).toBe(true)
    expect(wildcardMatches('git ?ush', 'git ush')).toBe(false)
    expect(wildcardMatches('*.log', 'a\nb.log')).toBe(true)
    expect(wildcardMatches('a*b*c', 'axxbyyc')).toBe(true)
    expect(wildcardMatches('a*b*c', 'axxbyy')).toBe(false)
    expect(wildcardMatches('', '')).toBe(true)
    expect(wildcardMatches('*', '')).toBe(true)
  })

  it('property: agree with the RegExp they replaced on short inputs', () => {
    const pattern = fc.string({ unit: fc.constantFrom('a', 'b', '*', '?', '.', '\n'), maxLength: 8 })
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '.', '\n', '*'), maxLength: 12 })
    fc.assert(fc.property(pattern, text, (p, t) => wildcardMatches(p, t) === byRegExp(p, t)))
  })

  it('a long command that almost matches a many-star rule is answered (the RegExp took minutes)', () => {
    const rule = `${'a*'.repeat(12)}b`
    expect(wildcardMatches(rule, 'a'.repeat(3000))).toBe(false)
    expect(wildcardMatches(rule, `${'a'.repeat(3000)}b`)).toBe(true)
  })
})
