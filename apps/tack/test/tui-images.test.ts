// A dropped image in the interactive screen (85-skills-and-commands.md I2,
// docs/decisions/0285-user-images.md): a terminal pastes a dropped file as its quoted path; on send the
// file is attached after the words (which keep the path), the screen says `[image: NAME, SIZE]`, and the model gets the image
// (an `image_url` data URL on the loopback wire). With a model that takes no images, the prompt is
// refused before any request and the screen says why. Real `tack` in a pseudo-terminal.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pngOf } from '@tack/session/testing'
import { afterEach, expect, it } from 'vitest'
import { closeAllTuis, openTui } from './pty/tui-session.ts'

afterEach(closeAllTuis)

const png = pngOf(20, 10)
const dropShot = async (ws: string) => writeFile(join(ws, 'My Shot.png'), png)
/** What a terminal writes when a file is dropped on it: a bracketed paste of its quoted path. */
const dropped = (path: string) => `\x1b[200~'${path}'\x1b[201~`

it('I2 a dropped image path is attached on send, shown as [image: …], and reaches the model as an image', async () => {
  const { term, server, box } = await openTui([{ kind: 'text', text: 'A grey rectangle.' }], {
    prepare: dropShot,
    extendConfig: async (config) => {
      const text = await readFile(config, 'utf8')
      await writeFile(
        config,
        text.replace('kind: openai-compatible,', 'kind: openai-compatible, images: true,'),
      )
    },
  })
  term.type('what is ')
  term.type(dropped(join(box.workspace, 'My Shot.png')))
  await term.waitFor('My Shot.png')
  term.press('enter')
  const screen = await term.waitFor('A grey rectangle.', 30_000)
  expect(screen).toContain(`[image: My Shot.png, ${png.length} B]`)
  const body = server.requests[0]?.body as { messages: Array<{ role: string; content: unknown }> }
  const user = body.messages.find((m) => m.role === 'user')
  expect(user?.content).toEqual([
    { type: 'text', text: `what is '${join(box.workspace, 'My Shot.png')}'` },
    { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
  ])
})

it('I2 a dropped image for a model without image input: refused before the request, the screen says why', async () => {
  const { term, server, box } = await openTui([], { prepare: dropShot })
  term.type('look at ')
  term.type(dropped(join(box.workspace, 'My Shot.png')))
  await term.waitFor('My Shot.png')
  term.press('enter')
  const screen = await term.waitFor('takes no images', 30_000)
  expect(screen).toContain('prompt blocked: model loop/m takes no images')
  expect(server.requests).toHaveLength(0)
})
