// Builds mod/hooks/*.js from src/mod/*.ts (R1): Node's own type stripper (erasable syntax only, so line
// and column positions stay), relative `.ts` imports renamed to `.js`. The output is not committed:
// `node scripts/build.ts` (run by `npm install` through `prepare`, and by `npm test`) writes it, so the
// mod folder works from an installed checkout and a tarball alike; `--check` fails when it is out of
// date, and the package's tests run that check.
//
//   node products/agent-state/scripts/build-mod.ts          write mod/hooks/
//   node products/agent-state/scripts/build-mod.ts --check  exit 1 if mod/hooks/ differs from the source
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { stripTypeScriptTypes } from 'node:module'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')
const source = join(root, 'src', 'mod')
const target = join(root, 'mod', 'hooks')
/** Types only: erased entirely, so it ships as nothing. */
const TYPE_ONLY = new Set(['host-api.ts'])
const HEADER = '// Generated from products/agent-state/src/mod by scripts/build-mod.ts; edit the source.\n'

process.removeAllListeners('warning') // the stripper's experimental warning is noise in a build

export function buildMod(): Map<string, string> {
  const out = new Map<string, string>()
  for (const file of readdirSync(source).filter((f) => f.endsWith('.ts') && !TYPE_ONLY.has(f))) {
    const stripped = stripTypeScriptTypes(readFileSync(join(source, file), 'utf8'), { mode: 'strip' })
    const js = stripped.replace(/(from\s*)(['"])(\.\/[^'"]+)\.ts\2/g, '$1$2$3.js$2')
    out.set(file.replace(/\.ts$/, '.js'), HEADER + js)
  }
  return out
}

/** Writes mod/hooks/*.js from the source. */
export function writeMod(): void {
  mkdirSync(target, { recursive: true })
  for (const [name, js] of buildMod()) writeFileSync(join(target, name), js)
}

if (import.meta.main) {
  const built = buildMod()
  if (process.argv.includes('--check')) {
    const stale = [...built].filter(([name, js]) => {
      const path = join(target, name)
      return !existsSync(path) || readFileSync(path, 'utf8') !== js
    })
    const extra = readdirSync(target).filter((f) => f.endsWith('.js') && !built.has(f))
    if (stale.length || extra.length) {
      process.stderr.write(
        `agent-state mod/hooks is out of date (${[...stale.map(([n]) => n), ...extra].join(', ')}); run node products/agent-state/scripts/build-mod.ts\n`,
      )
      process.exit(1)
    }
  } else writeMod()
}
