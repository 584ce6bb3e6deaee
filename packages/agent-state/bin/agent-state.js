#!/usr/bin/env node
// The `agent-state` command. Loads the built readers (`build/`, made by the repository's
// scripts/build.ts, or `dist/` in a published tarball) when present, else the TypeScript sources (Node
// 22.18+ strips types outside node_modules).
import { existsSync } from 'node:fs'

const candidates = ['../dist/readers/cli.js', '../build/readers/cli.js', '../src/readers/cli.ts']
const entry = candidates.map((c) => new URL(c, import.meta.url)).find((url) => existsSync(url))
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
