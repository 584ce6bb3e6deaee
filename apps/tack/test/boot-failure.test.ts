// A boot that fails part way disposes what it already started (boot.ts): a long-running `tack acp` boots
// one context per session folder (docs/decisions/0140-acp-trust-per-session.md), and a folder whose boot
// fails must not leave its store, hook bridges or earlier plugins running for the rest of the connection.
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { boot } from '../src/boot.ts'
import { resolveSettings } from '../src/settings.ts'
import { findUserPlugins } from '../src/user-plugins.ts'
import { sandbox } from './helpers.ts'

test('a plugin that fails to load disposes the plugins the boot had already loaded', async () => {
  const box = await sandbox()
  const plugins = join(box.tackHome, 'plugins')
  await mkdir(plugins, { recursive: true })
  const marker = join(box.root, 'disposed')
  // Loaded first (by name): records its disposal. Loaded second: throws while applying.
  await writeFile(
    join(plugins, 'a-records.mjs'),
    `import { writeFileSync } from 'node:fs'\nexport const name = 'a-records'\nexport function apply(ctx) { ctx.effect(() => () => writeFileSync(${JSON.stringify(marker)}, 'yes')) }\n`,
  )
  await writeFile(
    join(plugins, 'b-throws.mjs'),
    `export const name = 'b-throws'\nexport function apply() { throw new Error('broken on purpose') }\n`,
  )
  const { settings, paths, cwd, trust } = await resolveSettings({}, box.env, box.workspace)
  const found = findUserPlugins(settings, paths, cwd, trust.trusted)
  expect(found.refs.map((r) => r.spec.split('/').pop())).toEqual(['a-records.mjs', 'b-throws.mjs'])
  await expect(
    boot({ settings, paths, env: box.env, cwd, trust, noSession: true, userPlugins: found.refs }),
  ).rejects.toThrow(/b-throws\.mjs failed to load: broken on purpose/)
  expect(existsSync(marker)).toBe(true)
})
