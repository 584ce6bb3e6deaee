// Boot is a loop whose order decides nothing (docs/decisions/0206-boot-loop.md): booted with the loop
// shuffled (`TACK_DEV_SHUFFLE_CATALOG`, apps/tack/src/catalog-order.ts), a context has the same
// listeners in the same order on every seam, the same tools, commands, system prompt and secrets, and
// agent-dice still gets the bridges to skip its own hooks whichever of them loads first.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { listenersOf, type SeamName } from '@tack/kernel'
import type { Context } from 'cordis'
import { describe, expect, test } from 'vitest'
import { bootEntries } from '../../apps/tack/src/boot.ts'
import { collectSeams } from '../gen-seams.ts'
import { bootLikeTackRun } from './boot-like-tack-run.ts'

const ROOT = resolve(import.meta.dirname, '..', '..')
const SEEDS = [1, 2, 3, 4, 5]
const DICE_HOOK = "node '/opt/agent-dice/hooks/agent-dice-claude-stop.js'"
const NATIVE = 'agent-dice runs natively in tack'

/** A user-level Claude Code Stop hook of agent-dice's own, which the bridge must be told to skip. */
function claudeDiceHook(home: string): void {
  mkdirSync(join(home, '.claude'), { recursive: true })
  writeFileSync(
    join(home, '.claude', 'settings.json'),
    JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: DICE_HOOK }] }] } }),
  )
  // the bridge reads the user's settings from its `home` (the process's home directory by default)
  mkdirSync(join(home, '.tack'), { recursive: true })
  writeFileSync(join(home, '.tack', 'config.yml'), `plugins:\n  hooksClaude:\n    home: ${home}\n`)
}

/** Everything a test could see of a booted context, with the temporary folder's path taken out. */
function observable(ctx: Context, seams: readonly string[], home: string) {
  const plain = (text: string) => text.split(dirname(home)).join('<root>')
  return {
    listeners: Object.fromEntries(
      seams.map((seam) => [seam, listenersOf(ctx, seam as SeamName).map((l) => l.plugin)]),
    ),
    tools: JSON.stringify(ctx.tools.schemas()),
    commands: ctx.commands.list().map((c) => c.name),
    systemPrompt: plain(ctx.systemPrompt.assemble()),
    secrets: {
      variables: ctx.secrets.variables().sort(),
      files: ctx.secrets.files().map(plain).sort(),
    },
    diceHook: plain(
      JSON.stringify(ctx.hooksClaude.list().find((h) => JSON.stringify(h).includes('agent-dice'))) ?? '',
    ),
  }
}

async function observe(seed: number | undefined, seams: readonly string[]) {
  let home = ''
  const booted = await bootLikeTackRun(seed, (h) => {
    home = h
    claudeDiceHook(h)
  })
  try {
    return observable(booted.ctx, seams, home)
  } finally {
    await booted.close()
  }
}

describe('boot loop order', () => {
  test('the seeds really reorder the loop, dice before a bridge and a tool before the registry among them', () => {
    const keys = (seed?: number) =>
      bootEntries(seed === undefined ? {} : { TACK_DEV_SHUFFLE_CATALOG: String(seed) }).map((e) => e.key)
    const precedes = (order: string[], a: string, b: string) => order.indexOf(a) < order.indexOf(b)
    const orders = SEEDS.map((seed) => keys(seed))
    for (const order of orders) expect(order).not.toEqual(keys())
    expect(orders.some((o) => precedes(o, 'dice', 'hooksClaude'))).toBe(true)
    expect(orders.some((o) => precedes(o, 'bash', 'tools'))).toBe(true)
    expect(orders.some((o) => precedes(o, 'builtin-commands', 'commands'))).toBe(true)
    expect(orders.some((o) => precedes(o, 'permissions', 'hooksClaude'))).toBe(true)
    expect(() => bootEntries({ TACK_DEV_SHUFFLE_CATALOG: 'x' })).toThrow(/integer seed/)
  })

  test('every seed boots a context no test can tell from the one booted in catalog order', async () => {
    const seams = (await collectSeams(ROOT)).rows.map((r) => r.name)
    const reference = await observe(undefined, seams)
    expect(reference.diceHook).toContain(NATIVE)
    expect(reference.commands).toContain('help')
    expect(reference.secrets.files).toContain('<root>/home/.tack/.env')
    for (const seed of SEEDS) {
      const shuffled = await observe(seed, seams)
      // one assertion per seam and per aspect, so a failure names what moved
      for (const seam of seams)
        expect(shuffled.listeners[seam], `seed ${seed}: ${seam}`).toEqual(reference.listeners[seam])
      for (const key of Object.keys(reference) as Array<keyof typeof reference>)
        expect(shuffled[key], `seed ${seed}: ${key}`).toEqual(reference[key])
    }
  }, 60_000)
})
