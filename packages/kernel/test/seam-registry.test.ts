// The seam registry (issue 8.1): listeners of tack seams live in the kernel's registry, taken over
// from cordis through its public `internal/listener` event; registrations are effects of the
// registering plugin; dispatch honours `prepend` and names the plugin of a failing listener.
import { Context as CordisContext } from 'cordis'
import { describe, expect, test } from 'vitest'
import {
  Context,
  dispatch,
  emitSafely,
  isSeamName,
  type ListenerFault,
  listenersOf,
  parallel,
  SeamError,
  serial,
  type Waterfall,
  waterfall,
} from '../src/index.ts'

declare module 'cordis' {
  interface Events {
    'test/note'(log: string[]): void
    'test/step'(log: string[]): void | Promise<void>
    'test/shape': Waterfall<[label: string], string, [label?: string]>
    'test-plain'(log: string[]): void
  }
}

const named = (name: string, apply: (ctx: Context) => void) => ({ name, apply })

describe('seam registry', () => {
  test('8.1 disposing a plugin removes every seam listener it registered', async () => {
    const ctx = new Context()
    const log: string[] = []
    const fiber = ctx.plugin(
      named('noter', (c) => {
        c.on('test/note', (l) => l.push('noter'))
        c.on('test/step', (l) => {
          l.push('noter-step')
        })
      }),
    )
    await fiber
    ctx.on('test/note', (l) => l.push('root'))
    emitSafely(ctx, 'test/note', log)
    await serial(ctx, 'test/step', log)
    expect(log).toEqual(['noter', 'root', 'noter-step'])
    expect(listenersOf(ctx, 'test/note').map((l) => l.plugin)).toEqual(['noter', 'root'])

    await fiber.dispose()
    log.length = 0
    emitSafely(ctx, 'test/note', log)
    await serial(ctx, 'test/step', log)
    expect(log).toEqual(['root'])
    expect(listenersOf(ctx, 'test/step')).toEqual([])
  })

  test('8.1 the disposer ctx.on returns removes that listener only', async () => {
    const ctx = new Context()
    const log: string[] = []
    const off = ctx.on('test/note', (l) => l.push('a'))
    ctx.on('test/note', (l) => l.push('b'))
    off()
    emitSafely(ctx, 'test/note', log)
    expect(log).toEqual(['b'])
  })

  test('8.1 prepend puts a listener first, for waterfalls as for serial seams', async () => {
    const ctx = new Context()
    const order: string[] = []
    for (const [name, prepend] of [
      ['first-registered', false],
      ['second-registered', false],
      ['prepended', true],
    ] as const) {
      await ctx.plugin(
        named(name, (c) => {
          c.on(
            'test/shape',
            async (label, next) => {
              order.push(name)
              return `${name}(${await next(label)})`
            },
            { prepend },
          )
        }),
      )
    }
    const value = await waterfall(ctx, 'test/shape', ['x'], (label) => `inner:${label}`)
    expect(order).toEqual(['prepended', 'first-registered', 'second-registered'])
    expect(value).toBe('prepended(first-registered(second-registered(inner:x)))')
    // the legacy boolean form of the option is honoured too
    ctx.on('test/shape', async () => 'bool-prepended', true)
    expect(await waterfall(ctx, 'test/shape', ['x'], () => 'inner')).toBe('bool-prepended')
  })

  test('8.1 a failing listener is attributed to the plugin that registered it', async () => {
    const ctx = new Context()
    await ctx.plugin(
      named('guard', (c) => {
        c.on('test/shape', () => {
          throw new Error('no entry')
        })
      }),
    )
    const error = await waterfall(ctx, 'test/shape', ['x'], () => 'inner').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SeamError)
    expect(error).toMatchObject({ seam: 'test/shape', plugin: 'guard' })
    expect((error as Error).message).toBe('test/shape listener of plugin "guard" failed: no entry')

    const root = new Context()
    root.on('test/step', () => Promise.reject(new Error('root fails')))
    await expect(serial(root, 'test/step', [])).rejects.toMatchObject({ seam: 'test/step', plugin: 'root' })
  })

  test('8.1 dispatch reports which plugin answered and which replaced the arguments', async () => {
    const ctx = new Context()
    await ctx.plugin(named('renamer', (c) => c.on('test/shape', (_label, next) => next('renamed'))))
    const passed = await dispatch(ctx, 'test/shape', ['x'], ([label], by) => `${label} by ${by}`)
    expect(passed).toEqual({ value: 'renamed by renamer', origin: undefined, innerRan: true })
    await ctx.plugin(named('answerer', (c) => c.on('test/shape', () => 'answered', { prepend: true })))
    const answered = await dispatch(ctx, 'test/shape', ['x'], () => 'inner')
    expect(answered).toEqual({ value: 'answered', origin: 'answerer', innerRan: false })
  })

  test('8.1 a listener registered while a seam runs joins the next dispatch, not this one', async () => {
    const ctx = new Context()
    const log: string[] = []
    ctx.on('test/note', (l) => {
      l.push('first')
      ctx.on('test/note', (m) => m.push('late'))
    })
    emitSafely(ctx, 'test/note', log)
    expect(log).toEqual(['first'])
  })

  test('8.1 events that are not tack seams stay with cordis', async () => {
    const ctx = new Context()
    const log: string[] = []
    ctx.on('test-plain', (l) => l.push('plain'))
    ctx.emit('test-plain', log)
    expect(log).toEqual(['plain'])
    expect(isSeamName('test-plain')).toBe(false)
    expect(isSeamName('internal/service')).toBe(false)
    expect(isSeamName('agent/pre-step')).toBe(true)
    // cordis's own internal events still reach their listeners
    const provided: string[] = []
    ctx.on('internal/service', (name) => {
      provided.push(name)
    })
    ctx.provide('probe', 1)
    expect(provided).toContain('probe')
  })

  test('8.1 firing a tack seam through cordis directly fails loudly instead of skipping every plugin', () => {
    const ctx = new Context()
    ctx.on('test/note', () => {})
    expect(() => ctx.emit('test/note', [])).toThrow(
      /seam "test\/note" was fired through cordis's ctx\.emit; fire tack seams with @tack\/kernel's/,
    )
  })

  test('8.1 a root made with cordis’s own Context has no seam registry, and says so', () => {
    const ctx = new CordisContext() as Context
    expect(() => emitSafely(ctx, 'test/note', [])).toThrow(
      /without the seam registry: create the root context with @tack\/kernel's Context/,
    )
  })

  test('parallel runs every listener and rejects with all their reasons', async () => {
    const ctx = new Context()
    const log: string[] = []
    ctx.on('test/step', async (l) => {
      l.push('a')
    })
    ctx.on('test/step', async () => {
      throw new Error('b failed')
    })
    ctx.on('test/step', async (l) => {
      l.push('c')
    })
    const error = await parallel(ctx, 'test/step', log).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AggregateError)
    expect((error as AggregateError).errors.map((e: Error) => e.message)).toEqual(['b failed'])
    expect(log).toEqual(['a', 'c'])
  })

  test('AL-18 emitSafely isolates a failing listener and reports it on kernel/listener-fault', async () => {
    const ctx = new Context()
    const log: string[] = []
    const faults: ListenerFault[] = []
    ctx.on('kernel/listener-fault', (f) => {
      faults.push(f)
    })
    ctx.on('test/note', () => {
      throw new Error('sync failure')
    })
    ctx.on('test/note', (l) => l.push('after'))
    emitSafely(ctx, 'test/note', log)
    expect(log).toEqual(['after'])
    expect(faults.map((f) => [f.seam, (f.error as Error).message])).toEqual([['test/note', 'sync failure']])
  })
})
