// Regenerates (or with --check, verifies) every generated reference under docs/.
// Each generator is a module exporting `generate(): Promise<Array<{path, content}>>`.
import { readFile, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'

const generators: string[] = [
  './gen-session-events.ts',
  './gen-config-reference.ts',
  './gen-seams.ts',
  './gen-doc-snippets.ts',
  './gen-dependency-graph.ts',
  './gen-seam-phases.ts',
]

const check = process.argv.includes('--check')
let stale = 0
for (const gen of generators) {
  const mod = (await import(resolve(import.meta.dirname, gen))) as {
    generate(): Promise<Array<{ path: string; content: string }>>
  }
  // A generator refuses bad sources (a seam without @mode, …) with a message naming the file: print that,
  // not a stack trace.
  const outputs = await mod.generate().catch((error: unknown) => {
    process.stderr.write(`${gen}: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  })
  for (const out of outputs) {
    const target = resolve(import.meta.dirname, '..', out.path)
    const current = await readFile(target, 'utf8').catch(() => undefined)
    if (current === out.content) continue
    if (check) {
      stale++
      process.stderr.write(`stale: ${out.path} (run \`npm run docs:gen\`)\n`)
    } else {
      await writeFile(target, out.content)
      process.stdout.write(`wrote ${out.path}\n`)
    }
  }
}
if (stale > 0) process.exit(1)
