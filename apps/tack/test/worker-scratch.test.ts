// The worker's default scratch folder and the warning for one that jobs' sandboxed commands can write
// (apps/tack/src/worker-scratch.ts, docs/decisions/0390-worker-scratch-outside-temp.md).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { defaultScratch, scratchRefusal, scratchWarning } from '../src/worker-scratch.ts'

test('the default is the XDG cache folder when absolute, else ~/.cache', () => {
  expect(defaultScratch({ HOME: '/home/p', XDG_CACHE_HOME: '/c' })).toBe('/c/tack-worker')
  expect(defaultScratch({ HOME: '/home/p', XDG_CACHE_HOME: 'relative' })).toBe('/home/p/.cache/tack-worker')
  expect(defaultScratch({ HOME: '/home/p' })).toBe('/home/p/.cache/tack-worker')
})

test('a folder in a temp folder is named, also through a link or a path not made yet; one outside is not', () => {
  const home = mkdtempSync('/var/tmp/tack-scratch-home-')
  const inTemp = mkdtempSync(join(tmpdir(), 'tack-scratch-cache-'))
  try {
    expect(scratchWarning(join(home, 'not', 'made', 'yet'))).toBeUndefined()
    expect(scratchWarning(join(inTemp, 'x'))).toMatch(/is inside .*every job's sandboxed commands can write/)
    // ~/.cache a link into the temp folder: the sandbox sees the real path
    symlinkSync(inTemp, join(home, '.cache'))
    expect(scratchWarning(defaultScratch({ HOME: home }))).toContain(`${home}/.cache/tack-worker is inside`)
  } finally {
    rmSync(home, { recursive: true, force: true })
    rmSync(inTemp, { recursive: true, force: true })
  }
})

test('a link into a temp folder whose target is gone still counts; a name that starts with .. is inside', () => {
  const home = mkdtempSync('/var/tmp/tack-scratch-home-')
  const gone = join(tmpdir(), `tack-scratch-gone-${process.pid}`)
  try {
    symlinkSync(gone, join(home, '.cache')) // its target does not exist (a reboot emptied /tmp)
    expect(scratchWarning(defaultScratch({ HOME: home }))).toContain('is inside')
    expect(scratchWarning(join(tmpdir(), '..scratch'))).toContain('is inside')
    expect(scratchWarning('/var/tmp/../../tmp/x')).toContain('is inside')
    expect(scratchWarning('/var/tmp/../tmp/x')).toBeUndefined() // that is /var/tmp/x
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
})

test("a scratch folder inside tack's home is refused: the sandbox would leave the home readable to jobs", () => {
  const root = mkdtempSync('/var/tmp/tack-scratch-refusal-')
  try {
    const home = join(root, '.tack')
    mkdirSync(home)
    expect(scratchRefusal(join(home, 'jobs'), home)).toMatch(/is inside tack's home .*could read its \.env/)
    expect(scratchRefusal(home, home)).toBeDefined()
    // through a link into the home, too
    symlinkSync(home, join(root, 'cache'))
    expect(scratchRefusal(join(root, 'cache', 'tack-worker'), home)).toBeDefined()
    expect(scratchRefusal(join(root, 'elsewhere'), home)).toBeUndefined()
    expect(scratchRefusal(join(root, '.tackx'), home)).toBeUndefined()
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
})
