// The README's screenshots (issue 16): every picture it shows is committed under docs/screenshots/, and
// every file there is shown — terminal screens are SVGs `scripts/screenshots.ts` writes from the real
// binary in a pty, the web view's PNG is what `scripts/web-screenshot.ts` takes in headless Chromium — so a
// renamed scene must not leave the README pointing at nothing, nor a stale file nobody sees.
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { expect, test } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..', '..')
const SHOTS = 'docs/screenshots'

test('the README shows every screenshot under docs/screenshots: terminal screens rendered as SVG, the web view a PNG', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const shown = [...readme.matchAll(/!\[[^\]]+\]\((docs\/screenshots\/[^)]+)\)/g)].map((m) => m[1])
  const files = readdirSync(join(ROOT, SHOTS)).map((f) => `${SHOTS}/${f}`)
  expect(shown.length).toBeGreaterThanOrEqual(3)
  expect([...shown].sort()).toEqual([...files].sort())
  for (const file of files) {
    if (file.endsWith('.png')) {
      const png = readFileSync(join(ROOT, file))
      expect(png.subarray(0, 8).toString('hex'), file).toBe('89504e470d0a1a0a')
      // a page with content, not a blank frame: width and height from the IHDR chunk
      expect(png.readUInt32BE(16), file).toBeGreaterThan(400)
      expect(png.readUInt32BE(20), file).toBeGreaterThan(300)
      expect(png.length, file).toBeGreaterThan(20_000)
      continue
    }
    const svg = readFileSync(join(ROOT, file), 'utf8')
    expect(svg, file).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
    expect(svg, file).toMatch(/<title>[^<]+<\/title>/)
    expect(svg.match(/<text /g)?.length ?? 0, file).toBeGreaterThan(3)
  }
  // the three screens issue 16 asks for
  const text = (file: string) =>
    [...readFileSync(join(ROOT, SHOTS, file), 'utf8').matchAll(/>([^<]*)<\/text>/g)]
      .map((m) => m[1])
      .join(' ')
  expect(text('diff-card.svg')).toMatch(/@@ -\d+,\d+ \+\d+,\d+ @@/)
  expect(text('permission-prompt.svg')).toContain('Permission required')
  expect(text('status-line.svg')).toMatch(/ctx \d+% .* tok .* mode ask .* session [0-9a-f]{8}/)
})
