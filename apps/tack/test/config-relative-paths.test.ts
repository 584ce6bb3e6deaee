// Relative paths in a config file resolve against that file's folder, never against the workspace
// (docs/decisions/0130-config-relative-paths.md): the resolver itself, then through loadSettings for the
// user, project and --config layers and their profiles.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { absoluteFrom, normalizeLayerPaths, resolvePathFields } from '../src/config/layer-paths.ts'
import { loadSettings } from '../src/config/load.ts'

const HOME = '/home/u'
const CONFIG = '/home/u/.tack/config.yml'

describe('absoluteFrom', () => {
  test('relative against the folder, absolute kept, ~ and ~/ the user home', () => {
    expect(absoluteFrom('/cfg', 'mods/helper', HOME)).toBe('/cfg/mods/helper')
    expect(absoluteFrom('/cfg', './a/../b', HOME)).toBe('/cfg/b')
    expect(absoluteFrom('/cfg', '../up', HOME)).toBe('/up')
    expect(absoluteFrom('/cfg', '/abs/x', HOME)).toBe('/abs/x')
    expect(absoluteFrom('/cfg', '~/x', HOME)).toBe('/home/u/x')
    expect(absoluteFrom('/cfg', '~', HOME)).toBe('/home/u')
    // `~user/…` is no home expansion here (no shell runs): it is a relative name like any other
    expect(absoluteFrom('/cfg', '~other/x', HOME)).toBe('/cfg/~other/x')
  })
})

describe('resolvePathFields', () => {
  test('string paths, lists of paths and list entries with path keys are made absolute', () => {
    expect(
      resolvePathFields(
        'hooksCodex',
        { dataDir: 'data', sources: ['h.json', '/abs.json', '~/c.json'] },
        '/cfg',
        HOME,
      ),
    ).toEqual({ dataDir: '/cfg/data', sources: ['/cfg/h.json', '/abs.json', '/home/u/c.json'] })
    expect(
      resolvePathFields(
        'mods',
        { mods: [{ dir: 'mods/helper', options: { dir: 'not-a-path' } }, { dir: '/abs' }], hookBudgetMs: 5 },
        '/cfg',
        HOME,
      ),
    ).toEqual({
      mods: [{ dir: '/cfg/mods/helper', options: { dir: 'not-a-path' } }, { dir: '/abs' }],
      hookBudgetMs: 5,
    })
    expect(
      resolvePathFields(
        'hooksClaude',
        { sources: [{ path: 's.json', pluginRoot: 'p' }, { path: 'x' }] },
        '/cfg',
        HOME,
      ),
    ).toEqual({ sources: [{ path: '/cfg/s.json', pluginRoot: '/cfg/p' }, { path: '/cfg/x' }] })
    expect(
      resolvePathFields('bash', { sandboxWritable: ['cache', '~/.cache'], timeoutMs: 9 }, '/cfg', HOME),
    ).toEqual({ sandboxWritable: ['/cfg/cache', '/home/u/.cache'], timeoutMs: 9 })
  })

  test('a program is a path only when it holds a slash: keywords and names stay as written', () => {
    const rg = (ripgrep: string) => resolvePathFields('fs', { ripgrep }, '/cfg', HOME).ripgrep
    expect(rg('auto')).toBe('auto')
    expect(rg('off')).toBe('off')
    expect(rg('rg')).toBe('rg') // validation then says: auto, off or an absolute path
    expect(rg('bin/rg')).toBe('/cfg/bin/rg')
    expect(rg('/usr/bin/rg')).toBe('/usr/bin/rg')
  })

  test('values of the wrong type, empty strings, store.path and fields of no path are left for validation', () => {
    const odd = { dataDir: 7, sources: 'one.json', codexHome: '' }
    expect(resolvePathFields('hooksCodex', odd, '/cfg', HOME)).toEqual(odd)
    expect(resolvePathFields('mods', { mods: ['x', null, { dir: 3 }] }, '/cfg', HOME)).toEqual({
      mods: ['x', null, { dir: 3 }],
    })
    // relative to store.dataDir, as documented: not the config file's
    expect(resolvePathFields('store', { path: 'db/s.db', dataDir: 'data' }, '/cfg', HOME)).toEqual({
      path: 'db/s.db',
      dataDir: '/cfg/data',
    })
    // permission rules' paths are globs of the workspace, no file's
    const rules = { allow: [{ tool: 'read', path: 'src/**' }] }
    expect(resolvePathFields('permissions', rules, '/cfg', HOME)).toEqual(rules)
  })
})

