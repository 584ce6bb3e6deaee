// The folders that hold workspace packages (`packages`, `products`, `apps`), read from the root
// package.json's `workspaces` (`<group>/*` patterns), so a new group is named in one place and the build,
// the pack, the generated catalogs and the doc checks all follow it.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export function workspaceGroups(root: string): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces?: unknown }
  const patterns = Array.isArray(pkg.workspaces) ? pkg.workspaces : []
  return patterns.map((pattern) => {
    const group = typeof pattern === 'string' ? /^([\w-]+)\/\*$/.exec(pattern)?.[1] : undefined
    if (!group)
      throw new Error(`package.json workspaces: expected "<folder>/*", got ${JSON.stringify(pattern)}`)
    return group
  })
}
