// A deny rule with a path keeps the files it covers out of search results, not only out of calls
// that name them (docs/decisions/0118-deny-rules-in-search-results.md): grep never searches them —
// on the ripgrep path and the pure-Node path alike — glob never lists them, and both say how many
// were withheld without naming them.
import { execFileSync } from 'node:child_process'
import { mkdir, realpath, symlink, writeFile } from 'node:fs/promises'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { kernel, run } from './support.ts'

const RG = execFileSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).trim()
const DENY_ENV = { deny: [{ tool: '*', path: '**/.env*' }] }

/** A workspace whose `.env` files hold the secret, next to ordinary files holding the same word. */
async function secretTree(): Promise<string> {
  const cwd = await realpath(await mkdtemp(join(tmpdir(), 'tack-withheld-')))
  await mkdir(join(cwd, 'app'), { recursive: true })
  await writeFile(join(cwd, '.env'), 'ENVSECRET=1\n')
  await writeFile(join(cwd, 'app', '.env.production'), 'ENVSECRET=2\n')
  await writeFile(join(cwd, 'app', 'main.ts'), 'const ENVSECRET = process.env.ENVSECRET\n')
  await writeFile(join(cwd, 'notes.md'), 'no secret here\n')
  return cwd
}

const text = (result: { content: ReadonlyArray<{ type: string; text?: string }> }) =>
  result.content.map((block) => block.text ?? '').join('')

describe.each([
  ['ripgrep', RG],
  ['pure Node', 'off'],
])('deny path rules in search results (%s)', (_name, ripgrep) => {
  it('R6 grep with no path, with a glob and in every output never shows a covered file, and counts them', async () => {
    const cwd = await secretTree()
    const k = await kernel({ config: { mode: 'workspace-write', ...DENY_ENV }, fs: { ripgrep } })
    const content = text(await run(k, 'grep', { pattern: 'ENVSECRET=', output: 'content' }, { cwd }))
    expect(content).not.toContain('.env')
    expect(content).toBe('No matches found.\n\n[2 files withheld by permission deny rules: not searched.]')
    const files = text(await run(k, 'grep', { pattern: 'ENVSECRET' }, { cwd }))
    expect(files).toBe('app/main.ts\n\n[2 files withheld by permission deny rules: not searched.]')
    const globbed = text(
      await run(k, 'grep', { pattern: 'ENVSECRET', glob: '.env', output: 'count' }, { cwd }),
    )
    expect(globbed).toBe('No matches found.\n\n[1 file withheld by permission deny rules: not searched.]')
  })

  it('R6 the withheld count depends on names only, never on what the covered files hold', async () => {
    const cwd = await secretTree()
    const k = await kernel({ config: { mode: 'workspace-write', ...DENY_ENV }, fs: { ripgrep } })
    // A literal only the covered files hold and one nobody holds get the same answer: no content oracle.
    const held = text(await run(k, 'grep', { pattern: 'ENVSECRET=2' }, { cwd }))
    const absent = text(await run(k, 'grep', { pattern: 'NOWHERE=9' }, { cwd }))
    expect(held).toBe(absent)
  })

  it('R6 the count is whole when the search stops at its cap, and when the pattern has no literal (0330)', async () => {
    const cwd = await secretTree()
    // Covered files on both sides of the point where a search capped at 1 file stops (path order).
    await writeFile(join(cwd, 'a.ts'), 'ENVSECRET\n')
    // More files than the search sends ahead of its results (search-pool.ts), so a walk is left mid-way.
    await mkdir(join(cwd, 'm'), { recursive: true })
    for (let i = 0; i < 1400; i++) await writeFile(join(cwd, 'm', `f${i}.ts`), 'ENVSECRET\n')
    await mkdir(join(cwd, 'z'), { recursive: true })
    await writeFile(join(cwd, 'z', '.env.local'), 'ENVSECRET=3\n')
    const k = await kernel({
      config: { mode: 'workspace-write', ...DENY_ENV },
      fs: { ripgrep, grepMaxMatches: 1 },
    })
    const capped = text(await run(k, 'grep', { pattern: 'ENVSECRET' }, { cwd }))
    expect(capped).toBe(
      'a.ts\n\n[Stopped at 1 file (grepMaxMatches); there are more. Narrow the pattern, path or glob.]\n\n[3 files withheld by permission deny rules: not searched.]',
    )
    // `(ENV|X)SECRET` has no required literal: the search's own listing is by name on both paths.
    const noLiteral = text(await run(k, 'grep', { pattern: '(ENV|X)SECRET', output: 'count' }, { cwd }))
    expect(noLiteral).toBe(
      'a.ts:1\n\n[Stopped at 1 file (grepMaxMatches); there are more. Narrow the pattern, path or glob.]\n\n[3 files withheld by permission deny rules: not searched.]',
    )
  })

  it('R6 glob omits covered files and says how many matched, without their names', async () => {
    const cwd = await secretTree()
    const k = await kernel({ config: { mode: 'yolo', ...DENY_ENV }, fs: { ripgrep } })
    expect(text(await run(k, 'glob', { pattern: '**/.env*' }, { cwd }))).toBe(
      'No files matched.\n\n[2 files withheld by permission deny rules: not listed.]',
    )
    expect(text(await run(k, 'glob', { pattern: '**' }, { cwd }))).toBe(
      'app/main.ts\nnotes.md\n\n[2 files withheld by permission deny rules: not listed.]',
    )
  })

  it('R6 a rule for one tool withholds only from that tool; without path rules nothing changes', async () => {
    const cwd = await secretTree()
    const k = await kernel({ config: { deny: [{ tool: 'glob', path: 'app/**' }] }, fs: { ripgrep } })
    expect(text(await run(k, 'glob', { pattern: '**' }, { cwd }))).toBe(
      '.env\nnotes.md\n\n[2 files withheld by permission deny rules: not listed.]',
    )
    expect(text(await run(k, 'grep', { pattern: 'ENVSECRET=2' }, { cwd }))).toBe('app/.env.production')
    const open = await kernel({ config: { deny: [{ tool: 'bash', command: 'rm' }] }, fs: { ripgrep } })
    expect(text(await run(open, 'grep', { pattern: 'ENVSECRET=' }, { cwd }))).toBe(
      '.env\napp/.env.production',
    )
  })

  it('R6 a covered file reached through a symlinked workspace root is withheld by an absolute rule on the lexical path', async () => {
    const real = await secretTree()
    const base = await realpath(await mkdtemp(join(tmpdir(), 'tack-withheld-link-')))
    const cwd = join(base, 'ws')
    await symlink(real, cwd)
    const k = await kernel({ config: { deny: [{ tool: '*', path: `${cwd}/app/**` }] }, fs: { ripgrep } })
    expect(text(await run(k, 'grep', { pattern: 'ENVSECRET' }, { cwd }))).toBe(
      '.env\n\n[2 files withheld by permission deny rules: not searched.]',
    )
  })
})
