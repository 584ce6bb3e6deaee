// Issue 12.7: spill files older than scratchMaxAgeHours are removed when the plugin loads (each session
// start); younger ones, other files' folders and a `0` setting keep everything. Real files, real mtimes.
import { existsSync } from 'node:fs'
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ConfigError, Context } from '@tack/kernel'
import { ToolsPlugin } from '@tack/tools'
import { describe, expect, it } from 'vitest'
import { BashToolConfig } from '../src/config.ts'
import { BashToolPlugin } from '../src/plugin.ts'
import { removeSessionScratch, sessionScratchFolder } from '../src/scratch.ts'
import { tempDir } from './helpers.ts'

const HOUR = 3_600_000

/** `<root>/<session>/<file>` written with an mtime `hoursAgo` in the past (folders aged too when asked). */
async function spill(root: string, session: string, file: string, hoursAgo: number): Promise<string> {
  const path = join(root, session, file)
  await mkdir(join(root, session), { recursive: true })
  await writeFile(path, 'output\n')
  const when = new Date(Date.now() - hoursAgo * HOUR)
  await utimes(path, when, when)
  return path
}

async function load(config: Record<string, unknown>): Promise<void> {
  const ctx = new Context()
  await ctx.plugin(ToolsPlugin, {})
  await ctx.plugin(BashToolPlugin, config)
}

describe('scratch clean-up (issue 12.7)', () => {
  it('scratchMaxAgeHours: default 168 (a week), configured, rejected out of range naming the key', () => {
    expect(BashToolConfig.parse({}).scratchMaxAgeHours).toBe(168)
    expect(BashToolConfig.parse({ scratchMaxAgeHours: 0 }).scratchMaxAgeHours).toBe(0)
    expect(BashToolConfig.parse({ scratchMaxAgeHours: 24 }).scratchMaxAgeHours).toBe(24)
    for (const bad of [-1, 1.5, 100_000, '24']) {
      expect(() => BashToolConfig.parse({ scratchMaxAgeHours: bad }, 'config.yml')).toThrow(ConfigError)
      expect(() => BashToolConfig.parse({ scratchMaxAgeHours: bad }, 'config.yml')).toThrow(
        /scratchMaxAgeHours: must be an integer 0–87600/,
      )
    }
  })

  it('loading the plugin removes spill files older than the age and the folders it empties; younger ones stay', async () => {
    const scratchRoot = await tempDir()
    const old = await spill(scratchRoot, 's-old', 'bash-1.log', 30)
    const mixedOld = await spill(scratchRoot, 's-mixed', 'bash-1.log', 30)
    const mixedNew = await spill(scratchRoot, 's-mixed', 'bash-2.log', 1)
    const young = await spill(scratchRoot, 's-young', 'bash-1.log', 23)
    await load({ scratchRoot, scratchMaxAgeHours: 24 })
    expect(existsSync(old)).toBe(false)
    expect(existsSync(join(scratchRoot, 's-old'))).toBe(false)
    expect(existsSync(mixedOld)).toBe(false)
    expect(existsSync(mixedNew)).toBe(true)
    expect(existsSync(young)).toBe(true)
    expect((await readdir(scratchRoot)).sort()).toEqual(['s-mixed', 's-young'])
  })

  it('the default age keeps a day-old spill and removes one older than a week; 0 keeps everything', async () => {
    const scratchRoot = await tempDir()
    const day = await spill(scratchRoot, 's1', 'bash-day.log', 24)
    const month = await spill(scratchRoot, 's1', 'bash-month.log', 24 * 30)
    await load({ scratchRoot, scratchMaxAgeHours: 0 })
    expect(existsSync(month)).toBe(true)
    await load({ scratchRoot })
    expect(existsSync(day)).toBe(true)
    expect(existsSync(month)).toBe(false)
  })

  it('a missing scratch folder is fine; removing a session removes its folder only, ids made file-name safe', async () => {
    const scratchRoot = await tempDir()
    await load({ scratchRoot: join(scratchRoot, 'not-there'), scratchMaxAgeHours: 1 })
    expect(sessionScratchFolder(scratchRoot, 'a/../b')).toBe(join(scratchRoot, 'a_.._b'))
    const mine = await spill(scratchRoot, 'a_.._b', 'bash-1.log', 0)
    const theirs = await spill(scratchRoot, 'other', 'bash-1.log', 0)
    await removeSessionScratch(scratchRoot, 'a/../b')
    expect(existsSync(mine)).toBe(false)
    expect(existsSync(theirs)).toBe(true)
    await removeSessionScratch(scratchRoot, 'never-spilled') // nothing to remove is not an error
  })
})
