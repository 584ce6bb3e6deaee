// P9 (90-quality.md): `grep` for a literal and `glob` for `**/*.d.ts` over a generated tree of
// 20,000+ files, through the tools (the real tools pipeline and FsToolsPlugin), side by side with `rg`
// on the same tree in the same run. Target: ≤ 1.2× rg with ripgrep (`ripgrep: 'auto'`), ≤ 4× on the
// pure-Node path (`ripgrep: 'off'`). Figures are printed, never asserted.
//
//   npx node bench/search/run.ts [--files 20000] [--runs 7]
import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { Context } from '@tack/kernel'
import { FsToolsPlugin } from '@tack/tool-fs'
import { ToolsPlugin } from '@tack/tools'

const { values } = parseArgs({
  options: { files: { type: 'string', default: '20000' }, runs: { type: 'string', default: '7' } },
})
const fileCount = Math.max(20_000, Number(values.files))
const runs = Math.max(3, Number(values.runs))
const LITERAL = 'needleInTheHaystack'

/** A source-like tree: 50 files a folder, 1 in 40 a `.d.ts`, 1 in 100 holding the literal, plus an
 * ignored `node_modules` the searches must skip. */
async function generate(root: string): Promise<void> {
  await writeFile(join(root, '.gitignore'), 'node_modules/\n*.log\n')
  const body = (i: number) =>
    `// file ${i}\nimport { thing${i % 97} } from './mod${i % 13}'\n${'export const value = compute(input, options) // some ordinary code\n'.repeat(20)}${i % 100 === 7 ? `const marker = '${LITERAL}'\n` : ''}`
  for (let i = 0; i < fileCount; i += 50) {
    const dir = join(root, `pkg${Math.floor(i / 2000)}`, `src${Math.floor(i / 50)}`)
    await mkdir(dir, { recursive: true })
    await Promise.all(
      Array.from({ length: 50 }, (_, k) => {
        const n = i + k
        const name = n % 40 === 3 ? `types${n}.d.ts` : n % 5 === 0 ? `file${n}.js` : `file${n}.ts`
        return writeFile(join(dir, name), body(n))
      }),
    )
  }
  const ignored = join(root, 'node_modules', 'dep')
  await mkdir(ignored, { recursive: true })
  for (let i = 0; i < 500; i++) await writeFile(join(ignored, `x${i}.d.ts`), `${LITERAL}\n`)
}

function rg(args: string[], cwd: string): Promise<number> {
  const start = performance.now()
  return new Promise((resolve, reject) => {
    const child = spawn('rg', args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] })
    child.stdout.resume()
    child.on('error', reject)
    child.on('close', (code) =>
      code === 0 ? resolve(performance.now() - start) : reject(new Error(`rg ${code}`)),
    )
  })
}

async function tools(ripgrep: 'auto' | 'off'): Promise<Context> {
  const ctx = new Context()
  await ctx.plugin(ToolsPlugin, {})
  await ctx.plugin(FsToolsPlugin, { ripgrep })
  return ctx
}

let calls = 0
async function viaTool(ctx: Context, name: string, args: unknown, cwd: string): Promise<number> {
  const start = performance.now()
  const result = await ctx.tools.execute({
    callId: `bench_${++calls}`,
    name,
    rawArguments: JSON.stringify(args),
    cwd,
    signal: new AbortController().signal,
  })
  const ms = performance.now() - start
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`)
  return ms
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

const root = await mkdtemp(join(tmpdir(), 'tack-bench-search-'))
try {
  await generate(root)
  const withRg = await tools('auto')
  const pureNode = await tools('off')
  const cases = [
    {
      what: `grep ${LITERAL}`,
      rg: () => rg(['--files-with-matches', '--hidden', '--no-require-git', '-F', LITERAL], root),
      tool: (ctx: Context) => viaTool(ctx, 'grep', { pattern: LITERAL }, root),
    },
    {
      what: 'glob **/*.d.ts',
      rg: () => rg(['--files', '--hidden', '--no-require-git', '-g', '*.d.ts'], root),
      tool: (ctx: Context) => viaTool(ctx, 'glob', { pattern: '**/*.d.ts' }, root),
    },
  ]
  process.stdout.write(`   tree: ${fileCount} files (+500 ignored) in ${root}; median of ${runs} runs each\n`)
  for (const c of cases) {
    const times = { rg: [] as number[], withRg: [] as number[], node: [] as number[] }
    await c.rg() // warm the page cache and the code paths once
    await c.tool(withRg)
    await c.tool(pureNode)
    for (let i = 0; i < runs; i++) {
      times.rg.push(await c.rg())
      times.withRg.push(await c.tool(withRg))
      times.node.push(await c.tool(pureNode))
    }
    const base = median(times.rg)
    const a = median(times.withRg)
    const b = median(times.node)
    process.stdout.write(
      `   ${c.what.padEnd(28)} rg ${base.toFixed(1)} ms · tool with ripgrep ${a.toFixed(1)} ms (${(a / base).toFixed(2)}×, target ≤ 1.2×) · pure Node ${b.toFixed(1)} ms (${(b / base).toFixed(2)}×, target ≤ 4×)\n`,
    )
  }
} finally {
  await rm(root, { recursive: true, force: true })
}
