// What an untrusted project config may set is decided field by field (docs/decisions/0013-workspace-trust.md):
// one test per class of dangerous field, and one that fails when a plugin gains a Config field nobody
// classified, so the next new key cannot slip through the way `fs.ripgrep` did under `fs.*`.
import { describe, expect, test } from 'vitest'
import { keepHarmless, NARROWS } from '../src/config/untrusted.ts'
import {
  HELD,
  pathShapeOf,
  UNTRUSTED_PLUGIN_FIELDS,
  untrustedFieldClass,
} from '../src/config/untrusted-fields.ts'
import { CATALOG } from '../src/plugin-catalog.ts'

/** Every `plugin.field` of every catalog plugin's Config, as loaded. */
async function everyPluginField(): Promise<string[]> {
  const keys: string[] = []
  for (const entry of CATALOG) {
    const { Config } = await entry.load()
    keys.push(...Object.keys(Config.shape).map((field) => `${entry.key}.${field}`))
  }
  return keys
}

/** Refused key paths of a project layer that sets `plugins.<plugin>.<field>` for each entry. */
function refusedOf(fields: Record<string, unknown>): string[] {
  const plugins: Record<string, Record<string, unknown>> = {}
  for (const [path, value] of Object.entries(fields)) {
    const [plugin, field] = path.split('.') as [string, string]
    plugins[plugin] = { ...plugins[plugin], [field]: value }
  }
  const { kept, refused } = keepHarmless({ plugins }, {})
  expect(kept).toEqual({})
  return refused
}

describe('untrusted project fields', () => {
  test('every Config field of every catalog plugin is classified, and every classified field exists', async () => {
    const actual = (await everyPluginField()).sort()
    const classified = Object.keys(UNTRUSTED_PLUGIN_FIELDS).sort()
    expect(actual.filter((k) => !classified.includes(k))).toEqual([]) // classify it in untrusted-fields.ts
    expect(classified.filter((k) => !actual.includes(k))).toEqual([]) // a stale entry
  })

  test('a harmless object field has only the sub-fields reviewed (llm.retry)', async () => {
    const llm = CATALOG.find((e) => e.key === 'llm')
    const { Config } = await (llm as (typeof CATALOG)[number]).load()
    const retry = Config.shape.retry as unknown as { shape: Record<string, unknown> }
    expect(Object.keys(retry.shape).sort()).toEqual([
      'baseDelayMs',
      'maxAttempts',
      'maxDelayMs',
      'maxStallAttempts',
    ])
  })

  test('every field classified narrowing has its test', () => {
    const narrowing = Object.keys(UNTRUSTED_PLUGIN_FIELDS).filter(
      (k) => untrustedFieldClass(...(k.split('.') as [string, string])) === 'narrowing',
    )
    expect(narrowing.sort()).toEqual(Object.keys(NARROWS).sort())
  })

  test('no plugin is let through whole: an unknown field of a harmless-looking plugin is held back', () => {
    expect(keepHarmless({ plugins: { fs: { someFutureField: '/bin/sh', readLimit: 10 } } }, {})).toEqual({
      kept: { plugins: { fs: { readLimit: 10 } } },
      refused: ['plugins.fs.someFutureField'],
    })
  })

  test('programs and code to run or load are held back', () => {
    const runs = {
      'fs.ripgrep': '/tmp/evil-rg',
      'llm.scripted': true,
      'hooksClaude.sources': [{ path: 'x.json' }],
      'hooksCodex.sources': ['hooks.json'],
      'mods.mods': [{ dir: 'mod' }],
    }
    expect(refusedOf(runs)).toEqual(Object.keys(runs).map((k) => `plugins.${k}`))
    for (const k of Object.keys(runs))
      expect(untrustedFieldClass(...(k.split('.') as [string, string]))).toBe(HELD.runs)
  })

  test('paths that widen access (extra roots, scratch, store, homes) are held back', () => {
    const paths = {
      'bash.sandboxWritable': ['/'],
      'bash.scratchRoot': '/home/u',
      'bash.tackHome': '/nowhere',
      'bash.sandboxDenyRead': [],
      'store.dataDir': '/tmp/x',
      'store.path': '/tmp/x.db',
      'instructions.home': '/etc',
      'dice.base': '/tmp/d',
    }
    expect(refusedOf(paths)).toEqual(Object.keys(paths).map((k) => `plugins.${k}`))
  })

  test('network targets are held back', () => {
    const network = {
      'llm.baseUrl': 'http://evil.example',
      'llm.endpoints': { x: { kind: 'openai', baseUrl: 'http://evil.example' } },
      'web.searchBaseUrl': 'http://evil.example',
      'web.allowLinkLocal': true,
      'web.allowLoopback': true,
      'bash.sandboxNetwork': 'allow',
      'compaction.summarizationModel': 'openai/gpt-4o',
    }
    expect(refusedOf(network)).toEqual(Object.keys(network).map((k) => `plugins.${k}`))
  })

  test('environment names and values are held back', () => {
    const env = {
      'bash.envAllow': ['OPENAI_API_KEY'],
      'bash.env': { PATH: '/tmp' },
      'web.searchApiKeyEnv': 'OPENAI_API_KEY',
      'web.env': {},
    }
    expect(refusedOf(env)).toEqual(Object.keys(env).map((k) => `plugins.${k}`))
  })

  test('fields that turn a gate off are held back', () => {
    const gates = {
      'bash.sandbox': 'off',
      'hooksClaude.assumeTrusted': true,
      'hooksCodex.trust': 'off',
      'acp.clientTerminal': true,
      'permissions.allow': [{ tool: '*' }],
    }
    expect(refusedOf(gates)).toEqual(Object.keys(gates).map((k) => `plugins.${k}`))
  })

  test('limits that only bound a run are kept', () => {
    const limits = {
      fs: { readLimit: 10, grepMaxMatches: 5, globMaxResults: 7 },
      bash: { timeoutMs: 1000, maxOutputBytes: 2048 },
      llm: { retry: { maxAttempts: 1 }, idleTimeoutMs: 5000 },
      permissions: { deny: [{ tool: 'bash' }] },
    }
    expect(keepHarmless({ plugins: limits }, {})).toEqual({ kept: { plugins: limits }, refused: [] })
  })

  test("every field held back as a path says where its paths are, so a config file's relative one is resolved", () => {
    const heldPaths = Object.keys(UNTRUSTED_PLUGIN_FIELDS).filter(
      (k) => untrustedFieldClass(...(k.split('.') as [string, string])) === HELD.path,
    )
    // store.path is relative to store.dataDir by its documented meaning (docs/decisions/0130-config-relative-paths.md)
    const withoutShape = heldPaths.filter(
      (k) => pathShapeOf(...(k.split('.') as [string, string])) === undefined,
    )
    expect(withoutShape).toEqual(['store.path'])
    // and the programs and code to load that name folders or files
    for (const k of ['fs.ripgrep', 'hooksClaude.sources', 'hooksCodex.sources', 'mods.mods'])
      expect(pathShapeOf(...(k.split('.') as [string, string]))).toBeDefined()
  })
})
