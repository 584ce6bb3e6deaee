// `$TACK_HOME/.env`: KEY=value lines (optional `export `, quotes stripped, `#` comments). Values fill only
// variables the environment does not already set, so the shell always wins.
import { readFileSync } from 'node:fs'

export function readEnvFile(path: string): Record<string, string> {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    return {}
  }
  const out: Record<string, string> = {}
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (!line || line.startsWith('#')) continue
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line)
    if (!m) continue
    let value = m[2]
    if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) {
      value = value.slice(1, -1)
    }
    out[m[1]] = value
  }
  return out
}

/** The process environment with the env file's values added underneath. */
export function withEnvFile(env: NodeJS.ProcessEnv, path: string): NodeJS.ProcessEnv {
  return { ...readEnvFile(path), ...env }
}
