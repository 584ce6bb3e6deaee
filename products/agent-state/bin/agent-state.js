#!/usr/bin/env node
// The `agent-state` command. In a checkout, on a Node that strips types, it runs the TypeScript sources
// (always current); otherwise the JavaScript copy: `dist/` in a published tarball, or `build/` made by
// the repository's scripts/build.ts (Node does not strip types under node_modules).
import { existsSync } from 'node:fs'

const fromSource = !import.meta.url.includes('/node_modules/') && Boolean(process.features.typescript)
const candidates = [
  ...(fromSource ? ['../src/readers/cli.ts'] : []),
  '../dist/readers/cli.js',
  '../build/readers/cli.js',
]
const entry = candidates.map((c) => new URL(c, import.meta.url)).find((url) => existsSync(url))
if (!entry) {
  process.stderr.write(
    'agent-state: no built copy found; run `npm run build` in the repository, or use Node 22.18+\n',
  )
  process.exit(2)
}
const { main } = await import(entry.href)
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0) // `agent-state status | head` is fine
  throw error
})
process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
})