describe('normalizeLayerPaths', () => {
  test('plugin path keys and path fields, in the layer and in each profile; other keys untouched', () => {
    const layer = {
      model: 'scripted/x.json',
      plugins: {
        './mine.ts': { dir: 'kept' },
        'some-package': true,
        mods: { mods: [{ dir: 'mods/helper' }] },
        hooksCodex: false,
      },
      profiles: { work: { plugins: { hooksCodex: { dataDir: 'work-data' } } } },
    }
    expect(normalizeLayerPaths(layer, CONFIG, HOME)).toEqual({
      model: 'scripted/x.json',
      plugins: {
        '/home/u/.tack/mine.ts': { dir: 'kept' }, // a plugin of one's own: its fields are its own business
        'some-package': true,
        mods: { mods: [{ dir: '/home/u/.tack/mods/helper' }] },
        hooksCodex: false,
      },
      profiles: { work: { plugins: { hooksCodex: { dataDir: '/home/u/.tack/work-data' } } } },
    })
    expect(normalizeLayerPaths('not a mapping', CONFIG, HOME)).toBe('not a mapping')
  })
})

describe('loadSettings: each file resolves against its own folder', () => {
  test('user, trusted project and --config layers; a relative absolutePath field now validates', async () => {
    const root = await mkdtemp(join(tmpdir(), 'tack-relpaths-'))
    const [user, ws, extra] = [join(root, 'tack-home'), join(root, 'ws'), join(root, 'extra')]
    for (const d of [user, join(ws, '.tack'), extra]) await mkdir(d, { recursive: true })
    await writeFile(
      join(user, 'config.yml'),
      'plugins:\n  mods: { mods: [{ dir: mods/helper }] }\n  hooksCodex: { dataDir: codex-data }\n  hooksClaude: { home: claude-home }\n',
    )
    await writeFile(join(ws, '.tack', 'config.yml'), 'plugins:\n  dice: { base: dice }\n')
    await writeFile(join(extra, 'x.yml'), 'plugins:\n  bash: { scratchRoot: scratch }\n')
    const s = await loadSettings({
      userConfig: join(user, 'config.yml'),
      projectConfig: join(ws, '.tack', 'config.yml'),
      projectTrusted: true,
      extraConfigs: [join(extra, 'x.yml')],
      userHome: root,
      flags: {},
    })
    expect(s.plugins.mods).toMatchObject({ mods: [{ dir: join(user, 'mods', 'helper') }] })
    expect(s.plugins.hooksCodex).toMatchObject({ dataDir: join(user, 'codex-data') })
    expect(s.plugins.hooksClaude).toMatchObject({ home: join(user, 'claude-home') })
    expect(s.plugins.dice).toMatchObject({ base: join(ws, '.tack', 'dice') })
    expect(s.plugins.bash).toMatchObject({ scratchRoot: join(extra, 'scratch') })
  })

  test('an untrusted project still has its path fields held back, never resolved', async () => {
    const root = await mkdtemp(join(tmpdir(), 'tack-relpaths-'))
    await mkdir(join(root, 'ws', '.tack'), { recursive: true })
    const project = join(root, 'ws', '.tack', 'config.yml')
    await writeFile(
      project,
      'plugins:\n  mods: { mods: [{ dir: mods/evil }] }\n  hooksCodex: { dataDir: d }\n',
    )
    const s = await loadSettings({
      userConfig: '/nowhere',
      projectConfig: project,
      projectTrusted: false,
      flags: {},
    })
    expect(s.plugins.mods).toEqual({})
    expect(s.plugins.hooksCodex).toEqual({})
    expect(s.refused?.keys).toEqual(['plugins.mods.mods', 'plugins.hooksCodex.dataDir'])
  })
})
