#!/usr/bin/env node
// The `tack` launcher. `--version` and `--help` are answered here, before any TypeScript, provider,
// SQLite or plugin is imported, so they start about as fast as Node itself (P1). Everything else is
// handed to src/main.ts, which imports only what the command needs.
import { readFileSync, statSync } from 'node:fs'

const argv = process.argv.slice(2)
const first = argv[0]

if (first === '--version' || first === '-V' || first === 'version') {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  process.stdout.write(`tack ${pkg.version}\n`)
} else if (first === '--help' || first === '-h' || first === 'help' || first === undefined) {
  const { HELP } = await import('./help.js')
  process.stdout.write(HELP)
  if (first === undefined) {
    // The interactive terminal UI is not built yet; say so instead of pretending.
    process.stderr.write('\nThe interactive UI is not available in this version; use `tack run "task"`.\n')
    process.exitCode = 2
  }
} else {
  const major = Number(process.versions.node.split('.')[0])
  if (major < 22) {
    process.stderr.write(
      `tack needs Node.js 22 or newer (this is ${process.version}). In this repository run it as \`npx tack …\`, which uses the Node 24 the repo installs.\n`,
    )
    process.exit(1)
  }
  const { main } = await import(entryPoint())
  process.exitCode = await main(argv)
}

/**
 * The built JavaScript (`scripts/build.ts`, run by `npm install` and `npm test`) while every source file
 * still matches the build's manifest; otherwise the TypeScript sources, which Node strips at load.
 * A stale or missing build is therefore never run, only slower.
 */
function entryPoint() {
  const root = new URL('../../../', import.meta.url)
  try {
    if (process.env.TACK_FROM_SOURCE === '1') throw new Error('sources asked for')
    const manifest = JSON.parse(readFileSync(new URL('apps/tack/build/.manifest.json', root), 'utf8'))
    for (const [file, size, mtime] of manifest.files) {
      const st = statSync(new URL(file, root))
      if (st.size !== size || Math.trunc(st.mtimeMs) !== mtime) throw new Error(`${file} changed`)
    }
    return '../build/main.js'
  } catch {
    return '../src/main.ts'
  }
}
