// The tree P9 searches (90-quality.md): a source-like tree of `files` files, 50 a folder, 1 in 40 a
// `.d.ts`, 1 in 100 holding LITERAL, plus a `.gitignore`d `node_modules` of 500 `.d.ts` files that
// also hold it — which the tool and rg must both skip, so the ignore rules are part of the work — and
// one `.env` every 40 folders holding it too, for the case with a deny rule over `**/.env*`.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

export const LITERAL = 'needleInTheHaystack'

export async function generateTree(root: string, files: number): Promise<void> {
  await writeFile(join(root, '.gitignore'), 'node_modules/\n*.log\n')
  const body = (i: number) =>
    `// file ${i}\nimport { thing${i % 97} } from './mod${i % 13}'\n${'export const value = compute(input, options) // some ordinary code\n'.repeat(20)}${i % 100 === 7 ? `const marker = '${LITERAL}'\n` : ''}`
  for (let i = 0; i < files; i += 50) {
    const dir = join(root, `pkg${Math.floor(i / 2000)}`, `src${Math.floor(i / 50)}`)
    await mkdir(dir, { recursive: true })
    if ((i / 50) % 40 === 0) await writeFile(join(dir, '.env'), `TOKEN=${LITERAL}\n`)
    await Promise.all(
      Array.from({ length: Math.min(50, files - i) }, (_, k) => {
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
