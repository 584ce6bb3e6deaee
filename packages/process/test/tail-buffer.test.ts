import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeTail, TailBuffer } from '../src/tail-buffer.ts'

describe('TailBuffer (the bounded output ring)', () => {
  it('TL-17 holds exactly the last `capacity` bytes for any sequence of chunks', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }),
        fc.array(fc.uint8Array({ maxLength: 400 }), { maxLength: 40 }),
        (capacity, chunks) => {
          const ring = new TailBuffer(capacity)
          for (const chunk of chunks) ring.push(chunk)
          const all = Buffer.concat(chunks)
          const expected = all.subarray(Math.max(0, all.length - capacity))
          expect(ring.bytes().equals(expected)).toBe(true)
          expect(ring.totalBytes).toBe(all.length)
          expect(ring.truncated).toBe(all.length > capacity)
        },
      ),
    )
  })

  it('R2 never holds more than its capacity however much is pushed', () => {
    const ring = new TailBuffer(1000)
    const chunk = Buffer.alloc(65_536, 0x61)
    for (let i = 0; i < 200; i++) ring.push(chunk)
    expect(ring.bytes().length).toBe(1000)
    expect(ring.totalBytes).toBe(200 * 65_536)
  })

  it('R2 binary output decodes with replacement characters instead of failing', () => {
    const ring = new TailBuffer(100)
    ring.push(Buffer.from([0xff, 0xfe, 0x00, 0x61, 0x62, 0x63, 0xc3]))
    expect(ring.text()).toBe('\uFFFD\uFFFD\u0000abc\uFFFD')
  })

  it('TL-17 a cut inside a multi-byte character drops its orphaned continuation bytes', () => {
    const bytes = Buffer.from('ééé', 'utf8') // c3 a9 ×3
    expect(decodeTail(bytes.subarray(1), true)).toBe('éé')
    expect(decodeTail(bytes.subarray(1), false)).toBe('\uFFFDéé')
    const ring = new TailBuffer(5)
    ring.push(bytes)
    expect(ring.text()).toBe('éé')
  })
})
