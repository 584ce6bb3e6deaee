// What the model gets for `/name args` (85-skills-and-commands.md C2, K5; docs/decisions/0275-prompt-commands.md):
// Claude Code's header, then the body read from a real command file (front matter stripped), its
// placeholders filled, its `` !`cmd` `` run by the policy's runner or kept with the note.
import { describe, expect, it } from 'vitest'
import { commandModelOf } from '../src/command-model.ts'
import { CommandTurns } from '../src/command-turns.ts'
import { commandHeader, expandCommand, mayRunInline } from '../src/expansion.ts'
import type { InlineCommandPolicy } from '../src/inline-commands.ts'
import { readCommand, readSkill } from '../src/read-item.ts'
import type { KnowHowItem } from '../src/types.ts'

const signal = new AbortController().signal
const keep: InlineCommandPolicy = { kind: 'keep', why: 'the workspace is not trusted' }

function command(text: string, scope: 'user' | 'project' = 'project', name = 'review'): KnowHowItem {
  const file = `/ws/.claude/commands/${name}.md`
  const item = readCommand(text, name, {
    file,
    dir: '/ws/.claude/commands',
    scope,
    source: '.claude/commands',
  }).item
  if (!item) throw new Error('not read')
  return item
}

const REVIEW = `---
description: Review a file
argument-hint: <file> [focus]
model: anthropic/claude-haiku-4-5
---
Review $0 with focus on $1. Everything: $ARGUMENTS. Past the end: $2 and $ARGUMENTS[7].
`

describe('expanding a prompt command (C2)', () => {
  it('names the command and its arguments, then the body without front matter, 0-based words, quotes removed', async () => {
    const text = await expandCommand(command(REVIEW), ' "src/a b.ts"  security ', keep, signal)
    expect(text).toBe(
      [
        '<command-message>review</command-message>',
        '<command-name>/review</command-name>',
        '<command-args>"src/a b.ts"  security</command-args>',
        '',
        'Review src/a b.ts with focus on security. Everything: "src/a b.ts"  security. Past the end: $2 and $ARGUMENTS[7].',
      ].join('\n'),
    )
    expect(text).not.toContain('argument-hint')
    expect(text).not.toContain('---')
  })

  it('leaves placeholders as written when no arguments are given, and has no args line', async () => {
    const text = await expandCommand(command(REVIEW), '', keep, signal)
    expect(text.split('\n').slice(0, 3)).toEqual([
      '<command-message>review</command-message>',
      '<command-name>/review</command-name>',
      '',
    ])
    expect(text).toContain('Review $0 with focus on $1. Everything: .')
  })

  it('appends ARGUMENTS: to a body that names none (a plain Codex prompt file)', async () => {
    const text = await expandCommand(
      command('Tidy up the imports.\n', 'user', 'tidy'),
      'src/x.ts',
      keep,
      signal,
    )
    expect(text.endsWith('Tidy up the imports.\n\nARGUMENTS: src/x.ts')).toBe(true)
  })

  it('keeps !`cmd` with the note when the policy keeps, and runs it through the runner when it runs', async () => {
    const item = command('Branch: !`git branch --show-current`\nDiff of $0: !`git diff $0`\n')
    const kept = await expandCommand(item, 'a.ts', keep, signal)
    expect(kept).toContain('Branch: !`git branch --show-current`')
    expect(kept).toContain(
      '[tack: the 2 commands marked !`…` above did not run: the workspace is not trusted]',
    )
    const ran: string[] = []
    const run: InlineCommandPolicy = {
      kind: 'run',
      run: async (cmd) => {
        ran.push(cmd)
        return cmd.startsWith('git diff')
          ? { kind: 'failed', reason: 'denied' }
          : { kind: 'output', text: 'main\n' }
      },
    }
    const expanded = await expandCommand(item, 'a.ts', run, signal)
    // Arguments are in before the commands run, as Claude Code does.
    expect(ran).toEqual(['git branch --show-current', 'git diff a.ts'])
    expect(expanded).toContain('Branch: main\nDiff of a.ts: [git diff a.ts did not run: denied]')
  })

  it('a skill run as /name names its folder and fills CLAUDE_SKILL_DIR', async () => {
    const skill = readSkill(
      `---\nname: pdf\ndescription: PDFs\n---\nRun \${CLAUDE_SKILL_DIR}/x.py on $0\n`,
      'pdf',
      {
        file: '/home/u/.claude/skills/pdf/SKILL.md',
        dir: '/home/u/.claude/skills/pdf',
        scope: 'user',
        source: '~/.claude/skills',
      },
    ).item as KnowHowItem
    const text = await expandCommand(skill, 'doc.pdf', keep, signal)
    expect(text).toContain(
      'Base directory for this skill: /home/u/.claude/skills/pdf\n\nRun /home/u/.claude/skills/pdf/x.py on doc.pdf',
    )
  })

  it('K5: only the person’s own items or a trusted workspace may run commands', () => {
    expect(mayRunInline(command('x', 'user'), false)).toEqual({ ok: true })
    expect(mayRunInline(command('x', 'project'), true)).toEqual({ ok: true })
    const no = mayRunInline(command('x', 'project'), false)
    expect(no.ok).toBe(false)
    expect(no.ok ? '' : no.why).toContain('/ws/.claude/commands/review.md')
  })
})

describe("a command's model (C2)", () => {
  it('takes provider/model, reads a bare Claude id as anthropic, inherit as none, and refuses an alias naming file and key', () => {
    expect(commandModelOf(command(REVIEW))).toEqual({ ok: true, model: 'anthropic/claude-haiku-4-5' })
    expect(commandModelOf(command('---\nmodel: claude-3-5-haiku-20241022\n---\nx'))).toEqual({
      ok: true,
      model: 'anthropic/claude-3-5-haiku-20241022',
    })
    expect(commandModelOf(command('---\nmodel: inherit\n---\nx'))).toEqual({ ok: true })
    expect(commandModelOf(command('x'))).toEqual({ ok: true })
    const alias = commandModelOf(command('---\nmodel: haiku\n---\nx'))
    expect(alias).toEqual({
      ok: false,
      problem: expect.stringContaining(
        '/ws/.claude/commands/review.md: model: "haiku" is not of the form provider/model',
      ),
    })
  })
})

describe('the turn a command asked for', () => {
  it('is claimed only by the prompt starting with its header, binds to the first turn it sees and ends there', () => {
    const turns = new CommandTurns()
    const agent = {}
    const item = command(REVIEW)
    turns.expect(agent, { header: commandHeader('review', 'a.ts'), item, model: 'x/other', allowedTools: [] })
    expect(turns.claim(agent, 'an ordinary prompt')).toBeUndefined()
    expect(turns.claim(agent, `${commandHeader('review', 'a.ts')}\n\nReview a.ts`)?.model).toBe('x/other')
    expect(turns.claim(agent, `${commandHeader('review', 'a.ts')}\n\nagain`)).toBeUndefined()
    expect(turns.modelFor(agent, 4)).toBe('x/other')
    expect(turns.modelFor(agent, 4)).toBe('x/other')
    expect(turns.modelFor(agent, 5)).toBeUndefined()
    expect(turns.modelFor(agent, 4)).toBeUndefined()
  })
})
