// `@server:uri` completion in the prompt box through the real `tack` in a pseudo-terminal (55-mcp.md
// M10, docs/decisions/0245-mcp-resource-mentions.md): with server-everything configured, `@ev` offers
// its resources and its resource templates (from the cached lists, so the menu shows without a round
// trip per key); typing on narrows them, Tab takes one, and the submitted prompt carries the resource's
// text to the model. The servers start while the screen comes up (docs/decisions/0240-mcp-early-start.md),
// and the menu is asked at each key: each test first lets `/mcp` say the server is connected, as a person
// who typed `@ev` before it was would see its resources from their next key on.
import { readFile, writeFile } from 'node:fs/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { everythingServer } from './mcp-everything.ts'
import { closeAllTuis, openTui } from './pty/tui-session.ts'

afterEach(closeAllTuis)

const withEverything = async (config: string) =>
  writeFile(
    config,
    `${await readFile(config, 'utf8')}  mcp:\n    servers: ${JSON.stringify({ everything: everythingServer })}\n`,
  )

type Terminal = Awaited<ReturnType<typeof openTui>>['term']

/** `/mcp` waits for the servers' start; its answer says everything is connected. */
async function serverConnected(term: Terminal): Promise<void> {
  term.type('/mcp')
  await term.waitFor('/mcp')
  term.press('enter')
  await term.waitFor(/everything: connected/, 20_000)
}

describe('tack interactive: @server:uri mentions', () => {
  it('@ev offers the resources and templates; typing narrows; Tab takes one; the model gets its text', async () => {
    const { term, server } = await openTui([{ kind: 'text', text: 'Read it.' }], {
      extendConfig: withEverything,
    })
    await serverConnected(term)
    term.type('read @ev')
    await term.waitFor('@everything:demo://resource/static/document/architecture.md', 20_000)
    term.type('erything:dynamic/te')
    await term.waitFor('@everything:demo://resource/dynamic/text/{resourceId}')
    await term.waitForGone('@everything:demo://resource/static/document/architecture.md')
    for (const _ of 'dynamic/te') term.press('backspace')
    term.type('static/document/feat')
    await term.waitFor(/→?\s*@everything:demo:\/\/resource\/static\/document\/features\.md/)
    term.press('tab')
    await term.waitFor(/^read @everything:demo:\/\/resource\/static\/document\/features\.md\s*$/m)
    term.type('now')
    await term.waitFor('features.md now')
    term.press('enter')
    await term.waitFor('Read it.', 20_000)
    expect(server.requests).toHaveLength(1)
    const sent = JSON.stringify(server.requests[0]?.body)
    expect(sent).toContain('read @everything:demo://resource/static/document/features.md now')
    expect(sent).toContain('# Everything Server - Features')
  })

  it('Tab on a template puts its fixed head in the box; the person types the rest, and it is read as-is', async () => {
    const { term, server } = await openTui([{ kind: 'text', text: 'Read it.' }], {
      extendConfig: withEverything,
    })
    await serverConnected(term)
    term.type('see @everything:text/{')
    await term.waitFor(
      '@everything:demo://resource/dynamic/text/{resourceId}  template: Dynamic Text Resource',
    )
    term.press('tab')
    await term.waitFor(/^see @everything:demo:\/\/resource\/dynamic\/text\/\s*$/m)
    term.type('42')
    await term.waitFor('dynamic/text/42')
    term.press('enter')
    await term.waitFor('Read it.', 20_000)
    expect(JSON.stringify(server.requests[0]?.body)).toContain('Resource 42: This is a plaintext resource')
  })

  it('Enter on a mention typed whole sends the prompt, though the menu shows that very mention', async () => {
    const { term, server } = await openTui([{ kind: 'text', text: 'Read it.' }], {
      extendConfig: withEverything,
    })
    await serverConnected(term)
    term.type('see @everything:demo://resource/static/document/features.md')
    await term.waitFor(/→ @everything:demo:\/\/resource\/static\/document\/features\.md {2}features\.md/)
    term.press('enter')
    await term.waitFor('Read it.', 20_000)
    expect(JSON.stringify(server.requests[0]?.body)).toContain('# Everything Server - Features')
  })
})
