// 85-skills-and-commands.md I3 in the real `tack` in a pseudo-terminal (docs/decisions/0290-model-choice-and-effort.md):
// `/model` alone opens a picker that lists the configured endpoint's own models (`GET /v1/models` on the
// loopback server) with the current one marked, and picking one switches the next request's model; and
// `tack -c --model X` on a session that switched with `/model` before runs on X — said on screen —
// where before the logged switch silently won. Run `node scripts/build.ts` first.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { closeAllTuis, openTui, submit } from './pty/tui-session.ts'

afterEach(closeAllTuis)
vi.setConfig({ testTimeout: 90_000 })

const modelOf = (body: unknown) => (body as { model: string }).model
const posts = (server: { requests: readonly { method: string; body: unknown }[] }) =>
  server.requests.filter((r) => r.method === 'POST')

describe('tack interactive: choosing a model', () => {
  it('/model opens a picker with the provider’s own list; Enter on a filtered entry switches', async () => {
    const { term, server } = await openTui([{ kind: 'text', text: 'From m-c.' }], { models: ['m-b', 'm-c'] })
    await submit(term, '/model')
    await term.waitFor('Choose a model')
    // the endpoint's list arrives without blocking the screen; the model in use is marked
    const screen = await term.waitFor('loop/m-c')
    expect(screen).toMatch(/loop\/m\s+current, in use/)
    expect(screen).toContain('loop/m-b')
    expect(server.requests.some((r) => r.method === 'GET' && r.path === '/v1/models')).toBe(true)
    term.type('m-c')
    await term.waitFor('filter: m-c')
    term.press('enter')
    await term.waitFor('model set to loop/m-c')
    await submit(term, 'hello')
    await term.waitFor('From m-c.', 20_000)
    expect(modelOf(posts(server)[0].body)).toBe('m-c')
  })

  it('a provider list that fails is one line in the picker; Esc keeps the model', async () => {
    // no `models`: the loopback server answers GET /v1/models with a 404
    const { term } = await openTui([])
    await submit(term, '/model')
    await term.waitFor('Choose a model')
    await term.waitFor(/loop: could not list its models: HTTP 404/)
    term.press('esc')
    await term.waitFor('model unchanged: loop/m')
  })

  it('quitting while a provider that never answers is asked for its list: tack ends at once, not after the list timeout', async () => {
    const { createServer } = await import('node:http')
    const { appendFile } = await import('node:fs/promises')
    const silent = createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const port = (silent.address() as { port: number }).port
    try {
      const { term } = await openTui([], {
        extendConfig: (config) =>
          appendFile(
            config,
            `      silent: { kind: openai-compatible, baseUrl: "http://127.0.0.1:${port}/v1" }\n`,
          ),
      })
      await submit(term, '/model')
      await term.waitFor('asking providers for their lists')
      term.press('esc')
      await term.waitFor('model unchanged: loop/m')
      term.press('ctrl-c')
      await term.waitFor('Press Ctrl-C again to exit')
      const pressed = Date.now()
      term.press('ctrl-c')
      await term.exit
      // the list's own timeout is 5 s (MODEL_LIST_TIMEOUT_MS); it held the process after the screen was gone
      expect(Date.now() - pressed).toBeLessThan(3000)
    } finally {
      silent.closeAllConnections()
      silent.close()
    }
  })

  it('tack -c --model X after a /model switch continues on X and says so', async () => {
    const first = await openTui([{ kind: 'text', text: 'First answer.' }])
    await submit(first.term, '/model loop/m-b')
    await first.term.waitFor('model set to loop/m-b')
    await submit(first.term, 'one')
    await first.term.waitFor('First answer.', 20_000)
    first.term.press('ctrl-d')
    expect((await first.term.exit).exitCode).toBe(0)
    expect(modelOf(posts(first.server)[0].body)).toBe('m-b')

    const again = await openTui([{ kind: 'text', text: 'Second answer.' }], {
      after: first,
      args: ['-c', '--model', 'loop/m-c'],
    })
    await again.term.waitFor('model switched from loop/m-b to loop/m-c (--model)')
    await submit(again.term, 'two')
    await again.term.waitFor('Second answer.', 20_000)
    expect(modelOf(posts(again.server)[1].body)).toBe('m-c')
  })
})
