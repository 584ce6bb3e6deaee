// A vitest reporter that prints line coverage per workspace package, just before the runner's summary.
import { relative, resolve, sep } from 'node:path'
import type { Reporter } from 'vitest/reporters'
import { workspaceGroups } from './lib/workspace-groups.ts'

interface FileCoverage {
  toSummary(): { lines: { total: number; covered: number }; branches: { total: number; covered: number } }
}
interface CoverageMap {
  files(): string[]
  fileCoverageFor(file: string): FileCoverage
}

const ROOT = resolve(import.meta.dirname, '..')
const GROUPS = new Set(workspaceGroups(ROOT))

/** `<group>/<package>` of a file in a workspace package, read below the repository root (whose own path may hold any name). */
function packageFolder(file: string): string | undefined {
  const [group, name] = relative(ROOT, file).split(sep)
  return GROUPS.has(group) && name ? `${group}/${name}` : undefined
}

export default class PackageCoverageReporter implements Reporter {
  onCoverage(coverage: unknown): void {
    const map = coverage as CoverageMap
    const perPackage = new Map<
      string,
      { lines: number; covered: number; branches: number; bcovered: number }
    >()
    for (const file of map.files()) {
      const folder = packageFolder(file)
      if (!folder) continue
      const s = map.fileCoverageFor(file).toSummary()
      const row = perPackage.get(folder) ?? { lines: 0, covered: 0, branches: 0, bcovered: 0 }
      row.lines += s.lines.total
      row.covered += s.lines.covered
      row.branches += s.branches.total
      row.bcovered += s.branches.covered
      perPackage.set(folder, row)
    }
    const pct = (a: number, b: number) => (b === 0 ? '  n/a' : `${((100 * a) / b).toFixed(1).padStart(5)}%`)
    const lines = ['', 'Coverage per package (lines · branches)']
    for (const [name, r] of [...perPackage].sort(([a], [b]) => (a < b ? -1 : 1))) {
      lines.push(`  ${name.padEnd(28)} ${pct(r.covered, r.lines)}  ${pct(r.bcovered, r.branches)}`)
    }
    process.stdout.write(lines.join('\n') + '\n')
  }
}
