// A5/R4 for the Codex dialect, as the bridge uses it: `selectHooks` with the Codex-facing tool name and
// its aliases. Examples from the spec, then fast-check properties.
import { matchesMatcher } from '@tack/hook-protocol'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { CodexHookEntry } from '../src/hooks-file.ts'
import { codexMatcherProblem } from '../src/matcher.ts'
import { type RunnableHook, selectHooks } from '../src/runner.ts'
import { matcherSubjects } from '@tack/codex-protocol'
import { HostMappingReader } from '@tack/tools'
import { builtInTools } from './helpers.ts'

/** The built-in tools, whose declarations give each its Codex name (0011-tool-declarations.md). */
const tools = await builtInTools()
const codex = new HostMappingReader('codex', tools)
const subjectsOf = (tool: string) => matcherSubjects(codex.name(tool))

const hook = (event: string, matcher?: string): RunnableHook => {
  const entry: CodexHookEntry = {
    source: '/h.json',
    event,
    group: 0,
    index: 0,
    ...(matcher !== undefined ? { matcher } : {}),
    handler: { type: 'command', command: 'x', timeoutSec: 600, async: false },
  }
  return { entry, key: `/h.json:${event}:${matcher}` }
}

/** Whether a PreToolUse hook with `matcher` runs for the tack tool `tool`. */
const selects = (matcher: string | undefined, tool: string) =>
  selectHooks([hook('PreToolUse', matcher)], 'PreToolUse', subjectsOf(tool)).length === 1

describe('Codex matcher (examples)', () => {
  it('A5 absent, "" and * match every tool', () => {
    for (const m of [undefined, '', '*'])
      for (const tool of ['bash', 'edit', 'mcp__x__y']) expect(selects(m, tool)).toBe(true)
  })

  it('C3 edit and write match apply_patch, Edit and Write; bash matches Bash only', () => {
    for (const tool of ['edit', 'write']) {
      expect(selects('apply_patch', tool)).toBe(true)
      expect(selects('Edit', tool)).toBe(true)
      expect(selects('Write', tool)).toBe(true)
      expect(selects('Bash', tool)).toBe(false)
    }
    expect(selects('Bash', 'bash')).toBe(true)
    expect(selects('bash', 'bash')).toBe(false)
    expect(selects('Edit|Write', 'bash')).toBe(false)
  })

  it('A5 Edit|Write misses NotebookEdit; Edit.* hits it; ^Bash$ is a regex', () => {
    expect(matchesMatcher('codex', 'Edit|Write', ['NotebookEdit'])).toBe(false)
    expect(matchesMatcher('codex', 'Edit.*', ['NotebookEdit'])).toBe(true)
    expect(selects('^Bash$', 'bash')).toBe(true)
    expect(selects('^Bash$', 'bash_extra')).toBe(false)
  })

  it('A5 code-reviewer is a regex in Codex (hyphen outside the exact set); mcp__memory misses mcp__memory__x', () => {
    expect(matchesMatcher('codex', 'code-reviewer', ['my-code-reviewer-2'])).toBe(true)
    expect(matchesMatcher('claude', 'code-reviewer', ['my-code-reviewer-2'])).toBe(false)
    expect(selects('mcp__memory', 'mcp__memory__x')).toBe(false)
    expect(selects('mcp__memory__.*', 'mcp__memory__x')).toBe(true)
  })

  it('A5 a leading (?i) makes the regex case-insensitive; ( matches nothing and is reported at discovery', () => {
    expect(selects('(?i)^bash$', 'bash')).toBe(true)
    expect(selects('^bash$', 'bash')).toBe(false)
    expect(selects('(', 'bash')).toBe(false)
    expect(codexMatcherProblem('(')).toBe('invalid matcher regex "("')
    expect(codexMatcherProblem('Edit|Write')).toBeUndefined()
    expect(codexMatcherProblem(undefined)).toBeUndefined()
  })

  it('A5 UserPromptSubmit and Stop ignore the matcher', () => {
    expect(selectHooks([hook('Stop', 'NeverMatches')], 'Stop', [])).toHaveLength(1)
    expect(selectHooks([hook('UserPromptSubmit', '(')], 'UserPromptSubmit', [])).toHaveLength(1)
    expect(selectHooks([hook('SessionStart', 'resume')], 'SessionStart', ['startup'])).toHaveLength(0)
  })
})

const name = fc.stringMatching(/^[A-Za-z0-9_]{1,12}$/)

describe('Codex matcher (properties)', () => {
  it('R4 an exact list selects a subject iff the subject is one of its names', () => {
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 5 }), name, (names, subject) => {
        expect(matchesMatcher('codex', names.join('|'), [subject])).toBe(names.includes(subject))
      }),
    )
  })

  it('R4 any string is a matcher that never throws; an invalid one selects nothing and is reported', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20 }),
        fc.array(fc.string({ maxLength: 12 }), { maxLength: 3 }),
        (m, subjects) => {
          const selected = matchesMatcher('codex', m, subjects)
          if (codexMatcherProblem(m) !== undefined) expect(selected).toBe(false)
          else expect(typeof selected).toBe('boolean')
        },
      ),
    )
  })

  it('R4 alias matching: a tool matches iff its Codex name or one of its aliases does', () => {
    const tools = fc.constantFrom('bash', 'edit', 'write', 'read', 'glob', 'mcp__srv__tool')
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('Bash', 'apply_patch', 'Edit', 'Write', 'read', 'Read', 'mcp__srv__tool'), {
          minLength: 1,
          maxLength: 4,
        }),
        tools,
        (names, tool) => {
          const expected = subjectsOf(tool).some((s) => (names as string[]).includes(s))
          expect(selects(names.join('|'), tool)).toBe(expected)
        },
      ),
    )
  })

  it('R4 a regex matcher is unanchored: it selects any subject containing a literal match', () => {
    fc.assert(
      fc.property(name, name, name, (prefix, middle, suffix) => {
        const literal = `${middle}.?`
        expect(matchesMatcher('codex', literal, [`${prefix}-${middle}-${suffix}`])).toBe(true)
      }),
    )
  })
})
