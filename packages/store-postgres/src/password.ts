// Where the password comes from (95-fleet.md F1): the URL, else PGPASSWORD, else the password file libpq
// reads (PGPASSFILE, default ~/.pgpass). node-postgres' own password-file support is deprecated (it
// prints a warning on use), so tack reads the file itself, by libpq's documented format: one
// `host:port:database:user:password` entry a line, `*` matching anything, `\:` and `\\` escaping, `#`
// comments, the first matching line winning, and the file ignored when others may read it.
import { readFileSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/** Whom a password is looked up for. */
export interface PasswordTarget {
  readonly host: string
  readonly port: number
  readonly database: string
  readonly user: string
}

/** The password file libpq would read in this environment. */
export function passwordFilePath(env: NodeJS.ProcessEnv = process.env): string {
  return env.PGPASSFILE || join(env.HOME || homedir(), '.pgpass')
}

/**
 * The password for `target` from PGPASSWORD or the password file, or undefined when neither has one
 * (then the server decides: trust or peer authentication need none).
 */
export function lookUpPassword(
  target: PasswordTarget,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (env.PGPASSWORD !== undefined && env.PGPASSWORD !== '') return env.PGPASSWORD
  const file = passwordFilePath(env)
  let text: string
  try {
    // libpq skips a file others can read (the password would be theirs too); so does tack.
    if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) return undefined
    text = readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
  // A socket path counts as `localhost` for matching, as libpq does.
  const host = target.host.startsWith('/') ? 'localhost' : target.host
  const wanted = [host, String(target.port), target.database, target.user]
  for (const line of text.split(/\r?\n/)) {
    if (line === '' || line.startsWith('#')) continue
    const fields = splitEntry(line)
    if (fields.length < 5) continue
    if (wanted.every((value, i) => fields[i] === '*' || fields[i] === value)) return fields[4]
  }
  return undefined
}

/**
 * Why the password file was passed over although it exists — others may read it, which libpq refuses too —
 * for the "no password was given" error, so a person whose ~/.pgpass is mode 644 learns why; else undefined.
 */
export function skippedPasswordFile(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (process.platform === 'win32') return undefined
  const file = passwordFilePath(env)
  try {
    if ((statSync(file).mode & 0o077) !== 0)
      return `the password file ${file} was not read: others may read it (chmod 600 it)`
  } catch {
    // No file: nothing was passed over.
  }
  return undefined
}

/** One line's fields: split on unescaped `:`, with `\x` standing for `x`. */
function splitEntry(line: string): string[] {
  const fields: string[] = []
  let field = ''
  for (let i = 0; i < line.length; i++) {
    const c = line[i]
    if (c === '\\' && i + 1 < line.length) field += line[++i]
    else if (c === ':' && fields.length < 4) {
      fields.push(field)
      field = ''
    } else field += c
  }
  fields.push(field)
  return fields
}
