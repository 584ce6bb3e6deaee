// The data side of install/uninstall (R26): the base folder and its ownership marker, the
// `cc-dice.ts` facade consumers import, and links left by a public checkout.
import { existsSync, lstatSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { homeOf, type HostEnvironment } from '../host/env.ts'
import { writeFileAtomic } from '../store/atomic.ts'
import { FileDiceStore } from '../store/file-store.ts'

export const MARKER = '.agent-dice'

/** Creates `<base>/state`; stamps the ownership marker only when this call created the base. */
export function prepareBase(base: string): { created: boolean } {
  const created = new FileDiceStore(base).ensureLayout()
  if (created) writeFileSync(join(base, MARKER), '')
  return { created }
}

export const ownsBase = (base: string) => existsSync(join(base, MARKER))

/** The module behind the package's `.` export, as this installation runs it (source or built). */
export function facadeModulePath(): string {
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js'
  return fileURLToPath(new URL(`../index.${ext}`, import.meta.url))
}

const FACADE_LINE = /^export \* from '[^'\n]*'\n?$/

/** The one-line re-export cc-reflection's `import(<base>/cc-dice.ts)` loads. */
export const facadeSource = () => `export * from '${facadeModulePath().replaceAll("'", "\\'")}'\n`

type FacadeState = 'absent' | 'ours' | 'public-link' | 'foreign'

function facadeState(path: string): FacadeState {
  let stat: ReturnType<typeof lstatSync>
  try {
    stat = lstatSync(path)
  } catch {
    return 'absent'
  }
  if (stat.isSymbolicLink())
    return /[/\\]src[/\\]index\.ts$/.test(readlinkSync(path)) ? 'public-link' : 'foreign'
  try {
    return FACADE_LINE.test(readFileSync(path, 'utf8')) ? 'ours' : 'foreign'
  } catch {
    return 'foreign'
  }
}

/** Writes `<base>/cc-dice.ts`, replacing only our own file or a link into a public checkout. */
export function installFacade(base: string): string {
  const path = join(base, 'cc-dice.ts')
  const state = facadeState(path)
  switch (state) {
    case 'foreign':
      return `Kept ${path}: not created by agent-dice`
    case 'ours':
      if (readFileSync(path, 'utf8') === facadeSource()) return `Facade up to date: ${path}`
      break
    case 'public-link':
      rmSync(path, { force: true })
      break
    case 'absent':
      break
    default: {
      const never: never = state
      return never
    }
  }
  writeFileAtomic(path, facadeSource())
  return `Wrote facade: ${path}`
}

/** Removes our facade file on uninstall (never someone else's). */
export function removeFacade(base: string): string | undefined {
  const path = join(base, 'cc-dice.ts')
  if (facadeState(path) !== 'ours') return undefined
  rmSync(path, { force: true })
  return `Removed facade: ${path}`
}

/** Removes `~/.local/bin/{agent-dice,cc-dice}` when they link into a public checkout's `bin/*.ts`. */
export function removeLegacyLinks(e: HostEnvironment): string[] {
  const home = homeOf(e)
  if (!home) return []
  const removed: string[] = []
  for (const name of ['agent-dice', 'cc-dice']) {
    const path = join(home, '.local', 'bin', name)
    try {
      if (!lstatSync(path).isSymbolicLink()) continue
      if (!/[/\\]bin[/\\](agent-dice|cc-dice)\.ts$/.test(readlinkSync(path))) continue
      rmSync(path)
      removed.push(`Removed legacy link: ${path}`)
    } catch {
      // Absent or unreadable: nothing of ours to remove.
    }
  }
  return removed
}
