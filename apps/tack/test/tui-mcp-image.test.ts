// An MCP image result in the interactive screen (docs/decisions/0255-image-content.md): the tool card of
// server-everything's get-tiny-image names the image — `[image image/png N KB]` — under its header;
// a terminal does not draw it. Real `tack` in a pseudo-terminal, the loopback model.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { everythingServer } from './mcp-everything.ts'
import { closeAllTuis, openTui, submit } from './pty/tui-session.ts'

afterEach(closeAllTuis)

it('the card of an image result names the image: [image image/png … KB]', async () => {
  const { term } = await openTui(
    [
      { kind: 'tool-calls', calls: [{ name: 'mcp__everything__get-tiny-image', args: {} }] },
      { kind: 'text', text: 'That is the MCP logo.' },
    ],
    {
      args: ['--permission-mode', 'yolo'],
      // server-everything from the user's own config ($TACK_HOME beside the workspace in the sandbox)
      prepare: async (ws) => {
        const tackHome = join(dirname(ws), 'tack-home')
        await mkdir(tackHome, { recursive: true })
        await writeFile(
          join(tackHome, 'config.yml'),
          `plugins:\n  mcp:\n    servers: ${JSON.stringify({ everything: everythingServer })}\n`,
        )
      },
    },
  )
  await submit(term, 'show me the logo')
  const screen = await term.waitFor('That is the MCP logo.', 30_000)
  expect(screen).toMatch(/get-tiny-image[^\n]*done/)
  expect(screen).toMatch(/\[image image\/png \d+ (B|KB)\]/)
  expect(screen).not.toContain('iVBORw0KGgo')
})
