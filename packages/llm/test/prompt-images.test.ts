// A prompt's images before admission (docs/decisions/0285-user-images.md, 85-skills-and-commands.md I2):
// refused for a model without image input, bounded in bytes, and past the pixel bound scaled down (PNG,
// JPEG, with the real codecs) or refused (GIF, WebP, or too many pixels to decode).
import { type ContentBlock, type ImageBlock, imageBlockOfBytes, imageBlockSize } from '@tack/session'
import { gifHeaderOf, pngOf } from '@tack/session/testing'
import { decode as decodePng } from 'fast-png'
import jpeg from 'jpeg-js'
import { describe, expect, test } from 'vitest'
import { LlmConfig } from '../src/index.ts'
import { scaleImage } from '../src/image-scale.ts'
import { checkPromptImages, type ScaleImage } from '../src/prompt-images.ts'

const bounds = LlmConfig.parse({}).images
const block = (bytes: Uint8Array): ImageBlock => {
  const image = imageBlockOfBytes(bytes)
  if (!image) throw new Error('not an image')
  return image
}
const realScale: ScaleImage = async (image, edge) => scaleImage(image, edge, bounds.maxScaleMegapixels * 1e6)
const noScale: ScaleImage = async () => {
  throw new Error('not asked to scale')
}
const imageTaker = { model: 'loop/vision', takesImages: true }

describe('the llm.images config', () => {
  test('defaults: 3.75 MiB, 8000 px (Anthropic), 100 MP to decode; configured; out of range rejected', () => {
    expect(bounds).toEqual({ maxBytes: 3_932_160, maxLongEdge: 8000, maxScaleMegapixels: 100 })
    expect(LlmConfig.parse({ images: { maxLongEdge: 1568 } }).images.maxLongEdge).toBe(1568)
    expect(() => LlmConfig.parse({ images: { maxLongEdge: 0 } })).toThrow(/maxLongEdge/)
    expect(() => LlmConfig.parse({ images: { maxBytes: -1 } })).toThrow(/maxBytes/)
    expect(() => LlmConfig.parse({ images: { maxScaleMegapixels: 401 } })).toThrow(/maxScaleMegapixels/)
  })
})

describe('checkPromptImages', () => {
  test('a prompt without images comes back as it is, whatever the model', async () => {
    const content = 'hello'
    const checked = await checkPromptImages(content, { model: 'm/x', takesImages: false }, bounds, noScale)
    expect(checked).toEqual({ content })
  })

  test('a model without image input: refused, naming the model and the endpoint setting', async () => {
    const content: ContentBlock[] = [{ type: 'text', text: 'what is this?' }, block(pngOf(4, 4))]
    const checked = await checkPromptImages(
      content,
      { model: 'deepseek/deepseek-chat', takesImages: false },
      bounds,
      noScale,
    )
    expect(checked).toEqual({
      refused: expect.stringContaining(
        'model deepseek/deepseek-chat takes no images, and this prompt has an image',
      ),
    })
    expect('refused' in checked && checked.refused).toContain('plugins.llm.endpoints.deepseek.images: true')
  })

  test('a model this plugin does not serve is not refused (its adapter decides)', async () => {
    const content: ContentBlock[] = [block(pngOf(4, 4))]
    expect(await checkPromptImages(content, { model: 'x', takesImages: undefined }, bounds, noScale)).toEqual(
      { content },
    )
  })

  test('images within the bounds pass unchanged (the same content object)', async () => {
    const content: ContentBlock[] = [block(pngOf(8000, 2)), block(pngOf(3, 8000))]
    expect((await checkPromptImages(content, imageTaker, bounds, noScale)) as unknown).toEqual({ content })
  })

  test('past maxBytes together: refused naming the bound', async () => {
    const one = block(pngOf(200, 200, { noise: true }))
    const checked = await checkPromptImages(
      [one, one],
      imageTaker,
      { ...bounds, maxBytes: one.bytes + 10 },
      noScale,
    )
    expect(checked).toEqual({ refused: expect.stringContaining('past plugins.llm.images.maxBytes') })
  })

  test('a PNG past maxLongEdge is scaled down to fit, decodable, its aspect kept', async () => {
    const content: ContentBlock[] = [{ type: 'text', text: 'see' }, block(pngOf(9000, 300, { noise: true }))]
    const checked = await checkPromptImages(content, imageTaker, bounds, realScale)
    if (!('content' in checked) || typeof checked.content === 'string') throw new Error('not fitted')
    const [text, image] = checked.content
    expect(text).toEqual({ type: 'text', text: 'see' })
    if (image?.type !== 'image') throw new Error('no image')
    expect(imageBlockSize(image)).toEqual({ width: 8000, height: 267 })
    const decoded = decodePng(Buffer.from(image.data, 'base64'))
    expect([decoded.width, decoded.height]).toEqual([8000, 267])
  })

  test('a JPEG past maxLongEdge is scaled down to fit and stays a JPEG', async () => {
    const width = 400
    const height = 100
    const rgba = Buffer.alloc(width * height * 4, 0x7f)
    const photo = block(jpeg.encode({ width, height, data: rgba }, 80).data)
    const checked = await checkPromptImages([photo], imageTaker, { ...bounds, maxLongEdge: 100 }, realScale)
    if (!('content' in checked) || typeof checked.content === 'string') throw new Error('not fitted')
    const image = checked.content[0] as ImageBlock
    expect(image.mimeType).toBe('image/jpeg')
    expect(imageBlockSize(image)).toEqual({ width: 100, height: 25 })
    const decoded = jpeg.decode(Buffer.from(image.data, 'base64'), { useTArray: true })
    expect(decoded.data[0]).toBeGreaterThan(0x70)
    expect(decoded.data[0]).toBeLessThan(0x90)
  })

  test('an image whose header gives no size is refused (a person can fix it)', async () => {
    const noHeader = block(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 2, 1, 2, 3]))
    const checked = await checkPromptImages([noHeader], imageTaker, bounds, noScale)
    expect(checked).toEqual({
      refused: 'an image of the prompt (image/jpeg) has no readable size in its header',
    })
  })

  test('a GIF past maxLongEdge is refused: no codec scales it', async () => {
    const checked = await checkPromptImages([block(gifHeaderOf(9000, 10))], imageTaker, bounds, realScale)
    expect(checked).toEqual({
      refused: expect.stringMatching(
        /9000×10 px, past plugins\.llm\.images\.maxLongEdge \(8000.*not image\/gif/,
      ),
    })
  })

  test('a PNG with more pixels than maxScaleMegapixels is refused, not decoded', async () => {
    const huge = block(pngOf(2000, 1000))
    const checked = await checkPromptImages(
      [huge],
      imageTaker,
      { ...bounds, maxLongEdge: 1000 },
      async (image, edge) => scaleImage(image, edge, 1_000_000),
    )
    expect(checked).toEqual({ refused: expect.stringContaining('too large to scale down') })
  })
})
