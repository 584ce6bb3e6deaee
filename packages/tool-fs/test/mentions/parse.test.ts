// Finding `@path` mentions (85-skills-and-commands.md I1, docs/decisions/0280-file-mentions.md).
import { describe, expect, it } from 'vitest'
import { findPathMentions, mentionValue } from '../../src/mentions/parse.ts'

const texts = (text: string) => findPathMentions(text).map((m) => m.text)

describe('findPathMentions', () => {
  it('finds a mention at the start of a word, relative or absolute', () => {
    expect(findPathMentions('explain @src/a.ts please')).toEqual([
      { text: '@src/a.ts', candidates: ['src/a.ts'] },
    ])
    expect(texts('@/work/x/b.md and @./c')).toEqual(['@/work/x/b.md', '@./c'])
  })

  it('reads a quoted path with spaces as one mention', () => {
    expect(findPathMentions('look at @"my notes/a b.txt" now')).toEqual([
      { text: '@"my notes/a b.txt"', candidates: ['my notes/a b.txt'] },
    ])
  })

  it('drops sentence punctuation after a path, trying the word as typed first', () => {
    expect(findPathMentions('see @a.ts, then @b.ts. And (@c.md)')).toEqual([
      { text: '@a.ts', candidates: ['a.ts,', 'a.ts'] },
      { text: '@b.ts', candidates: ['b.ts.', 'b.ts'] },
    ])
    expect(texts('what about @src/?')).toEqual(['@src/'])
  })

  it('is no mention inside a word: emails and handles in text', () => {
    expect(texts('mail me@x.com or a@b')).toEqual([])
    expect(texts('(@c.md)')).toEqual([])
  })

  it("leaves MCP's `@server:scheme:…` shape alone, but a quoted one is a file", () => {
    expect(texts('read @everything:demo://resource/1 and @src/a.ts:12')).toEqual(['@src/a.ts:12'])
    expect(texts('@"odd:name:x"')).toEqual(['@"odd:name:x"'])
  })

  it('lists each mention once, and ignores a bare `@`', () => {
    expect(texts('@a.ts @a.ts @ @. x')).toEqual(['@a.ts'])
  })

  it('quotes a completed value that has a space', () => {
    expect(mentionValue('a b.txt')).toBe('"a b.txt"')
    expect(mentionValue('src/a.ts')).toBe('src/a.ts')
  })
})
