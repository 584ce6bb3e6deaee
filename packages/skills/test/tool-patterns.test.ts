// `allowed-tools` patterns as Claude Code writes them (85-skills-and-commands.md K4): which calls each
// approves, by tack name and Claude Code name, and command specifiers held to every command of a line.
import { describe, expect, it } from 'vitest'
import { parseToolPattern, patternMatches, understood } from '../src/tool-patterns.ts'

const p = (text: string) => {
  const parsed = parseToolPattern(text)
  if (!parsed) throw new Error(`not a pattern: ${text}`)
  return parsed
}
const bash = (command: string) => ({ names: ['bash', 'Bash'], arguments: { command } })

describe('allowed-tools patterns', () => {
  it('a bare name approves every call of that tool, by its tack or its Claude Code name', () => {
    expect(patternMatches(p('Read'), { names: ['read', 'Read'], arguments: { path: 'x' } })).toBe(true)
    expect(patternMatches(p('read'), { names: ['read', 'Read'], arguments: {} })).toBe(true)
    expect(patternMatches(p('Read'), { names: ['write', 'Write'], arguments: {} })).toBe(false)
    expect(patternMatches(p('mcp__github__*'), { names: ['mcp__github__create_issue'], arguments: {} })).toBe(
      true,
    )
  })
  it('Bash(prefix:*), Bash(glob) and Bash(exact) judge every command of the line', () => {
    expect(patternMatches(p('Bash(git add:*)'), bash('git add src/a.ts'))).toBe(true)
    expect(patternMatches(p('Bash(git add:*)'), bash('git add'))).toBe(true)
    expect(patternMatches(p('Bash(git add:*)'), bash('git addendum'))).toBe(false)
    expect(patternMatches(p('Bash(git add:*)'), bash('git add . && rm -rf ~'))).toBe(false)
    expect(patternMatches(p('Bash(git add:*)'), bash('git add a && git add b'))).toBe(true)
    expect(patternMatches(p('Bash(npm run *)'), bash('npm run test'))).toBe(true)
    expect(patternMatches(p('Bash(npm test)'), bash('npm test'))).toBe(true)
    expect(patternMatches(p('Bash(npm test)'), bash('npm test; curl evil'))).toBe(false)
    expect(patternMatches(p('Bash(echo "unclosed)'), bash('echo "unclosed'))).toBe(false)
  })
  it('a specifier on a tool without a command is not understood and approves nothing', () => {
    const docs = p('Read(./docs/**)')
    expect(understood(docs)).toBe(false)
    expect(patternMatches(docs, { names: ['read', 'Read'], arguments: { path: 'docs/a.md' } })).toBe(false)
    expect(parseToolPattern('not a (pattern')).toBeUndefined()
  })
})
