// Discovery over real folders (85-skills-and-commands.md K1, K2, C1, K5): the fixture folder of skills
// and commands in the shapes people publish, precedence and shadowing, and the bounds a hostile
// workspace meets (a symlink leading outside, a FIFO, a huge file, a deep tree).
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { KnowHowFolder } from '../src/config.ts'
import { discoverKnowHow, MAX_DEPTH, MAX_ENTRIES_PER_FOLDER, MAX_ITEMS_PER_FOLDER } from '../src/discover.ts'

const REAL_WORLD = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'real-world')

const folder = (dir: string, kind: KnowHowFolder['kind'], scope: KnowHowFolder['scope'], label = dir) => ({
  dir,
  kind,
  scope,
  label,
})

function skill(root: string, rel: string, name: string, description = `${name} does things`, extra = '') {
  mkdirSync(join(root, rel), { recursive: true })
  writeFileSync(
    join(root, rel, 'SKILL.md'),
    `---\nname: ${name}\ndescription: ${description}\n${extra}---\nbody of ${name}\n`,
  )
}

const tmp = () => realpathSync(mkdtempSync(join(tmpdir(), 'tack-skills-')))

describe('the real-world fixture folder', () => {
  const d = discoverKnowHow({
    folders: [
      folder(join(REAL_WORLD, 'skills'), 'skill', 'user', '~/.claude/skills'),
      folder(join(REAL_WORLD, 'commands'), 'command', 'user', '~/.claude/commands'),
    ],
    maxFileBytes: 256 * 1024,
  })
  it('loads every well-formed skill and command, nested ones included', () => {
    expect(d.items.map((i) => `${i.kind}:${i.name}`)).toEqual([
      'skill:api-design',
      'command:frontend:component',
      'skill:pdf-forms',
      'skill:react-component',
      'skill:release-notes',
      'command:review',
      'skill:sql-review',
      'skill:windows-notes',
    ])
  })
  it('reads odd front matter as those agents do: lists, strings, mappings, unknown keys, CRLF and a BOM', () => {
    const get = (name: string) => d.items.find((i) => i.name === name)
    expect(get('pdf-forms')?.allowedTools).toEqual(['Read', 'Bash(python3:*)'])
    expect(get('pdf-forms')?.frontMatter.metadata).toEqual({ author: 'example-team', version: '1.2' })
    expect(get('release-notes')?.allowedTools).toEqual(['Bash(git log:*)', 'Bash(git describe:*)', 'Read'])
    expect(get('release-notes')?.argumentHint).toBe('[since-tag]')
    expect(get('react-component')?.frontMatter.tags).toEqual(['react', 'scaffolding'])
    expect(get('windows-notes')?.description).toBe(
      'Notes written on Windows, with CRLF line endings and a byte order mark.',
    )
    expect(get('windows-notes')?.allowedTools).toEqual(['Read'])
    expect(get('windows-notes')?.body).toContain('Keep paths with forward slashes.')
    expect(get('api-design')?.description).toMatch(
      /^Design or review an HTTP API: .* Use when adding endpoints\.$/,
    )
    expect(get('sql-review')?.disableModelInvocation).toBe(true)
    expect(get('review')?.description).toBe('Review the staged changes')
    expect(get('frontend:component')?.description).toBe(
      'Create a component named $0 in the frontend package.',
    )
  })
  it('warns about each malformed file, naming file and key, and skips it', () => {
    const lines = d.warnings.map(
      (w) => `${w.file.slice(REAL_WORLD.length + 1)}: ${w.key ?? '-'}: ${w.message}`,
    )
    expect(lines).toEqual([
      expect.stringMatching(/^skills\/Upper-Case\/SKILL\.md: name: "Upper-Case" is not lower-case/),
      expect.stringMatching(/^skills\/broken-yaml\/SKILL\.md: -: front matter is not valid YAML/),
      'skills/broken-yaml/SKILL.md: -: skill skipped',
      'skills/no-description/SKILL.md: description: missing; skill skipped',
    ])
  })
})

describe('precedence and shadowing (K2, C2)', () => {
  it("the user's skill wins over the project's, a skill over a command, and the losers are listed", () => {
    const root = tmp()
    skill(root, 'user-skills/deploy', 'deploy', 'the user deploy')
    skill(root, 'ws/.claude/skills/deploy', 'deploy', 'the project deploy')
    skill(root, 'ws/.claude/skills/lint', 'lint', 'the project lint')
    mkdirSync(join(root, 'ws/.claude/commands'), { recursive: true })
    writeFileSync(join(root, 'ws/.claude/commands/lint.md'), 'lint command\n')
    writeFileSync(join(root, 'ws/.claude/commands/fmt.md'), 'format command\n')
    const d = discoverKnowHow({
      folders: [
        folder(join(root, 'user-skills'), 'skill', 'user', '~/.claude/skills'),
        folder(join(root, 'ws/.claude/skills'), 'skill', 'project', '.claude/skills'),
        folder(join(root, 'ws/.claude/commands'), 'command', 'project', '.claude/commands'),
      ],
      cwd: join(root, 'ws'),
      maxFileBytes: 4096,
    })
    expect(d.items.map((i) => [i.name, i.kind, i.scope])).toEqual([
      ['deploy', 'skill', 'user'],
      ['fmt', 'command', 'project'],
      ['lint', 'skill', 'project'],
    ])
    expect(d.shadowed.map((s) => [s.item.name, s.item.kind, s.item.source, s.by.source])).toEqual([
      ['deploy', 'skill', '.claude/skills', '~/.claude/skills'],
      ['lint', 'command', '.claude/commands', '.claude/skills'],
    ])
  })
})

