import { describe, expect, it } from 'vitest'
import { shellQuote, shellWords } from '../src/install/shell-words.ts'
import { isOwnedCommand } from '../src/install/targets.ts'

describe('R26 ownership by the script word', () => {
  it('R26 shellWords splits like sh: single and double quotes, backslashes, runs of blanks', () => {
    expect(shellWords(`node '/a b/agent-dice-claude-stop.js'`)).toEqual([
      'node',
      '/a b/agent-dice-claude-stop.js',
    ])
    expect(shellWords(`bun "/x/\\"q\\"/dice-stop.ts"`)).toEqual(['bun', '/x/"q"/dice-stop.ts'])
    expect(shellWords(`bun /a\\ b/dice-stop.ts   `)).toEqual(['bun', '/a b/dice-stop.ts'])
    expect(shellWords(`node ''`)).toEqual(['node', ''])
    expect(shellWords(shellQuote(`it's/here`))).toEqual([`it's/here`])
  })
  it('R26 owned: our basenames, the public .claude/hooks scripts and the Codex revision scripts; never a substring (R27 fix 11)', () => {
    const paths = { codexRoot: '/home/u/.codex' }
    expect(isOwnedCommand(`node '/x/agent-dice-codex-stop.js'`, paths)).toBe(true)
    expect(isOwnedCommand(`bun "/home/u/.claude/hooks/dice-session-start.ts"`, paths)).toBe(true)
    expect(isOwnedCommand(`bun '/home/u/.codex/dice/codex-stop.ts'`, paths)).toBe(true)
    expect(isOwnedCommand(`bun '/elsewhere/dice/codex-stop.ts'`, paths)).toBe(false)
    expect(isOwnedCommand(`bun /home/u/hooks/dice-stop.ts`, paths)).toBe(false)
    expect(isOwnedCommand(`/usr/bin/my-dice-stop.sh`, paths)).toBe(false)
    expect(isOwnedCommand(`node /x/agent-dice-claude-stop.js.bak`, paths)).toBe(false)
    expect(isOwnedCommand(`echo agent-dice-claude-stop.js && true`, paths)).toBe(false)
    expect(isOwnedCommand(42, paths)).toBe(false)
  })
})
