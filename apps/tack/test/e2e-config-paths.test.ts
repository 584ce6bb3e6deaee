// A relative path in a config file names a place beside that file, never in the repository tack runs in
// (docs/decisions/0130-config-relative-paths.md), through the real binary: the tester's attack (a user
// config's `mods/helper` loading a mod the repository ships), the same for a hook source, and
// `tack hooks trust` / `tack hooks list --cwd` agreeing with `tack run --cwd` on a relative trust store.
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runTack, type Sandbox, sandbox, scriptedModel, textAnswers } from './helpers.ts'

/** A mod whose `/who` command says `name`: which of two same-named folders loaded is in the answer. */
async function writeMod(dir: string, name: string): Promise<void> {
  await mkdir(join(dir, '.claude-plugin'), { recursive: true })
  await mkdir(join(dir, 'hooks'), { recursive: true })
  await writeFile(
    join(dir, '.claude-plugin', 'plugin.json'),
    JSON.stringify({ name: 'helper', version: '1.0.0' }),
  )
  await writeFile(join(dir, 'hooks', 'hooks.json'), JSON.stringify({ modules: ['./register.ts'] }))
  await writeFile(
    join(dir, 'hooks', 'register.ts'),
    `export const register = (on) => on('command.run', { command: 'who' }, async () => ({ text: ${JSON.stringify(name)} }))\n`,
  )
}

/** A box with a repository folder (`<root>/repo`, untrusted) beside the workspace. */
async function withRepo(): Promise<Sandbox & { repo: string }> {
  const box = await sandbox()
  const repo = join(box.root, 'repo')
  await mkdir(repo, { recursive: true })
  await mkdir(box.tackHome, { recursive: true })
  return { ...box, repo }
}

describe('relative paths in the user config resolve against its folder', () => {
  test("the tester's attack: the repository's mods/helper does not load; the one beside the config does", async () => {
    const box = await withRepo()
    await writeMod(join(box.repo, 'mods', 'helper'), 'the repository mod')
    await writeFile(join(box.tackHome, 'config.yml'), 'plugins:\n  mods:\n    mods: [{ dir: mods/helper }]\n')
    const model = await scriptedModel(box.root, textAnswers('no mod answered'))

    const attacked = await runTack(['run', '--model', model, '/who'], { env: box.env, cwd: box.repo })
    expect(attacked.stdout).not.toContain('the repository mod')
    // one line naming the folder the config meant
    const expected = join(box.tackHome, 'mods', 'helper')
    expect(attacked.stderr).toContain(`tack: mods: mod "helper": ${expected} is not a folder\n`)
    expect(attacked.stderr.split('\n').filter((l) => l.includes('mods/helper'))).toHaveLength(1)

    await writeMod(expected, 'the user mod')
    const own = await runTack(['run', '--model', model, '/who'], { env: box.env, cwd: box.repo })
    expect(own.stdout).toBe('the user mod\n')
    expect(own.code).toBe(0)
    // and `tack mods list` names the same folder
    const list = await runTack(['mods', 'list'], { env: box.env, cwd: box.repo })
    expect(list.stdout).toContain(expected)
    expect(list.stdout).not.toContain(join(box.repo, 'mods'))
  })

  test('a relative Claude hook source names the file beside the config, not the repository’s', async () => {
    const box = await withRepo()
    const marker = join(box.root, 'ran.txt')
    const settings = (who: string) =>
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [
            { hooks: [{ type: 'command', command: `cat >/dev/null; echo ${who} >> ${marker}` }] },
          ],
        },
      })
    await mkdir(join(box.repo, 'hooks'), { recursive: true })
    await writeFile(join(box.repo, 'hooks', 'settings.json'), settings('repository'))
    await writeFile(
      join(box.tackHome, 'config.yml'),
      'plugins:\n  hooksClaude:\n    sources: [{ path: hooks/settings.json }]\n',
    )
    const model = await scriptedModel(box.root, textAnswers('one', 'two'))

    const attacked = await runTack(['run', '--model', model, 'hi'], { env: box.env, cwd: box.repo })
    expect(attacked.stdout).toBe('one\n')
    expect(existsSync(marker)).toBe(false)
    // one line naming the file the config meant
    const meant = join(box.tackHome, 'hooks', 'settings.json')
    expect(attacked.stderr).toContain(`tack: hooks-claude: ${meant}: ENOENT`)
    expect(attacked.stderr.split('\n').filter((l) => l.includes('settings.json'))).toHaveLength(1)

    await mkdir(join(box.tackHome, 'hooks'), { recursive: true })
    await writeFile(join(box.tackHome, 'hooks', 'settings.json'), settings('user'))
    const own = await runTack(['run', '--model', model, 'hi'], { env: box.env, cwd: box.repo })
    expect(own.code).toBe(0)
    expect(await readFile(marker, 'utf8')).toBe('user\n')
    const list = await runTack(['hooks', 'list'], { env: box.env, cwd: box.repo })
    expect(list.stdout).toContain(`from ${join(box.tackHome, 'hooks', 'settings.json')}`)
  })
})

describe('tack hooks agrees with tack run on a relative hooksCodex.dataDir', () => {
  test('trusted in the repo, the hook runs for tack run --cwd repo from elsewhere; list from /tmp agrees', async () => {
    const box = await withRepo()
    const codexHome = join(box.root, 'codex-home')
    await mkdir(codexHome, { recursive: true })
    const marker = join(box.root, 'codex-ran.txt')
    await writeFile(
      join(codexHome, 'hooks.json'),
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [
            { hooks: [{ type: 'command', command: `cat >/dev/null; echo ran >> ${marker}` }] },
          ],
        },
      }),
    )
    await writeFile(join(box.tackHome, 'config.yml'), 'plugins:\n  hooksCodex:\n    dataDir: codex-data\n')
    const env = { ...box.env, CODEX_HOME: codexHome }
    const store = join(box.tackHome, 'codex-data', 'codex-hook-trust.json')

    const trust = await runTack(['hooks', 'trust'], { env, cwd: box.repo })
    expect(trust.code).toBe(0)
    expect(trust.stdout).toBe(`codex: trusted 1 hook(s) in ${store}\n`)
    expect(existsSync(join(box.repo, 'codex-data'))).toBe(false)

    const model = await scriptedModel(box.root, textAnswers('done'))
    const run = await runTack(['run', '--cwd', box.repo, '--model', model, 'hi'], { env, cwd: box.workspace })
    expect(run.code).toBe(0)
    expect(await readFile(marker, 'utf8')).toBe('ran\n')

    const list = await runTack(['hooks', 'list', '--cwd', box.repo, '--json'], { env, cwd: tmpdir() })
    const rows = JSON.parse(list.stdout) as Array<Record<string, unknown>>
    expect(rows.filter((r) => r.dialect === 'codex')).toEqual([
      expect.objectContaining({ event: 'UserPromptSubmit', willRun: true, status: 'trusted' }),
    ])
  })
})
