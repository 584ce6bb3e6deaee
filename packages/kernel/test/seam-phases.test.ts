// Seam phases (packages/kernel/src/seam-phases.ts, docs/decisions/0205-seam-phases.md): a seam's
// declared phases decide its listeners' order; within a phase built-ins go by plugin name, whatever
// order they loaded in, and other plugins keep their registration order after them.
import { describe, expect, test } from 'vitest'
import {
  builtinScope,
  Context,
  declareSeamPhases,
  listenersOf,
  seamPhases,
  type Waterfall,
  waterfall,
} from '../src/index.ts'

declare module 'cordis' {
  interface Events {
    'phased/check': Waterfall<[label: string], string>
    'phased/none'(log: string[]): void
  }
}

const PHASES = {
  outer: 'the wrapper',
  hooks: 'host hooks',
  policy: 'the permission policy',
  plugins: 'the rest',
}
declareSeamPhases('phased/check', PHASES)

type Listen = (ctx: Context) => void
const plugin = (name: string, apply: Listen) => ({ name, apply })
const wrap = (tag: string) => (_label: string, next: () => Promise<string>) =>
  next().then((inner) => `${tag}(${inner})`)

const BUILTINS: Array<[string, Listen]> = [
  ['permissions', (c) => c.on('phased/check', wrap('permissions'), { phase: 'policy' })],
  ['hooks-codex', (c) => c.on('phased/check', wrap('hooks-codex'), { phase: 'hooks' })],
  ['mods', (c) => c.on('phased/check', wrap('mods'), { phase: 'outer' })],
  ['hooks-claude', (c) => c.on('phased/check', wrap('hooks-claude'), { phase: 'hooks' })],
  ['dice', (c) => c.on('phased/check', wrap('dice'))],
]

async function bootIn(order: number[]): Promise<Context> {
  const ctx = new Context()
  const builtins = builtinScope(ctx)
  for (const i of order) await builtins.plugin(plugin(...BUILTINS[i]))
  // the user's plugins, in their configured order, after the built-ins
  await ctx.plugin(plugin('zz-user-first', (c) => c.on('phased/check', wrap('user-first'))))
  await ctx.plugin(plugin('aa-user-second', (c) => c.on('phased/check', wrap('user-second'))))
  return ctx
}

describe('seam phases', () => {
  test('listeners run in the declared phase order, built-ins by name within a phase, in any load order', async () => {
    const expected = [
      'mods',
      'hooks-claude',
      'hooks-codex',
      'permissions',
      'dice',
      'zz-user-first',
      'aa-user-second',
    ]
    for (const order of [
      [0, 1, 2, 3, 4],
      [4, 3, 2, 1, 0],
      [2, 0, 4, 1, 3],
    ]) {
      const ctx = await bootIn(order)
      expect(listenersOf(ctx, 'phased/check').map((l) => l.plugin)).toEqual(expected)
      expect(await waterfall(ctx, 'phased/check', ['x'], () => 'core')).toBe(
        'mods(hooks-claude(hooks-codex(permissions(dice(user-first(user-second(core)))))))',
      )
    }
    expect(seamPhases('phased/check')).toEqual(['outer', 'hooks', 'policy', 'plugins'])
  })

  test('a user plugin may name a phase: it runs there, after the built-ins of that phase', async () => {
    const ctx = await bootIn([0, 1, 2, 3, 4])
    await ctx.plugin(plugin('guard', (c) => c.on('phased/check', wrap('guard'), { phase: 'hooks' })))
    expect(
      listenersOf(ctx, 'phased/check')
        .map((l) => l.plugin)
        .slice(0, 5),
    ).toEqual(['mods', 'hooks-claude', 'hooks-codex', 'guard', 'permissions'])
  })

  test('an undeclared phase is refused, naming the plugin, the seam and its phases', async () => {
    const ctx = new Context()
    await expect(
      ctx.plugin(plugin('typo', (c) => c.on('phased/check', wrap('typo'), { phase: 'hook' }))),
    ).rejects.toThrow(
      /plugin "typo" registered a phased\/check listener in phase "hook".*its phases: outer, hooks, policy, plugins/,
    )
  })

  test('a seam without phases: built-ins by name, then the rest as registered; prepend still goes first', async () => {
    const ctx = new Context()
    const builtins = builtinScope(ctx)
    await builtins.plugin(plugin('beta', (c) => c.on('phased/none', (l) => l.push('beta'))))
    await builtins.plugin(plugin('alpha', (c) => c.on('phased/none', (l) => l.push('alpha'))))
    ctx.on('phased/none', (l) => l.push('root'))
    await ctx.plugin(
      plugin('recorder', (c) => c.on('phased/none', (l) => l.push('recorder'), { prepend: true })),
    )
    expect(listenersOf(ctx, 'phased/none').map((l) => l.plugin)).toEqual([
      'recorder',
      'alpha',
      'beta',
      'root',
    ])
  })

  test('declaring different phases for a seam twice is an error; the same ones again is not', () => {
    expect(() => declareSeamPhases('phased/check', PHASES)).not.toThrow()
    expect(() => declareSeamPhases('phased/check', { hooks: '', outer: '' })).toThrow(/already declares/)
    expect(() => declareSeamPhases('phased/other', {})).toThrow(/non-empty/)
  })
})
