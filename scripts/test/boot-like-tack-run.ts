// A context booted as `tack run` boots it (apps/tack/src/boot.ts), in a fresh home: one plugin of the
// user's own in $TACK_HOME/plugins/ that listens on every seam with declared phases, one mod in
// $TACK_HOME/mods/, and — given a seed — the boot loop shuffled (`TACK_DEV_SHUFFLE_CATALOG`). Shared by
// architecture-doc.test.ts and boot-shuffle.test.ts.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { boot } from '../../apps/tack/src/boot.ts'
import { findModFolders } from '../../apps/tack/src/mod-folders.ts'
import { resolveSettings } from '../../apps/tack/src/settings.ts'
import { findUserPlugins } from '../../apps/tack/src/user-plugins.ts'

export const USER_PLUGIN = 'doc-probe'
/** The seams the probe (a plugin of the user's) listens on: every seam that declares phases. */
export const PROBED = {
  'tools/call': '(exec, next) => next()',
  'tools/pre-execute': '(exec, next) => next()',
  'agent/prompt-submit': '(agent, prompt, next) => next()',
  'agent/turn-continuation': '(agent, info, next) => next()',
  'agent/pre-step': '() => {}',
}

/** A context booted as `tack run` boots it, with one plugin of the user's own in $TACK_HOME/plugins/ and one mod in $TACK_HOME/mods/. */
export async function bootLikeTackRun(shuffleSeed?: number, prepare?: (home: string) => void) {
  const root = mkdtempSync(join(tmpdir(), 'tack-arch-'))
  const home = join(root, 'home')
  const workspace = join(root, 'ws')
  mkdirSync(join(home, '.tack', 'plugins'), { recursive: true })
  mkdirSync(workspace)
  writeFileSync(
    join(home, '.tack', 'plugins', 'probe.mjs'),
    [
      `export const name = '${USER_PLUGIN}'`,
      'export function apply(ctx) {',
      ...Object.entries(PROBED).map(([seam, fn]) => `  ctx.on('${seam}', ${fn})`),
      '}',
    ].join('\n'),
  )
  const mod = join(home, '.tack', 'mods', 'doc-mod')
  mkdirSync(join(mod, '.claude-plugin'), { recursive: true })
  mkdirSync(join(mod, 'hooks'))
  writeFileSync(
    join(mod, '.claude-plugin', 'plugin.json'),
    JSON.stringify({ name: 'doc-mod', version: '1.0.0' }),
  )
  writeFileSync(join(mod, 'hooks', 'hooks.json'), JSON.stringify({ modules: ['./register.mjs'] }))
  writeFileSync(
    join(mod, 'hooks', 'register.mjs'),
    "export const register = (on) => on('turn.start', ($, e, next) => next(e))\n",
  )
  prepare?.(home)
  const env = {
    HOME: home,
    TACK_HOME: join(home, '.tack'),
    CODEX_HOME: join(home, '.codex'),
    PATH: process.env.PATH,
    ...(shuffleSeed === undefined ? {} : { TACK_DEV_SHUFFLE_CATALOG: String(shuffleSeed) }),
  }
  const resolved = await resolveSettings({}, env, workspace)
  const found = findUserPlugins(resolved.settings, resolved.paths, resolved.cwd, resolved.trust.trusted)
  const mods = findModFolders(resolved.settings, resolved.paths, resolved.cwd, resolved.trust.trusted)
  return boot({ ...resolved, env, userPlugins: found.refs, mods: mods.specs })
}