describe("a workspace's files are bounded (K5)", () => {
  it('refuses a project skill whose SKILL.md leads outside the workspace, but follows a user one', () => {
    const root = tmp()
    skill(root, 'outside/secret', 'secret', 'outside the workspace')
    mkdirSync(join(root, 'ws/.tack/skills'), { recursive: true })
    symlinkSync(join(root, 'outside/secret'), join(root, 'ws/.tack/skills/secret'))
    const project = discoverKnowHow({
      folders: [folder(join(root, 'ws/.tack/skills'), 'skill', 'project')],
      cwd: join(root, 'ws'),
      maxFileBytes: 4096,
    })
    expect(project.items).toEqual([])
    expect(project.warnings).toEqual([
      {
        file: join(root, 'ws/.tack/skills/secret/SKILL.md'),
        message: 'leads outside the workspace; not read',
      },
    ])
    const user = discoverKnowHow({
      folders: [folder(join(root, 'ws/.tack/skills'), 'skill', 'user')],
      maxFileBytes: 4096,
    })
    expect(user.items.map((i) => i.name)).toEqual(['secret'])
  })
  it('skips a FIFO and a file past maxFileBytes with a warning, without blocking', () => {
    const root = tmp()
    mkdirSync(join(root, 'skills/fifo'), { recursive: true })
    execFileSync('mkfifo', [join(root, 'skills/fifo/SKILL.md')])
    skill(root, 'skills/huge', 'huge', 'x'.repeat(10), `padding: "${'y'.repeat(5000)}"\n`)
    skill(root, 'skills/fine', 'fine')
    const d = discoverKnowHow({
      folders: [folder(join(root, 'skills'), 'skill', 'user')],
      maxFileBytes: 2048,
    })
    expect(d.items.map((i) => i.name)).toEqual(['fine'])
    expect(d.warnings.map((w) => w.file)).toEqual([
      join(root, 'skills/fifo/SKILL.md'),
      join(root, 'skills/huge/SKILL.md'),
    ])
    for (const w of d.warnings) expect(w.message).toMatch(/skipped$/)
  })
  it(`walks group folders down to depth ${MAX_DEPTH} and no deeper`, () => {
    const root = tmp()
    skill(root, 'skills/a/b/c/reachable', 'reachable')
    skill(root, 'skills/a/b/c/d/too-deep', 'too-deep')
    const d = discoverKnowHow({
      folders: [folder(join(root, 'skills'), 'skill', 'user')],
      maxFileBytes: 4096,
    })
    expect(d.items.map((i) => i.name)).toEqual(['reachable'])
  })
  it(`stops reading a folder once it gave ${MAX_ITEMS_PER_FOLDER} items, so a flood of skills costs no more`, () => {
    const root = tmp()
    for (let i = 0; i <= MAX_ITEMS_PER_FOLDER; i++)
      skill(root, `skills/a${String(i).padStart(4, '0')}`, `a${String(i).padStart(4, '0')}`)
    // past the bound, in name order: a file that would warn if it were still read
    mkdirSync(join(root, 'skills/zzz'), { recursive: true })
    writeFileSync(join(root, 'skills/zzz/SKILL.md'), '---\nname: zzz\n---\nno description\n')
    const d = discoverKnowHow({
      folders: [folder(join(root, 'skills'), 'skill', 'project')],
      cwd: root,
      maxFileBytes: 4096,
    })
    expect(d.items).toHaveLength(MAX_ITEMS_PER_FOLDER)
    expect(d.warnings.map((w) => w.message)).toEqual([
      `holds more than ${MAX_ITEMS_PER_FOLDER}; the rest are skipped`,
    ])
  })
  it(`looks at no more than ${MAX_ENTRIES_PER_FOLDER} entries of one folder, empty folders included`, () => {
    const root = tmp()
    for (let i = 0; i < MAX_ENTRIES_PER_FOLDER; i++)
      mkdirSync(join(root, 'skills', `e${String(i).padStart(6, '0')}`), { recursive: true })
    skill(root, 'skills/zzz', 'zzz')
    const d = discoverKnowHow({
      folders: [folder(join(root, 'skills'), 'skill', 'project')],
      cwd: root,
      maxFileBytes: 4096,
    })
    expect(d.items).toEqual([])
    expect(d.warnings.map((w) => w.message)).toEqual([
      `holds more than ${MAX_ENTRIES_PER_FOLDER} entries; the rest are skipped`,
    ])
  })
  it('a folder named in plugins.skills.paths that is no folder is a warning; an absent usual folder is not', () => {
    const root = tmp()
    writeFileSync(join(root, 'a-file'), 'x')
    const d = discoverKnowHow({
      folders: [
        { ...folder(join(root, 'gone'), 'skill', 'user', 'gone'), configured: true },
        { ...folder(join(root, 'a-file'), 'skill', 'user', 'a-file'), configured: true },
        folder(join(root, 'absent-usual'), 'skill', 'user'),
      ],
      maxFileBytes: 4096,
    })
    expect(d.warnings).toEqual([
      {
        file: join(root, 'gone'),
        key: 'plugins.skills.paths',
        message: '"gone" is not a folder; no skills read from it',
      },
      {
        file: join(root, 'a-file'),
        key: 'plugins.skills.paths',
        message: '"a-file" is not a folder; no skills read from it',
      },
    ])
  })
})
