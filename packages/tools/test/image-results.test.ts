// Images in tool results (docs/decisions/0255-image-content.md): a tool may return image blocks, kept
// as they are up to `maxImageBytes` and a note past it; a malformed image block is refused like any
// malformed content; the default presentation shows words and images in order.
import { imageBlock, imageBlockOfBytes } from '@tack/session'
import { pngOf } from '@tack/session/testing'
import { describe, expect, test } from 'vitest'
import { defineTool, plainPresenter, ToolsConfig } from '../src/index.ts'
import { callTool, createToolsContext } from '../src/testing/index.ts'

/** A block of `bytes` bytes that starts as a PNG does (the signature is what imageBlock checks). */
const picture = (bytes: number) => {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  const block = imageBlock(
    'image/png',
    Buffer.concat([signature, Buffer.alloc(bytes - 8, 1)]).toString('base64'),
  )
  if (!block) throw new Error('not an image')
  return block
}

const camera = (content: unknown) =>
  defineTool({
    name: 'camera',
    description: 'takes a picture',
    access: 'read',
    parameters: { type: 'object', properties: {} },
    execute: () => content as never,
  })

describe('image blocks in tool results', () => {
  test('images up to maxImageBytes in all are kept whole; past it, a note naming the bound takes their place', async () => {
    const ctx = await createToolsContext({ maxImageBytes: 100 })
    ctx.tools.register(camera([{ type: 'text', text: 'two shots' }, picture(100), picture(101)]))
    const result = await callTool(ctx, 'camera', {})
    expect(result.isError).toBe(false)
    expect(result.content[1]).toEqual(picture(100))
    expect(result.content[2]).toEqual({
      type: 'text',
      text: '[Image: image/png, 101 bytes, not kept: past plugins.tools.maxImageBytes (100) for one result]',
    })
  })

  test('the bound is on the images of one result together, counted in order', async () => {
    const ctx = await createToolsContext({ maxImageBytes: 100 })
    ctx.tools.register(camera([picture(60), picture(60), picture(40)]))
    const result = await callTool(ctx, 'camera', {})
    expect(result.content.map((block) => block.type)).toEqual(['image', 'text', 'image'])
  })

  test('maxImageBytes 0 keeps no image; the bound is validated', async () => {
    const ctx = await createToolsContext({ maxImageBytes: 0 })
    ctx.tools.register(camera([picture(8)]))
    expect((await callTool(ctx, 'camera', {})).content[0]?.type).toBe('text')
    expect(ToolsConfig.parse({}).maxImageBytes).toBe(3_932_160)
    expect(() => ToolsConfig.parse({ maxImageBytes: -1 })).toThrow(/maxImageBytes/)
    expect(() => ToolsConfig.parse({ maxImageBytes: 21 * 1024 * 1024 })).toThrow(/maxImageBytes/)
  })

  test('past maxImageLongEdge (default 8000 px) an image is a note naming its size; one without a readable size is kept', async () => {
    expect(ToolsConfig.parse({}).maxImageLongEdge).toBe(8000)
    expect(() => ToolsConfig.parse({ maxImageLongEdge: 0 })).toThrow(/maxImageLongEdge/)
    const wide = imageBlockOfBytes(pngOf(8001, 1))
    const fits = imageBlockOfBytes(pngOf(8000, 1))
    const ctx = await createToolsContext()
    ctx.tools.register(camera([wide, fits, picture(40)]))
    const result = await callTool(ctx, 'camera', {})
    expect(result.content.map((block) => block.type)).toEqual(['text', 'image', 'image'])
    expect(result.content[0]).toEqual({
      type: 'text',
      text: `[Image: image/png, ${wide?.bytes} bytes, 8001×1 px, not kept: past plugins.tools.maxImageLongEdge (8000 px)]`,
    })
    const small = await createToolsContext({ maxImageLongEdge: 100 })
    small.tools.register(camera([fits]))
    expect((await callTool(small, 'camera', {})).content[0]?.type).toBe('text')
  })

  test('an image block without its hash and size is not content: the call fails, saying so', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(camera([{ type: 'image', mimeType: 'image/png', data: 'AAAA' }]))
    const result = await callTool(ctx, 'camera', {})
    expect(result.isError).toBe(true)
    expect(result.error?.code).toBe('TOOL_FAILED')
  })

  test('the default presentation: words and images in order; the text is what the model reads', () => {
    const shot = picture(9)
    const shown = plainPresenter.presentResult(
      'camera',
      {},
      { content: [{ type: 'text', text: 'before' }, shot, { type: 'text', text: 'after' }], isError: false },
    )
    expect(shown.intents).toEqual([
      { kind: 'text', text: 'before' },
      { kind: 'image', mimeType: 'image/png', data: shot.data, bytes: 9 },
      { kind: 'text', text: 'after' },
    ])
    expect(shown.text).toBe('before\n[Image: image/png, 9 bytes]\nafter')
  })
})
