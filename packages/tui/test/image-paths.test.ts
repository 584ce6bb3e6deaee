// Image paths pasted or dropped into the prompt (85-skills-and-commands.md I2,
// docs/decisions/0285-user-images.md): each spelling a terminal pastes — bare, quoted, escaped spaces,
// file:// — of an existing image file becomes an attachment; anything else stays as typed.
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { pngOf } from '@tack/session/testing'
import { describe, expect, test } from 'vitest'
import { attachImagePaths, mayHoldImagePaths } from '../src/image-paths.ts'

async function files() {
  const root = await mkdtemp(join(tmpdir(), 'tack-paste-'))
  const home = join(root, 'home')
  await mkdir(join(home, 'Desktop'), { recursive: true })
  const png = pngOf(12, 8)
  await writeFile(join(root, 'My Shot.png'), png)
  await writeFile(join(root, 'plain.png'), png)
  await writeFile(join(home, 'Desktop', 'd.png'), png)
  await writeFile(join(root, 'words.png'), 'not an image')
  return { root, home, png }
}

describe('attachImagePaths', () => {
  test('bare, single-quoted, double-quoted, backslash-escaped and file:// paths are attached; the words stay as typed', async () => {
    const { root, home, png } = await files()
    const spaced = join(root, 'My Shot.png')
    for (const pasted of [
      `'${spaced}'`,
      `"${spaced}"`,
      spaced.replaceAll(' ', '\\ '),
      pathToFileURL(spaced).href,
    ]) {
      const { content, attached } = await attachImagePaths(`what is in ${pasted} please`, home)
      expect(attached.map((a) => a.name)).toEqual(['My Shot.png'])
      expect(content).toEqual([
        { type: 'text', text: `what is in ${pasted} please` },
        expect.objectContaining({ type: 'image', mimeType: 'image/png', data: png.toString('base64') }),
      ])
    }
    const two = await attachImagePaths(`${join(root, 'plain.png')} ~/Desktop/d.png`, home)
    expect(two.attached.map((a) => a.name)).toEqual(['plain.png', 'd.png'])
    expect((two.content as Array<{ type: string }>).map((b) => b.type)).toEqual(['text', 'image', 'image'])
  })

  test('a missing file, a non-image behind an image name, a relative path and plain words stay as typed', async () => {
    const { root, home } = await files()
    const text = `compare ${join(root, 'gone.png')} with ${join(root, 'words.png')} and shot.png`
    expect(await attachImagePaths(text, home)).toEqual({ content: text, attached: [] })
    expect(mayHoldImagePaths('fix the bug in src/app.ts', home)).toBe(false)
    expect(mayHoldImagePaths('see shot.png', home)).toBe(false)
    expect(mayHoldImagePaths(`see ${join(root, 'x.JPG')}`, home)).toBe(true)
  })
})
