// R26: the shipped JSON Schemas, compiled once, and a check of one written file against them.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import Ajv2020 from 'ajv/dist/2020.js'

const dir = join(import.meta.dirname, '..', '..', 'schema')
const ajv = new Ajv2020({ allErrors: true, strict: false })
const snapshot = ajv.compile(JSON.parse(readFileSync(join(dir, 'snapshot.v1.json'), 'utf8')))
const logLine = ajv.compile(JSON.parse(readFileSync(join(dir, 'log-line.v1.json'), 'utf8')))

/** Problems with one file the mod wrote, by its name: `[]` when it validates. */
export function validateFile(name: string, text: string): string[] {
  if (name.endsWith('.tmp')) return [`${name}: a temporary file was left behind`]
  const isSnapshot = name.endsWith('.json')
  const lines = text.split('\n')
  if (lines.at(-1) !== '') return [`${name}: does not end in a newline`]
  if (isSnapshot && lines.length !== 2) return [`${name}: a snapshot is one line`]
  const problems: string[] = []
  for (const line of lines.slice(0, -1)) {
    const check = isSnapshot ? snapshot : logLine
    if (!check(JSON.parse(line))) problems.push(`${name}: ${ajv.errorsText(check.errors)} in ${line}`)
  }
  return problems
}
