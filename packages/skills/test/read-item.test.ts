import { describe, expect, it } from 'vitest'
import { expandInlineCommands, inlineCommandsOf } from '../src/inline-commands.ts'
import { readCommand, readSkill } from '../src/read-item.ts'

const origin = { file: '/s/pdf/SKILL.md', dir: '/s/pdf', scope: 'user' as const, source: '~/.claude/skills' }

describe('reading a SKILL.md (85-skills-and-commands.md K1)', () => {
  it('reads name, description, allowed-tools in both shapes and keeps unknown keys', () => {
    const text = `---\nname: pdf\ndescription: Fill PDF forms. Use when a .pdf is named.\nallowed-tools: Bash(python:*), Read Grep\nlicense: MIT\nmetadata:\n  version: "1.2"\n---\n# PDF\nBody here.\n`
    const { item, warnings } = readSkill(text, 'pdf', origin)
    expect(warnings).toEqual([])
    expect(item?.name).toBe('pdf')
    expect(item?.allowedTools).toEqual(['Bash(python:*)', 'Read', 'Grep'])
    expect(item?.frontMatter.license).toBe('MIT')
    expect(item?.frontMatter.metadata).toEqual({ version: '1.2' })
    expect(item?.body).toBe('# PDF\nBody here.\n')
    const listed = readSkill(
      '---\nname: pdf\ndescription: d\nallowed-tools:\n  - Read\n  - Bash(git log:*)\n---\n',
      'pdf',
      origin,
    )
    expect(listed.item?.allowedTools).toEqual(['Read', 'Bash(git log:*)'])
  })
  it('skips a skill without name or description, naming file and key', () => {
    const noName = readSkill('---\ndescription: x\n---\nb', 'pdf', origin)
    expect(noName.item).toBeUndefined()
    expect(noName.warnings).toContainEqual({
      file: origin.file,
      key: 'name',
      message: 'missing; skill skipped',
    })
    const noDesc = readSkill('---\nname: pdf\n---\nb', 'pdf', origin)
    expect(noDesc.item).toBeUndefined()
    expect(noDesc.warnings[0]?.key).toBe('description')
    expect(readSkill('no front matter at all', 'pdf', origin).item).toBeUndefined()
  })
  it('skips invalid YAML and a malformed name, warns on a folder mismatch and a long description', () => {
    const bad = readSkill('---\nname: [unclosed\ndescription: x\n---\n', 'pdf', origin)
    expect(bad.item).toBeUndefined()
    expect(bad.warnings[0]?.message).toMatch(/not valid YAML/)
    expect(readSkill('---\nname: PDF_Tool\ndescription: d\n---\n', 'pdf', origin).item).toBeUndefined()
    const other = readSkill(`---\nname: other\ndescription: ${'x'.repeat(1100)}\n---\n`, 'pdf', origin)
    expect(other.item?.name).toBe('other')
    expect(other.item?.description.length).toBe(1024)
    expect(other.warnings.map((w) => w.key)).toEqual(['name', 'description'])
  })
  it('reads the invocation switches, as booleans or their text', () => {
    const { item } = readSkill(
      '---\nname: pdf\ndescription: d\ndisable-model-invocation: "true"\nuser-invocable: false\n---\n',
      'pdf',
      origin,
    )
    expect(item?.disableModelInvocation).toBe(true)
    expect(item?.userInvocable).toBe(false)
  })
  it('keeps a __proto__ key as a key', () => {
    const { item } = readSkill(
      '---\nname: pdf\ndescription: d\n__proto__:\n  polluted: 1\n---\n',
      'pdf',
      origin,
    )
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.keys(item?.frontMatter ?? {})).toContain('__proto__')
  })
})

describe('reading a command file (C1, C2)', () => {
  const cmd = { ...origin, file: '/c/review.md', dir: '/c' }
  it('takes the description from front matter, else the first line', () => {
    expect(
      readCommand(
        '---\ndescription: Review code\nargument-hint: "[file]"\nmodel: openai/gpt-4.1\n---\nDo it',
        'review',
        cmd,
      ).item,
    ).toMatchObject({
      description: 'Review code',
      argumentHint: '[file]',
      model: 'openai/gpt-4.1',
      body: 'Do it',
    })
    expect(readCommand('\n# Review the diff\nmore', 'review', cmd).item?.description).toBe('Review the diff')
  })
  it('keeps a file with unreadable front matter as all body, with a warning', () => {
    const r = readCommand('---\n: : :\n  - [\n---\nbody', 'review', cmd)
    expect(r.item?.body).toContain('body')
    expect(r.warnings[0]?.message).toMatch(/not valid YAML/)
  })
})

describe('inline commands (K4, K5)', () => {
  const signal = new AbortController().signal
  it('finds and runs them in order through the runner', async () => {
    expect(inlineCommandsOf('a !`git status` b !`ls -1`')).toEqual(['git status', 'ls -1'])
    const ran: string[] = []
    const out = await expandInlineCommands(
      'Status:\n!`git status`\nFiles: !`ls`',
      {
        kind: 'run',
        run: async (c) => {
          ran.push(c)
          return c === 'ls' ? { kind: 'failed', reason: 'denied' } : { kind: 'output', text: 'clean\n' }
        },
      },
      signal,
    )
    expect(ran).toEqual(['git status', 'ls'])
    expect(out).toBe('Status:\nclean\nFiles: [ls did not run: denied]')
  })
  it('keeps the text and says why when they may not run', async () => {
    const out = await expandInlineCommands(
      'x !`rm -rf /`',
      { kind: 'keep', why: 'the workspace is not trusted' },
      signal,
    )
    expect(out).toContain('!`rm -rf /`')
    expect(out).toMatch(/did not run: the workspace is not trusted/)
  })
})
