// The TypeScript sources of every workspace package (`<root>/<scan>/<package>/src/**/*.ts`), in a stable
// order, with the package's name: what the generated catalogs read.
import { readdir, readFile } from 'node:fs/promises'
import { join, sep } from 'node:path'

export interface WorkspaceSource {
  readonly file: string
  /** The package name from its package.json, else `<scan>/<folder>`. */
  readonly pkg: string
  readonly text: string
}

async function packageName(dir: string): Promise<string | undefined> {
  try {
    const json = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { name?: unknown }
    return typeof json.name === 'string' ? json.name : undefined
  } catch {
    return undefined
  }
}

/** Sources whose text passes `keep` (a cheap pre-filter before parsing), packages and files sorted. */
export async function workspaceSources(
  root: string,
  scanRoots: readonly string[],
  keep: (text: string) => boolean,
): Promise<WorkspaceSource[]> {
  const out: WorkspaceSource[] = []
  for (const scan of scanRoots) {
    const base = join(root, scan)
    const packages = await readdir(base, { withFileTypes: true }).catch(() => [])
    for (const entry of packages.filter((e) => e.isDirectory()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const dir = join(base, entry.name)
      const pkg = (await packageName(dir)) ?? `${scan}/${entry.name}`
      const files = await readdir(join(dir, 'src'), { recursive: true }).catch(() => [] as string[])
      for (const name of files
        .filter((f) => f.endsWith('.ts') && !f.split(sep).includes('node_modules'))
        .sort()) {
        const file = join(dir, 'src', name)
        const text = await readFile(file, 'utf8')
        if (keep(text)) out.push({ file, pkg, text })
      }
    }
  }
  return out
}
